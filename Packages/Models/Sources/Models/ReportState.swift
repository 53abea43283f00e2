/// Where a report is in its life (docs/user-guide.md, "Syncing").
public enum ReportState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Being filled in on this device; autosaved at every answer.
    case draft = "DRAFT"
    /// Complete and queued for upload, or accepted and waiting for its photos.
    case pending = "PENDING"
    /// Accepted by the server with every photo uploaded.
    case synced = "SYNCED"
    /// The server holds a newer revision; a person must choose.
    case conflict = "CONFLICT"
    /// The server refused it; editable again, completing it re-queues it.
    case rejected = "REJECTED"
}

/// Something that happens to a report. Which events a state accepts is the
/// transition table in `ReportLifecycle+Transitions.swift`, and nowhere else.
public enum ReportEvent: Sendable, Hashable {
    /// An answer was saved (form runner step, scripted edit).
    case autosave
    /// The inspector marked it complete; required answers were checked before.
    case complete
    /// The server accepted it as `revision`; `photosOutstanding` owned photos are not yet uploaded.
    /// `awaitingReview`: the server has reviews (contract 1.1), so a first revision starts awaiting
    /// one, as its reviews feed will say.
    case accepted(serverID: String, revision: Int, photosOutstanding: Int, awaitingReview: Bool = false)
    /// The server accepted it merged with its own changes (contract 1.1): the
    /// device takes the merged `payload` and `issues` as its own; `fields` came from the server's side.
    case merged(
        serverID: String, revision: Int, photosOutstanding: Int, payload: JSONValue, issues: [WireIssue],
        fields: [String])
    /// The last outstanding photo of an accepted report was uploaded.
    case photosUploaded
    /// The server holds `serverRevision`, newer than our base revision.
    /// `fields`: what both sides changed, when the server names them (contract 1.1 merges).
    case conflict(serverRevision: Int, serverPayload: JSONValue, fields: [String]? = nil)
    /// The server refused the report.
    case rejected(code: String, message: String)
    /// The upload did not get an answer (offline, 5xx, dropped); try again later.
    case transportFailed(code: String, message: String)
    /// A person asked to retry now (after the retry ceiling, for example).
    case retryRequested
    /// Conflict resolved by keeping this device's answers (whole or merged per field).
    case keepMine
    /// Conflict resolved by taking the server's revision.
    case takeServer
    /// The inspector corrects a submitted report.
    case amend
    /// The inspector deletes a draft (an amended draft goes back to its synced revision).
    case discard
    /// The retention window passed for a synced report.
    case expire
    /// The server's review of a revision arrived (contract 1.1).
    case reviewed(ReportReview)
    /// The server was restored from a backup taken before it accepted this
    /// report: it no longer holds it, so the report goes back in the queue,
    /// as never sent (no server id, no base revision), to be sent again
    /// with its photos under the same local id.
    case serverLost
    /// The server was restored from a backup that holds this report but
    /// not every photo this device uploaded: those are sent again.
    case serverLostPhotos
    /// The server was restored from a backup that holds this report at
    /// `revision`, older than this device's: the device's answers are sent
    /// again as a new revision on top of it.
    case serverBehind(revision: Int)

    /// The event's name as a person would say it, for messages.
    public var name: String {
        switch self {
        case .autosave: return "save an answer"
        case .complete: return "complete"
        case .accepted: return "accept"
        case .merged: return "accept a merge"
        case .photosUploaded: return "finish photo uploads"
        case .conflict: return "mark as conflicting"
        case .rejected: return "reject"
        case .transportFailed: return "record a failed upload"
        case .retryRequested: return "retry"
        case .keepMine: return "resolve by keeping mine"
        case .takeServer: return "resolve by taking the server's"
        case .amend: return "amend"
        case .discard: return "delete"
        case .expire: return "remove after retention"
        case .reviewed: return "record a review"
        case .serverLost: return "send again to a restored server"
        case .serverLostPhotos: return "send photos again to a restored server"
        case .serverBehind: return "send a revision again to a restored server"
        }
    }
}

/// What the driver must do after a transition, in order. The lifecycle itself
/// performs no I/O; Storage and Sync carry these out.
public enum ReportEffect: Sendable, Hashable {
    /// Keep the current answers as a new saved revision.
    case recordRevision
    /// Put the report in the upload queue (after every report created before it).
    case enqueueUpload
    /// Replace the local answers with the server's (the replaced ones stay in the revision history).
    case adoptServerAnswers(JSONValue)
    /// Take the issues of a merged revision (contract 1.1) as the report's own.
    case adoptServerIssues([WireIssue])
    /// Put back the answers of the last synced revision (an amended draft was discarded).
    case restoreSyncedAnswers
    /// Remove the report with its photos and issues (a draft was deleted).
    case deleteWithChildren
    /// Remove the local copy and its files; the server copy is untouched.
    case removeLocalCopy
}
