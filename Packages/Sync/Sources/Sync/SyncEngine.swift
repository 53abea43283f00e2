import Foundation
import Models
import Storage

/// Runs one sync cycle: the driver of `SyncCycle`. It performs each action
/// the cycle returns against the store and the server (through `APIClient`
/// only) and feeds the outcome back as the next event.
public struct SyncEngine: Sendable {
    /// What a cycle runs with, besides the store and the client.
    public struct Configuration: Sendable {
        /// Backoff and ceiling (BR-08).
        public var policy: RetryPolicy
        /// Days a SYNCED report stays on the device (F12); the app's setting.
        public var retentionDays: Int
        /// Sent as `app_version` with every batch.
        public var appVersion: String
        /// Photo uploads in flight at once.
        public var maxConcurrentUploads: Int
        /// A value in 0..<1 for the retry jitter.
        public var random: @Sendable () -> Double
        /// A person asked for this cycle: reports in backoff are due now.
        public var askedByPerson: Bool

        /// A configuration.
        public init(
            policy: RetryPolicy = RetryPolicy(), retentionDays: Int, appVersion: String, maxConcurrentUploads: Int = 4,
            askedByPerson: Bool = false, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
        ) {
            self.askedByPerson = askedByPerson
            self.policy = policy
            self.retentionDays = retentionDays
            self.appVersion = appVersion
            self.maxConcurrentUploads = maxConcurrentUploads
            self.random = random
        }
    }

    /// The device's store.
    public let store: LocalStore
    /// The server, signed in.
    public let client: APIClient
    /// The cycle's settings.
    public let configuration: Configuration
    /// Called as work progresses, for a progress line on a terminal.
    public let progress: @Sendable (SyncProgress) -> Void

    /// An engine over `store` and `client`.
    public init(
        store: LocalStore, client: APIClient, configuration: Configuration,
        progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) {
        self.store = store
        self.client = client
        self.configuration = configuration
        self.progress = progress
    }

    /// Runs one cycle. `now` is the device clock, used only to schedule
    /// retries, for retention and for the diagnostic `last_sync_at`; never
    /// for ordering or conflicts. Throws only when the store itself fails.
    ///
    /// One batch is in flight at a time: the next is sent once the answer to
    /// the one before has arrived. While it is in flight, that answer is
    /// recorded (one transaction) and the batch after it read and its request
    /// written (see `SyncCycle.Action.prepareBatch`), so the device's work
    /// overlaps the server's and nothing lies between two requests but
    /// reading an answer. A batch's answer is always recorded before the next
    /// one's; a run stopped in between sends the unrecorded batches again,
    /// and the server answers them as the replays they are.
    public func run(now: Date = Date()) async throws(StorageError) -> SyncSummary {
        var cycle = SyncCycle(
            policy: configuration.policy, now: now, retentionDays: configuration.retentionDays,
            askedByPerson: configuration.askedByPerson, serverHasReviews: try store.reviewsSupported(),
            random: configuration.random)
        var run = SyncRun()
        var queue = cycle.start()
        var inFlight: InFlightBatch?
        do throws(StorageError) {
            while true {
                guard !queue.isEmpty else {
                    guard let batch = inFlight else { break }
                    inFlight = nil
                    let event = await batch.answer()
                    if case .batchAnswered(let results, _, _) = event {
                        run.reportsSent += batch.count
                        progress(.reports(sent: run.reportsSent))
                        for result in results where result.status == .accepted {
                            if let serverID = result.serverID { run.acceptedServerIDs[result.localID] = serverID }
                        }
                    }
                    queue += cycle.handle(event)
                    continue
                }
                let action = queue.removeFirst()
                switch action {
                case .finish(var summary):
                    // Corrective actions (contract 1.2) once every other network phase ran.
                    if summary.outcome == .done && serverHasActions {
                        let (counts, failure) = try await syncActions(now: now)
                        summary.actions = counts
                        summary.actionsError = failure
                    }
                    summary.leftoverPhotosRemoved = run.leftoverSweep?.removed ?? 0
                    summary.leftoverPhotoProblems =
                        run.leftoverSweep?.unremovable.map {
                            "A photo file left by an interrupted import stays: \($0.message)"
                        } ?? []
                    // A page asked for ahead that the cycle did not take (it stopped first) is dropped.
                    run.reviewsAhead?.task.cancel()
                    try store.setMeta(MetaKey.online, summary.online ? "true" : "false")
                    // "Last sync" is the last cycle that reached the server, not the last attempt.
                    if summary.online { try store.setMeta(MetaKey.lastSyncAt, ReportPayload.rfc3339(now)) }
                    return summary
                case .sendBatch(let ids):
                    // Written while the batch before was in flight, or now; sent on its own task.
                    let prepared =
                        if let prepared = run.prepared, prepared.ids == ids { prepared } else {
                            try prepare(ids, run: &run)
                        }
                    run.prepared = nil
                    let body = prepared.body(knownServerIDs: run.acceptedServerIDs)
                    let engine = self
                    inFlight = InFlightBatch(count: ids.count, task: Task { await engine.send(body) })
                case .prepareBatch(let ids):
                    run.prepared = try prepare(ids, run: &run)
                    // While the batch is in flight, every few batches: the commits never find the log
                    // long enough to copy it themselves, and seldom have to start it afresh.
                    run.prepares += 1
                    if run.prepares % 4 == 0 { try store.checkpoint() }
                default:
                    if let event = try await perform(action, run: &run) {
                        queue += cycle.handle(event)
                    }
                }
            }
        } catch {
            // The store failed: the batch in flight is abandoned unrecorded (it is sent again next time).
            run.reviewsAhead?.task.cancel()
            inFlight?.task.cancel()
            _ = await inFlight?.task.value
            throw error
        }
        // The cycle always ends with `finish`; this is only reached if it did not.
        return cycle.summary
    }

    /// Performs one action; returns the event it produced, if any.
    private func perform(_ action: SyncCycle.Action, run: inout SyncRun) async throws(StorageError) -> SyncCycle.Event?
    {
        switch action {
        case .pullReference:
            return try await pullReference()
        case .loadQueue:
            return .queueLoaded(try loadQueue())
        case .storeMinimumAppVersion(let version):
            if run.minimumAppVersion == nil { run.minimumAppVersion = try store.meta(MetaKey.minAppVersion) }
            if run.minimumAppVersion != version {
                try store.setMeta(MetaKey.minAppVersion, version)
                run.minimumAppVersion = version
            }
            return nil
        case .record(let events, let retryAt):
            try record(events, retryAt: retryAt)
            return nil
        case .clearFollowUp(let parents):
            try clearFollowUp(parents)
            return nil
        case .checkGeneration(let generation):
            // The check may put reports back in the queue or base them on an older revision:
            // a batch read ahead of it is stale.
            run.prepared = nil
            return try await checkGeneration(generation)
        case .loadPhotoWork:
            return .photoWorkLoaded(try loadPhotoWork(run: &run))
        case .uploadPhotos(let ids):
            return .photosUploaded(await upload(ids, run: &run))
        case .markPhotos(let uploaded, let failed):
            try markPhotos(uploaded: uploaded, failed: failed, recorded: run.recordedUploads)
            return nil
        case .pullReviews(let fromStart):
            return try await pullReviews(fromStart: fromStart, run: &run)
        case .loadSynced:
            // Retention starts by removing the photo files killed imports left, which no record names;
            // a sweep that cannot run waits for the next cycle, and never stops this one.
            run.leftoverSweep = try? store.removePhotoLeftovers(olderThan: PhotoFileStore.leftoverAgeWhileImporting)
            return .syncedLoaded(try store.syncedReportTimes())
        case .expire(let ids):
            return try expire(ids)
        case .sendBatch, .prepareBatch, .finish:
            // `run` prepares and starts batches and finishes the cycle itself.
            return nil
        }
    }

    /// Applies a batch's events in one transaction. Should another process
    /// have moved one of the reports meanwhile, the batch is applied report
    /// by report instead, so one report never blocks the others (BR-04).
    private func record(_ events: [SyncCycle.RecordedEvent], retryAt: [UUID: Date]) throws(StorageError) {
        guard !events.isEmpty else { return }
        do throws(StorageError) {
            try store.apply(events.map { (localID: $0.localID, event: $0.event) }, retryAt: retryAt)
        } catch  where error.code == .notAllowed || error.code == .notFound {
            for item in events {
                do throws(StorageError) {
                    try store.apply(
                        [(localID: item.localID, event: item.event)],
                        retryAt: retryAt[item.localID].map { [item.localID: $0] } ?? [:])
                } catch  where error.code == .notAllowed || error.code == .notFound {
                    continue
                }
            }
        }
    }

    /// Removes SYNCED reports past retention; the store keeps any with a photo not UPLOADED.
    private func expire(_ ids: [UUID]) throws(StorageError) -> SyncCycle.Event {
        var removed = 0, kept = 0
        for id in ids {
            do throws(StorageError) {
                try store.apply(.expire, to: id)
                removed += 1
            } catch  where error.code == .notAllowed || error.code == .notFound {
                kept += 1
            }
        }
        return .expired(removed: removed, kept: kept)
    }
}

/// What the engine remembers within one run.
struct SyncRun {
    /// What the leftover photo sweep did as retention started.
    var leftoverSweep: PhotoLeftoverSweep?
    /// Photos to upload, with their report's server id.
    var photos: [UUID: (photo: Photo, serverID: String)] = [:]
    /// Photos recorded UPLOADED as their uploads ended; the cycle's `markPhotos` need not write them again.
    var recordedUploads: Set<UUID> = []
    /// Reports sent so far, for progress.
    var reportsSent = 0
    /// Server ids the server accepted this run, some perhaps not recorded yet
    /// when a later batch naming them as parents was read.
    var acceptedServerIDs: [UUID: String] = [:]
    /// The next batch, read and written while the one before was in flight.
    var prepared: PreparedBatch?
    /// This device's id, read once.
    var deviceID: UUID?
    /// Batches read ahead so far.
    var prepares = 0
    /// Pages of the reviews feed pulled so far.
    var reviewPages = 0
    /// The next page of the reviews feed, asked for while the one before was stored.
    var reviewsAhead: (cursor: String, task: Task<Result<ReviewsResponse, APIError>, Never>)?
    /// The minimum app version as stored, once read; written only when it changes.
    var minimumAppVersion: String?
}

/// A batch request on its own task, awaited once the actions before its answer are done.
struct InFlightBatch {
    /// How many reports it carries.
    let count: Int
    /// The request; its value is the cycle's event.
    let task: Task<SyncCycle.Event, Never>

    /// The answer; cancelling the waiting task cancels the request.
    func answer() async -> SyncCycle.Event {
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }
}

/// How far a cycle has got, for a progress line.
public enum SyncProgress: Sendable, Hashable {
    /// Reference data is being pulled.
    case pullingReference
    /// `sent` of the due reports were sent so far.
    case reports(sent: Int)
    /// `done` of `total` photos finished, `bytes` of `totalBytes` sent.
    case photos(done: Int, total: Int, bytes: Int64, totalBytes: Int64)
}
