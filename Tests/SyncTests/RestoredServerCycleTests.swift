import Foundation
import Models
import Sync
import Testing

/// A server restored from a backup, as the cycle sees it: a sync answer's
/// `server_generation` is checked once the reports are pushed, and what the
/// restored server lacked is sent in the same cycle.
@Suite struct RestoredServerCycleTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A cycle whose reference pull went well and whose queue is `queue`.
    func pushing(_ queue: [SyncCycle.Candidate]) -> (SyncCycle, [SyncCycle.Action]) {
        var cycle = SyncCycle(policy: RetryPolicy(), now: now, retentionDays: 30, random: { 0.5 })
        _ = cycle.start()
        _ = cycle.handle(.referencePulled(ReferenceCounts()))
        let actions = cycle.handle(.queueLoaded(queue))
        return (cycle, actions)
    }

    @Test("an idle cycle's empty batch learns the generation, which is checked before the photos")
    func checkedAfterThePush() {
        var (cycle, actions) = pushing([])
        #expect(actions == [.sendBatch([])])
        actions = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0", serverGeneration: "g2"))
        #expect(actions == [.storeMinimumAppVersion("1.0.0"), .checkGeneration("g2")])
        #expect(cycle.handle(.generationChecked(restore: nil)) == [.loadPhotoWork])
        #expect(cycle.summary.serverRestore == nil)
    }

    @Test("a server without a generation (contract 1.0) is not checked")
    func noGeneration() {
        var (cycle, _) = pushing([])
        #expect(
            cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0")) == [
                .storeMinimumAppVersion("1.0.0"), .loadPhotoWork,
            ])
    }

    @Test("reports put back after a restore are read again and sent in the same cycle, once; the summary says how many")
    func resentInTheSameCycle() {
        let lost = UUID()
        var (cycle, _) = pushing([])
        _ = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0", serverGeneration: "g2"))
        #expect(
            cycle.handle(.generationChecked(restore: ServerRestore(reportsSentAgain: 1, photosSentAgain: 0))) == [
                .loadQueue
            ])
        #expect(cycle.summary.serverRestore?.reportsSentAgain == 1)
        #expect(
            cycle.handle(.queueLoaded([SyncCycle.Candidate(localID: lost, outstandingPhotos: 1)])) == [
                .sendBatch([lost])
            ])
        let actions = cycle.handle(
            .batchAnswered(
                results: [SyncResult(localID: lost, status: .accepted, serverID: "r-new", revision: 1)],
                minimumAppVersion: "1.0.0", serverGeneration: "g2"))
        // Checked once: the photos come next.
        #expect(actions.last == .loadPhotoWork)
        #expect(!actions.contains(.checkGeneration("g2")))
        #expect(cycle.summary.accepted == 1)
    }

    @Test(
        "with an amendment queued, an empty batch learns the generation first, and the amendment goes only after the check"
    )
    func amendmentWaitsForTheCheck() {
        let amendment = UUID(), fresh = UUID()
        var (cycle, actions) = pushing([
            SyncCycle.Candidate(localID: fresh), SyncCycle.Candidate(localID: amendment, isAmendment: true),
        ])
        #expect(actions.first == .sendBatch([]))
        actions = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0", serverGeneration: "g1"))
        #expect(
            actions == [.storeMinimumAppVersion("1.0.0"), .checkGeneration("g1")],
            "nothing else is sent before the check")
        // The same generation as stored: the push goes on where it was.
        #expect(cycle.handle(.generationChecked(restore: nil)) == [.sendBatch([fresh, amendment])])
    }

    @Test("without an amendment queued, the reports go at once and the generation is checked after the first answer")
    func noProbeForNewReports() {
        let reports = (0..<150).map { _ in UUID() }
        var (cycle, actions) = pushing(reports.map { SyncCycle.Candidate(localID: $0) })
        #expect(actions.first == .sendBatch(Array(reports[0..<100])))
        actions = cycle.handle(
            .batchAnswered(
                results: reports[0..<100].map {
                    SyncResult(localID: $0, status: .accepted, serverID: "s", revision: 1)
                },
                minimumAppVersion: "1.0.0", serverGeneration: "g1"))
        #expect(actions.last == .checkGeneration("g1"))
        #expect(cycle.handle(.generationChecked(restore: nil)) == [.sendBatch(Array(reports[100...]))])
    }

    @Test("a check cut short by the network ends the cycle offline; the generation is checked again next time")
    func checkOffline() {
        var (cycle, _) = pushing([])
        _ = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0", serverGeneration: "g2"))
        let offline = SyncFailure(kind: .transient, code: SyncFailure.offlineCode, message: "No connection.")
        #expect(cycle.handle(.generationCheckFailed(offline)) == [.loadSynced])
        #expect(cycle.summary.error == offline)
    }

    @Test(
        "a check the server answers 503 sends nothing more: the amendment waits for the next cycle, which checks again"
    )
    func checkUnavailable() {
        let amendment = UUID()
        var (cycle, actions) = pushing([SyncCycle.Candidate(localID: amendment, isAmendment: true)])
        #expect(actions.first == .sendBatch([]))
        actions = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0", serverGeneration: "g2"))
        #expect(actions.last == .checkGeneration("g2"))
        let unavailable = SyncFailure(kind: .transient, code: "UNAVAILABLE", message: "The server is unavailable.")
        actions = cycle.handle(.generationCheckFailed(unavailable))
        #expect(actions == [.loadSynced], "no batch and no photo goes to a server whose restore is unchecked")
        #expect(cycle.summary.error == unavailable)
        #expect(cycle.summary.accepted == 0 && cycle.summary.rejected.isEmpty)
    }

    @Test("a check the server refuses sends nothing more either; the cycle says why")
    func checkRefused() {
        let amendment = UUID()
        var (cycle, _) = pushing([SyncCycle.Candidate(localID: amendment, isAmendment: true)])
        _ = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0", serverGeneration: "g2"))
        let refused = SyncFailure(kind: .refused, code: "BAD_RESPONSE", message: "The server's answer was malformed.")
        #expect(cycle.handle(.generationCheckFailed(refused)) == [.loadSynced])
        #expect(cycle.summary.error == refused)
    }

    @Test("with a re-inspection queued, whose parent a restored server may lack, the generation is checked first too")
    func reinspectionWaitsForTheCheck() {
        let parent = UUID(), reinspection = UUID()
        var (cycle, actions) = pushing([SyncCycle.Candidate(localID: reinspection, parentLocalID: parent)])
        #expect(actions.first == .sendBatch([]))
        actions = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0", serverGeneration: "g1"))
        #expect(actions == [.storeMinimumAppVersion("1.0.0"), .checkGeneration("g1")])
        #expect(cycle.handle(.generationChecked(restore: nil)) == [.sendBatch([reinspection])])
    }

    @Test("a server restored after the cycle's check: its refusal of a re-inspection goes again after a new check")
    func restoredAfterTheCheck() {
        let parent = UUID(), reinspection = UUID()
        var (cycle, _) = pushing([SyncCycle.Candidate(localID: reinspection, parentLocalID: parent)])
        _ = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0", serverGeneration: "g1"))
        #expect(cycle.handle(.generationChecked(restore: nil)) == [.sendBatch([reinspection])])
        // Restored meanwhile: the answer names another generation and refuses the child.
        let refused = SyncResult(
            localID: reinspection, status: .rejected, errorCode: "VALIDATION_FAILED",
            error: "parent_server_id 'R-1' names no report on this server")
        let actions = cycle.handle(
            .batchAnswered(results: [refused], minimumAppVersion: "1.0.0", serverGeneration: "g2"))
        #expect(actions.last == .checkGeneration("g2"), "the restored server is checked before anything more goes")
        guard
            case .record(let events, let retryAt) = actions.first(where: {
                if case .record = $0 { true } else { false }
            })
        else {
            Issue.record("the answer is recorded")
            return
        }
        #expect(events.map(\.localID) == [reinspection])
        if case .transportFailed(let code, _) = events.first?.event {
            #expect(code == SyncFailure.Code.serverRestored.rawValue)
        } else {
            Issue.record("the refusal is kept as one to send again, not as a rejection: \(events)")
        }
        #expect(retryAt[reinspection] == now, "it goes again in this cycle, after the parent the check puts back")
        #expect(cycle.summary.rejected.isEmpty)
        // The check puts the parent back; the queue is read again and both go, the parent first.
        #expect(
            cycle.handle(.generationChecked(restore: ServerRestore(reportsSentAgain: 1, photosSentAgain: 0))) == [
                .loadQueue
            ])
        #expect(
            cycle.handle(
                .queueLoaded([
                    SyncCycle.Candidate(localID: parent),
                    SyncCycle.Candidate(localID: reinspection, attemptCount: 1, parentLocalID: parent),
                ])) == [.sendBatch([parent, reinspection])])
    }

    @Test("a refusal from the server the cycle checked stays a rejection")
    func refusalFromTheCheckedServer() {
        let report = UUID()
        var (cycle, _) = pushing([SyncCycle.Candidate(localID: report, isAmendment: true)])
        _ = cycle.handle(.batchAnswered(results: [], minimumAppVersion: "1.0.0", serverGeneration: "g1"))
        _ = cycle.handle(.generationChecked(restore: nil))
        let refused = SyncResult(localID: report, status: .rejected, errorCode: "VALIDATION_FAILED", error: "bad")
        let actions = cycle.handle(
            .batchAnswered(results: [refused], minimumAppVersion: "1.0.0", serverGeneration: "g1"))
        #expect(actions.last == .loadPhotoWork)
        #expect(cycle.summary.rejected.map(\.localID) == [report])
    }
}
