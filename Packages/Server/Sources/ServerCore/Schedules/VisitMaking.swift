import Foundation
import Models
import ServerHTTP
import ServerStore

/// Makes the visits of running schedules ahead, over the horizon: a
/// schedule is taken once its visits are made less than a day beyond
/// `horizonDays` from now, and made up to the full horizon. Any number of
/// instances (and `jqc-server admin`) may make visits at once: each takes
/// schedules in batches the others do not hold, and a visit's id is unique.
struct VisitMaking: Sendable {
    let store: any ServerStorage
    let horizonDays: Int
    /// Schedules made in one transaction.
    static let batch = 100

    /// Makes every visit due to be made now; how many were new.
    func pass(now: Date, log: ServerLog? = nil) throws(ServerError) -> Int {
        let horizon = now.addingTimeInterval(Double(horizonDays) * 86_400)
        let behind = RFC3339.string(horizon.addingTimeInterval(-86_400))
        var made = 0
        // Bounded: a batch takes only schedules behind, and moves each beyond `behind`.
        for _ in 0..<100_000 {
            let (new, taken) = try store.write { session in
                let schedules = try session.schedulesToMake(horizon: behind, limit: Self.batch)
                var visits: [ScheduledVisit] = []
                for schedule in schedules {
                    visits += try Self.visits(of: schedule, until: horizon, in: session, log: log)
                }
                return (try session.insertVisits(visits), schedules.count)
            }
            made += new
            if taken < Self.batch { break }
        }
        return made
    }

    /// The visits of one schedule up to `until`, its progress recorded.
    private static func visits(
        of schedule: StoredSchedule, until: Date, in session: any StorageSession, log: ServerLog?
    )
        throws(ServerError) -> [ScheduledVisit]
    {
        let rule: ScheduleRule
        do throws(ServerError) {
            rule = try ScheduleRule(schedule)
        } catch {
            // Checked when saved; a zone the system no longer knows makes nothing, said once a day.
            log?.note("schedule \(schedule.id) makes no visits: \(error.message)", level: .warn)
            try session.setScheduleMade(id: schedule.id, until: RFC3339.string(until), count: schedule.madeCount)
            return []
        }
        let from = schedule.madeUntil.flatMap(RFC3339.date) ?? RFC3339.date(schedule.updatedAt) ?? until
        let (visits, occurrences) = ScheduleRule.visits(of: schedule, calendar: rule.calendar, from: from, until: until)
        try session.setScheduleMade(
            id: schedule.id, until: RFC3339.string(until), count: schedule.madeCount + occurrences)
        return visits
    }
}
