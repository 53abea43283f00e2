import Foundation
import Testing
import Models
import SQLite
import Storage
import TestSupport

/// Reviews in the device's store (contract 1.1): a page of the feed and its
/// cursor in one transaction, each review through the lifecycle, the
/// returned ones counted, and retention holding what a review still needs.
@Suite("Reviews in the store")
struct ReviewStoreTests {
    /// A report the server accepted as revision 1, SYNCED.
    private func synced(_ store: LocalStore, serverID: String = "R-1") throws -> Report {
        let report = try store.createReport(templateID: "101", facilityID: "F-100")
        try store.saveAnswer(report.localID, field: "1", value: "clean")
        try store.apply(.complete, to: report.localID)
        return try store.apply(.accepted(serverID: serverID, revision: 1, photosOutstanding: 0), to: report.localID)
    }

    private func review(_ report: Report, _ state: ReviewState, revision: Int = 1, change: String = "c1") -> WireReview
    {
        let decided = state != .awaitingReview
        return WireReview(
            serverID: report.serverID ?? "R-?", localID: report.localID, revision: revision, state: state,
            decidedBy: decided ? WirePerson(id: "U-2", displayName: "Sam Supervisor") : nil,
            decidedAt: decided ? "2026-12-01T10:00:00Z" : nil,
            comment: state == .returned ? "Retake the photo of the washroom." : nil,
            fieldComments: state == .returned
                ? [FieldComment(fieldID: "14", comment: "Too dark to see the floor.")] : [],
            change: change)
    }

    @Test(
        "a returned review is kept with who, when and every comment, and its cursor in the same transaction",
        arguments: StoreKind.allCases)
    func returnedIsKept(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try synced(t.store)
        let result = try t.store.recordReviews([review(report, .returned)], cursor: "c1")
        #expect(result.received == 1 && result.recorded == 1 && result.ignored == 0)
        #expect(result.returned == [ReturnedReport(localID: report.localID, serverID: "R-1")])
        let stored = try #require(try t.store.report(report.localID)?.lifecycle.review)
        #expect(stored.state == .returned && stored.revision == 1)
        #expect(stored.decidedBy == WirePerson(id: "U-2", displayName: "Sam Supervisor"))
        #expect(stored.decidedAt == "2026-12-01T10:00:00Z")
        #expect(stored.comment == "Retake the photo of the washroom.")
        #expect(stored.comments(on: "14") == ["Too dark to see the floor."])
        #expect(try t.store.meta(MetaKey.reviewsCursor) == "c1")
        #expect(try t.store.reviewsSupported())
        #expect(try t.store.returnedCount() == 1)
        #expect(try t.store.returnedReports().map(\.localID) == [report.localID])

        // The same review again (a feed pulled from its start) changes nothing and returns nothing anew.
        let again = try t.store.recordReviews([review(report, .returned)], cursor: "c2")
        #expect(again.recorded == 0 && again.returned.isEmpty)
        #expect(try t.store.meta(MetaKey.reviewsCursor) == "c2")
    }

    @Test(
        "a report accepted by a server with reviews is stored awaiting review: the feed's awaiting review of it writes nothing, a decision does",
        arguments: StoreKind.allCases)
    func acceptedAwaiting(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let draft = try t.store.createReport(templateID: "101", facilityID: "F-100")
        try t.store.saveAnswer(draft.localID, field: "1", value: "clean")
        try t.store.apply(.complete, to: draft.localID)
        let report = try t.store.apply(
            .accepted(serverID: "R-1", revision: 1, photosOutstanding: 0, awaitingReview: true), to: draft.localID)
        #expect(try t.store.report(report.localID)?.lifecycle.review == .awaiting(revision: 1))
        let page = try t.store.recordReviews([review(report, .awaitingReview)], cursor: "c1")
        #expect(page.received == 1 && page.recorded == 0 && page.ignored == 0)
        #expect(try t.store.meta(MetaKey.reviewsCursor) == "c1")
        let decided = try t.store.recordReviews([review(report, .approved, change: "c2")], cursor: "c2")
        #expect(decided.recorded == 1)
        #expect(try t.store.report(report.localID)?.lifecycle.review?.state == .approved)
    }

    @Test(
        "a page that names a report twice ends with its later review, even when the later one is the review stored before the page",
        arguments: StoreKind.allCases)
    func reviewedTwiceInOnePage(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try synced(t.store)
        let other = try synced(t.store, serverID: "R-2")
        _ = try t.store.recordReviews([review(report, .approved), review(other, .approved)], cursor: "c1")
        let page = try t.store.recordReviews(
            [
                review(other, .approved, change: "c2"), review(report, .returned, change: "c3"),
                review(report, .approved, change: "c4"),
            ], cursor: "c4")
        #expect(page.received == 3 && page.recorded == 2 && page.ignored == 0)
        #expect(try t.store.report(report.localID)?.lifecycle.review?.state == .approved)
        #expect(try t.store.report(other.localID)?.lifecycle.review?.state == .approved)
        #expect(try t.store.returnedCount() == 0)
        #expect(try t.store.meta(MetaKey.reviewsCursor) == "c4")
    }

    @Test("reviews of reports this device does not hold, of older revisions, or of reports never accepted are ignored")
    func ignored() throws {
        let t = try TestStore(.memory)
        let current = try synced(t.store)
        try t.store.apply(.amend, to: current.localID)
        try t.store.saveAnswer(current.localID, field: "1", value: "cleaner")
        try t.store.apply(.complete, to: current.localID)
        try t.store.apply(.accepted(serverID: "R-1", revision: 2, photosOutstanding: 0), to: current.localID)
        let draft = try t.store.createReport(templateID: "101", facilityID: "F-100")
        let stranger = WireReview(
            serverID: "R-9", localID: UUID(), revision: 1, state: .returned, comment: "Not yours.", change: "c3")
        let neverSent = WireReview(serverID: "R-8", localID: draft.localID, revision: 1, state: .approved, change: "c4")
        let result = try t.store.recordReviews(
            [review(current, .returned, revision: 1), stranger, neverSent], cursor: "c4")
        #expect(result.received == 3 && result.ignored == 3 && result.recorded == 0 && result.returned.isEmpty)
        #expect(try t.store.report(current.localID)?.lifecycle.review == nil)
        #expect(try t.store.report(draft.localID)?.lifecycle.review == nil)
        #expect(try t.store.meta(MetaKey.reviewsCursor) == "c4")
    }

    @Test(
        "amending a returned report keeps its comments until the new revision is accepted, which awaits review again",
        arguments: StoreKind.allCases)
    func amendment(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try synced(t.store)
        _ = try t.store.recordReviews([review(report, .returned)], cursor: "c1")
        let draft = try t.store.apply(.amend, to: report.localID)
        #expect(draft.state == .draft && draft.lifecycle.review?.isReturned == true)
        #expect(draft.lifecycle.awaitsChanges)
        #expect(try t.store.returnedCount() == 1)
        try t.store.saveAnswer(report.localID, field: "14", value: .array([]))
        try t.store.apply(.complete, to: report.localID)
        #expect(try t.store.returnedCount() == 0, "sent back: no longer waiting for the inspector")
        let accepted = try t.store.apply(
            .accepted(serverID: "R-1", revision: 2, photosOutstanding: 0), to: report.localID)
        #expect(accepted.lifecycle.review == .awaiting(revision: 2))
        // The server's own word on revision 2 arrives with the next page: the same, so nothing changes.
        let page = try t.store.recordReviews(
            [review(accepted, .awaitingReview, revision: 2, change: "c2")], cursor: "c2")
        #expect(page.recorded == 0)
        #expect(try t.store.report(report.localID)?.lifecycle.review?.state == .awaitingReview)
    }

    @Test(
        "retention never removes a returned report or one awaiting review; approved and rejected ones go as before",
        arguments: StoreKind.allCases)
    func retention(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let returned = try synced(t.store, serverID: "R-1")
        let awaiting = try synced(t.store, serverID: "R-2")
        let approved = try synced(t.store, serverID: "R-3")
        let rejected = try synced(t.store, serverID: "R-4")
        let plain = try synced(t.store, serverID: "R-5")
        _ = try t.store.recordReviews(
            [
                review(returned, .returned), review(awaiting, .awaitingReview),
                review(approved, .approved), review(rejected, .rejected),
            ], cursor: "c9")
        #expect(
            Set(try t.store.syncedReportTimes().map(\.localID)) == [approved.localID, rejected.localID, plain.localID])
        let kept = #expect(throws: StorageError.self) { try t.store.apply(.expire, to: returned.localID) }
        #expect(kept?.code == .notAllowed)
        #expect(
            kept?.message
                == "This report was returned for changes; it stays on this device until its amendment is synced.")
        let waiting = #expect(throws: StorageError.self) { try t.store.apply(.expire, to: awaiting.localID) }
        #expect(
            waiting?.message == "This report is awaiting review; it stays on this device until a supervisor decides.")
        for report in [approved, rejected, plain] { try t.store.apply(.expire, to: report.localID) }
        #expect(Set(try t.store.reports().map(\.localID)) == [returned.localID, awaiting.localID])
    }

    @Test("a server without reviews: the cursor and the mark are forgotten")
    func unsupported() throws {
        let t = try TestStore(.memory)
        _ = try t.store.recordReviews([], cursor: "c1")
        #expect(try t.store.reviewsSupported())
        try t.store.markReviewsUnsupported()
        #expect(try !t.store.reviewsSupported())
        #expect(try t.store.meta(MetaKey.reviewsCursor) == nil)
    }

    /// Takes a store back to before the step `add-merge-marks`.
    static func undoMergeMarks(_ db: Database) throws {
        for column in ["merged_fields", "conflict_fields"] {
            try db.execute("ALTER TABLE reports DROP COLUMN \(column)")
        }
        try db.execute("DELETE FROM schema_migrations WHERE name = 'add-merge-marks'")
        try db.setUserVersion(try db.userVersion() - 1)
    }

    @Test("a store made before reviews keeps every report and revision when it gains them")
    func upgrade() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        let id: UUID
        do {
            let store = try LocalStore.open(at: path)
            id = try synced(store).localID
        }
        // What the release before reviews left: no review columns (nor template versions), four steps applied.
        do {
            let db = try Database(path: path, mode: .readWrite)
            try TemplateVersionStoreTests.undoTemplateVersions(db)
            try Self.undoMergeMarks(db)
            try db.execute("DROP INDEX reports_by_review")
            for column in [
                "review_state", "review_revision", "review_decided_by_id", "review_decided_by_name",
                "review_decided_at", "review_comment", "review_field_comments",
            ] {
                try db.execute("ALTER TABLE reports DROP COLUMN \(column)")
            }
            try db.execute("DELETE FROM schema_migrations WHERE name = 'add-report-reviews'")
            try db.setUserVersion(4)
        }
        let store = try LocalStore.open(at: path)
        #expect(
            try store.appliedMigrations().suffix(4) == [
                "add-report-reviews", "add-merge-marks", "add-template-versions", "add-pass-threshold",
            ])
        let report = try #require(try store.report(id))
        #expect(report.state == .synced && report.serverID == "R-1" && report.answers["1"] == "clean")
        #expect(report.lifecycle.review == nil)
        #expect(try store.revisions(of: id).count == 3)
    }
}
