/// The hours of the day an inspection may be done, in local time, written
/// `07:00-11:00`. The end is strictly after the start on the same day;
/// `24:00` ends the window at midnight.
public struct TimeWindow: Sendable, Hashable, CustomStringConvertible {
    /// Minutes after local midnight the window opens, 0 to 1439.
    public let start: Int
    /// Minutes after local midnight the window closes, up to 1440 (`24:00`).
    public let end: Int

    /// Reads a window written `HH:MM-HH:MM`, e.g. `07:00-11:00`.
    public init(_ text: String) throws(ScheduleError) {
        let shown = text.quotedForMessage
        let halves = text.split(separator: "-", omittingEmptySubsequences: false)
        guard halves.count == 2, let start = TimeWindow.minutes(halves[0]), let end = TimeWindow.minutes(halves[1])
        else {
            throw .windowInvalid("the window \(shown) is not written HH:MM-HH:MM, e.g. 07:00-11:00")
        }
        guard start < 24 * 60, end <= 24 * 60 else {
            throw .windowInvalid("the window \(shown) has a time outside 00:00 to 24:00")
        }
        guard end > start else {
            throw .windowInvalid(
                "the window \(shown) does not end after it starts; a window ends later the same day, e.g. 07:00-11:00"
            )
        }
        self.start = start
        self.end = end
    }

    /// The window written `HH:MM-HH:MM`.
    public var description: String {
        "\(TimeWindow.clock(start))-\(TimeWindow.clock(end))"
    }

    /// Minutes in `HH:MM` (two digits each, minutes below 60), or nil.
    private static func minutes(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            let hours = Int(digits: parts[0]), let minutes = Int(digits: parts[1]), minutes < 60
        else { return nil }
        return hours * 60 + minutes
    }

    private static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}
