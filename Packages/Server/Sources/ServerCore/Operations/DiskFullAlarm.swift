import Foundation
import ServerHTTP
import ServerStore

/// Decides when the server says, in its log, that its disk is full: one
/// line at the first write refused for it (a request answered 507
/// `STORAGE_FULL`, a webhook delivery that could not be recorded), then at
/// most one line every `interval` while refusals go on, counting those not
/// written. A disk that stays full for hours so leaves a few lines, not one
/// per request.
final class DiskFullAlarm: Sendable {
    private let alarm: RepeatingAlarm

    /// An alarm that repeats itself at most every `seconds`.
    init(seconds: UInt64 = 600) {
        alarm = RepeatingAlarm(seconds: seconds)
    }

    /// Counts one refusal; the line to log now, or nil when one was logged within `interval`.
    func refused(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> String? {
        guard let unsaid = alarm.occurred(now: now) else { return nil }
        let more = unsaid > 0 ? " (\(unsaid) more writes refused since the last line like this)" : ""
        return
            "the server's disk is full: uploads and syncs are refused 507 STORAGE_FULL until space is freed on the disk of the database and the upload folder; reads go on, nothing accepted was lost, nothing needs a restart\(more)"
    }

    /// For a `STORAGE_FULL` error: counts it, writes the line when one is due, and
    /// answers true (the caller writes nothing of its own). False for any other error.
    func noted(_ error: ServerError, in log: ServerLog) -> Bool {
        guard error.code == .storageFull else { return false }
        if let line = refused() { log.note(line, level: .error) }
        return true
    }
}
