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

        /// A configuration.
        public init(policy: RetryPolicy = RetryPolicy(), retentionDays: Int, appVersion: String, maxConcurrentUploads: Int = 4,
                    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
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
    public init(store: LocalStore, client: APIClient, configuration: Configuration,
                progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }) {
        self.store = store
        self.client = client
        self.configuration = configuration
        self.progress = progress
    }

    /// Runs one cycle. `now` is the device clock, used only to schedule
    /// retries, for retention and for the diagnostic `last_sync_at`; never
    /// for ordering or conflicts. Throws only when the store itself fails.
    public func run(now: Date = Date()) async throws(StorageError) -> SyncSummary {
        var cycle = SyncCycle(policy: configuration.policy, now: now, retentionDays: configuration.retentionDays,
                              random: configuration.random)
        var run = SyncRun()
        var queue = cycle.start()
        while !queue.isEmpty {
            let action = queue.removeFirst()
            if case .finish(let summary) = action {
                try store.setMeta(MetaKey.online, summary.online ? "true" : "false")
                try store.setMeta(MetaKey.lastSyncAt, ReportPayload.rfc3339(now))
                return summary
            }
            if let event = try await perform(action, run: &run) {
                queue += cycle.handle(event)
            }
        }
        // The cycle always ends with `finish`; this is only reached if it did not.
        return cycle.summary
    }

    /// Performs one action; returns the event it produced, if any.
    private func perform(_ action: SyncCycle.Action, run: inout SyncRun) async throws(StorageError) -> SyncCycle.Event? {
        switch action {
        case .pullReference:
            return try await pullReference()
        case .loadQueue:
            return .queueLoaded(try loadQueue())
        case .sendBatch(let ids):
            return try await send(ids, run: &run)
        case .storeMinimumAppVersion(let version):
            try store.setMeta(MetaKey.minAppVersion, version)
            return nil
        case .record(let events, let retryAt):
            try record(events, retryAt: retryAt)
            return nil
        case .clearFollowUp(let parents):
            try clearFollowUp(parents)
            return nil
        case .loadPhotoWork:
            return .photoWorkLoaded(try loadPhotoWork(run: &run))
        case .uploadPhotos(let ids):
            return .photosUploaded(await upload(ids, run: run))
        case .markPhotos(let uploaded, let failed):
            try markPhotos(uploaded: uploaded, failed: failed)
            return nil
        case .loadSynced:
            return .syncedLoaded(try store.syncedReportTimes())
        case .expire(let ids):
            return try expire(ids)
        case .finish:
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
        } catch where error.code == .notAllowed || error.code == .notFound {
            for item in events {
                do throws(StorageError) {
                    try store.apply([(localID: item.localID, event: item.event)],
                                    retryAt: retryAt[item.localID].map { [item.localID: $0] } ?? [:])
                } catch where error.code == .notAllowed || error.code == .notFound {
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
            } catch where error.code == .notAllowed || error.code == .notFound {
                kept += 1
            }
        }
        return .expired(removed: removed, kept: kept)
    }
}

/// What the engine remembers within one run: the photos it is uploading.
struct SyncRun {
    /// Photos to upload, with their report's server id.
    var photos: [UUID: (photo: Photo, serverID: String)] = [:]
    /// Reports sent so far, and the total due, for progress.
    var reportsSent = 0
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
