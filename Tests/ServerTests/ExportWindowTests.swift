import Foundation
import Models
import Testing
import TestSupport

/// Contract 1.2's narrowing of an export (both stores): `from` and `to` on
/// `completed_at`, a date read in the organisation's time zone, with
/// `facility_id`; and a parameter a route does not know refused, so a
/// mistyped filter never exports everything.
@Suite("Exports narrowed to a window and a site (contract 1.2)", .timeLimit(.minutes(3)))
struct ExportWindowTests {
    /// Five reports: name, site, area, and when the server received each (their
    /// `completed_at`, set in the database as a server running then would have).
    static let placed: [(name: String, site: String, area: String, at: String)] = [
        ("mid-november", "F-100", "A-102", "2026-11-15T12:00:00Z"),
        ("last-evening", "F-100", "A-102", "2026-11-30T23:30:00Z"),
        ("first-midnight", "F-100", "A-102", "2026-12-01T00:00:00Z"),
        ("other-site", "F-200", "A-201", "2026-11-20T08:00:00Z"),
        ("december", "F-100", "A-101", "2026-12-10T09:00:00Z"),
    ]

    /// A server holding the five reports; their server ids by name.
    static func seeded() async throws -> (ServerProcess, Session, [String: String]) {
        let server = try ServerProcess(["--demo"])
        let inspector = try await Session.inspector(server)
        var ids: [String: String] = [:]
        for report in placed {
            let sent = Reports.lobby().setting("facility_id", .string(report.site)).setting(
                "area_id", .string(report.area))
            let serverID = try await ExportContractTests.accepted(inspector, sent)
            ids[report.name] = serverID
            try ServerDatabases.query(
                server.databasePath, "UPDATE reports SET accepted_at = '\(report.at)' WHERE server_id = '\(serverID)'")
        }
        return (server, try await Session.supervisor(server), ids)
    }

    /// The names of the reports an export of `query` holds, in its order.
    static func names(_ session: Session, _ query: String, _ ids: [String: String]) async throws -> [String] {
        let export = try await ExportContractTests.export(session, query)
        let byID = Dictionary(uniqueKeysWithValues: ids.map { ($0.value, $0.key) })
        return export.serverIDs.map { byID[$0] ?? $0 }
    }

    @Test(
        "from, to and facility_id return exactly the reports of that window and site; to is excluded; an offset is applied"
    )
    func windowAndSite() async throws {
        let (_, supervisor, ids) = try await Self.seeded()
        #expect(
            try await Self.names(
                supervisor, "from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z&facility_id=F-100", ids)
                == ["mid-november", "last-evening"])
        #expect(
            try await Self.names(supervisor, "from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z", ids)
                == ["mid-november", "last-evening", "other-site"])
        #expect(
            try await Self.names(supervisor, "from=2026-12-01T01:00:00%2B01:00", ids) == [
                "first-midnight", "december",
            ],
            "01:00 at +01:00 is midnight UTC, and from is included")
        #expect(try await Self.names(supervisor, "to=2026-11-20T08:00:00Z", ids) == ["mid-november"])
        #expect(try await Self.names(supervisor, "facility_id=F-200&from=2026-11-21", ids).isEmpty)
        // The window narrows the CSV alike.
        let csv = try await supervisor.get(
            "/exports/reports?format=csv&template_id=lobby-walk&facility_id=F-100&from=2026-12-01&to=2026-12-02")
        let rows = String(decoding: csv.body, as: UTF8.self).components(separatedBy: "\r\n").dropFirst()
        #expect(rows.compactMap { CSVCells.parse($0).first }.filter { !$0.isEmpty } == [ids["first-midnight"]])
    }

    @Test("a date is the start of that day in the organisation's time zone, for from and for to")
    func datesInTheOrganisationsZone() async throws {
        let (server, supervisor, ids) = try await Self.seeded()
        #expect(try await Self.names(supervisor, "from=2026-12-01", ids) == ["first-midnight", "december"])
        let set = try Programs.run(
            "jqc-server",
            ["admin", "--db", server.databasePath, "settings", "set", "timezone", "Pacific/Auckland"])
        try #require(set.status == 0, "\(set.stderr)")
        // 1 December begins at 11:00 UTC on 30 November in Auckland (UTC+13 in summer).
        #expect(
            try await Self.names(supervisor, "from=2026-12-01", ids) == ["last-evening", "first-midnight", "december"])
        #expect(try await Self.names(supervisor, "to=2026-12-01", ids) == ["mid-november", "other-site"])
        #expect(try await Self.names(supervisor, "from=2026-11-30&to=2026-12-01", ids).isEmpty)
    }

    @Test(
        "a parameter the route does not know is 400 naming it, on the reports, issues and actions exports; a bad window is 400"
    )
    func unknownParametersAndBadWindows() async throws {
        let server = try ServerProcess(["--demo"])
        let supervisor = try await Session.supervisor(server)
        _ = try await ExportContractTests.accepted(try await Session.inspector(server), Reports.lobby())
        for path in [
            "/exports/reports?frm=2026-12-01", "/exports/reports?format=csv&template_id=lobby-walk&frm=2026-12-01",
            "/exports/issues?frm=2026-12-01", "/exports/actions?frm=2026-12-01",
        ] {
            let refused = try await supervisor.get(path)
            #expect(refused.status == 400, "\(path)")
            #expect(refused.code == "BAD_REQUEST" && refused.json["ok"] == false, "\(path): an envelope, not a stream")
            #expect(refused.message.hasPrefix("unknown parameter 'frm'"), "\(path): \(refused.message)")
        }
        #expect(try await supervisor.get("/exports/reports?frm=").status == 400, "even empty")
        for query in [
            "from=yesterday", "to=2026-13-01", "from=2026-12-01&to=2026-11-01", "from=2026-12-01&to=2026-12-01",
        ] {
            let refused = try await supervisor.get("/exports/reports?\(query)")
            #expect(refused.status == 400 && refused.code == "BAD_REQUEST", "?\(query): \(refused.status)")
        }
    }

    @Test("jqc-server export --facility --from --to writes the route's lines; a bad --from is exit 4 and no file")
    func windowOnTheCommandLine() async throws {
        let (server, supervisor, ids) = try await Self.seeded()
        let folder = TemporaryDirectory()
        let written = try Programs.run(
            "jqc-server",
            [
                "export", "--db", server.databasePath, "--format", "jsonl", "--facility", "F-100", "--from",
                "2026-11-01", "--to", "2026-12-01", "-o", folder.path("november.jsonl"),
            ])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.hasPrefix("exported 2 reports"), "\(written.stdout)")
        let file = try String(contentsOfFile: folder.path("november.jsonl"), encoding: .utf8)
        let route = try await supervisor.get("/exports/reports?facility_id=F-100&from=2026-11-01&to=2026-12-01")
        #expect(file == String(decoding: route.body, as: UTF8.self))
        #expect(file.contains(ids["mid-november"] ?? "?") && file.contains(ids["last-evening"] ?? "?"))

        let bad = try Programs.run(
            "jqc-server",
            [
                "export", "--db", server.databasePath, "--format", "jsonl", "--from", "soon", "-o",
                folder.path("x.jsonl"),
            ])
        #expect(bad.status == 4 && bad.stderr.contains("'from'"), "\(bad.status) \(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.jsonl")))
        let actions = try Programs.run(
            "jqc-server",
            [
                "export", "--db", server.databasePath, "--what", "actions", "--format", "csv", "--from", "2026-11-01",
                "-o", folder.path("a.csv"),
            ])
        #expect(actions.status == 2, "--from narrows reports, not actions: \(actions.stderr)")
    }
}
