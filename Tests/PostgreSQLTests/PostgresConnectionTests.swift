import Foundation
import PostgreSQL
import Testing
import TestSupport

/// The libpq client against a real PostgreSQL server on loopback (a throwaway
/// cluster started for this suite): values round-trip exactly, constraint and
/// serialization failures carry their kind, and every way of not reaching the
/// database is one line that never shows the password.
@Suite("PostgreSQL client")
struct PostgresConnectionTests {
    static let cluster: Result<PostgresCluster, any Error> = Result { try PostgresCluster() }

    func connect() throws -> PostgresConnection {
        try PostgresConnection(url: try PostgresURL(try Self.cluster.get().url))
    }

    @Test("every kind of value goes in as a parameter and comes out the same, SQL text never holding it")
    func roundTrip() throws {
        let db = try connect()
        try db.script("CREATE TEMPORARY TABLE t (s TEXT, i BIGINT, d DOUBLE PRECISION, b BOOLEAN, bytes BYTEA)")
        let hostile = "Robert'); DROP TABLE t;-- ✓ naïve 🧽 \\x00"
        let blob: [UInt8] = [0, 1, 2, 0xFF, 0, 0x5C, 0x78]
        try db.query(
            "INSERT INTO t VALUES ($1, $2, $3, $4, $5)",
            [.text(hostile), .integer(Int64.min), .double(0.1 + 0.2), .bool(true), .bytes(blob)])
        try db.query("INSERT INTO t VALUES ($1, $2, $3, $4, $5)", [.null, .null, .null, .null, .null])
        let rows = try db.query("SELECT s, i, d, b, bytes FROM t ORDER BY s NULLS LAST")
        #expect(rows.count == 2)
        #expect(rows[0].string("s") == hostile)
        #expect(rows[0].int("i") == Int64.min)
        #expect(rows[0].double("d") == 0.1 + 0.2)
        #expect(rows[0].bool("b") == true)
        #expect(rows[0].bytes("bytes") == blob)
        #expect(rows[1].isNull("s") && rows[1].isNull("i") && rows[1].isNull("bytes"))
        #expect(rows[0].string("no_such_column") == nil)
    }

    @Test(
        "withResult reads values in place: NULL apart from empty, multibyte text and bytea byte for byte, numbers from their digits"
    )
    func resultInPlace() throws {
        let db = try connect()
        try db.script("CREATE TEMPORARY TABLE w (n INT, s TEXT, i BIGINT, d DOUBLE PRECISION, b BOOLEAN, bytes BYTEA)")
        let text = "naïve ✓ 🧽 \"quoted\" \\ line\nbreak"
        try db.query(
            "INSERT INTO w VALUES (1, $1, $2, $3, $4, $5)",
            [.text(text), .integer(Int64.min), .double(0.1 + 0.2), .bool(true), .bytes([0, 0xFF, 0x5C])])
        try db.query(
            "INSERT INTO w VALUES (2, $1, $2, $3, $4, $5)",
            [.text(""), .integer(Int64.max), .double(-2.5), .bool(false), .bytes([])])
        try db.query("INSERT INTO w VALUES (3, NULL, NULL, NULL, NULL, NULL)")
        let read = try db.withResult(
            "SELECT n, s, i, d, b, bytes, s || $1 AS \"Mixed Case\" FROM w WHERE n >= $2 ORDER BY n",
            [.text("!"), .integer(1)]
        ) { (page: PostgresResultView) throws(PostgresError) in
            #expect(page.rowCount == 3)
            #expect(page.columnCount == 7)
            let s = page.column("s"), i = page.column("i"), d = page.column("d"), b = page.column("b"),
                bytes = page.column("bytes")
            #expect(page.column("no_such_column") == nil)
            #expect(page.column("Mixed Case") == 6, "a quoted name is found as written")
            #expect(page.bytes(0, s).map { Array($0) } == Array(text.utf8))
            #expect(page.string(0, s) == text)
            #expect(page.string(0, page.column("Mixed Case")) == text + "!")
            #expect(page.int(0, i) == Int64.min)
            #expect(page.double(0, d) == 0.1 + 0.2)
            #expect(page.bool(0, b) == true)
            #expect(page.string(0, bytes) == "\\x00ff5c", "bytea in its hex text form")
            // An empty string is not NULL.
            #expect(page.isNull(1, s) == false)
            #expect(page.bytes(1, s)?.count == 0)
            #expect(page.string(1, s) == "")
            #expect(page.int(1, i) == Int64.max)
            #expect(page.double(1, d) == -2.5)
            #expect(page.bool(1, b) == false)
            #expect(page.string(1, bytes) == "\\x")
            // NULL in every column, and positions out of range, read as nil.
            for column in [s, i, d, b, bytes] {
                #expect(page.isNull(2, column))
                #expect(page.bytes(2, column) == nil)
                #expect(page.string(2, column) == nil)
            }
            #expect(page.int(2, i) == nil && page.double(2, d) == nil && page.bool(2, b) == nil)
            #expect(
                page.string(3, s) == nil && page.string(0, 99) == nil && page.string(-1, s) == nil
                    && page.string(0, nil) == nil)
            // Text that is not a whole number is no integer.
            #expect(page.int(0, s) == nil && page.int(1, s) == nil && page.int(0, d) == nil)
            return page.rowCount
        }
        #expect(read == 3)
        // A failing statement throws, and the connection stays usable.
        #expect(throws: PostgresError.self) {
            try db.withResult("SELECT n FROM no_such_table") { (page: PostgresResultView) throws(PostgresError) in
                page.rowCount
            }
        }
        #expect(
            try db.withResult("SELECT 1 AS one") { (page: PostgresResultView) throws(PostgresError) in
                page.int(0, page.column("one"))
            } == 1)
    }

    @Test(
        "send: the next withResult of the same SQL reads the sent statement's result; any other statement first drops it"
    )
    func sentAhead() throws {
        let db = try connect()
        try db.script("BEGIN")
        try db.script(
            "DECLARE c NO SCROLL CURSOR FOR SELECT n, CASE WHEN n % 2 = 0 THEN 'ünï ' || n END AS s FROM generate_series(1, 7) AS n"
        )
        let fetch = "FETCH 3 FROM c"
        func page() throws(PostgresError) -> [String?] {
            try db.withResult(fetch) { (page: PostgresResultView) throws(PostgresError) in
                (0..<page.rowCount).map { row in
                    page.string(row, page.column("n")).map { n in
                        n + ":" + (page.string(row, page.column("s")) ?? "NULL")
                    }
                }
            }
        }
        #expect(try page() == ["1:NULL", "2:ünï 2", "3:NULL"])
        try db.send(fetch)
        #expect(try page() == ["4:ünï 4", "5:NULL", "6:ünï 6"], "the sent FETCH is read, not run again")
        try db.send(fetch)
        // Another statement waits for the sent one and drops its rows (row 7), then runs.
        #expect(try db.query("SELECT $1::text AS t", [.text("")])[0].string("t") == "")
        #expect(try page() == [], "the cursor moved past row 7 when the sent FETCH ran")
        // A sent statement that fails reports its error where its result is read.
        try db.send("FETCH 3 FROM no_such_cursor")
        #expect(throws: PostgresError.self) {
            try db.withResult("FETCH 3 FROM no_such_cursor") { (page: PostgresResultView) throws(PostgresError) in
                page.rowCount
            }
        }
        try db.script("ROLLBACK")
        #expect(try db.query("SELECT 2 AS two")[0].int("two") == 2, "the connection is usable after it")
    }

    @Test("a text value with a NUL character is refused before it is sent")
    func nulRefused() throws {
        let db = try connect()
        #expect(throws: PostgresError.self) { try db.query("SELECT $1::text", [.text("a\u{0}b")]) }
        #expect(try db.query("SELECT 1 AS one")[0].int("one") == 1, "the connection is still usable")
    }

    @Test("a unique constraint names itself as uniqueViolation; a failed transaction rolls back whole")
    func uniqueAndRollback() throws {
        let db = try connect()
        try db.script("CREATE TEMPORARY TABLE u (k TEXT PRIMARY KEY)")
        do {
            _ = try db.transaction { (tx: PostgresConnection) throws(PostgresError) in
                try tx.query("INSERT INTO u VALUES ($1)", [.text("a")])
                try tx.query("INSERT INTO u VALUES ($1)", [.text("a")])
            }
            Issue.record("the second insert of the same key was accepted")
        } catch {
            #expect(error.code == .uniqueViolation)
            #expect(error.sqlState == "23505")
        }
        #expect(try db.query("SELECT count(*) AS n FROM u")[0].int("n") == 0)
    }

    @Test("the server's disk_full (53100) names itself as diskFull, and insufficient_resources (53000) as unavailable")
    func diskFull() throws {
        let db = try connect()
        for (state, name, code) in [
            ("53100", "disk_full", PostgresError.Code.diskFull), ("53000", "insufficient_resources", .unavailable),
        ] {
            do {
                try db.script("DO $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = '\(name)'; END $$")
                Issue.record("PostgreSQL raised nothing for \(name)")
            } catch {
                #expect(error.sqlState == state)
                #expect(error.code == code)
                #expect(error.message.contains("could not extend file"))
            }
        }
    }

    @Test(
        "two SERIALIZABLE transactions on one row: one loses with serializationFailure, and retrying makes both count")
    func serializable() throws {
        let setup = try connect()
        try setup.script(
            "DROP TABLE IF EXISTS counter; CREATE TABLE counter (n BIGINT NOT NULL); INSERT INTO counter VALUES (0)")
        let first = try connect(), second = try connect()
        try first.script("BEGIN ISOLATION LEVEL SERIALIZABLE")
        try second.script("BEGIN ISOLATION LEVEL SERIALIZABLE")
        let seen = try first.query("SELECT n FROM counter")[0].int("n") ?? -1
        _ = try second.query("SELECT n FROM counter")
        try first.query("UPDATE counter SET n = $1", [.integer(seen + 1)])
        try first.script("COMMIT")
        do {
            try second.query("UPDATE counter SET n = n + 1")
            Issue.record("the second transaction updated a row the first had changed since it read it")
        } catch {
            #expect(error.code == .serializationFailure && error.isTransient)
        }
        try second.script("ROLLBACK")

        // With `retrying`, concurrent increments from several connections all land.
        let threads = 4, each = 10
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            do {
                let db = try connect()
                for _ in 0..<each {
                    _ = try db.retrying(.serializable) { (tx: PostgresConnection) throws(PostgresError) -> Void in
                        let n = try tx.query("SELECT n FROM counter")[0].int("n") ?? 0
                        try tx.query("UPDATE counter SET n = $1", [.integer(n + 1)])
                    }
                }
            } catch { errors.add("\(error)") }
        }
        #expect(errors.all.isEmpty, "\(errors.all)")
        #expect(try setup.query("SELECT n FROM counter")[0].int("n") == Int64(1 + threads * each))
    }

    @Test("no server, a wrong password, a missing database, a malformed URL: one line each, no password shown")
    func connectionFailures() throws {
        let cluster = try Self.cluster.get()
        let secret = "s3cret-Pa55"
        let cases: [(String, PostgresError.Code, String)] = [
            ("postgres://jqc:\(secret)@127.0.0.1:1/jqc", .connection, "cannot connect to PostgreSQL at 127.0.0.1:1"),
            ("postgres://jqc:\(secret)@127.0.0.1:\(cluster.port)/jqc", .authentication, "refused user 'jqc'"),
            (cluster.url(database: "nothere"), .databaseMissing, "has no database 'nothere'"),
        ]
        for (url, code, words) in cases {
            do {
                _ = try PostgresConnection(url: try PostgresURL(url))
                Issue.record("\(PostgresURL.redact(url)) connected")
            } catch {
                #expect(error.code == code, "\(error.message)")
                #expect(error.message.contains(words), "\(error.message)")
                #expect(!error.message.contains(secret) && !error.message.contains("\n"))
            }
        }
        for bad in [
            "postgres://127.0.0.1/jqc", "postgres://jqc:\(secret)@127.0.0.1:5432", "postgres://jqc@/jqc",
            "mysql://x@y/z",
        ] {
            #expect(throws: PostgresError.self) { _ = try PostgresURL(bad) }
            do { _ = try PostgresURL(bad) } catch { #expect(!error.message.contains(secret), "\(error.message)") }
        }
        #expect(PostgresURL.redact("postgres://jqc:\(secret)@h:1/d") == "postgres://jqc:***@h:1/d")
    }
}

/// Errors collected from several threads.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
