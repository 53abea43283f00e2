/// A calendar date without a time zone, as an administrator writes it:
/// `2027-03-31`. A schedule's start and end are local dates in the
/// organisation's zone, and each occurrence falls on one.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, 1 to 9999.
    public let year: Int
    /// The month, 1 (January) to 12 (December).
    public let month: Int
    /// The day of the month, 1 to 31.
    public let day: Int

    /// Reads a date written `YYYY-MM-DD`; refuses any other form and any
    /// day the calendar does not have, such as `2027-02-30`.
    public init(_ text: String) throws(ScheduleError) {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
            let year = Int(digits: fields[0]), let month = Int(digits: fields[1]), let day = Int(digits: fields[2])
        else {
            throw .dateInvalid("the date \(text.quotedForMessage) is not written YYYY-MM-DD, e.g. 2027-03-31")
        }
        try self.init(year: year, month: month, day: day, quoting: text)
    }

    /// Makes a date from its parts; refuses a day the calendar does not have.
    public init(year: Int, month: Int, day: Int) throws(ScheduleError) {
        try self.init(year: year, month: month, day: day, quoting: nil)
    }

    private init(year: Int, month: Int, day: Int, quoting text: String?) throws(ScheduleError) {
        let shown = text?.quotedForMessage ?? "\(year)-\(month)-\(day)"
        guard (1...9999).contains(year), (1...12).contains(month) else {
            throw .dateInvalid("the date \(shown) does not exist; write a date as YYYY-MM-DD, e.g. 2027-03-31")
        }
        let length = LocalDate.daysIn(month: month, year: year)
        guard (1...length).contains(day) else {
            throw .dateInvalid("the date \(shown) does not exist: that month has \(length) days")
        }
        self.init(checkedYear: year, month: month, day: day)
    }

    /// Makes a date from parts already known to name a real day.
    init(checkedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date written `YYYY-MM-DD`.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// Whether this date comes before the other one in the calendar.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

extension Int {
    /// Reads a run of ASCII digits only: no sign, no spaces, at most nine.
    init?(digits: Substring) {
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        self.init(digits)
    }
}
