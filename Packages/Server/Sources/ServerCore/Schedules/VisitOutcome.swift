import Foundation
import Models
import ServerStore

/// What became of a scheduled visit. An inspection done by the window's end
/// is on time (done early too); after it, late. With none accepted, a visit
/// is open until `grace` after its window, then missed: the device still
/// shows it as overdue and may still do it, and it then counts as late.
enum VisitOutcome: String, CaseIterable, Sendable {
    case onTime = "on_time"
    case late
    case missed
    /// Not yet due, or in its window or grace.
    case open
    /// Cancelled (its schedule changed, paused or removed) before it was done.
    case cancelled

    /// The outcome of `record` at `now`. An inspection's time is when the
    /// device completed it, but never later than the server accepted it (a
    /// device clock running ahead does not make a visit late).
    init(_ record: VisitRecord, now: Date, grace: TimeInterval) {
        let end = RFC3339.date(record.visit.windowEnd) ?? .distantFuture
        if let done = Self.doneTime(record) {
            self = done <= end ? .onTime : .late
        } else if record.cancelledAt != nil {
            self = .cancelled
        } else {
            self = now > end.addingTimeInterval(grace) ? .missed : .open
        }
    }

    /// When the visit's inspection was done; nil when none was accepted.
    static func doneTime(_ record: VisitRecord) -> Date? {
        let accepted = record.acceptedAt.flatMap(RFC3339.date)
        guard let completed = record.doneAt.flatMap(RFC3339.date) else { return accepted }
        guard let accepted else { return completed }
        return min(completed, accepted)
    }
}
