import Foundation
import Testing
import SQLite
import TestSupport

/// Named migrations: each step once, in order, and a newer database left alone.
@Suite("Migrator")
struct MigratorTests {
    private let first = Migrator.Step(
        name: "001-notes", sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    private let second = Migrator.Step(
        name: "002-tags",
        sql: "CREATE TABLE tags (note_id INTEGER NOT NULL, tag TEXT NOT NULL); CREATE INDEX tags_note ON tags(note_id)")

    @Test(
        "each step runs once, in order, is recorded by name, and counts in user_version; a later build adds only its new step"
    )
    func stepsOnce() throws {
        let directory = TemporaryDirectory(prefix: "jqc-migrator")
        let path = directory.path("m.sqlite")
        do {
            let db = try Database(path: path)
            try Migrator(ledger: "migrations", steps: [first], applicationID: 0x1234).migrate(db)
            try db.run("INSERT INTO notes (text) VALUES (?)", [.text("kept")])
        }
        let db = try Database(path: path)
        let migrator = Migrator(ledger: "migrations", steps: [first, second], applicationID: 0x1234)
        try migrator.migrate(db)
        try migrator.migrate(db)
        #expect(
            try db.rows("SELECT name FROM migrations ORDER BY rowid").map { $0["name"] } == [
                .text("001-notes"), .text("002-tags"),
            ])
        #expect(try db.userVersion() == 2)
        #expect(try db.applicationID() == 0x1234)
        #expect(try db.scalar("SELECT text FROM notes") == .text("kept"))
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'tags_note'") == .integer(1))
    }

    @Test("a database migrated by a newer build is refused with newerSchema and left unchanged")
    func newerRefused() throws {
        let db = try Database.inMemory()
        try Migrator(ledger: "migrations", steps: [first, second]).migrate(db)
        let error = #expect(throws: SQLiteError.self) {
            try Migrator(ledger: "migrations", steps: [first]).migrate(db)
        }
        // A step unknown to this build, with user_version still equal to the steps it knows.
        try db.run(
            "INSERT INTO migrations (name, applied_at) VALUES (?, ?)", [.text("003-future"), .text("2030-01-01")])
        let unknown = #expect(throws: SQLiteError.self) {
            try Migrator(ledger: "migrations", steps: [first, second]).migrate(db)
        }
        #expect(unknown?.code == .newerSchema)
        #expect(unknown?.message.contains("003-future") == true)
        #expect(error?.code == .newerSchema)
        #expect(error?.message.contains("newer") == true)
        #expect(try db.scalar("SELECT count(*) FROM migrations") == .integer(3))
    }

    @Test("a step that fails leaves no trace: neither its tables nor its ledger row")
    func failedStepRollsBack() throws {
        let db = try Database.inMemory()
        let broken = Migrator.Step(name: "002-broken", sql: "CREATE TABLE half (x); CREATE TABLE notes (y)")
        #expect(throws: SQLiteError.self) { try Migrator(ledger: "migrations", steps: [first, broken]).migrate(db) }
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'half'") == .integer(0))
        #expect(try db.rows("SELECT name FROM migrations").map { $0["name"] } == [.text("001-notes")])
        #expect(try db.userVersion() == 1)
    }
}
