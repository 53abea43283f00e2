import Foundation
import Models
import Schedules
import ServerStore

/// A stored schedule's calendar, checked: its rule, window, days and zone
/// as the Schedules package reads them. Anything it refuses is a 400 that
/// names what is wrong (exit 4 at `jqc-server admin`).
struct ScheduleRule: Sendable {
    let calendar: ScheduleCalendar

    init(_ schedule: StoredSchedule) throws(ServerError) {
        do throws(ScheduleError) {
            calendar = try ScheduleCalendar(
                rule: try Recurrence(schedule.rule), window: try TimeWindow(schedule.window),
                start: try LocalDate(schedule.startDate), end: try schedule.endDate.map(LocalDate.init),
                zone: schedule.zone)
        } catch {
            throw ServerError.badRequest(error.message)
        }
    }

    /// The rule and window in words: "every 2nd and 4th Tuesday, 07:00-11:00".
    var words: String { calendar.words }

    /// The visits of `schedule` to make: those whose window starts at or
    /// after `from` (or, when none is made yet, ends after it) and before
    /// `until`, and how many occurrences they are: each area of each occurrence one visit, given to the
    /// schedule's inspectors in turn from its `madeCount`.
    static func visits(of schedule: StoredSchedule, calendar: ScheduleCalendar, from: Date, until: Date)
        -> (visits: [ScheduledVisit], occurrences: Int)
    {
        guard !schedule.inspectorIDs.isEmpty, until > from else { return ([], 0) }
        let occurrences = calendar.occurrences(from: from, to: until, limit: 10_000).filter { occurrence in
            schedule.madeUntil == nil || occurrence.start >= from
        }
        let areas: [String?] = schedule.areaIDs.isEmpty ? [nil] : schedule.areaIDs
        var visits: [ScheduledVisit] = []
        for (offset, occurrence) in occurrences.enumerated() {
            let inspector = schedule.inspectorIDs[(schedule.madeCount + offset) % schedule.inspectorIDs.count]
            for (index, area) in areas.enumerated() {
                visits.append(
                    ScheduledVisit(
                        id: visitID(schedule, day: occurrence.day, area: areas.count > 1 ? index + 1 : nil),
                        scheduleID: schedule.id, templateID: schedule.templateID, facilityID: schedule.facilityID,
                        areaID: area, inspectorID: inspector, windowStart: RFC3339.string(occurrence.start),
                        windowEnd: RFC3339.string(occurrence.end)))
            }
        }
        return (visits, occurrences.count)
    }

    /// A visit's id: the schedule's, its version and the local day (and the
    /// area's place when there are several), so two instances making the same
    /// visit make one id, and a changed schedule's visits never reuse the ids
    /// of those it cancelled.
    static func visitID(_ schedule: StoredSchedule, day: LocalDate, area: Int?) -> String {
        let compact = day.description.replacingOccurrences(of: "-", with: "")
        return "\(schedule.id)-v\(schedule.version)-\(compact)" + (area.map { "-\($0)" } ?? "")
    }
}
