import Foundation
import Testing
import Models
import Storage
import TestSupport
import SQLite

/// The checks on a report's state and review state, written as comparisons
/// (the step `compare-report-states`): the store refuses what it refused.
@Suite("Report state checks")
struct ReportStateCheckTests {
    static let stateList = "CHECK (state IN ('DRAFT', 'PENDING', 'SYNCED', 'CONFLICT', 'REJECTED'))"
    static let reviewList = "CHECK (review_state IN ('awaiting_review', 'approved', 'returned', 'rejected'))"

    /// Takes a store back to before the step `compare-report-states`: the same
    /// rows, the checks as the IN lists the release before wrote.
    static func undoStateComparisons(_ db: Database) throws {
        let sql = try #require(
            try db.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'reports'").stringValue)
        let state = try #require(sql.range(of: #"CHECK \(state = [^)]*\)"#, options: .regularExpression))
        var old = sql.replacingCharacters(in: state, with: Self.stateList)
        let review = try #require(old.range(of: #"CHECK \(review_state = [^)]*\)"#, options: .regularExpression))
        old = old.replacingCharacters(in: review, with: Self.reviewList)
        try db.execute("BEGIN IMMEDIATE")
        try db.execute("CREATE TEMP TABLE reports_before AS SELECT * FROM reports; DROP TABLE reports")
        try db.execute(old)
        try db.execute(
            """
            INSERT INTO reports SELECT * FROM temp.reports_before;
            DROP TABLE temp.reports_before;
            CREATE INDEX reports_by_state ON reports (state, creation_seq);
            CREATE INDEX reports_by_review ON reports (review_state, creation_seq) WHERE review_state IS NOT NULL;
            CREATE INDEX reports_by_template ON reports (template_id, state);
            DELETE FROM schema_migrations WHERE name = 'compare-report-states';
            """)
        try db.setUserVersion(try db.userVersion() - 1)
        try db.execute("COMMIT")
    }

    static func dump(_ path: String, _ sql: String) throws -> [Row] {
        try Database(path: path, mode: .readOnly).rows(sql)
    }

    static func tables(_ path: String) throws -> [[Row]] {
        try [
            "SELECT * FROM reports ORDER BY local_id", "SELECT * FROM report_revisions ORDER BY report_local_id, seq",
            "SELECT * FROM issues ORDER BY local_id",
        ].map { try dump(path, $0) }
    }

    /// Sets a column of every report with a raw statement; the SQLite error's message, nil if it was taken.
    static func refusal(_ path: String, _ column: String, _ value: String) throws -> String? {
        let db = try Database(path: path, mode: .readWrite)
        do {
            try db.run("UPDATE reports SET \(column) = ?", [.text(value)])
            return nil
        } catch {
            return error.message
        }
    }

    @Test("a store of the release before keeps every report, revision and issue, and refuses the same states")
    func upgrade() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        let synced: UUID, draft: UUID
        do {
            let store = try LocalStore.open(at: path)
            synced = try store.createReport(templateID: "t1", facilityID: "f1", answers: Answers(["1": "clean"]))
                .localID
            try store.addIssue(Issue(reportLocalID: synced, severity: .high, description: "Leak under the sink"))
            try store.apply(.complete, to: synced)
            try store.apply([(synced, .accepted(serverID: "R-1", revision: 1, photosOutstanding: 0))])
            draft = try store.createReport(templateID: "t1", facilityID: "f1").localID
        }
        do {
            let db = try Database(path: path, mode: .readWrite)
            try Self.undoStateComparisons(db)
        }
        let before = try Self.tables(path)
        #expect(try Self.refusal(path, "state", "LOST") != nil, "the store of the release before refuses it too")

        let store = try LocalStore.open(at: path)
        #expect(try store.appliedMigrations().last == "compare-report-states")
        #expect(try Self.tables(path) == before)
        #expect(try store.report(synced)?.state == .synced && store.report(synced)?.serverID == "R-1")
        #expect(try store.issues(ofReport: synced).map(\.description) == ["Leak under the sink"])
        try store.saveAnswer(draft, field: "1", value: "dusty")
        #expect(try store.report(draft)?.answers["1"] == "dusty")
        let schema = try Self.dump(path, "SELECT name, sql FROM sqlite_master WHERE tbl_name = 'reports' ORDER BY name")
        #expect(
            schema.map { $0["name"].stringValue ?? "" } == [
                "reports", "reports_by_review", "reports_by_state", "reports_by_template",
                "sqlite_autoindex_reports_1", "sqlite_autoindex_reports_2",
            ], "the table with its keys and indexes")
        #expect(!schema.contains { $0["sql"].stringValue?.contains(" IN (") == true })
    }

    @Test("a state or review state outside the lifecycle's is refused; every one of the lifecycle is taken")
    func refusesWhatItRefused() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        do {
            let store = try LocalStore.open(at: path)
            try store.createReport(templateID: "t1", facilityID: "f1")
        }
        for value in ["LOST", "pending", "", "PENDING "] {
            #expect(
                try Self.refusal(path, "state", value)?.contains("CHECK constraint failed") == true, "state \(value)")
        }
        for value in ["maybe", "Approved"] {
            #expect(
                try Self.refusal(path, "review_state", value)?.contains("CHECK constraint failed") == true,
                "review \(value)")
        }
        for value in ["DRAFT", "PENDING", "SYNCED", "CONFLICT", "REJECTED"] {
            #expect(try Self.refusal(path, "state", value) == nil, "state \(value)")
        }
        for value in ["awaiting_review", "approved", "returned", "rejected"] {
            #expect(try Self.refusal(path, "review_state", value) == nil, "review \(value)")
        }
    }
}
