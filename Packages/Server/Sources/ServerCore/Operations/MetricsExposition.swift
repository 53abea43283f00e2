import Foundation
import Models
import ServerStore

/// The numbers read when `/metrics` is fetched rather than counted.
struct MetricsGauges: Sendable {
    /// Database connections open, and those a request holds now.
    var connections: ConnectionCounts
    /// Log lines that could not be written.
    var droppedLogLines: Int
}

/// `ServerMetrics` in the Prometheus text format 0.0.4: each family with
/// its `# HELP` and `# TYPE`, its series in a stable order.
enum MetricsExposition {
    /// The content type of the text.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The text `/metrics` answers: the request families, then the outcomes counted, then the resources in use.
    static func text(_ counted: ServerMetrics.State, _ gauges: MetricsGauges) -> String {
        var out = Families()
        requests(counted, into: &out)
        outcomes(counted, into: &out)
        resources(counted, gauges, into: &out)
        return out.text
    }

    /// The requests answered, and the histogram of how long they took, by route.
    private static func requests(_ counted: ServerMetrics.State, into out: inout Families) {
        out.family("jqc_server_requests_total", "counter", "Requests answered, by route pattern, method and status.")
        for (key, count) in counted.requests.sorted(by: { $0.key < $1.key }) {
            out.sample(
                "jqc_server_requests_total",
                [("route", key.route), ("method", key.method), ("status", String(key.status))],
                String(count))
        }

        out.family(
            "jqc_server_request_duration_seconds", "histogram",
            "Time from a complete request to its answer, by route pattern.")
        for (route, histogram) in counted.durations.sorted(by: { $0.key < $1.key }) {
            for (bound, count) in zip(ServerMetrics.buckets, histogram.counts) {
                out.sample(
                    "jqc_server_request_duration_seconds_bucket", [("route", route), ("le", number(bound))],
                    String(count))
            }
            out.sample(
                "jqc_server_request_duration_seconds_bucket", [("route", route), ("le", "+Inf")],
                String(histogram.count))
            out.sample("jqc_server_request_duration_seconds_sum", [("route", route)], number(histogram.sum))
            out.sample("jqc_server_request_duration_seconds_count", [("route", route)], String(histogram.count))
        }
    }

    /// What the work came to: reports synced, photos stored, webhook attempts, and requests refused for quota or
    /// a full disk.
    private static func outcomes(_ counted: ServerMetrics.State, into out: inout Families) {
        out.family("jqc_server_sync_reports_total", "counter", "Reports answered by POST /reports/sync, by result.")
        for status in [SyncStatus.accepted, .conflict, .rejected] {
            out.sample(
                "jqc_server_sync_reports_total", [("status", status.rawValue)], String(counted.syncResults[status] ?? 0)
            )
        }

        out.family(
            "jqc_server_photos_stored_total", "counter",
            "Photos stored for the first time (repeated uploads not counted).")
        out.sample("jqc_server_photos_stored_total", [], String(counted.photosStored))

        out.family(
            "jqc_server_webhook_attempts_total", "counter",
            "Webhook deliveries attempted by this instance, by what the attempt left: delivered, retry (tried again later) or failed."
        )
        for (state, label) in [(WebhookDeliveryState.delivered, "delivered"), (.pending, "retry"), (.failed, "failed")]
        {
            out.sample(
                "jqc_server_webhook_attempts_total", [("outcome", label)], String(counted.webhookAttempts[state] ?? 0))
        }

        out.family(
            "jqc_server_mail_attempts_total", "counter",
            "Mail messages this instance handed to the relay, by what the attempt left: sent, retry (tried again later) or failed."
        )
        for (state, label) in [(MailState.sent, "sent"), (.pending, "retry"), (.failed, "failed")] {
            out.sample("jqc_server_mail_attempts_total", [("outcome", label)], String(counted.mailAttempts[state] ?? 0))
        }

        out.family(
            "jqc_server_quota_refusals_total", "counter",
            "Requests refused (429 QUOTA_EXCEEDED) because a user's stored bytes, revisions of the day or a report's photos were at their quota."
        )
        out.sample("jqc_server_quota_refusals_total", [], String(counted.quotaRefusals))

        out.family(
            "jqc_server_storage_full_refusals_total", "counter",
            "Requests refused (507 STORAGE_FULL) because the disk of the server's database or upload folder was full.")
        out.sample("jqc_server_storage_full_refusals_total", [], String(counted.storageFullRefusals))
    }

    /// The resources in use: database connections, busy workers, and log lines that could not be written.
    private static func resources(_ counted: ServerMetrics.State, _ gauges: MetricsGauges, into out: inout Families) {
        out.family("jqc_server_db_connections", "gauge", "Database connections open (a SQLite server holds one).")
        out.sample("jqc_server_db_connections", [], String(gauges.connections.open))

        out.family(
            "jqc_server_db_connections_in_use", "gauge",
            "Database connections a request holds now (PostgreSQL pool; SQLite reports 0).")
        out.sample("jqc_server_db_connections_in_use", [], String(gauges.connections.inUse))

        out.family("jqc_server_workers_busy", "gauge", "Requests a worker thread is handling now.")
        out.sample("jqc_server_workers_busy", [], String(max(0, counted.busy)))

        out.family(
            "jqc_server_log_lines_dropped_total", "counter",
            "Log lines that could not be written (a full disk, a closed stderr).")
        out.sample("jqc_server_log_lines_dropped_total", [], String(gauges.droppedLogLines))
    }

    /// The text being written: families' headers and their samples, in the order they are added.
    private struct Families {
        private(set) var text = ""

        /// A family's `# HELP` and `# TYPE` lines.
        mutating func family(_ name: String, _ type: String, _ help: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }

        /// One sample: the name, its labels (none: no braces), the value.
        mutating func sample(_ name: String, _ labels: [(String, String)], _ value: String) {
            let inside = labels.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: ",")
            text += name + (inside.isEmpty ? "" : "{\(inside)}") + " " + value + "\n"
        }
    }

    /// A label value with backslash, quote and line break escaped.
    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A number as Prometheus reads it: `0.005`, `1`, `2.5`.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
