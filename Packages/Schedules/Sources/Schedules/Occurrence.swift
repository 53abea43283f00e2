import Foundation

/// One time a schedule falls due: the local day, and the instants its
/// window opens and closes on that day in the schedule's zone.
public struct Occurrence: Sendable, Hashable {
    /// The local date the inspection is due on.
    public let day: LocalDate
    /// When the window opens.
    public let start: Date
    /// When the window closes; always after `start`.
    public let end: Date
}
