import Foundation
import Testing
@testable import Sync

@Suite("Diagnostic timestamps on the wire")
struct TimestampTests {
    @Test("RFC 3339 UTC, to the second", arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (1_800_000_000.7, "2027-01-15T08:00:00Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
        (4_102_444_799, "2099-12-31T23:59:59Z"),
    ])
    func format(seconds: Double, expected: String) {
        #expect(ReportPayload.rfc3339(Date(timeIntervalSince1970: seconds)) == expected)
    }
}
