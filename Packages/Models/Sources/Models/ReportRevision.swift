import Foundation

/// Why a revision of a report's answers was saved.
public enum RevisionReason: String, Sendable, Hashable, CaseIterable {
    /// The report was started (its first answers, often none).
    case created
    /// An answer was saved.
    case autosave
    /// The report was completed.
    case complete
    /// A conflict was resolved by keeping this device's answers.
    case keepMine = "keep-mine"
    /// A conflict was resolved by taking the server's answers.
    case takeServer = "take-server"
    /// An amended draft was discarded: the synced answers were put back.
    case restoreSynced = "restore-synced"
    /// The server accepted the answers merged with its own changes, which the device took (contract 1.1).
    case merged
    /// The report moved onto a newer version of its template; answers that
    /// did not fit are in the revision's `setAside`.
    case templateMove = "template-move"
    /// A draft just moved was put back on the version it was on, with the
    /// answers it had there (`jqc migrate --keep-version`).
    case templateKept = "template-kept"
}

/// One saved revision of a report's answers. Revisions are only added, never
/// changed or removed, until the report itself leaves the device.
public struct ReportRevision: Sendable, Hashable {
    /// The report it belongs to.
    public var reportLocalID: UUID
    /// 1, 2, 3... in the order saved on this device.
    public var sequence: Int64
    /// The answers as they were.
    public var answers: Answers
    /// The report's state right after the save.
    public var state: ReportState
    /// The server revision these answers are, once the server accepted them.
    public var serverRevision: Int?
    /// The device clock at the save; diagnostic only.
    public var savedAtDevice: Date
    /// What saved it.
    public var reason: RevisionReason
    /// The template version the answers were given to (nil for revisions
    /// saved before the device kept versions).
    public var templateVersion: Int?
    /// The answers a move onto a newer template version set aside (`templateMove` revisions).
    public var setAside: [SetAsideAnswer]

    /// A revision as it was saved.
    public init(
        reportLocalID: UUID, sequence: Int64, answers: Answers, state: ReportState, serverRevision: Int?,
        savedAtDevice: Date, reason: RevisionReason, templateVersion: Int?, setAside: [SetAsideAnswer] = []
    ) {
        self.reportLocalID = reportLocalID
        self.sequence = sequence
        self.answers = answers
        self.state = state
        self.serverRevision = serverRevision
        self.savedAtDevice = savedAtDevice
        self.reason = reason
        self.templateVersion = templateVersion
        self.setAside = setAside
    }
}
