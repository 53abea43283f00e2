/// A day of the week, Monday first, with its RRULE code (`MO`) and its
/// English name (`Monday`).
enum Weekday: Int, CaseIterable, Sendable, Hashable, Comparable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The two-letter code RFC 5545 uses, such as `TU`.
    var code: String {
        ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue]
    }

    /// The English name an administrator reads, such as `Tuesday`.
    var name: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][rawValue]
    }

    /// The weekday with the given two-letter code, if there is one.
    init?(code: Substring) {
        guard let found = Weekday.allCases.first(where: { $0.code == code }) else { return nil }
        self = found
    }

    /// Monday comes first, Sunday last.
    static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}
