import Foundation
import Testing
import Models
import Storage
import TestSupport
import SQLite

/// Opening store files: new, reopened, newer, damaged, foreign.
@Suite("Store file")
struct StoreFileTests {
    static let migrationNames = [
        "create-reports-and-revisions", "create-issues-and-photos",
        "create-reference-cache", "create-meta", "add-report-reviews", "add-merge-marks",
        "add-template-versions", "add-photo-upload-sessions", "compare-report-states", "add-actions",
        "add-action-photos", "add-pass-threshold",
    ]

    @Test("an absent file becomes a new store with every migration applied once")
    func absentFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        let store = try LocalStore.open(at: path)
        #expect(try store.appliedMigrations() == Self.migrationNames)
        #expect(FileManager.default.fileExists(atPath: path))
        let report = try store.createReport(templateID: "t1", facilityID: "f1")
        #expect(try store.report(report.localID) == report)
    }

    @Test(
        "copying the write-ahead log into the file waits for no reader: a reader meanwhile still sees what it began with, and the file alone holds every report after"
    )
    func checkpointWaitsForNoReader() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        let store = try LocalStore.open(at: path)
        for _ in 0..<3 { try store.createReport(templateID: "t1", facilityID: "f1") }
        let reader = try Database(path: path, mode: .readOnly)
        try reader.execute("BEGIN")
        #expect(try reader.scalar("SELECT count(*) FROM reports").int64Value == 3)
        try store.createReport(templateID: "t1", facilityID: "f1")
        try store.checkpoint()
        #expect(try reader.scalar("SELECT count(*) FROM reports").int64Value == 3, "the reader's snapshot is kept")
        try reader.execute("COMMIT")
        try store.checkpoint()
        let copy = dir.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        #expect(try Database(path: copy, mode: .readOnly).scalar("SELECT count(*) FROM reports").int64Value == 4)
    }

    @Test("an empty (0-byte) file becomes a new store")
    func emptyFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try LocalStore.open(at: path)
        #expect(try store.appliedMigrations() == Self.migrationNames)
    }

    @Test("reopening applies nothing twice and keeps what was saved")
    func reopen() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        let id: UUID
        do {
            let store = try LocalStore.open(at: path)
            id = try store.createReport(templateID: "t1", facilityID: "f1").localID
            try store.saveAnswer(id, field: "1", value: "clean")
        }
        let appliedBefore = try rows(path, "SELECT name, applied_at FROM schema_migrations ORDER BY rowid")
        let store = try LocalStore.open(at: path)
        _ = try LocalStore.open(at: path)
        #expect(try rows(path, "SELECT name, applied_at FROM schema_migrations ORDER BY rowid") == appliedBefore)
        #expect(appliedBefore.count == Self.migrationNames.count)
        #expect(try store.report(id)?.answers["1"] == "clean")
        let db = try Database(path: path, mode: .readOnly)
        #expect(try db.userVersion() == Self.migrationNames.count)
        #expect(try db.scalar("PRAGMA journal_mode").stringValue == "wal")
    }

    @Test("a store from a newer jqc is refused and left byte-identical")
    func newerStore() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        // What a newer jqc would leave: a higher version, checkpointed into the file.
        try makeSettledStore(at: path) { try $0.setUserVersion(99) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: StorageError.self) { try LocalStore.open(at: path) }
        #expect(error?.code == .newerStore)
        #expect(
            error?.message
                == "The store at '\(path)' was written by a newer version of jqc (store version 99, this jqc knows \(Self.migrationNames.count)). Update jqc; the store was left untouched."
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test(
        "a file that is not a database is refused and left byte-identical",
        arguments: ["random", "truncated header", "text"])
    func notADatabase(kind: String) throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        let content: Data
        switch kind {
        case "random": content = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        case "truncated header": content = Data("SQLite format 3\0".utf8) + Data(repeating: 0x10, count: 20)
        default: content = Data("name,score\nlobby,4\n".utf8)
        }
        try content.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StorageError.self) { try LocalStore.open(at: path) }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("'\(path)'") == true)
        #expect(error?.message.contains("left untouched") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
    }

    @Test("a damaged store (valid header, garbage pages) is refused and left byte-identical")
    func damagedPages() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        try makeSettledStore(at: path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Keep the 100-byte header, overwrite the schema page after it.
        for index in 100..<min(bytes.count, 4096) { bytes[index] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StorageError.self) { try LocalStore.open(at: path) }
        #expect(error?.code == .corruptStore)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test(
        "a real store cut short (mid-page, at a page boundary, to its first page) is refused and left byte-identical",
        arguments: ["mid-page", "page boundary", "first page"])
    func truncatedStore(cut: String) throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        try makeSettledStore(at: path) { db in
            // Enough saved work that the file spans many pages.
            for index in 0..<40 {
                try db.run(
                    "INSERT INTO meta (key, value) VALUES (?, ?)",
                    [.text("filler-\(index)"), .text(String(repeating: "x", count: 900))])
            }
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let pageSize = 4096
        #expect(whole.count >= 8 * pageSize)
        let length =
            switch cut {
            case "mid-page": whole.count / 2 + 1234
            case "page boundary": (whole.count / pageSize / 2) * pageSize
            default: pageSize
            }
        let cutShort = whole.prefix(length)
        try cutShort.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StorageError.self) { try LocalStore.open(at: path) }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("left untouched") == true, "\(error?.message ?? "")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == cutShort)
    }

    @Test("a SQLite database of another program is refused as not a jqc store")
    func foreignApplicationID() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("other.sqlite")
        do {
            let db = try Database(path: path)
            try db.setApplicationID(0x1234_5678)
            try db.execute("CREATE TABLE notes (body TEXT)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: StorageError.self) { try LocalStore.open(at: path) }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("not a jqc store") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("an unmarked SQLite database that already has tables is refused too")
    func foreignUnmarked() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("other.sqlite")
        do {
            let db = try Database(path: path)
            try db.execute("CREATE TABLE reports (id INTEGER PRIMARY KEY)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: StorageError.self) { try LocalStore.open(at: path) }
        #expect(error?.message.contains("not a jqc store") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a store in a folder that does not exist is a permission error naming the path")
    func missingFolder() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("no/such/folder/jqc.sqlite")
        let error = #expect(throws: StorageError.self) { try LocalStore.open(at: path) }
        #expect(error?.code == .permission)
        #expect(error?.message.contains(path) == true)
    }

    @Test("foreign keys are enforced: no photo or issue without its report")
    func foreignKeys() throws {
        let dir = TemporaryDirectory()
        let store = try LocalStore.open(at: dir.path("jqc.sqlite"))
        let photo = Photo(
            reportLocalID: UUID(), fileName: "\(UUID().uuidString).jpg",
            originalByteSize: 1, byteSize: 1, sha256: "00")
        let error = #expect(throws: StorageError.self) { try store.addPhoto(photo) }
        #expect(error?.code == .notFound)
        let db = try Database(path: dir.path("jqc.sqlite"), mode: .readWrite)
        try db.execute("PRAGMA foreign_keys = ON")
        #expect(throws: SQLiteError.self) {
            try db.run(
                "INSERT INTO issues (local_id, report_local_id, severity, description, creation_seq) VALUES (?, ?, ?, ?, ?)",
                [.text(UUID().uuidString), .text(UUID().uuidString), .text("low"), .text("x"), .integer(1)])
        }
    }

    /// A store with one report, `change` applied, and everything checkpointed
    /// out of the WAL into the main file, so the file alone is the store.
    private func makeSettledStore(at path: String, _ change: (Database) throws -> Void = { _ in }) throws {
        do {
            let store = try LocalStore.open(at: path)
            try store.createReport(templateID: "t1", facilityID: "f1")
        }
        let db = try Database(path: path, mode: .readWrite)
        try change(db)
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try db.execute("PRAGMA journal_mode = DELETE")
    }

    private func rows(_ path: String, _ sql: String) throws -> [Row] {
        try Database(path: path, mode: .readOnly).rows(sql)
    }
}
