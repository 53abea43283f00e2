import Foundation
import Models
import Testing
import TestSupport

/// Two instances on one PostgreSQL database making the horizon of the same
/// schedules at once, as behind a load balancer: every visit made once.
@Suite("Schedules on PostgreSQL: two instances make each visit once", .serialized, .timeLimit(.minutes(4)))
struct SchedulePostgresTests {
    @Test("two instances started together on 250 daily schedules make their 2,500 visits, each exactly once")
    func twoInstances() async throws {
        // Programs run and polls block: on a thread of its own, off the tests' shared ones.
        try await OwnThread.run { try Self.makeTogether() }
    }

    static func makeTogether() throws {
        let url = try ServerDatabases.freshPostgres()
        // The first start makes the database (the demo's people, forms and sites); then the schedules.
        let first = try ServerProcess(["--demo"], database: url)
        first.stop()
        let inspector = try ServerDatabases.query(url, "SELECT id FROM users WHERE username = 'inspector'")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let start = formatter.string(from: Date().addingTimeInterval(86_400))
        let end = formatter.string(from: Date().addingTimeInterval(10 * 86_400))
        let now = RFC3339.string(Date())
        try ServerDatabases.query(
            url,
            """
            INSERT INTO schedules (id, template_id, facility_id, area_ids, inspector_ids, rule, time_window, zone,
                start_date, end_date, paused_at, version, made_until, made_count, created_at, updated_at)
            SELECT 'SCH-' || g, 'lobby-walk', 'F-200', '["A-201"]', '["\(inspector)"]', 'FREQ=DAILY', '07:00-11:00',
                'UTC', '\(start)', '\(end)', NULL, 1, NULL, 0, '\(now)', '\(now)'
            FROM generate_series(1, 250) g
            """)
        // Both start making at once.
        let one = try ServerProcess([], database: url)
        let two = try ServerProcess([], database: url)
        defer {
            one.stop()
            two.stop()
        }
        let deadline = Date().addingTimeInterval(120)
        var made = ""
        while Date() < deadline {
            made = try ServerDatabases.query(url, "SELECT COUNT(*) FROM assignments WHERE schedule_id IS NOT NULL")
            if made == "2500" { break }
            usleep(250_000)
        }
        #expect(made == "2500")
        #expect(
            try ServerDatabases.query(
                url, "SELECT COUNT(DISTINCT (schedule_id, window_start)) FROM assignments WHERE schedule_id IS NOT NULL"
            )
                == "2500")
        #expect(try ServerDatabases.query(url, "SELECT COUNT(*) FROM schedules WHERE made_count <> 10") == "0")
    }
}
