import Foundation
import Models
import Testing
import TestSupport

/// Roll-ups (F22): the organisation's time zone decides which month a
/// report falls in; the figures of `report rollup` and of the console equal
/// a plain SQL computation of the same numbers on the database.
@Suite("Roll-ups of scores, passes and deficiencies")
struct RollupTests {
    /// 23:30 UTC on 30 November: already 1 December in Paris.
    static let lateNovember = Date(timeIntervalSince1970: 1_796_081_400)

    static func admin(_ db: String, _ arguments: [String]) throws -> ProcessOutcome {
        try Programs.run("jqc-server", ["admin", "--db", db] + arguments)
    }

    static func rollup(_ db: String, _ arguments: [String]) throws -> ProcessOutcome {
        try Programs.run("jqc-server", ["report", "rollup", "--db", db] + arguments)
    }

    /// The CSV's rows (header first), split on commas (the test's names hold none).
    static func rows(_ csv: String) -> [[String]] {
        csv.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test(
        "a report received at 23:30 UTC on 30 November counts in December in Paris; by site, area type and item the figures equal plain SQL"
    )
    func rollups() async throws {
        #expect(RFC3339.string(Self.lateNovember) == "2026-11-30T23:30:00Z")
        let template = Fixtures.url("templates/appa-five-level.json").path
        let server = try ServerProcess(["--demo"], clock: DeviceClock(start: Self.lateNovember)) { db in
            for arguments in [["template", "publish", template], ["settings", "set", "timezone", "Europe/Paris"]] {
                let done = try Self.admin(db, arguments)
                guard done.status == 0 else { throw ServerLaunchError(message: "\(arguments): \(done.stderr)") }
            }
        }
        defer { _ = server.stop() }
        let db = server.databasePath
        let inspector = try await Session.inspector(server)
        let sent: [(String, String?, [String: JSONValue])] = [
            ("F-100", "A-101", ["floors": 1, "restrooms": 2, "trash": 1, "sharps": "pass"]),
            ("F-100", "A-102", ["floors": 3, "restrooms": 3, "trash": 2, "sharps": "pass"]),
            ("F-100", "A-101", ["floors": 1, "restrooms": 1, "trash": 1, "sharps": "fail"]),
            ("F-200", "A-202", ["floors": 2, "restrooms": 4, "trash": 1, "sharps": "pass"]),
        ]
        for (site, area, answers) in sent {
            var report: [String: JSONValue] = [
                "local_id": .string(UUID().uuidString.lowercased()), "template_id": "appa-five-level",
                "facility_id": .string(site),
                "payload": ["answers": .object(answers), "score": 1, "follow_up_required": false], "issues": [],
            ]
            if let area { report["area_id"] = .string(area) }
            let result = try await inspector.syncOne(.object(report))
            try #require(result["status"] == "ACCEPTED", "\(result)")
        }
        _ = try await inspector.syncOne(Reports.lobby())

        let november = try Self.rollup(db, ["--by", "site", "--month", "2026-11"])
        #expect(november.status == 0, "\(november.stderr)")
        #expect(november.stdout.contains("no reports were received in 2026-11"), "\(november.stdout)")

        let bySite = try Self.rollup(db, ["--by", "site", "--month", "2026-12", "--format", "csv"])
        #expect(bySite.status == 0, "\(bySite.stderr)")
        let rows = Self.rows(bySite.stdout)
        #expect(
            rows.first
                == [
                    "period", "id", "name", "inspections", "scored", "average_score", "graded", "passed", "pass_rate",
                    "deficiencies", "deficiencies_per_inspection",
                ])
        // The same numbers from the database by plain SQL, Paris's December in UTC.
        let plain = try ServerDatabases.query(
            db,
            """
            SELECT facility_id, COUNT(*), ROUND(AVG(score) * 10000), COUNT(passed),
                SUM(CASE WHEN passed THEN 1 ELSE 0 END), SUM(deficiency_count)
            FROM reports WHERE accepted_at >= '2026-11-30T23:00:00Z' AND accepted_at < '2026-12-31T23:00:00Z'
            GROUP BY facility_id ORDER BY facility_id
            """)
        let expected = plain.split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        #expect(expected.count == 2, "\(plain)")
        for line in expected {
            let row = try #require(rows.first { $0.count > 1 && $0[1] == line[0] }, "\(line[0]) in \(rows)")
            #expect(row[0] == "2026-12")
            #expect(row[3] == line[1], "inspections of \(line[0])")
            #expect(
                Double(row[5]).map { Int(($0 * 10000).rounded()) } == Int(Double(line[2]) ?? -1),
                "average of \(line[0])")
            #expect(row[6] == line[3] && row[7] == line[4], "graded and passed of \(line[0])")
            #expect(row[9] == line[5], "deficiencies of \(line[0])")
        }
        // F-100: the APPA pass, the fail below the mark, the critical fail and the lobby report (no pass mark).
        let harbour = try #require(rows.first { $0.count > 1 && $0[1] == "F-100" })
        #expect(harbour[3] == "4" && harbour[6] == "3" && harbour[7] == "1" && harbour[8] == "0.3333", "\(harbour)")

        let byItem = try Self.rollup(
            db, ["--by", "item", "--month", "2026-12", "--format", "csv", "--facility", "F-100"])
        let items = Self.rows(byItem.stdout)
        #expect(items.first?.prefix(5) == ["period", "template_id", "template", "field_id", "field"])
        let plainItems = try ServerDatabases.query(
            db,
            """
            SELECT field_id, COUNT(*) FROM report_deficiencies WHERE facility_id = 'F-100'
            AND accepted_at >= '2026-11-30T23:00:00Z' GROUP BY field_id ORDER BY field_id
            """)
        for line in plainItems.split(separator: "\n").map({ $0.split(separator: "|").map(String.init) }) {
            let row = try #require(items.first { $0.count > 4 && $0[3] == line[0] }, "\(line) in \(items)")
            #expect(row[6] == line[1] && row[5] == "3", "\(row)")
        }
        #expect(Set(items.dropFirst().map { $0[3] }) == ["floors", "restrooms", "sharps"])

        let byType = try Self.rollup(db, ["--by", "area-type", "--month", "2026-12", "--format", "csv"])
        let types = Self.rows(byType.stdout).dropFirst()
        #expect(Set(types.map { $0[1] }) == ["washroom", "lobby"], "\(types)")
        #expect(types.map { Int($0[3]) ?? 0 }.reduce(0, +) == 5)

        let browser = ConsoleClient(server)
        try browser.signIn("supervisor", "supervisor-pass")
        let page = try browser.get("/console/rollups?by=site&month=2026-12").text
        #expect(
            page.contains("<tr data-key=\"F-100\"><td>Harbourview Office Tower</td><td class=\"num\">4</td>"), "\(page)"
        )
        #expect(page.contains("times in Europe/Paris"))
        let csv = try browser.get("/console/rollups/csv?by=site&month=2026-12")
        #expect(csv.status == 200)
        #expect(csv.text == bySite.stdout, "the console's CSV is the command's")
        #expect(try browser.get("/console/rollups?by=colour").status == 400)
        let site = try browser.get("/console/sites/F-100").text
        #expect(site.contains("<text class=\"axis date\""), "the trend names its dates")
        #expect(site.contains("Items that fail most"))
    }

    @Test("the organisation's time zone must be in the system's zone database; settings list shows it")
    func timeZoneSetting() throws {
        let folder = TemporaryDirectory(prefix: "rollup-zone")
        let db = folder.path("org.db")
        let refused = try Self.admin(db, ["settings", "set", "timezone", "Mars/Olympus_Mons"])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("is not a time zone of this system's zone database"), "\(refused.stderr)")
        #expect(try Self.admin(db, ["settings", "set", "timezone", "../../etc/passwd"]).status == 4)
        let set = try Self.admin(db, ["settings", "set", "timezone", "America/New_York"])
        #expect(set.status == 0, "\(set.stderr)")
        let list = try Self.admin(db, ["settings", "list"])
        #expect(
            list.stdout.range(of: #"timezone +America/New_York"#, options: .regularExpression) != nil, "\(list.stdout)")
        #expect(list.stdout.range(of: #"org-name +\(not set\)"#, options: .regularExpression) != nil, "\(list.stdout)")
    }
}
