import Foundation
import Testing
import SQLite
import TestSupport

/// The raw SQLite wrapper: values round-trip exactly, transactions are all or nothing.
@Suite("SQLite wrapper")
struct DatabaseTests {
    @Test("a UUID is stored as Foundation writes it and read back from either case; anything else is not a UUID")
    func uuidText() throws {
        let db = try Database.inMemory()
        for _ in 0..<200 {
            let id = UUID()
            #expect(SQLValue(id) == .text(id.uuidString))
            #expect(try db.scalar("SELECT ?", [SQLValue(id)]).uuidValue == id)
            #expect(SQLValue.text(id.uuidString.lowercased()).uuidValue == id)
        }
        for text in [
            "", "not a uuid", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF",
            "E621E1F8+C36C-495A-93FC-0C247A3E6E5F", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            "E621E1F8C36C495A93FC0C247A3E6E5F1234",
        ] {
            #expect(SQLValue.text(text).uuidValue == nil, "\(text)")
            #expect(UUID(uuidString: text) == nil, "Foundation refuses it too: \(text)")
        }
        #expect(SQLValue.integer(1).uuidValue == nil)
    }

    @Test("text, blobs and numbers round-trip exactly, empty and NUL included")
    func roundTrip() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE v (k INTEGER PRIMARY KEY, value)")
        let values: [SQLValue] = [
            .null, .integer(Int64.max), .integer(Int64.min), .real(0.1), .text(""),
            .text("a\0b ünïcødé 🧽"), .blob(Data()), .blob(Data([0, 255, 0, 1])),
        ]
        for (index, value) in values.enumerated() {
            try db.run("INSERT INTO v (k, value) VALUES (?, ?)", [.integer(Int64(index)), value])
        }
        #expect(try db.rows("SELECT value FROM v ORDER BY k").map { $0["value"] } == values)
    }

    @Test(
        "a column is found by its name among many: the first of a repeated name, NULL for a name the row lacks, a name in another Unicode form as Swift compares names"
    )
    func columnsByName() throws {
        let db = try Database.inMemory()
        let names = (0..<40).map { "column_\($0)" }
        let row = try #require(
            try db.firstRow(
                "SELECT " + names.enumerated().map { "\($0.offset) AS \($0.element)" }.joined(separator: ", ")
                    + ", 'first' AS twice, 'second' AS twice, 'cafe' AS \"caf\u{E9}\", '' AS \"\""))
        for (index, name) in names.enumerated() {
            #expect(row[name] == .integer(Int64(index)), "\(name)")
        }
        #expect(row["twice"] == .text("first"))
        #expect(row["caf\u{E9}"] == .text("cafe"))
        #expect(row["cafe\u{301}"] == .text("cafe"), "the same name to Swift, in other bytes")
        #expect(row[""] == .text(""))
        for missing in ["column_40", "Column_1", "column_", "column_1 ", "tw", "twice2"] {
            #expect(row[missing] == .null, "\(missing)")
        }
    }

    @Test("one statement is always taken as one, however often; two in one string are refused")
    func singleStatements() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE issues (local_id TEXT, severity TEXT, description TEXT)")
        // Thousands of prepares with freshly built strings: the text after the
        // first statement must be read while its C copy is still alive.
        for n in 0..<20_000 {
            let sql = "SELECT local_id, severity, description FROM issues WHERE local_id = ? -- \(n)"
            #expect(try db.rows(sql, [.text("x\(n)")]).isEmpty)
        }
        #expect(throws: SQLiteError.self) {
            try db.run("SELECT 1; SELECT 2")
        }
    }

    @Test("cached statements are reused with new values, and never keep a read open for another connection")
    func cachedStatements() throws {
        let directory = TemporaryDirectory(prefix: "jqc-cache")
        let path = directory.path("cache.sqlite")
        let db = try Database(path: path)
        try db.execute("PRAGMA journal_mode = WAL; CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
        db.cachesStatements = true
        for k in 0..<200 {
            try db.run("INSERT INTO t (k, v) VALUES (?, ?)", [.integer(Int64(k)), .text("v\(k)")])
        }
        for k in [0, 199, 7, 7] {
            #expect(try db.firstRow("SELECT v FROM t WHERE k = ?", [.integer(Int64(k))])?["v"] == .text("v\(k)"))
        }
        // A query stopped after its first row is reset at once: another connection
        // can still write and checkpoint the whole log, and this one sees the change.
        #expect(try db.firstRow("SELECT k FROM t ORDER BY k")?["k"] == .integer(0))
        let other = try Database(path: path, mode: .readWrite)
        try other.run("DELETE FROM t WHERE k = 0")
        #expect(try other.rows("PRAGMA wal_checkpoint(TRUNCATE)").first?[0] == .integer(0))
        #expect(try db.firstRow("SELECT k FROM t ORDER BY k")?["k"] == .integer(1))
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(199))
    }

    @Test("a throw inside a transaction rolls everything back")
    func rollback() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t (x INTEGER NOT NULL)")
        let error = #expect(throws: SQLiteError.self) {
            try db.transaction { () throws(SQLiteError) in
                try db.run("INSERT INTO t (x) VALUES (?)", [.integer(1)])
                try db.run("INSERT INTO t (x) VALUES (?)", [.null])
            }
        }
        #expect(error?.context == "INSERT INTO t (x) VALUES (?)")
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(0))
        #expect(!db.isInTransaction)
    }

    @Test("a snapshot's reads all see one state while another connection writes, and it ends however its body does")
    func snapshot() throws {
        let directory = TemporaryDirectory(prefix: "jqc-snapshot")
        let path = directory.path("snapshot.sqlite")
        let db = try Database(path: path)
        try db.execute("PRAGMA journal_mode = WAL; CREATE TABLE t (k INTEGER PRIMARY KEY)")
        db.cachesStatements = true
        try db.run("INSERT INTO t (k) VALUES (1)")
        let other = try Database(path: path, mode: .readWrite)
        let seen = try db.snapshot(mapping: { $0 }) { () throws(SQLiteError) -> [SQLValue] in
            let before = try db.scalar("SELECT count(*) FROM t")
            try other.run("INSERT INTO t (k) VALUES (2)")
            return [before, try db.scalar("SELECT count(*) FROM t")]
        }
        #expect(seen == [.integer(1), .integer(1)])
        #expect(!db.isInTransaction)
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(2))
        // Ended on a throw too: the other connection can still checkpoint the whole log.
        #expect(throws: SQLiteError.self) {
            try db.snapshot(mapping: { $0 }) { () throws(SQLiteError) -> SQLValue in
                _ = try db.scalar("SELECT count(*) FROM t")
                return try db.scalar("SELECT nothing FROM t")
            }
        }
        #expect(!db.isInTransaction)
        try other.run("INSERT INTO t (k) VALUES (3)")
        #expect(try other.rows("PRAGMA wal_checkpoint(TRUNCATE)").first?[0] == .integer(0))
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(3))
    }

    @Test("a wrong number of values is refused before anything runs")
    func wrongArity() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t (x, y)")
        #expect(throws: SQLiteError.self) { try db.run("INSERT INTO t VALUES (?, ?)", [.integer(1)]) }
        #expect(throws: SQLiteError.self) { try db.run("INSERT INTO t VALUES (1, 2); DROP TABLE t") }
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(0))
    }

    @Test("a read-only connection cannot write, and says so as a read-only problem")
    func readOnly() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("x.sqlite")
        try Database(path: path).execute("CREATE TABLE t (x)")
        let db = try Database(path: path, mode: .readOnly)
        let error = #expect(throws: SQLiteError.self) { try db.run("INSERT INTO t VALUES (?)", [.integer(1)]) }
        #expect(error?.code == .readOnly)
    }
}
