import Foundation
import Models
import Testing
import TestSupport

/// Schedules made, changed, paused and removed with `jqc-server admin` and
/// the management API: their visits reach devices as assignments, each once,
/// and every change shows on devices through the assignments cursor (both stores).
@Suite("Schedules: visits made ahead as assignments, changed and cancelled", .timeLimit(.minutes(3)))
struct ScheduleTests {
    static func admin(_ server: ServerProcess, _ words: [String], stdin: String? = nil) throws -> ProcessOutcome {
        try Programs.run("jqc-server", ["admin", "--db", server.databasePath] + words, stdin: stdin)
    }

    /// `admin ... --json`, required to succeed, parsed.
    static func adminJSON(_ server: ServerProcess, _ words: [String]) throws -> JSONValue {
        let outcome = try admin(server, words + ["--json"])
        try #require(outcome.status == 0, "admin \(words.joined(separator: " ")): \(outcome.stderr)")
        return try JSONValue.parse(Data(outcome.stdout.utf8))
    }

    /// A local day `days` from today (UTC), `YYYY-MM-DD`.
    static func day(_ days: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(Double(days) * 86_400))
    }

    /// The assignments (visits) of schedule `id`, from `admin assignment list`.
    static func visits(_ server: ServerProcess, of id: String) throws -> [JSONValue] {
        try adminJSON(server, ["assignment", "list"])["assignments"]?.arrayValue?.filter {
            ($0["id"]?.stringValue ?? "").hasPrefix(id + "-")
        } ?? []
    }

    @Test(
        "schedule add makes the horizon's visits, one an area a day, due at the window's end; list says the rule in words and the next windows"
    )
    func addAndList() async throws {
        let server = try ServerProcess()
        let added = try Self.adminJSON(
            server,
            [
                "schedule", "add", "--template", "101", "--facility", "F-100", "--area", "A-101", "--area", "A-102",
                "--inspector", "inspector", "--rrule", "FREQ=DAILY", "--window", "07:00-11:00", "--start",
                Self.day(1), "--end", Self.day(7), "--zone", "UTC", "--id", "SCH-washrooms",
            ])
        #expect(added["visits_made"]?.integerValue == 14)
        let visits = try Self.visits(server, of: "SCH-washrooms")
        #expect(visits.count == 14)
        let first = Self.day(1).replacingOccurrences(of: "-", with: "")
        let firstTwo = visits.filter { ($0["id"]?.stringValue ?? "").contains("-\(first)-") }
        #expect(
            Set(firstTwo.compactMap { $0["id"]?.stringValue }) == [
                "SCH-washrooms-v1-\(first)-1", "SCH-washrooms-v1-\(first)-2",
            ])
        #expect(Set(firstTwo.compactMap { $0["area_id"]?.stringValue }) == ["A-101", "A-102"])
        #expect(firstTwo.allSatisfy { $0["due_at"]?.stringValue == "\(Self.day(1))T11:00:00Z" })
        // The inspector's device gets them as any assignment.
        let inspector = try await Session.inspector(server)
        let listed = try await inspector.get("/assignments")
        let ids = Set(listed.data["assignments"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        #expect(ids.isSuperset(of: Set(visits.compactMap { $0["id"]?.stringValue })))
        // Made again (another pass, another process): nothing new.
        let again = try Self.adminJSON(server, ["schedule", "resume", "SCH-washrooms"])
        #expect(again["visits_made"]?.integerValue == 0 || again["visits_made"] == nil)
        #expect(try Self.visits(server, of: "SCH-washrooms").count == 14)
        let list = try Self.admin(server, ["schedule", "list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("every day, 07:00-11:00"), "\(list.stdout)")
        let json = try Self.adminJSON(server, ["schedule", "list"])["schedules"]?.arrayValue?.first
        #expect(json?["next"]?.arrayValue?.count == 3)
        #expect(json?["words"]?.stringValue == "every day, 07:00-11:00, until \(Self.day(7))")
    }

    @Test(
        "a bad rule, window, zone, inspector or a schedule that never occurs is refused in one line (exit 4) and nothing is stored"
    )
    func refusals() throws {
        let server = try ServerProcess()
        let base = [
            "schedule", "add", "--template", "101", "--facility", "F-100", "--inspector", "inspector", "--start",
            Self.day(1),
        ]
        for (extra, words) in [
            (["--rrule", "FREQ=YEARLY", "--window", "07:00-11:00"], "FREQ=YEARLY is not supported"),
            (["--rrule", "FREQ=WEEKLY;BYDAY=2TU", "--window", "07:00-11:00"], "needs FREQ=MONTHLY"),
            (["--rrule", "FREQ=DAILY", "--window", "11:00-07:00"], "does not end after it starts"),
            (["--rrule", "FREQ=DAILY", "--window", "07:00-11:00", "--zone", "Mars/Olympus"], "Mars/Olympus"),
            (["--rrule", "FREQ=DAILY;UNTIL=20200101", "--window", "07:00-11:00"], "never fall due"),
            (["--rrule", "FREQ=DAILY", "--window", "07:00-11:00", "--end", "2020-01-01"], "before it starts"),
            (["--rrule", "FREQ=DAILY", "--window", "07:00-11:00", "--area", "A-201"], "not an area of facility"),
        ] {
            let refused = try Self.admin(server, base + extra)
            #expect(refused.status == 4, "\(extra): \(refused.status) \(refused.stderr)")
            #expect(refused.stderr.contains(words), "\(extra): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        }
        let supervisor = try Self.admin(
            server, base + ["--rrule", "FREQ=DAILY", "--window", "07:00-11:00", "--inspector", "supervisor"])
        #expect(supervisor.status == 4, "\(supervisor.stderr)")
        #expect(try Self.adminJSON(server, ["schedule", "list"])["schedules"]?.arrayValue?.isEmpty == true)
        #expect(
            try Self.adminJSON(server, ["assignment", "list"])["assignments"]?.arrayValue?.contains {
                ($0["id"]?.stringValue ?? "").hasPrefix("SCH-")
            } == false)
    }

    @Test(
        "update, pause, resume and remove: visits not begun are cancelled and made anew, inspectors take turns, and devices see each change"
    )
    func changes() async throws {
        let server = try ServerProcess()
        let ben = try Self.admin(server, ["user", "add", "ben", "--role", "inspector"], stdin: "ben-password-1\n")
        try #require(ben.status == 0, "\(ben.stderr)")
        _ = try Self.adminJSON(
            server,
            [
                "schedule", "add", "--id", "SCH-lobby", "--template", "lobby-walk", "--facility", "F-100", "--area",
                "A-102", "--inspector", "inspector", "--inspector", "ben", "--rrule", "FREQ=DAILY", "--window",
                "07:00-11:00", "--start", Self.day(2), "--end", Self.day(5), "--zone", "UTC",
            ])
        let first = try Self.visits(server, of: "SCH-lobby")
        #expect(first.count == 4)
        // Turns: the inspector, ben, the inspector, ben.
        let benID = try #require(
            try Self.adminJSON(server, ["user", "list"])["users"]?.arrayValue?.first {
                $0["username"]?.stringValue == "ben"
            }?["id"]?.stringValue)
        let turns = first.sorted { ($0["due_at"]?.stringValue ?? "") < ($1["due_at"]?.stringValue ?? "") }
            .map { $0["inspector_id"]?.stringValue == benID }
        #expect(turns == [false, true, false, true])
        let inspector = try await Session.inspector(server)
        let cursor = try #require(try await inspector.get("/assignments").data["cursor"]?.stringValue)

        let changed = try Self.adminJSON(server, ["schedule", "update", "SCH-lobby", "--window", "08:00-12:00"])
        #expect(changed["schedule"]?["version"]?.integerValue == 2)
        #expect(changed["visits_made"]?.integerValue == 4)
        let afterChange = try Self.visits(server, of: "SCH-lobby")
        #expect(afterChange.filter { $0["state"]?.stringValue == "cancelled" }.count == 4)
        let open = afterChange.filter { $0["state"]?.stringValue == "open" }
        #expect(open.count == 4)
        #expect(open.allSatisfy { ($0["id"]?.stringValue ?? "").hasPrefix("SCH-lobby-v2-") })
        #expect(open.allSatisfy { ($0["due_at"]?.stringValue ?? "").hasSuffix("T12:00:00Z") })
        // The inspector's device: its two old visits closed, its two new ones open.
        let since = try await inspector.get("/assignments?since=\(cursor)")
        let seen = since.data["assignments"]?.arrayValue ?? []
        #expect(seen.filter { $0["status"]?.stringValue == "closed" }.count == 2, "\(seen)")
        #expect(seen.filter { $0["status"]?.stringValue == "open" }.count == 2, "\(seen)")

        let paused = try Self.adminJSON(server, ["schedule", "pause", "SCH-lobby"])
        #expect(paused["schedule"]?["paused_at"]?.stringValue != nil)
        #expect(try Self.visits(server, of: "SCH-lobby").allSatisfy { $0["state"]?.stringValue == "cancelled" })
        let resumed = try Self.adminJSON(server, ["schedule", "resume", "SCH-lobby"])
        #expect(resumed["visits_made"]?.integerValue == 4)
        let removed = try Self.adminJSON(server, ["schedule", "remove", "SCH-lobby"])
        #expect(removed["visits_cancelled"]?.integerValue == 4)
        #expect(try Self.visits(server, of: "SCH-lobby").allSatisfy { $0["state"]?.stringValue == "cancelled" })
        #expect(try Self.adminJSON(server, ["schedule", "list"])["schedules"]?.arrayValue?.isEmpty == true)
    }

    @Test("the management API adds, lists, pauses and removes schedules; an inspector is refused with 403")
    func managementAPI() async throws {
        let server = try ServerProcess(["--demo"]) { db in
            let added = try Programs.run(
                "jqc-server", ["admin", "--db", db, "user", "add", "ada", "--role", "admin"],
                stdin: "ada-admin-password\n")
            guard added.status == 0 else { throw ServerLaunchError(message: "user add: \(added.stderr)") }
        }
        let admin = try await AdministrationContractTests.admin(server)
        let fields: [String: JSONValue] = [
            "id": "SCH-api", "template_id": "101", "facility_id": "F-100", "area_ids": ["A-101"],
            "inspectors": ["inspector"], "rrule": "FREQ=MONTHLY;BYDAY=2TU,4TU", "window": "07:00-11:00",
            "start": .string(Self.day(0)), "zone": "Europe/London",
        ]
        let created = try await admin.post("/admin/schedules", .object(fields))
        #expect(created.status == 201, "\(created.status) \(created.message)")
        #expect((created.data["visits_made"]?.integerValue ?? -1) >= 0)
        let listed = try await admin.get("/admin/schedules")
        let first = listed.data["schedules"]?.arrayValue?.first
        #expect(first?["words"]?.stringValue == "every 2nd and 4th Tuesday, 07:00-11:00")
        #expect(first?["next"]?.arrayValue?.count == 3)
        let bad = try await admin.post(
            "/admin/schedules", .object(fields.merging(["id": "SCH-bad", "rrule": "FREQ=HOURLY"]) { _, new in new }))
        #expect(bad.status == 400)
        #expect(bad.message.contains("FREQ=HOURLY"), "\(bad.message)")
        let paused = try await admin.patch("/admin/schedules/SCH-api", ["paused": true])
        #expect(paused.status == 200)
        #expect(paused.data["schedule"]?["paused_at"]?.stringValue != nil)
        let mixed = try await admin.patch("/admin/schedules/SCH-api", ["paused": false, "window": "08:00-09:00"])
        #expect(mixed.status == 400)
        let removed = try await admin.client.send(
            "DELETE", server.url("/admin/schedules/SCH-api"), token: admin.accessToken)
        #expect(removed.status == 200)
        let gone = try await admin.client.send(
            "DELETE", server.url("/admin/schedules/SCH-api"), token: admin.accessToken)
        #expect(gone.status == 404)
        let inspector = try await Session.inspector(server)
        #expect(try await inspector.get("/admin/schedules").status == 403)
    }
}
