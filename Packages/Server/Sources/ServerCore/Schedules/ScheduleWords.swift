import Foundation
import Models
import ServerStore

/// A schedule as people read it: its rule and window in words, and its next
/// three windows in its zone ("Tue 12 Jan 2027 07:00-11:00").
struct ScheduleWords: Sendable {
    var rule: String
    var next: [String]

    init(_ schedule: StoredSchedule, after now: Date) {
        guard let checked = try? ScheduleRule(schedule) else {
            rule = "\(schedule.rule) (unreadable now)"
            next = []
            return
        }
        rule = checked.words
        guard schedule.pausedAt == nil, let zone = TimeZone(identifier: schedule.zone) else {
            next = []
            return
        }
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_GB_POSIX")
        day.timeZone = zone
        day.dateFormat = "EEE d MMM yyyy HH:mm"
        let time = DateFormatter()
        time.locale = day.locale
        time.timeZone = zone
        time.dateFormat = "HH:mm"
        next = checked.calendar.next(3, after: now).map { "\(day.string(from: $0.start))-\(time.string(from: $0.end))" }
    }
}
