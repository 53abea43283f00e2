import Foundation
import Models
import Testing

@Suite("RFC 3339 timestamps")
struct RFC3339Tests {
    @Test(
        "UTC to the second, or to the millisecond",
        arguments: [
            (0.0, false, "1970-01-01T00:00:00Z"),
            (951_782_400.25, true, "2000-02-29T00:00:00.250Z"),
            (1_800_000_000.7, false, "2027-01-15T08:00:00Z"),
            (1_800_000_000.9999, true, "2027-01-15T08:00:00.999Z"),
            (-1.5, true, "1969-12-31T23:59:58.500Z"),
        ])
    func format(seconds: Double, milliseconds: Bool, expected: String) {
        #expect(RFC3339.string(Date(timeIntervalSince1970: seconds), milliseconds: milliseconds) == expected)
    }

    @Test("a calendar day, and years kept within the ones the format can write")
    func days() {
        #expect(RFC3339.day(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29")
        #expect(RFC3339.string(Date(timeIntervalSince1970: -70_000_000_000)) == "0001-01-01T00:00:00Z")
        #expect(RFC3339.string(Date(timeIntervalSince1970: 300_000_000_000)) == "9999-12-31T23:59:59Z")
        #expect(RFC3339.isDay("2024-02-29") && !RFC3339.isDay("2023-02-29") && !RFC3339.isDay("2024-13-01"))
    }

    @Test(
        "read back: fractions and offsets; a space only where allowed; impossible days refused",
        arguments: [
            ("2026-03-01T14:02:00Z", 1_772_373_720.0),
            ("2026-03-01t14:02:00.5z", 1_772_373_720.5),
            ("2026-03-01T16:02:00+02:00", 1_772_373_720.0),
            ("2026-03-01T13:32:00-00:30", 1_772_373_720.0),
        ])
    func parse(text: String, seconds: Double) throws {
        let date = try #require(RFC3339.date(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.001)
        #expect(RFC3339.isTimestamp(text))
        #expect(RFC3339.date(RFC3339.string(date)) == Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    @Test(
        "not timestamps",
        arguments: [
            "2026-02-30T10:00:00Z", "2026-03-01T24:00:00Z", "2026-03-01T10:00:00", "2026-03-01T10:00:00.Z",
            "2026-03-01T10:00:00+2:00", "2026-03-01 10:00:00Z", "26-03-01T10:00:00Z", "",
        ])
    func refused(text: String) {
        #expect(!RFC3339.isTimestamp(text))
        #expect(RFC3339.date(text) == nil)
    }

    @Test("a space between day and time when the caller allows it")
    func space() {
        #expect(RFC3339.isTimestamp("2026-03-01 10:00:00Z", allowingSpace: true))
    }
}
