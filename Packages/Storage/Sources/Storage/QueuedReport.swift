import Foundation

/// A PENDING report as the sync queue sees it: its ids, retry state and
/// outstanding photos, without its answers. Read in one query for the whole
/// queue, so deciding what to send never parses a report's answers.
public struct QueuedReport: Sendable, Hashable {
    /// The report.
    public var localID: UUID
    /// The server's id, once the server has accepted it.
    public var serverID: String?
    /// The revision the server accepted; set while only photos remain to upload.
    public var acceptedRevision: Int?
    /// Failed attempts so far.
    public var attemptCount: Int
    /// When the next attempt is due; nil for at once.
    public var nextAttemptAt: Date?
    /// The parent of a re-inspection.
    public var parentLocalID: UUID?
    /// Its photos not UPLOADED yet.
    public var outstandingPhotos: Int

    /// A queued report.
    public init(
        localID: UUID, serverID: String? = nil, acceptedRevision: Int? = nil, attemptCount: Int = 0,
        nextAttemptAt: Date? = nil, parentLocalID: UUID? = nil, outstandingPhotos: Int = 0
    ) {
        self.localID = localID
        self.serverID = serverID
        self.acceptedRevision = acceptedRevision
        self.attemptCount = attemptCount
        self.nextAttemptAt = nextAttemptAt
        self.parentLocalID = parentLocalID
        self.outstandingPhotos = outstandingPhotos
    }
}
