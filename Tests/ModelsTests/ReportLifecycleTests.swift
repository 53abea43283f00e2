import Testing
@_spi(StoreRestoring) import Models

/// Reaches each state (and the accepted-awaiting-photos sub-state) through legal events only.
enum Situation: String, CaseIterable, CustomTestStringConvertible {
    case draft, pending, pendingAwaitingPhotos, synced, conflict, rejected, amendedDraft

    var testDescription: String { rawValue }

    func lifecycle() throws -> ReportLifecycle {
        var l = ReportLifecycle()
        switch self {
        case .draft:
            break
        case .pending:
            try l.apply(.complete)
        case .pendingAwaitingPhotos:
            try l.apply(.complete)
            try l.apply(.accepted(serverID: "r-1", revision: 1, photosOutstanding: 2))
        case .synced:
            try l.apply(.complete)
            try l.apply(.accepted(serverID: "r-1", revision: 1, photosOutstanding: 0))
        case .conflict:
            // A conflict arises when an amendment meets a newer server revision.
            try l.apply(.complete)
            try l.apply(.accepted(serverID: "r-1", revision: 1, photosOutstanding: 0))
            try l.apply(.amend)
            try l.apply(.complete)
            try l.apply(.conflict(serverRevision: 4, serverPayload: ["answers": ["1": "fail"]]))
        case .rejected:
            try l.apply(.complete)
            try l.apply(.rejected(code: "REPORT_INVALID", message: "answer to '3' must be a number"))
        case .amendedDraft:
            try l.apply(.complete)
            try l.apply(.accepted(serverID: "r-1", revision: 1, photosOutstanding: 0))
            try l.apply(.amend)
        }
        return l
    }
}

let allEvents: [ReportEvent] = [
    .autosave, .complete,
    .accepted(serverID: "r-9", revision: 2, photosOutstanding: 0),
    .photosUploaded,
    .conflict(serverRevision: 3, serverPayload: ["answers": [:]]),
    .rejected(code: "REPORT_INVALID", message: "bad"),
    .transportFailed(code: "SYNC_OFFLINE", message: "no network"),
    .retryRequested, .keepMine, .takeServer, .amend, .discard, .expire,
    .reviewed(ReportReview(state: .returned, revision: 2, comment: "Retake the photo.")),
    .serverLost, .serverLostPhotos, .serverBehind(revision: 0),
]

/// The transition table, written out by hand: what each situation accepts.
func legalEvents(_ situation: Situation) -> Set<String> {
    switch situation {
    case .draft: return ["save an answer", "complete", "delete"]
    case .amendedDraft:
        return [
            "save an answer", "complete", "delete", "record a review",
            "send again to a restored server", "send a revision again to a restored server",
        ]
    case .pending:
        return ["accept", "mark as conflicting", "reject", "record a failed upload", "retry", "record a review"]
    case .pendingAwaitingPhotos:
        return [
            "finish photo uploads", "record a failed upload", "retry", "record a review",
            "send again to a restored server", "send photos again to a restored server",
            "send a revision again to a restored server",
        ]
    case .synced:
        return [
            "amend", "remove after retention", "record a review",
            "send again to a restored server", "send photos again to a restored server",
            "send a revision again to a restored server",
        ]
    case .conflict:
        return [
            "resolve by keeping mine", "resolve by taking the server's", "record a review",
            "send again to a restored server", "send a revision again to a restored server",
        ]
    case .rejected: return ["save an answer", "complete"]
    }
}

@Suite("Report state machine")
struct ReportLifecycleTests {
    @Test(
        "every event in every state: legal ones apply, illegal ones are refused and change nothing",
        arguments: Situation.allCases)
    func table(situation: Situation) throws {
        for event in allEvents {
            var lifecycle = try situation.lifecycle()
            let before = lifecycle
            let legal = legalEvents(situation).contains(event.name)
            do {
                try lifecycle.apply(event)
                #expect(legal, "\(situation) accepted '\(event.name)', which the table forbids")
            } catch {
                #expect(!legal, "\(situation) refused '\(event.name)': \(error.message)")
                #expect(error.code == .illegalTransition)
                #expect(lifecycle == before, "a refused event must change nothing")
                #expect(error.message.contains(before.state.rawValue), "the refusal names the current state")
                #expect(!error.message.contains("\n"))
            }
        }
    }

    @Test(
        "a server restored without the report: SYNCED goes back in the queue as never sent, to be uploaded again with its local id"
    )
    func serverLost() throws {
        var lifecycle = try Situation.synced.lifecycle()
        try lifecycle.apply(.reviewed(ReportReview(state: .approved, revision: 1, comment: nil)))
        #expect(try lifecycle.apply(.serverLost) == [.enqueueUpload])
        #expect(lifecycle.state == .pending)
        #expect(lifecycle.serverID == nil && lifecycle.baseRevision == nil && lifecycle.acceptedRevision == nil)
        #expect(lifecycle.review == nil, "the restored server has no review of it")
        // Sent again, it is accepted under a new server id like any new report.
        try lifecycle.apply(.accepted(serverID: "r-2", revision: 1, photosOutstanding: 1))
        #expect(lifecycle.serverID == "r-2" && lifecycle.acceptedRevision == 1)
    }

    @Test(
        "a server restored with the report but not every photo: SYNCED waits for those photos again, keeping its server id"
    )
    func serverLostPhotos() throws {
        var lifecycle = try Situation.synced.lifecycle()
        #expect(try lifecycle.apply(.serverLostPhotos) == [.enqueueUpload])
        #expect(lifecycle.state == .pending && lifecycle.serverID == "r-1" && lifecycle.acceptedRevision == 1)
        try lifecycle.apply(.photosUploaded)
        #expect(lifecycle.state == .synced)
    }

    @Test(
        "a server restored with an older revision: the device's answers go again on top of it; never onto a newer or the same one"
    )
    func serverBehind() throws {
        var lifecycle = try Situation.synced.lifecycle()
        try lifecycle.apply(.amend)
        try lifecycle.apply(.complete)
        try lifecycle.apply(.accepted(serverID: "r-1", revision: 2, photosOutstanding: 0))
        #expect(throws: ModelsError.self) { try lifecycle.apply(.serverBehind(revision: 2)) }
        #expect(try lifecycle.apply(.serverBehind(revision: 1)) == [.enqueueUpload])
        #expect(
            lifecycle.state == .pending && lifecycle.serverID == "r-1" && lifecycle.baseRevision == 1
                && lifecycle.acceptedRevision == nil)
    }

    @Test(
        "a server restored without the revision a conflict met: nothing is left to choose between, and the device's answers go on top of the revision it holds"
    )
    func conflictServerBehind() throws {
        var lifecycle = try Situation.conflict.lifecycle()
        #expect(throws: ModelsError.self) { try lifecycle.apply(.serverBehind(revision: 4)) }
        #expect(try lifecycle.apply(.serverBehind(revision: 1)) == [.enqueueUpload])
        #expect(lifecycle.state == .pending && lifecycle.serverID == "r-1" && lifecycle.baseRevision == 1)
        #expect(lifecycle.conflict == nil)
    }

    @Test(
        "an amendment being written of a report the restored server lost or holds older: still a draft, sent later as a new upload or on top of the older revision"
    )
    func amendedDraftOnRestoredServer() throws {
        var lost = try Situation.amendedDraft.lifecycle()
        #expect(try lost.apply(.serverLost) == [])
        #expect(lost.state == .draft && lost.serverID == nil && lost.baseRevision == nil)
        var behind = try Situation.amendedDraft.lifecycle()
        #expect(try behind.apply(.serverBehind(revision: 0)) == [])
        #expect(behind.state == .draft && behind.serverID == "r-1" && behind.baseRevision == 0)
    }

    @Test("a new report is a DRAFT that can be edited")
    func start() {
        let l = ReportLifecycle()
        #expect(l.state == .draft)
        #expect(l.isEditable)
        #expect(l.serverID == nil && l.baseRevision == nil && l.attemptCount == 0)
    }

    @Test("autosave keeps a DRAFT a DRAFT and records a revision")
    func autosave() throws {
        var l = ReportLifecycle()
        #expect(try l.apply(.autosave) == [.recordRevision])
        #expect(l.state == .draft)
    }

    @Test("complete: DRAFT -> PENDING, recorded and queued, no network involved")
    func complete() throws {
        var l = ReportLifecycle()
        #expect(try l.apply(.complete) == [.recordRevision, .enqueueUpload])
        #expect(l.state == .pending)
        #expect(!l.isEditable)
    }

    @Test("accepted with every photo uploaded: PENDING -> SYNCED with the server id and revision")
    func acceptedNoPhotos() throws {
        var l = try Situation.pending.lifecycle()
        try l.apply(.accepted(serverID: "srv-7", revision: 3, photosOutstanding: 0))
        #expect(l.state == .synced)
        #expect(l.serverID == "srv-7")
        #expect(l.baseRevision == 3)
        #expect(l.acceptedRevision == nil)
    }

    @Test(
        "a first acceptance by a server with reviews awaits review and holds the report from retention; by a 1.0 server it has no review"
    )
    func firstAcceptanceAwaitsReview() throws {
        var reviewed = try Situation.pending.lifecycle()
        try reviewed.apply(.accepted(serverID: "srv-7", revision: 1, photosOutstanding: 0, awaitingReview: true))
        #expect(reviewed.state == .synced && reviewed.review == .awaiting(revision: 1))
        #expect(throws: ModelsError.self) { try reviewed.apply(.expire) }
        // The feed's decision on that revision then replaces it.
        try reviewed.apply(.reviewed(ReportReview(state: .approved, revision: 1)))
        #expect(reviewed.review?.state == .approved)

        var plain = try Situation.pending.lifecycle()
        try plain.apply(.accepted(serverID: "srv-7", revision: 1, photosOutstanding: 0))
        #expect(plain.state == .synced && plain.review == nil)
        #expect(try plain.apply(.expire) == [.removeLocalCopy])
    }

    @Test("BR-05: accepted with photos outstanding stays PENDING until the last photo is uploaded")
    func acceptedWithPhotos() throws {
        var l = try Situation.pending.lifecycle()
        try l.apply(.accepted(serverID: "srv-7", revision: 1, photosOutstanding: 3))
        #expect(l.state == .pending)
        #expect(l.acceptedRevision == 1)
        try l.apply(.transportFailed(code: "PHOTO_UPLOAD_FAILED", message: "1 photo left"))
        #expect(l.state == .pending)
        #expect(l.attemptCount == 1)
        try l.apply(.photosUploaded)
        #expect(l.state == .synced)
        #expect(l.attemptCount == 0)
        #expect(l.lastError == nil)
    }

    @Test("transport failure: PENDING -> PENDING with one more attempt and the error kept")
    func transportFailure() throws {
        var l = try Situation.pending.lifecycle()
        for n in 1...3 {
            try l.apply(.transportFailed(code: "SYNC_OFFLINE", message: "Waiting for network."))
            #expect(l.state == .pending)
            #expect(l.attemptCount == n)
        }
        #expect(l.lastError == ReportError(code: "SYNC_OFFLINE", message: "Waiting for network."))
        #expect(try l.apply(.retryRequested) == [.enqueueUpload])
        #expect(l.attemptCount == 0)
        #expect(l.state == .pending)
    }

    @Test("conflict keeps the server revision for a person; keep mine re-queues on the server's revision (AC-05)")
    func conflictKeepMine() throws {
        var l = try Situation.conflict.lifecycle()
        #expect(l.state == .conflict)
        #expect(l.conflict == ServerRevision(revision: 4, payload: ["answers": ["1": "fail"]]))
        #expect(l.lastError?.code == "REPORT_CONFLICT")
        #expect(try l.apply(.keepMine) == [.recordRevision, .enqueueUpload])
        #expect(l.state == .pending)
        #expect(l.baseRevision == 4)
        #expect(l.conflict == nil)
    }

    @Test("take the server's: CONFLICT -> SYNCED adopting the server answers, the local ones kept in history")
    func conflictTakeServer() throws {
        var l = try Situation.conflict.lifecycle()
        let effects = try l.apply(.takeServer)
        #expect(effects == [.adoptServerAnswers(["answers": ["1": "fail"]]), .recordRevision])
        #expect(l.state == .synced)
        #expect(l.baseRevision == 4)
    }

    @Test("rejected: PENDING -> REJECTED with the server's reason; editable; completing re-queues")
    func rejected() throws {
        var l = try Situation.rejected.lifecycle()
        #expect(l.state == .rejected)
        #expect(l.lastError == ReportError(code: "REPORT_INVALID", message: "answer to '3' must be a number"))
        #expect(l.isEditable)
        try l.apply(.autosave)
        #expect(l.state == .rejected)
        try l.apply(.complete)
        #expect(l.state == .pending)
        #expect(l.lastError == nil)
    }

    @Test("amend: SYNCED -> DRAFT keeping the server id and the last seen revision as base")
    func amend() throws {
        var l = try Situation.synced.lifecycle()
        try l.apply(.amend)
        #expect(l.state == .draft)
        #expect(l.serverID == "r-1")
        #expect(l.baseRevision == 1)
        #expect(l.isAmendment)
        try l.apply(.complete)
        #expect(l.state == .pending)
        #expect(l.baseRevision == 1, "an amendment goes up on the revision it was based on")
    }

    @Test("deleting a draft deletes it with its photos and issues")
    func discardDraft() throws {
        var l = ReportLifecycle()
        #expect(try l.apply(.discard) == [.deleteWithChildren])
    }

    @Test("deleting an amended draft reverts it to its synced answers instead")
    func discardAmendment() throws {
        var l = try Situation.amendedDraft.lifecycle()
        #expect(try l.apply(.discard) == [.restoreSyncedAnswers])
        #expect(l.state == .synced)
        #expect(l.serverID == "r-1")
    }

    @Test("retention removes only the local copy of a SYNCED report")
    func expire() throws {
        var l = try Situation.synced.lifecycle()
        #expect(try l.apply(.expire) == [.removeLocalCopy])
    }

    @Test(
        "refusals say what is possible instead",
        arguments: [
            (Situation.synced, ReportEvent.autosave, "amend"),
            (Situation.pending, ReportEvent.complete, "only DRAFT and REJECTED"),
            (Situation.pending, ReportEvent.discard, "only drafts can be deleted"),
            (Situation.draft, ReportEvent.keepMine, "nothing to resolve"),
        ])
    func refusalMessages(situation: Situation, event: ReportEvent, hint: String) throws {
        var l = try situation.lifecycle()
        #expect {
            try l.apply(event)
        } throws: { error in
            (error as? ModelsError)?.message.contains(hint) == true
        }
    }

    @Test(
        "a review is kept for the revision the device holds; an older one is refused; a newly accepted revision awaits review again"
    )
    func review() throws {
        var l = try Situation.synced.lifecycle()
        let returned = ReportReview(
            state: .returned, revision: 1, decidedBy: WirePerson(id: "U-2", displayName: "Sam"),
            comment: "Retake the photo.", fieldComments: [FieldComment(fieldID: "14", comment: "Too dark.")])
        try l.apply(.reviewed(returned))
        #expect(l.review == returned && l.awaitsChanges)
        #expect(throws: ModelsError.self) { try l.apply(.expire) }
        try l.apply(.amend)
        #expect(
            l.state == .draft && l.review == returned && l.awaitsChanges,
            "the comments stay while the amendment is written")
        try l.apply(.complete)
        #expect(!l.awaitsChanges, "sent back: no longer waiting for the inspector")
        try l.apply(.accepted(serverID: "r-1", revision: 2, photosOutstanding: 0))
        #expect(l.review == .awaiting(revision: 2))
        #expect(throws: ModelsError.self) { try l.apply(.expire) }
        let before = l
        #expect(throws: ModelsError.self) { try l.apply(.reviewed(returned)) }
        #expect(l == before, "a review of revision 1 no longer applies to revision 2")
        try l.apply(.reviewed(ReportReview(state: .approved, revision: 2)))
        #expect(try l.apply(.expire) == [.removeLocalCopy], "approved: retention as before")
    }

    @Test(
        "a review that arrives before the acceptance it answers (the answer was lost) is kept through the replayed acceptance"
    )
    func reviewBeforeAcceptance() throws {
        var l = try Situation.pending.lifecycle()
        let approved = ReportReview(state: .approved, revision: 1)
        try l.apply(.reviewed(approved))
        try l.apply(.accepted(serverID: "r-1", revision: 1, photosOutstanding: 0))
        #expect(l.state == .synced && l.review == approved)
    }

    @Test("a lifecycle restored from the store behaves like the one it was saved from")
    func restore() throws {
        let original = try Situation.conflict.lifecycle()
        var restored = ReportLifecycle(
            restoring: original.state, serverID: original.serverID,
            baseRevision: original.baseRevision, acceptedRevision: original.acceptedRevision,
            attemptCount: original.attemptCount, lastError: original.lastError,
            conflict: original.conflict)
        #expect(restored == original)
        try restored.apply(.keepMine)
        #expect(restored.baseRevision == 4)
    }

    @Test("a report the server holds is the SYNCED lifecycle its acceptance reaches")
    func heldByServer() throws {
        var sent = ReportLifecycle()
        try sent.apply(.complete)
        try sent.apply(.accepted(serverID: "r-1", revision: 1, photosOutstanding: 0))
        #expect(ReportLifecycle(heldByServer: "r-1", revision: 1, review: nil) == sent)
    }
}
