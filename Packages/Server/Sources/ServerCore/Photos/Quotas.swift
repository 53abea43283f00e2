import Foundation
import Models
import ServerStore

/// What one user may store (`--quota-*`), with defaults a real inspector
/// never meets: bytes in all (the revisions and photos they send), revisions
/// a day, photos a report. Counted in the transaction that stores them, so
/// one inspector, or one stolen account, cannot fill the server's disk.
/// Refusals are 429 `QUOTA_EXCEEDED` with `Retry-After`, which devices treat
/// as a busy server: what they hold stays with them and is sent again later.
struct Quotas: Sendable, Equatable {
    var bytes: Int64 = 20 * 1024 * 1024 * 1024
    var revisionsPerDay = 100_000
    var photosPerReport = 500
    /// Bytes one user's unfinished resumable uploads may announce in all: what the partial bytes may take on disk.
    var uploadBytes: Int64 = 2 * 1024 * 1024 * 1024

    /// The UTC day of `date`, `YYYY-MM-DD`: revisions are counted per day.
    static func day(_ date: Date) -> String { String(RFC3339.string(date).prefix(10)) }

    /// Seconds from `date` to the next UTC midnight (at least 1).
    static func secondsToNextDay(_ date: Date) -> Int {
        let seconds = Int(date.timeIntervalSince1970)
        return max(1, 86_400 - seconds % 86_400)
    }

    /// Refuses, inside the transaction about to store them, `bytes` and
    /// `revisions` more for `userID` past the quotas; counts them otherwise.
    func charge(userID: String, bytes added: Int64, revisions: Int, in session: any StorageSession, now: Date)
        throws(ServerError)
    {
        let today = Self.day(now)
        let used = try session.usage(userID: userID, day: today)
        if revisions > 0 && used.revisions + revisions > revisionsPerDay {
            throw ServerError.quotaExceeded(
                "this account has sent \(used.revisions) revisions today, and may send \(revisionsPerDay) a day; the rest are kept on the device and sent tomorrow",
                retryAfter: Self.secondsToNextDay(now))
        }
        try checkBytes(used.bytes, adding: added)
        try session.addUsage(userID: userID, bytes: added, revisions: revisions, day: today)
    }

    /// Refuses one more photo for a report holding `held`, or `adding` its bytes to the `used` of its sender, past the quotas.
    func checkPhoto(_ serverID: String, held: Int, used: Int64, adding: Int64) throws(ServerError) {
        guard held < photosPerReport else {
            throw ServerError.quotaExceeded(
                "report '\(serverID)' holds \(held) photos, the most one report may hold", retryAfter: 3_600)
        }
        try checkBytes(used, adding: adding)
    }

    /// Refuses a new resumable upload of `adding` bytes when the user's unfinished ones announce `held`.
    func checkUploads(held: Int64, adding: Int64) throws(ServerError) {
        guard held + adding > uploadBytes else { return }
        throw ServerError.quotaExceeded(
            "this account's unfinished uploads hold \(held) bytes, and may hold \(uploadBytes); finish or let them expire first (--quota-upload-bytes)",
            retryAfter: 3_600)
    }

    /// Refuses `adding` more bytes to `used` past the quota.
    func checkBytes(_ used: Int64, adding: Int64) throws(ServerError) {
        guard used + adding > bytes else { return }
        throw ServerError.quotaExceeded(
            "this account stores \(used) bytes, and may store \(bytes); ask an administrator to raise the quota (--quota-bytes)",
            retryAfter: 3_600)
    }
}
