import Foundation
import Models
import Sync
import Testing

/// The sync cycle as a value: every decision checked with no network and no store.
@Suite struct SyncCycleTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = RetryPolicy(baseDelay: 30, maximumDelay: 3600, attemptCeiling: 8)

    func cycle(retentionDays: Int = 30) -> SyncCycle {
        SyncCycle(policy: policy, now: now, retentionDays: retentionDays, random: { 0.5 })
    }

    /// A cycle past the reference pull, waiting for the queue.
    func pushing(_ queue: [SyncCycle.Candidate]) -> (SyncCycle, [SyncCycle.Action]) {
        var cycle = cycle()
        _ = cycle.start()
        _ = cycle.handle(.referencePulled(ReferenceCounts()))
        let actions = cycle.handle(.queueLoaded(queue))
        return (cycle, actions)
    }

    func ids(_ count: Int) -> [UUID] { (0..<count).map { _ in UUID() } }

    func sentBatches(_ actions: [SyncCycle.Action]) -> [[UUID]] {
        actions.compactMap { if case .sendBatch(let ids) = $0 { return ids } else { return nil } }
    }

    func recorded(_ actions: [SyncCycle.Action]) -> [SyncCycle.RecordedEvent] {
        actions.flatMap { action -> [SyncCycle.RecordedEvent] in
            if case .record(let events, _) = action { return events } else { return [] }
        }
    }

    func retries(_ actions: [SyncCycle.Action]) -> [UUID: Date] {
        var all: [UUID: Date] = [:]
        for case .record(_, let retryAt) in actions { all.merge(retryAt) { $1 } }
        return all
    }

    func accepted(_ id: UUID, _ serverID: String = "srv", revision: Int = 1) -> SyncResult {
        SyncResult(localID: id, status: .accepted, serverID: serverID, revision: revision)
    }

    @Test func startsWithReferenceThenReadsTheQueue() {
        var cycle = cycle()
        #expect(cycle.start() == [.pullReference])
        #expect(cycle.handle(.referencePulled(ReferenceCounts(facilities: 2))) == [.loadQueue])
        #expect(cycle.summary.reference?.facilities == 2)
        #expect(cycle.summary.online)
    }

    @Test func sendsDueReportsInCreationOrderInBatchesOfAtMostOneHundred() {
        let reports = ids(250)
        var (cycle, actions) = pushing(reports.map { SyncCycle.Candidate(localID: $0) })
        var sent = sentBatches(actions)
        #expect(sent.count == 1 && sent[0] == Array(reports[0..<100]))
        actions = cycle.handle(.batchAnswered(results: sent[0].map { accepted($0) }, minimumAppVersion: "1.0.0"))
        sent = sentBatches(actions)
        #expect(sent == [Array(reports[100..<200])])
        actions = cycle.handle(.batchAnswered(results: sent[0].map { accepted($0) }, minimumAppVersion: "1.0.0"))
        #expect(sentBatches(actions) == [Array(reports[200..<250])])
        actions = cycle.handle(
            .batchAnswered(results: reports[200..<250].map { accepted($0) }, minimumAppVersion: "1.0.0"))
        #expect(actions.last == .loadPhotoWork)
        #expect(cycle.summary.accepted == 250)
    }

    @Test func theNextBatchLeavesOnTheAnswerWhichIsRecordedWhileItIsInFlightAndPhotosWaitForTheLastRecord() {
        let reports = ids(150)
        var (cycle, _) = pushing(reports.map { SyncCycle.Candidate(localID: $0) })
        var actions = cycle.handle(
            .batchAnswered(results: reports[0..<100].map { accepted($0) }, minimumAppVersion: "1.0.0"))
        // One batch in flight at a time: the next leaves first, and the answer is recorded while it flies,
        // before its own answer can be fed in (the driver performs every action returned before it waits).
        let record = actions.firstIndex { if case .record = $0 { true } else { false } }
        #expect(actions.first == .sendBatch(Array(reports[100..<150])))
        #expect(record != nil)
        #expect(recorded(actions).map(\.localID) == Array(reports[0..<100]))
        #expect(!actions.contains(.loadPhotoWork))
        actions = cycle.handle(
            .batchAnswered(results: reports[100..<150].map { accepted($0) }, minimumAppVersion: "1.0.0"))
        #expect(sentBatches(actions).isEmpty)
        #expect(recorded(actions).map(\.localID) == Array(reports[100..<150]))
        // The photo phase reads what was recorded, so it comes after the last record.
        #expect(actions.last == .loadPhotoWork)
        #expect(actions.dropLast().contains { if case .record = $0 { true } else { false } })
    }

    @Test func theBatchAfterTheOneInFlightIsPreparedAndNothingBeyondIt() {
        let reports = ids(250)
        var (cycle, actions) = pushing(reports.map { SyncCycle.Candidate(localID: $0) })
        #expect(actions == [.sendBatch(Array(reports[0..<100])), .prepareBatch(Array(reports[100..<200]))])
        actions = cycle.handle(
            .batchAnswered(results: reports[0..<100].map { accepted($0) }, minimumAppVersion: "1.0.0"))
        #expect(actions.first == .sendBatch(Array(reports[100..<200])))
        #expect(actions.last == .prepareBatch(Array(reports[200..<250])))
        actions = cycle.handle(
            .batchAnswered(results: reports[100..<200].map { accepted($0) }, minimumAppVersion: "1.0.0"))
        #expect(actions.first == .sendBatch(Array(reports[200..<250])))
        #expect(!actions.contains { if case .prepareBatch = $0 { true } else { false } })
    }

    @Test func aRefusedBatchIsRecordedWhileTheNextOneIsInFlight() {
        let reports = ids(120)
        var (cycle, _) = pushing(reports.map { SyncCycle.Candidate(localID: $0) })
        let refused = SyncFailure(kind: .refused, code: "PAYLOAD_TOO_LARGE", message: "Too large.")
        let actions = cycle.handle(.batchFailed(refused))
        #expect(actions.first == .sendBatch(Array(reports[100..<120])))
        #expect(recorded(actions).map(\.localID) == Array(reports[0..<100]))
        #expect(cycle.summary.failed == 100)
    }

    @Test func skipsReportsNotDueOrAtTheCeilingAndThoseOnlyWaitingForPhotos() {
        let due = UUID(), later = UUID(), ceiling = UUID(), photosOnly = UUID(), pastDue = UUID()
        let (cycle, actions) = pushing([
            .init(localID: due),
            .init(localID: later, attemptCount: 2, nextAttemptAt: now.addingTimeInterval(60)),
            .init(localID: ceiling, attemptCount: 8),
            .init(localID: photosOnly, awaitingPhotos: true, outstandingPhotos: 2),
            .init(localID: pastDue, attemptCount: 3, nextAttemptAt: now.addingTimeInterval(-1)),
        ])
        #expect(sentBatches(actions) == [[due, pastDue]])
        #expect(cycle.summary.waiting == 1)
        #expect(cycle.summary.needsPerson == 1)
    }

    @Test func nothingDueAfterAFailedReferencePullSendsNoProbe() {
        var cycle = cycle()
        _ = cycle.start()
        _ = cycle.handle(.referenceFailed(SyncFailure(kind: .transient, code: "SERVER_UNAVAILABLE", message: "503")))
        #expect(cycle.handle(.queueLoaded([])) == [.loadPhotoWork])
    }

    @Test func nothingDueSendsAnEmptyBatchToLearnTheVersionGateThenGoesToPhotos() {
        var (cycle, actions) = pushing([])
        #expect(actions == [.sendBatch([])])
        actions = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "9.0.0"))
        #expect(actions == [.storeMinimumAppVersion("9.0.0"), .loadPhotoWork])
    }

    @Test func recordsEveryVerdictOfABatchInOneStepAndKeepsTheMinimumVersion() {
        let ok = UUID(), withPhotos = UUID(), clash = UUID(), bad = UUID(), parent = UUID()
        var (cycle, _) = pushing([
            .init(localID: ok, parentLocalID: parent),
            .init(localID: withPhotos, outstandingPhotos: 3),
            .init(localID: clash), .init(localID: bad),
        ])
        // A re-inspection waits for the empty batch that learns the server's generation (none: a 1.0 server).
        _ = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.2.0"))
        let payload: JSONValue = ["answers": ["1": "server"]]
        let actions = cycle.handle(
            .batchAnswered(
                results: [
                    accepted(ok, "s1", revision: 1),
                    accepted(withPhotos, "s2", revision: 4),
                    SyncResult(localID: clash, status: .conflict, serverPayload: payload, serverRevision: 3),
                    SyncResult(
                        localID: bad, status: .rejected, errorCode: "REPORT_INVALID", error: "Answer 2 is not a number."
                    ),
                ], minimumAppVersion: "1.2.0"))
        #expect(actions.first == .storeMinimumAppVersion("1.2.0"))
        let records = actions.filter { if case .record = $0 { return true } else { return false } }
        #expect(records.count == 1)
        #expect(
            recorded(actions) == [
                .init(ok, .accepted(serverID: "s1", revision: 1, photosOutstanding: 0)),
                .init(withPhotos, .accepted(serverID: "s2", revision: 4, photosOutstanding: 3)),
                .init(clash, .conflict(serverRevision: 3, serverPayload: payload)),
                .init(bad, .rejected(code: "REPORT_INVALID", message: "Answer 2 is not a number.")),
            ])
        #expect(actions.contains(.clearFollowUp([parent])))
        #expect(actions.last == .loadPhotoWork)
        #expect(cycle.summary.accepted == 2)
        #expect(cycle.summary.conflicts == [clash])
        #expect(cycle.summary.rejected.map(\.code) == ["REPORT_INVALID"])
    }

    @Test func aReportTheServerLeftUnansweredIsRetriedLater() {
        let answered = UUID(), skipped = UUID()
        var (cycle, _) = pushing([.init(localID: answered), .init(localID: skipped)])
        let actions = cycle.handle(.batchAnswered(results: [accepted(answered)], minimumAppVersion: "1.0.0"))
        #expect(recorded(actions).last?.localID == skipped)
        #expect(retries(actions)[skipped] != nil)
        #expect(cycle.summary.failed == 1)
    }

    @Test func aTransportFailureMarksTheWholeBatchSchedulesJitteredRetriesAndStopsPushing() {
        let reports = ids(150)
        var queue = reports.map { SyncCycle.Candidate(localID: $0) }
        queue[1].attemptCount = 2
        var (cycle, _) = pushing(queue)
        let offline = SyncFailure(kind: .transient, code: SyncFailure.offlineCode, message: "No connection.")
        let actions = cycle.handle(.batchFailed(offline))
        #expect(sentBatches(actions).isEmpty)
        let events = recorded(actions)
        #expect(events.count == 100)
        #expect(
            events.allSatisfy { $0.event == .transportFailed(code: SyncFailure.offlineCode, message: "No connection.") }
        )
        let due = retries(actions)
        // Full jitter with random 0.5: half the bound of attempt 1 (30 s) and of attempt 3 (120 s).
        #expect(due[reports[0]] == now.addingTimeInterval(15))
        #expect(due[reports[1]] == now.addingTimeInterval(60))
        #expect(due[reports[120]] == nil)
        #expect(actions.last == .loadSynced)
        #expect(cycle.handle(.syncedLoaded([])) == [.finish(cycle.summary.with(outcome: .offline))])
        #expect(cycle.summary.outcome == .offline)
        #expect(cycle.summary.online == false)
    }

    @Test func retryAfterFromTheServerIsNeverCutShort() {
        let report = UUID()
        var (cycle, _) = pushing([.init(localID: report)])
        let busy = SyncFailure(kind: .transient, code: "UNAVAILABLE", message: "Busy.", retryAfter: 600)
        let actions = cycle.handle(.batchFailed(busy))
        #expect(retries(actions)[report] == now.addingTimeInterval(600))
    }

    @Test(
        "a retry time beyond the longest delay means the clock was set back: the report is due, not stranded for years")
    func retryTimeOutOfReachIsDue() {
        let failedWhileAhead = UUID(), failedJustNow = UUID()
        let (cycle, actions) = pushing([
            .init(localID: failedWhileAhead, attemptCount: 1, nextAttemptAt: now.addingTimeInterval(10 * 365 * 86_400)),
            .init(localID: failedJustNow, attemptCount: 1, nextAttemptAt: now.addingTimeInterval(3600)),
        ])
        #expect(sentBatches(actions) == [[failedWhileAhead]])
        #expect(cycle.summary.waiting == 1, "a retry time within the longest delay is still waited for")
    }

    @Test("a Retry-After longer than the policy's longest delay is held to it, so every retry time stays within reach")
    func longRetryAfterIsCapped() {
        let report = UUID()
        var (cycle, _) = pushing([.init(localID: report)])
        let busy = SyncFailure(kind: .transient, code: "UNAVAILABLE", message: "Busy.", retryAfter: 86_400)
        let actions = cycle.handle(.batchFailed(busy))
        #expect(retries(actions)[report] == now.addingTimeInterval(3600))
    }

    @Test func anExpiredSessionChangesNoReportAndEndsAuthRequired() {
        var (cycle, _) = pushing([.init(localID: UUID())])
        let actions = cycle.handle(
            .batchFailed(SyncFailure(kind: .authRequired, code: "AUTH_REQUIRED", message: "Sign in.")))
        #expect(recorded(actions).isEmpty)
        #expect(actions == [.loadSynced])
        _ = cycle.handle(.syncedLoaded([]))
        #expect(cycle.summary.outcome == .authRequired)
    }

    @Test func aRefusedBatchDoesNotBlockTheNextOne() {
        let reports = ids(101)
        var (cycle, _) = pushing(reports.map { SyncCycle.Candidate(localID: $0) })
        let actions = cycle.handle(.batchFailed(SyncFailure(kind: .refused, code: "FORBIDDEN", message: "Not yours.")))
        #expect(recorded(actions).count == 100)
        #expect(sentBatches(actions) == [[reports[100]]])
    }

    @Test(
        "a batch refused as too large or unreadable is halved until the report the server cannot take is alone",
        arguments: ["TOO_LARGE", "BAD_REQUEST"])
    func aRefusedBatchIsHalved(code: String) {
        let reports = ids(5)
        var (cycle, _) = pushing(reports.map { SyncCycle.Candidate(localID: $0) })
        let refused = SyncFailure(kind: .refused, code: code, message: "Refused.")
        // [0 1 2 3 4] refused -> [0 1] goes first, then [2 3 4].
        var actions = cycle.handle(.batchFailed(refused))
        #expect(recorded(actions).isEmpty, "nothing is failed while the batch can still be split")
        #expect(sentBatches(actions) == [Array(reports[0..<2])])
        actions = cycle.handle(.batchAnswered(results: reports[0..<2].map { accepted($0) }, minimumAppVersion: "0.1.0"))
        #expect(sentBatches(actions) == [Array(reports[2..<5])])
        // [2 3 4] refused -> [2] then [3 4]; [2] alone refused is failed, and [3 4] still goes.
        actions = cycle.handle(.batchFailed(refused))
        #expect(sentBatches(actions) == [[reports[2]]])
        actions = cycle.handle(.batchFailed(refused))
        #expect(recorded(actions).map(\.localID) == [reports[2]])
        #expect(recorded(actions).first?.event == .transportFailed(code: code, message: "Refused."))
        #expect(sentBatches(actions) == [Array(reports[3..<5])])
        actions = cycle.handle(.batchAnswered(results: reports[3..<5].map { accepted($0) }, minimumAppVersion: "0.1.0"))
        #expect(cycle.summary.accepted == 4)
        #expect(cycle.summary.failed == 1)
    }

    @Test func unreachableServerForReferenceStopsBeforeAnyReportIsTouched() {
        var cycle = cycle()
        _ = cycle.start()
        let actions = cycle.handle(
            .referenceFailed(SyncFailure(kind: .transient, code: SyncFailure.offlineCode, message: "No connection.")))
        #expect(actions == [.loadSynced])
        _ = cycle.handle(.syncedLoaded([]))
        #expect(cycle.summary.outcome == .offline)
        #expect(cycle.summary.failed == 0)
    }

    @Test func rotatedTokensThatCouldNotBeKeptStopTheCycleAsAnEndedSessionWould() {
        var cycle = cycle()
        _ = cycle.start()
        let failure = SyncFailure(APIError(.sessionNotSaved, "The sign-in could not be kept."))
        #expect(failure.kind == .authRequired && failure.code == "SESSION_NOT_SAVED")
        let actions = cycle.handle(.referenceFailed(failure))
        #expect(actions == [.loadSynced], "no report is sent on tokens the device could not keep")
        _ = cycle.handle(.syncedLoaded([]))
        #expect(cycle.summary.outcome == .authRequired)
        #expect(cycle.summary.error?.message == "The sign-in could not be kept.")
    }

    @Test func aBusyOrOddReferenceEndpointStillLetsReportsGo() {
        var cycle = cycle()
        _ = cycle.start()
        #expect(
            cycle.handle(.referenceFailed(SyncFailure(kind: .transient, code: "UNAVAILABLE", message: "Busy."))) == [
                .loadQueue
            ])
    }

    @Test func photosOfAcceptedReportsAreUploadedAndEachReportIsSyncedOnlyWhenAllAreUp() {
        let whole = UUID(), partial = UUID(), bare = UUID()
        let p1 = UUID(), p2 = UUID(), p3 = UUID(), p4 = UUID()
        var (cycle, actions) = pushing([
            .init(localID: whole, outstandingPhotos: 2), .init(localID: partial, outstandingPhotos: 2),
        ])
        actions = cycle.handle(
            .batchAnswered(results: [accepted(whole), accepted(partial, "s2")], minimumAppVersion: "1.0.0"))
        #expect(actions.last == .loadPhotoWork)
        actions = cycle.handle(
            .photoWorkLoaded([
                .init(reportLocalID: whole, photoLocalIDs: [p1, p2]),
                .init(reportLocalID: partial, photoLocalIDs: [p3, p4]),
                .init(reportLocalID: bare, photoLocalIDs: []),
            ]))
        #expect(recorded(actions) == [.init(bare, .photosUploaded)])
        #expect(actions.last == .uploadPhotos([p1, p2, p3, p4]))
        let failure = SyncFailure(kind: .refused, code: "PHOTO_HASH_MISMATCH", message: "Hash mismatch.")
        actions = cycle.handle(
            .photosUploaded([
                .init(photoLocalID: p1, byteSize: 10), .init(photoLocalID: p2, byteSize: 20),
                .init(photoLocalID: p3, byteSize: 30), .init(photoLocalID: p4, failure: failure),
            ]))
        #expect(actions.first == .markPhotos(uploaded: [p1, p2, p3], failed: [p4: "Hash mismatch."]))
        #expect(
            recorded(actions) == [
                .init(whole, .photosUploaded),
                .init(
                    partial, .transportFailed(code: "PHOTO_UPLOAD_FAILED", message: "Photos still uploading (1 left).")),
            ])
        #expect(retries(actions)[partial] == now.addingTimeInterval(15))
        #expect(actions.last == .pullReviews(fromStart: false))
        #expect(cycle.summary.photosUploaded == 3 && cycle.summary.photoBytes == 60 && cycle.summary.photosFailed == 1)
        #expect(cycle.summary.synced == 2)
    }

    @Test func photoWorkOfAnEarlierCycleWaitsForItsBackoff() {
        let waiting = UUID()
        var (cycle, _) = pushing([
            .init(localID: waiting, attemptCount: 1, nextAttemptAt: now.addingTimeInterval(30), awaitingPhotos: true)
        ])
        _ = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0"))
        let actions = cycle.handle(.photoWorkLoaded([.init(reportLocalID: waiting, photoLocalIDs: [UUID()])]))
        #expect(actions == [.pullReviews(fromStart: false)])
        #expect(cycle.summary.waiting == 1)
    }

    @Test func retentionExpiresOnlySyncedReportsOlderThanTheWindow() {
        var cycle = cycle(retentionDays: 30)
        _ = cycle.start()
        _ = cycle.handle(.referencePulled(ReferenceCounts()))
        _ = cycle.handle(.queueLoaded([]))
        _ = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0"))
        _ = cycle.handle(.photoWorkLoaded([]))
        _ = cycle.handle(.reviewsUnsupported)
        let old = UUID(), fresh = UUID()
        let actions = cycle.handle(
            .syncedLoaded([
                (localID: old, syncedAt: now.addingTimeInterval(-31 * 86_400)),
                (localID: fresh, syncedAt: now.addingTimeInterval(-29 * 86_400)),
            ]))
        #expect(actions == [.expire([old])])
        let end = cycle.handle(.expired(removed: 1, kept: 0))
        #expect(cycle.summary.expired == 1)
        #expect(cycle.summary.outcome == .done)
        #expect(end == [.finish(cycle.summary)])
        #expect(cycle.phase == .finished(.done))
    }

    @Test func anEventOutOfPhaseChangesNothing() {
        var cycle = cycle()
        #expect(cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0")).isEmpty)
        #expect(cycle.phase == .idle)
    }
}

extension SyncSummary {
    func with(outcome: SyncOutcome) -> SyncSummary {
        var copy = self
        copy.outcome = outcome
        return copy
    }
}
