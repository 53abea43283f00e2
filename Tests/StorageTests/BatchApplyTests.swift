import Foundation
import Testing
import Models
import Storage
import TestSupport

/// `LocalStore.apply(_:retryAt:)`: a sync batch's verdicts recorded in one transaction.
@Suite("Batch of lifecycle events")
struct BatchApplyTests {
    private func pending(_ store: LocalStore) throws -> UUID {
        let report = try store.createReport(templateID: "t1", facilityID: "f1")
        try store.apply(.complete, to: report.localID)
        return report.localID
    }

    @Test("every event of a batch is applied, with next attempts", arguments: StoreKind.allCases)
    func appliesAll(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let a = try pending(t.store), b = try pending(t.store), c = try pending(t.store)
        let later = Date(timeIntervalSince1970: 2_000_000_000)
        let reports = try t.store.apply(
            [
                (a, .accepted(serverID: "s-a", revision: 1, photosOutstanding: 0)),
                (b, .rejected(code: "REPORT_INVALID", message: "Bad answer.")),
                (c, .transportFailed(code: "OFFLINE", message: "No connection.")),
            ], retryAt: [c: later])
        #expect(reports.map(\.state) == [.synced, .rejected, .pending])
        #expect(try t.store.report(a)?.serverID == "s-a")
        #expect(try t.store.report(c)?.lifecycle.attemptCount == 1)
        #expect(try t.store.nextAttempt(of: c) == later)
    }

    @Test("a batch keeps each report's answers and revisions as they were stored", arguments: StoreKind.allCases)
    func keepsAnswers(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try t.store.createReport(templateID: "t1", facilityID: "f1")
        try t.store.saveAnswer(report.localID, field: "1", value: 4)
        try t.store.saveAnswer(
            report.localID, field: "2", value: ["note": "caf\u{E9} \"quoted\"", "list": [1.5, true, nil]])
        let completed = try t.store.apply(.complete, to: report.localID)
        let other = try pending(t.store)
        let lifecycles = try t.store.apply([
            (report.localID, .accepted(serverID: "s-1", revision: 2, photosOutstanding: 0)),
            (other, .transportFailed(code: "OFFLINE", message: "No connection.")),
        ])
        #expect(lifecycles.map(\.state) == [.synced, .pending])
        let stored = try #require(try t.store.report(report.localID))
        #expect(stored.answers == completed.answers)
        #expect(stored.serverID == "s-1")
        let revisions = try t.store.revisions(of: report.localID)
        #expect(revisions.last?.answers == completed.answers)
        #expect(revisions.last?.serverRevision == 2)
        #expect(try t.store.report(other)?.lifecycle.attemptCount == 1)
    }

    @Test("one refused event rolls the whole batch back", arguments: StoreKind.allCases)
    func rollsBack(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let a = try pending(t.store)
        let draft = try t.store.createReport(templateID: "t1", facilityID: "f1").localID
        #expect(throws: StorageError.self) {
            try t.store.apply([
                (a, .accepted(serverID: "s-a", revision: 1, photosOutstanding: 0)),
                (draft, .photosUploaded),
            ])
        }
        #expect(try t.store.report(a)?.state == .pending)
    }
}
