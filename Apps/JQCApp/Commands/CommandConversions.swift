import ArgumentParsing
import Foundation
import FieldTypes
import Models

/// The conversions several of jqc's commands share: each writes the usage
/// error the commands have always printed for a word it refuses.
extension Conversion where Value == Int {
    /// A whole number within `range`: "--limit takes a whole number from 1 to 100; got 'x'."
    /// (a range with no real top, `Int32.max`, reads "from 0 up").
    static func count(in range: ClosedRange<Int>) -> Conversion<Int> {
        checked(
            { word in Int(word).flatMap { range.contains($0) ? $0 : nil } },
            otherwise: { word, label in
                "\(label) takes a whole number from \(range.lowerBound)\(range.upperBound == Int(Int32.max) ? " up" : " to \(range.upperBound)"); got '\(word)'."
            })
    }
}

extension Conversion where Value == String {
    /// An id, trimmed; given empty, a usage error.
    static var id: Conversion<String> {
        checked(
            { word in
                let trimmed = word.trimmingCharacters(in: .whitespaces)
                return trimmed.isEmpty ? nil : trimmed
            }, otherwise: { _, label in "\(label) needs an id." })
    }
}

/// A `--from`/`--to` of `history`: the word as given, and the RFC 3339 time sent.
struct HistoryMoment: Sendable {
    let given: String
    let sent: String

    /// A plain `YYYY-MM-DD` is that UTC day's first second, or its last (`endOfDay`);
    /// an RFC 3339 time is sent in UTC.
    static func conversion(endOfDay: Bool) -> Conversion<HistoryMoment> {
        Conversion { (word, label) throws(UsageError) -> HistoryMoment in
            let trimmed = word.trimmingCharacters(in: .whitespaces)
            if RFC3339.isDay(trimmed) {
                return HistoryMoment(given: word, sent: trimmed + (endOfDay ? "T23:59:59Z" : "T00:00:00Z"))
            }
            guard let date = RFC3339.date(trimmed) else {
                throw UsageError(
                    "\(label) takes a date YYYY-MM-DD or an RFC 3339 time such as 2026-03-01T08:00:00Z; got \(OneLine.quote(word))."
                )
            }
            return HistoryMoment(
                given: word,
                sent: RFC3339.string(
                    date, milliseconds: date.timeIntervalSince1970.rounded(.down) != date.timeIntervalSince1970))
        }
    }
}
