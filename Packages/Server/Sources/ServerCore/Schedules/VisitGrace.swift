import Foundation
import ServerStore

/// How long after its window a visit with no inspection is missed: an
/// organisation's setting (`admin settings set visit-grace HOURS`), 2 hours
/// until set, so every instance, page, CSV and alert counts alike.
enum VisitGrace {
    static let settingKey = "schedules.visit_grace_hours"
    static let defaultHours = 2

    /// The grace in seconds, as stored.
    static func current(in session: any StorageSession) throws(ServerError) -> TimeInterval {
        let hours = try session.setting(settingKey).flatMap { Int($0) } ?? defaultHours
        return TimeInterval(hours) * 3600
    }

    /// Whole hours from 0 to 168 (a week), or a 400 naming the range.
    static func hours(_ text: String) throws(ServerError) -> Int {
        guard let hours = Int(text.trimmingCharacters(in: .whitespaces)), (0...168).contains(hours) else {
            throw ServerError.badRequest("visit-grace is whole hours from 0 to 168, not '\(text.prefix(20))'")
        }
        return hours
    }
}
