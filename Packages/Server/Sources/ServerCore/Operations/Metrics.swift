import Foundation
import Models
import ServerStore
import Synchronization

/// What the server counts for Prometheus (`--metrics-listen`): requests by
/// route pattern, method and status, their durations by route, sync
/// results, photos stored, and the requests being handled now.
///
/// Every label comes from a fixed set (the route table's patterns or
/// `unmatched`, the methods HTTP defines or `OTHER`, the status codes), so
/// no client can grow the series by what it sends. One lock guards them all;
/// a request takes it once.
final class ServerMetrics: Sendable {
    /// One series of `jqc_server_requests_total`.
    struct RequestKey: Hashable, Comparable {
        var route: String
        var method: String
        var status: Int

        static func < (a: RequestKey, b: RequestKey) -> Bool {
            (a.route, a.method, a.status) < (b.route, b.method, b.status)
        }
    }

    /// The durations of one route's requests.
    struct Histogram {
        /// Requests at or under each of `ServerMetrics.buckets`.
        var counts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var sum: Double = 0
        var count = 0
    }

    struct State {
        var requests: [RequestKey: Int] = [:]
        var durations: [String: Histogram] = [:]
        var syncResults: [SyncStatus: Int] = [:]
        var photosStored = 0
        var busy = 0
        /// Webhook attempts by what they left: `delivered`, `pending` (to be tried again) or `failed`.
        var webhookAttempts: [WebhookDeliveryState: Int] = [:]
        /// Mail attempts by what they left: `sent`, `pending` (to be tried again) or `failed`.
        var mailAttempts: [MailState: Int] = [:]
        /// Requests refused because a user's quota was met.
        var quotaRefusals = 0
        /// Requests refused 507 `STORAGE_FULL` because the server's disk was full.
        var storageFullRefusals = 0
    }

    /// The upper bounds of the duration buckets, in seconds.
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    /// The methods counted by name; any other is `OTHER`.
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]

    private let state = Mutex(State())

    /// A request began to be handled.
    func began() { state.withLock { $0.busy += 1 } }

    /// A request that `began` was answered.
    func ended() { state.withLock { $0.busy -= 1 } }

    /// Counts one answered request of `route` (a pattern or `unmatched`).
    func answered(route: String, method: String, status: Int, seconds: Double) {
        let key = RequestKey(route: route, method: Self.methods.contains(method) ? method : "OTHER", status: status)
        state.withLock { state in
            state.requests[key, default: 0] += 1
            var histogram = state.durations[route] ?? Histogram()
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { histogram.counts[index] += 1 }
            histogram.sum += seconds
            histogram.count += 1
            state.durations[route] = histogram
        }
    }

    /// Counts the results of one `POST /reports/sync`.
    func synced(_ statuses: [SyncStatus]) {
        state.withLock { state in
            for status in statuses { state.syncResults[status, default: 0] += 1 }
        }
    }

    /// Counts one webhook attempt by what it left.
    func webhookAttempted(_ outcome: WebhookDeliveryState) {
        state.withLock { $0.webhookAttempts[outcome, default: 0] += 1 }
    }

    /// Counts one mail attempt by what it left.
    func mailAttempted(_ outcome: MailState) {
        state.withLock { $0.mailAttempts[outcome, default: 0] += 1 }
    }

    /// Counts a request refused by a quota.
    func quotaRefused() { state.withLock { $0.quotaRefusals += 1 } }

    /// Counts a request refused because the server's disk was full.
    func storageFullRefused() { state.withLock { $0.storageFullRefusals += 1 } }

    /// Counts a photo stored for the first time.
    func photoStored() { state.withLock { $0.photosStored += 1 } }

    /// A copy of everything counted so far.
    var snapshot: State { state.withLock { $0 } }
}
