import Foundation
import Models
import Storage

/// One sync cycle as a value: the driver (`SyncEngine`) feeds it events —
/// what the store holds, what the server answered — and performs the actions
/// it returns. It does no I/O, so every sync rule (ARCHITECTURE.md's BR table) that
/// decides *what* happens (order, batching, backoff, the ceiling, which
/// reports expire) is tested without a network or a store.
///
/// Phases run in order: pull reference data, push reports in batches, upload
/// the photos of accepted reports, pull the reviews (contract 1.1), clean up
/// (retention), done. A transport
/// failure stops the network phases (outcome `offline`), an expired session
/// stops them too (`authRequired`); cleanup runs either way, since it needs
/// no network.
public struct SyncCycle: Sendable {
    /// Where the cycle is.
    public enum Phase: Sendable, Hashable {
        /// Not started.
        case idle
        /// Waiting for the reference data.
        case pullReference
        /// Waiting for the PENDING reports.
        case loadQueue
        /// Waiting for the server's answer to batch `batch` (0-based).
        case pushReports(batch: Int)
        /// Waiting for the check of a server whose generation changed (restored from a backup).
        case checkGeneration
        /// Waiting for the accepted reports' photo work.
        case loadPhotoWork
        /// Waiting for the photo uploads.
        case uploadPhotos
        /// Waiting for page `page` (0-based) of the reviews feed to be pulled and stored.
        case pullReviews(page: Int)
        /// Retention: waiting for the SYNCED reports, then for their expiry.
        case cleanup
        /// Finished; the summary says how.
        case finished(SyncOutcome)
    }

    /// A PENDING report as the store holds it, for deciding what to send.
    public struct Candidate: Sendable, Hashable {
        /// The report.
        public var localID: UUID
        /// Failed attempts so far.
        public var attemptCount: Int
        /// When the next attempt is due; nil for at once.
        public var nextAttemptAt: Date?
        /// True when the server accepted it already and only photos remain.
        public var awaitingPhotos: Bool
        /// Owned photos not UPLOADED yet (what `accepted` records).
        public var outstandingPhotos: Int
        /// The parent of a re-inspection, whose follow-up flag acceptance clears.
        public var parentLocalID: UUID?
        /// True for an amendment: a revision on top of one the server accepted
        /// (it names a server id and a base revision), which a restored server may lack.
        public var isAmendment: Bool

        /// A candidate.
        public init(
            localID: UUID, attemptCount: Int = 0, nextAttemptAt: Date? = nil, awaitingPhotos: Bool = false,
            outstandingPhotos: Int = 0, parentLocalID: UUID? = nil, isAmendment: Bool = false
        ) {
            self.isAmendment = isAmendment
            self.localID = localID
            self.attemptCount = attemptCount
            self.nextAttemptAt = nextAttemptAt
            self.awaitingPhotos = awaitingPhotos
            self.outstandingPhotos = outstandingPhotos
            self.parentLocalID = parentLocalID
        }
    }

    /// An accepted report's photos still to upload.
    public struct PhotoWork: Sendable, Hashable {
        /// The report.
        public var reportLocalID: UUID
        /// Its photos that are not UPLOADED, in the order added.
        public var photoLocalIDs: [UUID]

        /// Photo work.
        public init(reportLocalID: UUID, photoLocalIDs: [UUID]) {
            self.reportLocalID = reportLocalID
            self.photoLocalIDs = photoLocalIDs
        }
    }

    /// How one photo upload ended.
    public struct PhotoOutcome: Sendable, Hashable {
        /// The photo.
        public var photoLocalID: UUID
        /// Bytes sent, when it was uploaded.
        public var byteSize: Int64
        /// Why it failed; nil when it was uploaded.
        public var failure: SyncFailure?

        /// A photo outcome.
        public init(photoLocalID: UUID, byteSize: Int64 = 0, failure: SyncFailure? = nil) {
            self.photoLocalID = photoLocalID
            self.byteSize = byteSize
            self.failure = failure
        }
    }

    /// What the driver feeds in.
    public enum Event: Sendable {
        /// Reference data arrived and was stored.
        case referencePulled(ReferenceCounts)
        /// Reference data could not be pulled.
        case referenceFailed(SyncFailure)
        /// The PENDING reports, in creation order.
        case queueLoaded([Candidate])
        /// The server answered the batch in flight.
        /// `serverGeneration`: the answer's `server_generation` (contract 1.1), nil from a 1.0 server.
        case batchAnswered(results: [SyncResult], minimumAppVersion: String, serverGeneration: String? = nil)
        /// The batch in flight got no usable answer.
        case batchFailed(SyncFailure)
        /// The server's generation was compared with the stored one; `restore`
        /// is set when it had changed and what the server lacked was put back to send.
        case generationChecked(restore: ServerRestore?)
        /// Checking a restored server's reports failed; the generation is kept for the next cycle.
        case generationCheckFailed(SyncFailure)
        /// Accepted reports and their photos not yet uploaded.
        case photoWorkLoaded([PhotoWork])
        /// The photo uploads ended, one outcome per photo sent.
        case photosUploaded([PhotoOutcome])
        /// SYNCED reports with the device time they became SYNCED.
        case syncedLoaded([(localID: UUID, syncedAt: Date)])
        /// Expiry ended: `removed` reports removed, `kept` refused by the store.
        case expired(removed: Int, kept: Int)
        /// A page of reviews and the cursor after it were stored; `more` when the server has more waiting.
        case reviewPageStored(ReviewPageResult, more: Bool)
        /// The server has no reviews (it answered 404 on `/reviews`: a contract-1.0 server).
        case reviewsUnsupported
        /// The server refused the stored reviews cursor (400 `CURSOR_INVALID`).
        case reviewsCursorInvalid
        /// The reviews could not be pulled.
        case reviewsFailed(SyncFailure)
    }

    /// What the driver must do next, in order.
    public enum Action: Sendable, Hashable {
        /// Pull facilities, areas, templates and assignments (with the stored cursor).
        case pullReference
        /// Read the PENDING reports and answer `queueLoaded`.
        case loadQueue
        /// Send these reports, in this order, as one `POST /reports/sync`, and
        /// answer `batchAnswered` or `batchFailed`. It comes once the answer
        /// to the batch before it has arrived: one batch is in flight at a
        /// time. The actions returned after it (the recording of that answer,
        /// the next batch's preparation) are performed while the request is
        /// in flight; its answer is fed in after them.
        case sendBatch([UUID])
        /// Read these reports and write their request now, while the batch
        /// just sent is in flight, so it is ready when that answer is recorded.
        /// Nothing is sent and no event is fed back; the `sendBatch` that
        /// follows names them again.
        case prepareBatch([UUID])
        /// Keep the server's minimum app version (F10).
        case storeMinimumAppVersion(String)
        /// Apply these lifecycle events in one transaction; `retryAt` sets next attempts.
        case record(events: [RecordedEvent], retryAt: [UUID: Date])
        /// Clear the local follow-up flag of these parents (accepted re-inspections).
        case clearFollowUp([UUID])
        /// Compare `generation`, the server's, with the stored one. Another one:
        /// check every report held as accepted with `GET /reports/{server_id}`,
        /// put back what the server lacks (`LocalStore.sendAgain`), then drop
        /// the cursors and store the generation (`adoptServerGeneration`);
        /// none stored yet: store it. Answer `generationChecked` or `generationCheckFailed`.
        case checkGeneration(String)
        /// Read the accepted reports' photo work and answer `photoWorkLoaded`.
        case loadPhotoWork
        /// Upload these photos (concurrently) and answer `photosUploaded`.
        case uploadPhotos([UUID])
        /// Record photo upload states (the driver may have recorded some of
        /// the uploaded ones already, as their uploads ended).
        case markPhotos(uploaded: [UUID], failed: [UUID: String])
        /// Pull one page of `GET /reviews` after the stored cursor (`fromStart`:
        /// drop the cursor first and pull without `since`), store it with its
        /// cursor in one transaction, and answer `reviewPageStored`,
        /// `reviewsUnsupported`, `reviewsCursorInvalid` or `reviewsFailed`.
        case pullReviews(fromStart: Bool)
        /// Read the SYNCED reports and answer `syncedLoaded`.
        case loadSynced
        /// Remove these SYNCED reports (the store refuses while a photo is not UPLOADED).
        case expire([UUID])
        /// The cycle is over.
        case finish(SyncSummary)
    }

    /// A lifecycle event for one report.
    public struct RecordedEvent: Sendable, Hashable {
        /// The report.
        public var localID: UUID
        /// What happened to it.
        public var event: ReportEvent
        /// A recorded event.
        public init(_ localID: UUID, _ event: ReportEvent) {
            self.localID = localID
            self.event = event
        }
    }

    /// The backoff rules.
    public let policy: RetryPolicy
    /// Device time at the start: used only to schedule retries and for retention.
    public let now: Date
    /// Days SYNCED reports stay on the device.
    public let retentionDays: Int
    /// A value in 0..<1 for the jitter, injected so tests are exact.
    private let random: @Sendable () -> Double
    /// A person asked for this cycle (`jqc sync`): reports waiting out a
    /// backoff are due now. The retry ceiling still holds ('jqc retry').
    public let askedByPerson: Bool
    /// The server answered the reviews feed before this cycle (the store's mark): a report it
    /// accepts for the first time, in an answer of contract 1.1, starts awaiting review, as the
    /// feed would say later in the cycle.
    public let serverHasReviews: Bool

    /// Where the cycle is.
    public private(set) var phase: Phase = .idle
    /// What happened so far.
    public private(set) var summary = SyncSummary()

    private var batches: [[UUID]] = []
    private var candidates: [UUID: Candidate] = [:]
    private var acceptedThisCycle: Set<UUID> = []
    private var photoOwners: [UUID: UUID] = [:]
    private var photoWork: [PhotoWork] = []
    private var networkOutcome: SyncOutcome = .done
    private var reviewsRestarted = false
    /// The `server_generation` of the last sync answer this cycle.
    private var seenGeneration: String?
    /// True once this cycle checked the generation (the queue is read again after a restore).
    private var generationChecked = false
    /// The batch after which the generation was checked: the push goes on after it.
    private var checkedAfter = -1
    /// The generation the check of this cycle compared: an answer naming another one
    /// comes from a server restored since.
    private var checkedGeneration: String?

    /// A cycle that has not started.
    public init(
        policy: RetryPolicy = RetryPolicy(), now: Date, retentionDays: Int, askedByPerson: Bool = false,
        serverHasReviews: Bool = false,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.askedByPerson = askedByPerson
        self.serverHasReviews = serverHasReviews
        self.policy = policy
        self.now = now
        self.retentionDays = retentionDays
        self.random = random
    }

    /// Starts the cycle.
    public mutating func start() -> [Action] {
        phase = .pullReference
        return [.pullReference]
    }

    /// Feeds one event; returns what to do next. An event that does not fit
    /// the phase is ignored (no actions), so a confused driver cannot corrupt the cycle.
    public mutating func handle(_ event: Event) -> [Action] {
        switch (phase, event) {
        case (.pullReference, .referencePulled(let counts)):
            summary.reference = counts
            summary.online = true
            phase = .loadQueue
            return [.loadQueue]

        case (.pullReference, .referenceFailed(let failure)):
            summary.referenceError = failure
            if let stopped = stopIfUnreachable(failure) { return stopped }
            // The server answered (or may answer reports): push anyway.
            phase = .loadQueue
            return [.loadQueue]

        case (.loadQueue, .queueLoaded(let queue)):
            return planBatches(queue)

        case (.pushReports(let index), .batchAnswered(let results, let minimum, let generation)):
            summary.online = true
            // A server restored from a backup after this cycle's check may have lost a parent or a
            // revision this batch named: its refusals are sent again once it is checked anew.
            let restoredSinceCheck =
                generationChecked && checkedGeneration != nil && generation != nil
                && generation != checkedGeneration
            if let generation { seenGeneration = generation }
            if restoredSinceCheck { generationChecked = false }
            // The empty batch of an idle cycle only learns the minimum version: nothing to record.
            let recorded =
                batches[index].isEmpty
                ? []
                : recordAnswers(
                    results, batch: batches[index], contract11: generation != nil,
                    restoredSinceCheck: restoredSinceCheck)
            return nextBatch(after: index, recording: [.storeMinimumAppVersion(minimum)] + recorded)

        case (.pushReports(let index), .batchFailed(let failure)):
            return batchFailed(failure, batch: batches[index], index: index)

        case (.checkGeneration, .generationChecked(let restore)):
            generationChecked = true
            guard let restore else { return nextBatch(after: checkedAfter, recording: []) }
            summary.serverRestore = restore
            guard restore.reportsSentAgain > 0 || restore.photosSentAgain > 0 else {
                return nextBatch(after: checkedAfter, recording: [])
            }
            // What the restored server lacked is PENDING again: read the queue again and send it in this cycle.
            phase = .loadQueue
            return [.loadQueue]

        case (.checkGeneration, .generationCheckFailed(let failure)):
            // The generation is not stored: the next cycle checks again. Until
            // then nothing more goes: an amendment on a revision the restored
            // server lost would be refused, and a re-inspection of a report it
            // lost too, which the check puts back in the queue first.
            generationChecked = true
            if let stopped = stopIfUnreachable(failure) { return stopped }
            if failure.kind == .transient { return stopNetwork(.offline, failure) }
            summary.error = failure
            return beginCleanup()

        case (.loadPhotoWork, .photoWorkLoaded(let work)):
            return planPhotos(work)

        case (.uploadPhotos, .photosUploaded(let outcomes)):
            return recordPhotos(outcomes)

        case (.pullReviews(let page), .reviewPageStored(let result, let more)):
            // Reviews alone do not make the cycle a sync that reached the server: a
            // cycle whose reference pull failed with nothing to send still is not one.
            summary.reviews = (summary.reviews ?? ReviewCounts()).adding(result)
            summary.returned += result.returned
            guard more, page + 1 < Self.reviewPagesPerCycle else { return beginCleanup() }
            phase = .pullReviews(page: page + 1)
            return [.pullReviews(fromStart: false)]

        case (.pullReviews, .reviewsUnsupported):
            // A server without reviews (contract 1.0): nothing to say, nothing changes.
            return beginCleanup()

        case (.pullReviews(let page), .reviewsCursorInvalid):
            guard !reviewsRestarted else {
                summary.reviewsError = SyncFailure(
                    kind: .refused, code: .cursorInvalid,
                    message:
                        "The server refused the reviews feed even from its start; reviews are pulled again next sync.")
                return beginCleanup()
            }
            // A cursor of another server generation, or one this server never issued: start the feed again.
            reviewsRestarted = true
            phase = .pullReviews(page: page + 1)
            return [.pullReviews(fromStart: true)]

        case (.pullReviews, .reviewsFailed(let failure)):
            if let stopped = stopIfUnreachable(failure) { return stopped }
            // Reports went up; the reviews wait for the next cycle.
            summary.reviewsError = failure
            return beginCleanup()

        case (.cleanup, .syncedLoaded(let synced)):
            let cutoff = now.addingTimeInterval(-Double(retentionDays) * 86_400)
            let expired = synced.filter { $0.syncedAt < cutoff }.map(\.localID)
            guard !expired.isEmpty else { return finish() }
            return [.expire(expired)]

        case (.cleanup, .expired(let removed, _)):
            summary.expired = removed
            return finish()

        default:
            return []
        }
    }

    // MARK: - Push

    private mutating func planBatches(_ queue: [Candidate]) -> [Action] {
        var due: [UUID] = []
        // Read again after a restore: the queue is counted afresh.
        summary.waiting = 0
        summary.needsPerson = 0
        for candidate in queue {
            candidates[candidate.localID] = candidate
            if candidate.awaitingPhotos { continue }
            if policy.needsPerson(attemptCount: candidate.attemptCount) {
                summary.needsPerson += 1
            } else if !askedByPerson, policy.isWaiting(until: candidate.nextAttemptAt, now: now) {
                summary.waiting += 1
            } else {
                due.append(candidate.localID)
            }
        }
        batches = stride(from: 0, to: due.count, by: SyncRequest.maximumBatch).map {
            Array(due[$0..<min($0 + SyncRequest.maximumBatch, due.count)])
        }
        // With nothing to send, an empty batch still learns the server's minimum
        // app version (the contract allows it), so an outdated app hears of it.
        // Only after a good reference pull: a probe must not make a cycle whose
        // pull failed look as if it reached the server usefully.
        if batches.isEmpty, summary.reference != nil, !generationChecked { batches = [[]] }
        // An amendment names a server id and a revision, and a re-inspection a parent, that a
        // server restored from a backup may lack: an empty batch learns the generation first,
        // and it is checked before any is sent.
        if !generationChecked, batches.first?.isEmpty == false,
            due.contains(where: { candidates[$0]?.isAmendment == true || candidates[$0]?.parentLocalID != nil })
        {
            batches.insert([], at: 0)
        }
        return nextBatch(after: -1, recording: [])
    }

    /// The next batch, or the photo phase, and `recording` (what the batch
    /// just answered left to write). The next batch leaves as soon as the
    /// answer before it has arrived, so one batch is in flight at a time and
    /// the server takes the reports in creation order; the answer is recorded
    /// while the next batch is in flight, always before that one's answer, and
    /// the batch after it is prepared meanwhile. After the first answer that
    /// names the server's generation, the answer is recorded and the
    /// generation checked (once a cycle) before anything more is sent.
    private mutating func nextBatch(after index: Int, recording: [Action]) -> [Action] {
        if index >= 0, let seenGeneration, !generationChecked {
            phase = .checkGeneration
            checkedAfter = index
            checkedGeneration = seenGeneration
            return recording + [.checkGeneration(seenGeneration)]
        }
        let next = index + 1
        guard next < batches.count else {
            return recording + beginPhotos()
        }
        phase = .pushReports(batch: next)
        var actions = [Action.sendBatch(batches[next])] + recording
        if next + 1 < batches.count { actions.append(.prepareBatch(batches[next + 1])) }
        return actions
    }

    /// The events of a batch's answer. `contract11`: the answer names a generation; from a
    /// server with reviews, a report accepted for the first time then starts awaiting review.
    /// `restoredSinceCheck`: the server was restored after this cycle checked it, so a refusal
    /// may name what the restore lost and the report goes again after the new check.
    private mutating func recordAnswers(
        _ results: [SyncResult], batch: [UUID], contract11: Bool, restoredSinceCheck: Bool = false
    ) -> [Action] {
        let byID = Dictionary(results.map { ($0.localID, $0) }, uniquingKeysWith: { first, _ in first })
        var events: [RecordedEvent] = []
        var retryAt: [UUID: Date] = [:]
        var parents: [UUID] = []
        for localID in batch {
            let candidate = candidates[localID]
            guard let result = byID[localID] else {
                // The server skipped it: nothing is known, so try again later.
                let failure = SyncFailure(
                    kind: .transient, code: .incomplete,
                    message: "The server did not answer for this report; it will be sent again.")
                events.append(RecordedEvent(localID, .transportFailed(code: failure.code, message: failure.message)))
                retryAt[localID] = retryDate(afterAttempt: (candidate?.attemptCount ?? 0) + 1, failure: failure)
                summary.failed += 1
                continue
            }
            switch result.status {
            case .accepted:
                guard let serverID = result.serverID, let revision = result.revision else {
                    events.append(
                        RecordedEvent(
                            localID,
                            .transportFailed(
                                code: SyncFailure.Code.invalidResponse.rawValue,
                                message:
                                    "The server accepted this report without a server id or revision; it will be sent again."
                            )))
                    retryAt[localID] = retryDate(afterAttempt: (candidate?.attemptCount ?? 0) + 1, failure: nil)
                    summary.failed += 1
                    continue
                }
                let outstanding = candidate?.outstandingPhotos ?? 0
                if result.merged == true, let payload = result.serverPayload, payload["answers"]?.objectValue != nil {
                    let fields = result.mergedFields ?? []
                    events.append(
                        RecordedEvent(
                            localID,
                            .merged(
                                serverID: serverID, revision: revision, photosOutstanding: outstanding,
                                payload: payload, issues: result.serverIssues ?? [], fields: fields)))
                    summary.merged.append(MergedReport(localID: localID, fields: fields))
                } else {
                    events.append(
                        RecordedEvent(
                            localID,
                            .accepted(
                                serverID: serverID, revision: revision, photosOutstanding: outstanding,
                                awaitingReview: serverHasReviews && contract11)))
                }
                acceptedThisCycle.insert(localID)
                summary.accepted += 1
                // With no photo to send it is SYNCED now; with photos, once they are up.
                if outstanding == 0 { summary.synced += 1 }
                if let parent = candidate?.parentLocalID { parents.append(parent) }
            case .conflict:
                let revision = result.serverRevision ?? result.revision ?? 0
                events.append(
                    RecordedEvent(
                        localID,
                        .conflict(
                            serverRevision: revision, serverPayload: result.serverPayload ?? .object([:]),
                            fields: result.conflictingFields)))
                summary.conflicts.append(localID)
            case .rejected where restoredSinceCheck:
                let failure = SyncFailure(
                    kind: .transient, code: .serverRestored,
                    message: "The server was restored from a backup while this report was on its way; it is sent again."
                )
                events.append(RecordedEvent(localID, .transportFailed(code: failure.code, message: failure.message)))
                retryAt[localID] = now
                summary.failed += 1
            case .rejected:
                let code = result.errorCode ?? SyncFailure.Code.rejected.rawValue
                let message = result.error ?? "The server rejected this report."
                events.append(RecordedEvent(localID, .rejected(code: code, message: message)))
                summary.rejected.append(SyncSummary.Rejection(localID: localID, code: code, message: message))
            }
        }
        var actions: [Action] = [.record(events: events, retryAt: retryAt)]
        if !parents.isEmpty { actions.append(.clearFollowUp(parents)) }
        return actions
    }

    /// Refusals of a whole batch that may come from one report in it, or from
    /// its size: the batch is halved rather than failed.
    static let refusalsThatSplit: Set<String> = [APIError.Code.tooLarge.rawValue, APIError.Code.badRequest.rawValue]

    private mutating func batchFailed(_ failure: SyncFailure, batch: [UUID], index: Int) -> [Action] {
        if failure.kind == .authRequired {
            return stopNetwork(.authRequired, failure)
        }
        if failure.kind == .refused, batch.count > 1, Self.refusalsThatSplit.contains(failure.code) {
            // The server refused the request as a whole: too large, or one report
            // it cannot read. Each half goes on its own, so every report it can
            // take still goes through and one it cannot is found alone.
            let middle = batch.count / 2
            batches.replaceSubrange(index...index, with: [Array(batch[..<middle]), Array(batch[middle...])])
            return nextBatch(after: index - 1, recording: [])
        }
        var events: [RecordedEvent] = []
        var retryAt: [UUID: Date] = [:]
        for localID in batch {
            events.append(RecordedEvent(localID, .transportFailed(code: failure.code, message: failure.message)))
            retryAt[localID] = retryDate(afterAttempt: (candidates[localID]?.attemptCount ?? 0) + 1, failure: failure)
        }
        summary.failed += batch.count
        let record = Action.record(events: events, retryAt: retryAt)
        if failure.kind == .transient {
            // Offline or the server is down: the next batch would fare no better.
            return [record] + stopNetwork(.offline, failure)
        }
        // The server refused the request itself: other batches may still go through.
        summary.error = failure
        return nextBatch(after: index, recording: [record])
    }

    /// Full-jitter backoff from the policy, never sooner than the server's `Retry-After`
    /// and never later than the policy's longest delay.
    private func retryDate(afterAttempt attempt: Int, failure: SyncFailure?) -> Date {
        policy.nextAttempt(
            after: now, delay: policy.delay(afterAttempt: attempt, random: random()), retryAfter: failure?.retryAfter)
    }

    // MARK: - Photos

    private mutating func beginPhotos() -> [Action] {
        phase = .loadPhotoWork
        return [.loadPhotoWork]
    }

    private mutating func planPhotos(_ work: [PhotoWork]) -> [Action] {
        var ready: [RecordedEvent] = []
        var photos: [UUID] = []
        for item in work {
            if let candidate = candidates[item.reportLocalID], !acceptedThisCycle.contains(item.reportLocalID) {
                if policy.needsPerson(attemptCount: candidate.attemptCount) { summary.needsPerson += 1; continue }
                if policy.isWaiting(until: candidate.nextAttemptAt, now: now) { summary.waiting += 1; continue }
            }
            if item.photoLocalIDs.isEmpty {
                // Accepted and every photo is up already (an earlier cycle was cut short).
                ready.append(RecordedEvent(item.reportLocalID, .photosUploaded))
                continue
            }
            photoWork.append(item)
            for photo in item.photoLocalIDs {
                photoOwners[photo] = item.reportLocalID
                photos.append(photo)
            }
        }
        var actions: [Action] = []
        if !ready.isEmpty {
            actions.append(.record(events: ready, retryAt: [:]))
            summary.synced += ready.count
        }
        guard !photos.isEmpty else {
            return actions + beginReviews()
        }
        phase = .uploadPhotos
        return actions + [.uploadPhotos(photos)]
    }

    private mutating func recordPhotos(_ outcomes: [PhotoOutcome]) -> [Action] {
        var uploaded: [UUID] = []
        var failed: [UUID: String] = [:]
        var failedPerReport: [UUID: Int] = [:]
        var firstFailure: [UUID: SyncFailure] = [:]
        var sawAuth: SyncFailure?
        var sawOffline: SyncFailure?
        for outcome in outcomes {
            guard let owner = photoOwners[outcome.photoLocalID] else { continue }
            if let failure = outcome.failure {
                failed[outcome.photoLocalID] = failure.message
                failedPerReport[owner, default: 0] += 1
                if firstFailure[owner] == nil { firstFailure[owner] = failure }
                summary.photosFailed += 1
                if failure.kind == .authRequired { sawAuth = sawAuth ?? failure }
                if failure.kind == .transient && failure.code == SyncFailure.offlineCode {
                    sawOffline = sawOffline ?? failure
                }
            } else {
                uploaded.append(outcome.photoLocalID)
                summary.photosUploaded += 1
                summary.photoBytes += outcome.byteSize
                summary.online = true
            }
        }
        // A photo the driver did not report on is still outstanding.
        let reported = Set(outcomes.map(\.photoLocalID))
        var events: [RecordedEvent] = []
        var retryAt: [UUID: Date] = [:]
        for item in photoWork {
            let missing = item.photoLocalIDs.filter { !reported.contains($0) }.count
            let left = (failedPerReport[item.reportLocalID] ?? 0) + missing
            if left == 0 {
                events.append(RecordedEvent(item.reportLocalID, .photosUploaded))
                summary.synced += 1
            } else {
                let message = "Photos still uploading (\(left) left)."
                events.append(
                    RecordedEvent(
                        item.reportLocalID,
                        .transportFailed(
                            code: SyncFailure.Code.photoUploadFailed.rawValue,
                            message: message)))
                let attempts =
                    acceptedThisCycle.contains(item.reportLocalID)
                    ? 0 : (candidates[item.reportLocalID]?.attemptCount ?? 0)
                retryAt[item.reportLocalID] = retryDate(
                    afterAttempt: attempts + 1, failure: firstFailure[item.reportLocalID])
            }
        }
        var actions: [Action] = [.markPhotos(uploaded: uploaded, failed: failed)]
        if !events.isEmpty { actions.append(.record(events: events, retryAt: retryAt)) }
        if let sawAuth {
            return actions + stopNetwork(.authRequired, sawAuth)
        }
        if let sawOffline, uploaded.isEmpty {
            return actions + stopNetwork(.offline, sawOffline)
        }
        return actions + beginReviews()
    }

    // MARK: - End

    /// The end of the network phases when `failure` says the session is over or
    /// the server cannot be reached; nil when the cycle may go on.
    private mutating func stopIfUnreachable(_ failure: SyncFailure) -> [Action]? {
        switch failure.kind {
        case .authRequired: return stopNetwork(.authRequired, failure)
        case .transient where failure.code == SyncFailure.offlineCode: return stopNetwork(.offline, failure)
        case .transient, .refused: return nil
        }
    }

    private mutating func stopNetwork(_ outcome: SyncOutcome, _ failure: SyncFailure) -> [Action] {
        networkOutcome = outcome
        summary.error = failure
        if outcome == .offline { summary.online = false }
        return beginCleanup()
    }

    // MARK: - Reviews

    /// Pages of the reviews feed pulled in one cycle at most; the rest come next cycle, from the stored cursor.
    public static let reviewPagesPerCycle = 50

    private mutating func beginReviews() -> [Action] {
        phase = .pullReviews(page: 0)
        return [.pullReviews(fromStart: false)]
    }

    private mutating func beginCleanup() -> [Action] {
        phase = .cleanup
        return [.loadSynced]
    }

    private mutating func finish() -> [Action] {
        summary.outcome = networkOutcome
        phase = .finished(networkOutcome)
        return [.finish(summary)]
    }
}
