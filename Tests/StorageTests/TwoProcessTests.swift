import Foundation
import Testing
import Models
import Storage
import TestSupport
import SQLite

/// `jqc` and `jqc-agent` share one store: real processes writing at the same
/// time must all succeed, and every autosave must be there afterwards.
@Suite("Two processes, one store")
struct TwoProcessTests {
    static let count = 300

    private func writer(_ path: String, report: UUID, prefix: String) throws -> RunningProgram {
        try RunningProgram(
            "jqc-store-writer",
            [
                "--store", path, "--report", report.uuidString,
                "--count", String(Self.count), "--field-prefix", prefix,
            ])
    }

    /// Checks the two things a lost update would break: the final answers
    /// hold every answer written, and each revision holds exactly one answer
    /// more than the one before (a write based on a stale read would not).
    private func expectNothingLost(_ store: LocalStore, path: String, report: UUID, prefixes: [String]) throws {
        let stored = try #require(try store.report(report))
        var missing: [String] = []
        for prefix in prefixes {
            for index in 1...Self.count where stored.answers[FieldID("\(prefix)\(index)")] != .integer(Int64(index)) {
                missing.append("\(prefix)\(index)")
            }
        }
        #expect(missing.isEmpty, "answers missing: \(missing.prefix(10))")
        #expect(stored.answers.values.count == prefixes.count * Self.count)
        // Counted by SQLite's own JSON functions: 900 revisions of up to 900
        // answers are too many to decode one by one in a debug build.
        let db = try Database(path: path, mode: .readOnly)
        db.setBusyTimeout(milliseconds: 10_000)
        let counts = try db.rows(
            """
            SELECT seq, (SELECT count(*) FROM json_each(answers)) AS answered
            FROM report_revisions WHERE report_local_id = ? ORDER BY seq
            """, [.text(report.uuidString)])
        #expect(counts.count == 1 + prefixes.count * Self.count)
        #expect(counts.map { $0["seq"].int64Value } == (1...Int64(counts.count)).map { $0 })
        #expect(counts.map { $0["answered"].int64Value } == (0..<Int64(counts.count)).map { $0 })
        let last = try #require(try store.revisions(of: report).last)
        #expect(last.answers == stored.answers)
    }

    private func expectClean(_ outcome: ProcessOutcome) {
        #expect(outcome.status == 0, "writer failed: \(outcome.stderr)")
        #expect(outcome.stderr.isEmpty)
        #expect(outcome.stdout.hasPrefix("saved \(Self.count) answers"))
    }

    @Test("two writer processes and this one, each on its own report")
    func differentReports() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        let store = try LocalStore.open(at: path)
        let mine = try store.createReport(templateID: "t1", facilityID: "f1").localID
        let (a, b) = (UUID(), UUID())
        let first = try writer(path, report: a, prefix: "a")
        let second = try writer(path, report: b, prefix: "b")
        for index in 1...Self.count {
            try store.saveAnswer(mine, field: FieldID("m\(index)"), value: .integer(Int64(index)))
        }
        expectClean(first.wait())
        expectClean(second.wait())
        for (report, prefix) in [(a, "a"), (b, "b"), (mine, "m")] {
            try expectNothingLost(store, path: path, report: report, prefixes: [prefix])
        }
        #expect(try Set(store.reports().map(\.creationSequence)).count == 3)
    }

    @Test("two writer processes and this one, all on the same report")
    func sameReport() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        let store = try LocalStore.open(at: path)
        let shared = try store.createReport(templateID: "t1", facilityID: "f1").localID
        let first = try writer(path, report: shared, prefix: "a")
        let second = try writer(path, report: shared, prefix: "b")
        for index in 1...Self.count {
            try store.saveAnswer(shared, field: FieldID("m\(index)"), value: .integer(Int64(index)))
        }
        expectClean(first.wait())
        expectClean(second.wait())
        try expectNothingLost(store, path: path, report: shared, prefixes: ["a", "b", "m"])
    }

    @Test("two writers creating a new store together both succeed, migrating it once")
    func newStoreTogether() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        let report = UUID()
        let writers = try ["a", "b"].map { prefix in
            try RunningProgram(
                "jqc-store-writer",
                [
                    "--store", path, "--report", report.uuidString,
                    "--count", "20", "--field-prefix", prefix,
                ])
        }
        for outcome in writers.map({ $0.wait() }) {
            #expect(outcome.status == 0, "writer failed: \(outcome.stderr)")
            #expect(outcome.stderr.isEmpty)
        }
        let store = try LocalStore.open(at: path)
        #expect(try store.appliedMigrations() == StoreFileTests.migrationNames)
        #expect(try store.report(report)?.answers.values.count == 40)
        #expect(try store.revisions(of: report).count == 41)
    }

    /// The moment two processes meet on a new store is short, so it is met
    /// many times over: a store half set up by one process, seen by another,
    /// must never be taken for another program's database.
    @Test("three processes creating a new store together, forty times over, never refuse it")
    func newStoreTogetherRepeatedly() throws {
        let dir = TemporaryDirectory()
        var refusals: [String] = []
        for trial in 1...40 {
            let path = dir.path("jqc-\(trial).sqlite")
            let report = UUID()
            let writers = try ["a", "b", "c"].map { prefix in
                try RunningProgram(
                    "jqc-store-writer",
                    ["--store", path, "--report", report.uuidString, "--count", "1", "--field-prefix", prefix])
            }
            for outcome in writers.map({ $0.wait() }) where outcome.status != 0 {
                refusals.append("trial \(trial): \(outcome.stderr)")
            }
            if refusals.isEmpty {
                #expect(try LocalStore.open(at: path).report(report)?.answers.values.count == 3)
            }
        }
        #expect(refusals.isEmpty, "\(refusals.count) refusals, first: \(refusals.first ?? "")")
    }

    @Test("the writer refuses a damaged store with one line and exit 1")
    func writerRefusesDamagedStore() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        try Data("this is not a database, it is a note".utf8).write(to: URL(fileURLWithPath: path))
        let outcome = try Programs.run(
            "jqc-store-writer", ["--store", path, "--report", UUID().uuidString, "--count", "1"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        #expect(outcome.stderr.contains("is not a jqc store or is damaged"))
        #expect(outcome.stdout.isEmpty)
    }
}
