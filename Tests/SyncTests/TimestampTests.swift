import Foundation
import Testing
@testable import Sync

@Suite("Diagnostic timestamps on the wire")
struct TimestampTests {
    @Test(
        "RFC 3339 UTC, to the second",
        arguments: [
            (0.0, "1970-01-01T00:00:00Z"),
            (1_800_000_000.7, "2027-01-15T08:00:00Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (4_102_444_799, "2099-12-31T23:59:59Z"),
        ])
    func format(seconds: Double, expected: String) {
        #expect(ReportPayload.rfc3339(Date(timeIntervalSince1970: seconds)) == expected)
    }
}

@Suite("Retry-After as an HTTP date")
struct RetryAfterDateTests {
    @Test(
        "an IMF-fixdate is read without a formatter; anything else is unreadable",
        arguments: [
            ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0 as Double?),
            ("Tue, 29 Feb 2028 23:59:59 GMT", 1_835_481_599),
            ("Sun, 06 Nov 1994 08:49:37 UTC", nil),
            ("Sunday, 06-Nov-94 08:49:37 GMT", nil),
            ("Sun, 6 Nov 1994 08:49:37 GMT", nil),
            ("Sun, 06 Nox 1994 08:49:37 GMT", nil),
            ("Sun, 06 Nov 1994 24:00:00 GMT", nil),
            ("Sun, 06 Nov 1994 08:49:37\u{301} GMT", nil),
        ])
    func httpDate(text: String, seconds: Double?) {
        #expect(RetryAfter.httpDate(text)?.timeIntervalSince1970 == seconds)
    }

    @Test("a date in the past waits nothing; seconds are read as seconds")
    func waits() {
        let now = Date(timeIntervalSince1970: 784_111_700)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 77)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.seconds("12", now: now) == 12)
    }
}
