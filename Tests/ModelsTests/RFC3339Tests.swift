import Foundation
import Models
import Testing

@Suite("RFC 3339 timestamps")
struct RFC3339Tests {
    @Test("UTC to the second, or to the millisecond", arguments: [
        (0.0, false, "1970-01-01T00:00:00Z"),
        (951_782_400.25, true, "2000-02-29T00:00:00.250Z"),
        (1_800_000_000.7, false, "2027-01-15T08:00:00Z"),
        (1_800_000_000.9999, true, "2027-01-15T08:00:00.999Z"),
        (-1.5, true, "1969-12-31T23:59:58.500Z"),
    ])
    func format(seconds: Double, milliseconds: Bool, expected: String) {
        #expect(RFC3339.string(Date(timeIntervalSince1970: seconds), milliseconds: milliseconds) == expected)
    }
}
