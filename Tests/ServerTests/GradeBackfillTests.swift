import Foundation
import Models
import Testing
import TestSupport

/// A database kept from before the server graded reports: a server that
/// starts on it grades every report, so the queue, the roll-ups and
/// `GET /reports/{id}` know each one's deficiencies.
@Suite("Reports kept from before grades are graded at start")
struct GradeBackfillTests {
    @Test("a report's grade, cleared as an older server left it, is back after a restart, deficiencies included")
    func gradedAtStart() async throws {
        let first = try ServerProcess(["--demo"])
        let db = first.databasePath
        let inspector = try await Session.inspector(first)
        let result = try await inspector.syncOne(Reports.lobby(answers: ["entrance": "fail"]))
        let serverID = try #require(result["server_id"]?.stringValue)
        _ = first.stop()
        // What a server of contract 1.1 left: no grade with the revision, none on the report.
        try ServerDatabases.query(
            db,
            """
            UPDATE report_revisions SET grade = NULL;
            UPDATE reports SET passed = NULL, deficiency_count = 0;
            DELETE FROM report_deficiencies;
            """)
        #expect(try ServerDatabases.query(db, "SELECT COUNT(*) FROM report_deficiencies") == "0")

        let second = try ServerProcess(["--demo"], database: db)
        defer { _ = second.stop() }
        let again = try await Session.inspector(second)
        let report = try #require(try await again.get("/reports/\(serverID)").data["report"])
        #expect(report["deficiencies"] == ["entrance"])
        #expect(
            try ServerDatabases.query(db, "SELECT deficiency_count FROM reports WHERE server_id = '\(serverID)'") == "1"
        )
        #expect(try ServerDatabases.query(db, "SELECT field_id FROM report_deficiencies") == "entrance")
    }
}
