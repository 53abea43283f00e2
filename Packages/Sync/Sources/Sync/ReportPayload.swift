import Foundation
import Models

/// How a report's times go on the wire (the request itself is written by
/// `SyncRequestBody`, from the stored rows).
enum ReportPayload {
    /// RFC 3339 UTC, for diagnostic timestamps.
    static func rfc3339(_ date: Date) -> String { RFC3339.string(date) }
}
