import Foundation
import Models
import Storage
import Sync
import Testing

/// The reviews pull of the sync cycle (contract 1.1), as a value: after the
/// photos, page after page while the server has more, bounded, a server
/// without reviews passed over in silence, a refused cursor dropped once.
@Suite struct ReviewCycleTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A cycle that pushed nothing and is now pulling the first page of reviews.
    func pullingReviews() -> (SyncCycle, [SyncCycle.Action]) {
        var cycle = SyncCycle(now: now, retentionDays: 30, random: { 0.5 })
        _ = cycle.start()
        _ = cycle.handle(.referencePulled(ReferenceCounts()))
        _ = cycle.handle(.queueLoaded([]))
        _ = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0"))
        let actions = cycle.handle(.photoWorkLoaded([]))
        return (cycle, actions)
    }

    func page(received: Int, returned: [ReturnedReport] = []) -> ReviewPageResult {
        var result = ReviewPageResult()
        result.received = received
        result.recorded = received
        result.returned = returned
        return result
    }

    @Test func reviewsArePulledAfterThePhotosAndBeforeRetention() {
        let (cycle, actions) = pullingReviews()
        #expect(actions == [.pullReviews(fromStart: false)])
        #expect(cycle.phase == .pullReviews(page: 0))
    }

    /// A first sync whose reference pull the server refused for now, with nothing to send, is not a
    /// sync that reached the server (jqc sync exits 75 and is tried again), even when the reviews feed answers.
    @Test func reviewsAloneDoNotMakeAFailedReferencePullASync() {
        var cycle = SyncCycle(now: now, retentionDays: 30, random: { 0.5 })
        _ = cycle.start()
        _ = cycle.handle(.referenceFailed(SyncFailure(kind: .transient, code: "SERVER_UNAVAILABLE", message: "503")))
        _ = cycle.handle(.queueLoaded([]))
        #expect(cycle.handle(.photoWorkLoaded([])) == [.pullReviews(fromStart: false)])
        _ = cycle.handle(.reviewPageStored(page(received: 2), more: false))
        #expect(cycle.summary.reviews?.received == 2)
        #expect(cycle.summary.online == false)
        #expect(cycle.summary.referenceError?.code == "SERVER_UNAVAILABLE")
    }

    @Test func pagesArePulledWhileTheServerHasMoreThenRetentionRuns() {
        var (cycle, _) = pullingReviews()
        let back = ReturnedReport(localID: UUID(), serverID: "R-1")
        #expect(
            cycle.handle(.reviewPageStored(page(received: 100, returned: [back]), more: true)) == [
                .pullReviews(fromStart: false)
            ])
        #expect(cycle.handle(.reviewPageStored(page(received: 3), more: false)) == [.loadSynced])
        #expect(cycle.summary.reviews == ReviewCounts(received: 103, recorded: 103, ignored: 0))
        #expect(cycle.summary.returned == [back])
        #expect(
            cycle.summary.json["returned"]
                == .array([["local_id": .string(back.localID.wireString), "server_id": "R-1"]]))
    }

    @Test func atMostFiftyPagesArePulledInOneCycle() {
        var (cycle, _) = pullingReviews()
        var pulls = 1
        while true {
            let actions = cycle.handle(.reviewPageStored(page(received: 100), more: true))
            guard actions == [.pullReviews(fromStart: false)] else {
                #expect(actions == [.loadSynced])
                break
            }
            pulls += 1
        }
        #expect(pulls == SyncCycle.reviewPagesPerCycle)
        #expect(cycle.summary.reviews?.received == 100 * SyncCycle.reviewPagesPerCycle)
    }

    @Test func aServerWithoutReviewsIsPassedOverInSilence() {
        var (cycle, _) = pullingReviews()
        #expect(cycle.handle(.reviewsUnsupported) == [.loadSynced])
        _ = cycle.handle(.syncedLoaded([]))
        #expect(cycle.summary.outcome == .done)
        #expect(cycle.summary.error == nil && cycle.summary.reviewsError == nil)
        #expect(cycle.summary.reviews == nil)
        #expect(cycle.summary.json["reviews"] == .null)
        #expect(cycle.summary.json["reviews_error"] == nil)
    }

    @Test func aRefusedCursorIsDroppedAndTheFeedPulledFromItsStartOnce() {
        var (cycle, _) = pullingReviews()
        #expect(cycle.handle(.reviewsCursorInvalid) == [.pullReviews(fromStart: true)])
        #expect(cycle.handle(.reviewsCursorInvalid) == [.loadSynced])
        #expect(cycle.summary.reviewsError?.code == "CURSOR_INVALID")
        #expect(cycle.summary.outcome == .done)
    }

    @Test func anUnreachableServerStopsTheCycleAsOfflineAndAnEndedSessionAsAuthRequired() {
        var (offline, _) = pullingReviews()
        _ = offline.handle(
            .reviewsFailed(SyncFailure(kind: .transient, code: SyncFailure.offlineCode, message: "No route.")))
        _ = offline.handle(.syncedLoaded([]))
        #expect(offline.summary.outcome == .offline)
        var (ended, _) = pullingReviews()
        _ = ended.handle(.reviewsFailed(SyncFailure(kind: .authRequired, code: "AUTH_REQUIRED", message: "Sign in.")))
        _ = ended.handle(.syncedLoaded([]))
        #expect(ended.summary.outcome == .authRequired)
    }

    @Test func aBusyReviewsRouteIsNotedAndTheCycleStillEndsDone() {
        var (cycle, _) = pullingReviews()
        #expect(
            cycle.handle(.reviewsFailed(SyncFailure(kind: .transient, code: "UNAVAILABLE", message: "Busy."))) == [
                .loadSynced
            ])
        _ = cycle.handle(.syncedLoaded([]))
        #expect(cycle.summary.outcome == .done)
        #expect(cycle.summary.reviewsError?.code == "UNAVAILABLE")
    }

    @Test func anOfflinePushNeverPullsReviews() {
        var cycle = SyncCycle(now: now, retentionDays: 30, random: { 0.5 })
        _ = cycle.start()
        let actions = cycle.handle(
            .referenceFailed(SyncFailure(kind: .transient, code: SyncFailure.offlineCode, message: "No route.")))
        #expect(actions == [.loadSynced])
    }

    /// A cycle that sent `report` in its first batch; `reviews`: the server answered the feed before.
    func pushing(_ report: UUID, reviews: Bool) -> SyncCycle {
        var cycle = SyncCycle(now: now, retentionDays: 30, serverHasReviews: reviews, random: { 0.5 })
        _ = cycle.start()
        _ = cycle.handle(.referencePulled(ReferenceCounts()))
        _ = cycle.handle(.queueLoaded([SyncCycle.Candidate(localID: report)]))
        return cycle
    }

    @Test(
        "a report accepted in a 1.1 answer (one naming a generation) of a server whose reviews feed answered before is recorded awaiting review; otherwise without"
    )
    func acceptedAwaitsReviewOnlyFromAServerWithReviews() {
        let report = UUID()
        let accepted = [SyncResult(localID: report, status: .accepted, serverID: "r-1", revision: 1)]
        var modern = pushing(report, reviews: true)
        let withReviews = modern.handle(
            .batchAnswered(results: accepted, minimumAppVersion: "1.0.0", serverGeneration: "g1"))
        #expect(
            withReviews.contains(
                .record(
                    events: [
                        .init(
                            report, .accepted(serverID: "r-1", revision: 1, photosOutstanding: 0, awaitingReview: true))
                    ], retryAt: [:])))
        let plain = SyncCycle.Action.record(
            events: [.init(report, .accepted(serverID: "r-1", revision: 1, photosOutstanding: 0))], retryAt: [:])
        var old = pushing(report, reviews: true)
        #expect(old.handle(.batchAnswered(results: accepted, minimumAppVersion: "1.0.0")).contains(plain))
        var unknown = pushing(report, reviews: false)
        #expect(
            unknown.handle(.batchAnswered(results: accepted, minimumAppVersion: "1.0.0", serverGeneration: "g1"))
                .contains(plain))
    }
}
