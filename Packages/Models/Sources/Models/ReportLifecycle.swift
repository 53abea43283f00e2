/// The sync-relevant state of one report, as a value. Its `state` can change
/// only through `apply(_:)`, whose transition table is the whole list of legal
/// transitions: there is no setter, so an illegal transition cannot be written.
public struct ReportLifecycle: Sendable, Hashable {
    /// The report's state.
    public private(set) var state: ReportState
    /// The server's id, once the server has accepted the report.
    public private(set) var serverID: String?
    /// The server revision this device's answers are based on (nil before the first acceptance).
    public private(set) var baseRevision: Int?
    /// Set while PENDING when the server accepted the current answers and only photos remain.
    public private(set) var acceptedRevision: Int?
    /// Consecutive failed upload attempts since the last success or manual retry.
    public private(set) var attemptCount: Int
    /// The last error the server or the network gave, for display.
    public private(set) var lastError: ReportError?
    /// The server's revision while in CONFLICT.
    public private(set) var conflict: ServerRevision?
    /// The server's review of the revision this device last saw (contract 1.1); nil before one arrived,
    /// and always from a server without reviews.
    public private(set) var review: ReportReview?

    /// A new draft.
    public init() {
        state = .draft
        attemptCount = 0
    }

    /// A report the server holds, as it holds it: SYNCED at `revision`, with
    /// the server's review of it when there is one. For a report read from the
    /// server and shown, never stored.
    public init(heldByServer serverID: String, revision: Int, review: ReportReview?) {
        state = .synced
        self.serverID = serverID
        baseRevision = revision
        attemptCount = 0
        self.review = review
    }

    /// Rebuilds a lifecycle read back from the store. This restores a state
    /// reached earlier through `apply(_:)`; it is not a way to change one, so
    /// it is offered only to the store (`@_spi(StoreRestoring) import Models`).
    @_spi(StoreRestoring)
    public init(
        restoring state: ReportState, serverID: String?, baseRevision: Int?, acceptedRevision: Int?,
        attemptCount: Int, lastError: ReportError?, conflict: ServerRevision?, review: ReportReview? = nil
    ) {
        self.state = state
        self.serverID = serverID
        self.baseRevision = baseRevision
        self.acceptedRevision = acceptedRevision
        self.attemptCount = attemptCount
        self.lastError = lastError
        self.conflict = conflict
        self.review = review
    }

    /// True when the answers may be edited (DRAFT, or REJECTED awaiting correction).
    public var isEditable: Bool { state == .draft || state == .rejected }

    /// True for a draft made by amending a synced report.
    public var isAmendment: Bool { state == .draft && serverID != nil }

    /// True when a supervisor returned the report and its inspector has not
    /// sent the changes yet: SYNCED, or amended and still a DRAFT.
    public var awaitsChanges: Bool {
        review?.isReturned == true && (state == .synced || state == .draft)
    }
}

// The transition table lives in this file because only this file may set
// the lifecycle's properties (`private(set)`).
extension ReportLifecycle {
    /// Applies an event: the state changes and the effects to perform are
    /// returned, or the event is refused with a message saying why and what
    /// is possible instead. A refused event changes nothing.
    @discardableResult
    public mutating func apply(_ event: ReportEvent) throws(ModelsError) -> [ReportEffect] {
        switch (state, event) {
        case (.draft, .autosave), (.rejected, .autosave):
            return [.recordRevision]

        case (.draft, .complete), (.rejected, .complete):
            state = .pending
            attemptCount = 0
            lastError = nil
            acceptedRevision = nil
            return [.recordRevision, .enqueueUpload]

        case (.pending, .accepted(let serverID, let revision, let photosOutstanding, let awaitingReview))
        where acceptedRevision == nil:
            self.serverID = serverID
            baseRevision = revision
            attemptCount = 0
            lastError = nil
            // A newly accepted revision starts awaiting review, without the comments of the one before;
            // so does a first one, when the server has reviews.
            if let review {
                if review.revision < revision { self.review = .awaiting(revision: revision) }
            } else if awaitingReview {
                self.review = .awaiting(revision: revision)
            }
            if photosOutstanding > 0 {
                acceptedRevision = revision
            } else {
                state = .synced
            }
            return []

        case (.pending, .merged(let serverID, let revision, let photosOutstanding, let payload, let issues, _))
        where acceptedRevision == nil:
            _ = try apply(.accepted(serverID: serverID, revision: revision, photosOutstanding: photosOutstanding))
            // The merged answers are the device's now, saved as a revision of their own.
            return [.adoptServerAnswers(payload), .adoptServerIssues(issues), .recordRevision]

        case (.pending, .photosUploaded) where acceptedRevision != nil:
            state = .synced
            acceptedRevision = nil
            attemptCount = 0
            lastError = nil
            return []

        case (.pending, .conflict(let revision, let payload, let fields)) where acceptedRevision == nil:
            state = .conflict
            conflict = ServerRevision(revision: revision, payload: payload, fields: fields)
            lastError = ReportError(
                code: .conflict, message: "The server has a newer revision (\(revision)); choose which answers to keep."
            )
            return []

        case (.pending, .rejected(let code, let message)) where acceptedRevision == nil:
            state = .rejected
            attemptCount = 0
            lastError = ReportError(code: code, message: message)
            return []

        case (.pending, .transportFailed(let code, let message)):
            attemptCount += 1
            lastError = ReportError(code: code, message: message)
            return []

        case (.pending, .retryRequested):
            // A person asked: the count starts again and the report is due at once.
            attemptCount = 0
            return [.enqueueUpload]

        case (.conflict, .keepMine):
            state = .pending
            baseRevision = conflict?.revision ?? baseRevision
            conflict = nil
            attemptCount = 0
            lastError = nil
            return [.recordRevision, .enqueueUpload]

        case (.conflict, .takeServer):
            let server = conflict
            state = .synced
            baseRevision = server?.revision ?? baseRevision
            if let review, let taken = server?.revision, review.revision < taken {
                self.review = .awaiting(revision: taken)
            }
            conflict = nil
            attemptCount = 0
            lastError = nil
            return server.map { [.adoptServerAnswers($0.payload), .recordRevision] } ?? []

        case (.synced, .amend):
            state = .draft
            return []

        case (.draft, .discard):
            if serverID != nil {
                state = .synced
                return [.restoreSyncedAnswers]
            }
            return [.deleteWithChildren]

        case (.synced, .expire) where !(review?.holdsReport ?? false):
            // Returned or awaiting review: kept until the amendment is synced or a supervisor decides.
            return [.removeLocalCopy]

        case (.synced, .serverLost),
            (.pending, .serverLost) where serverID != nil:
            // The restored server never saw it: sent again as a new upload with the same local id.
            forgetServerCopy()
            return sendAgain()

        case (.synced, .serverLostPhotos) where serverID != nil:
            // The server holds this revision but not every photo: PENDING until they are up again.
            acceptedRevision = baseRevision
            return sendAgain()

        case (.synced, .serverBehind(let revision)) where serverID != nil && revision < (baseRevision ?? 0),
            (.pending, .serverBehind(let revision)) where serverID != nil && revision < (baseRevision ?? 0):
            // The restored server holds an older revision: these answers go again, based on it.
            baseRevision = revision
            acceptedRevision = nil
            return sendAgain()

        case (.pending, .serverLostPhotos) where serverID != nil:
            attemptCount = 0
            return [.enqueueUpload]

        case (.conflict, .serverLost) where serverID != nil:
            // The server lost the report with its side of the conflict: the device's answers go as a new upload.
            forgetServerCopy()
            conflict = nil
            return sendAgain()

        case (.conflict, .serverBehind(let revision))
        where serverID != nil && revision < (conflict?.revision ?? baseRevision ?? 0):
            // The server's side of the conflict was lost with the revisions after `revision`:
            // nothing is left to choose between, and the device's answers go on top of it.
            baseRevision = revision
            acceptedRevision = nil
            conflict = nil
            return sendAgain()

        case (.draft, .serverLost) where serverID != nil:
            // An amendment being written of a report the server lost: once completed, a new upload.
            forgetServerCopy()
            return []

        case (.draft, .serverBehind(let revision)) where serverID != nil && revision < (baseRevision ?? 0):
            // An amendment being written, of a revision the server lost: it will go on top of `revision`.
            baseRevision = revision
            return []

        case (_, .reviewed(let new))
        where (serverID != nil || state == .pending) && new.revision >= (baseRevision ?? 0):
            // A review of the revision this device holds (or a newer one the server made); any state,
            // since a decision may arrive while an amendment is being written or sent. A PENDING
            // report without a server id was accepted by a server whose answer never arrived: the
            // review is kept, and the replayed upload's acceptance of that same revision keeps it.
            review = new
            return []

        default:
            throw ModelsError(.illegalTransition, refusal(for: event))
        }
    }
}

// What the transitions after a server restore share; in this file for the same reason.
extension ReportLifecycle {
    /// The restored server does not hold the report: no server id, no revision
    /// it is based on or accepted, no review, as before its first upload.
    private mutating func forgetServerCopy() {
        serverID = nil
        baseRevision = nil
        acceptedRevision = nil
        review = nil
    }

    /// PENDING and due at once, with no failed attempt counted: sent again.
    private mutating func sendAgain() -> [ReportEffect] {
        state = .pending
        attemptCount = 0
        lastError = nil
        return [.enqueueUpload]
    }
}

/// An error recorded on a report: a machine code and the human message.
public struct ReportError: Sendable, Hashable, Codable {
    /// The catalogue of the codes the lifecycle itself records; the others a
    /// report keeps are the sync cycle's and the server's, as they came.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as kept with the report.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// The server holds a newer revision: the person chooses which answers to keep.
        public static let conflict = Code("REPORT_CONFLICT")
    }

    /// The raw value of a code: the lifecycle's own, the sync cycle's or the server's.
    public var code: String
    public var message: String

    /// An error with a code of the lifecycle's catalogue.
    public init(code: Code, message: String) {
        self.init(code: code.rawValue, message: message)
    }

    /// An error with a code as the report keeps it.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// A revision held by the server, kept while the report is in CONFLICT.
public struct ServerRevision: Sendable, Hashable {
    public var revision: Int
    public var payload: JSONValue
    /// The fields both sides changed (contract 1.1, from a server asked to merge); nil when the server named none.
    public var fields: [String]?
    public init(revision: Int, payload: JSONValue, fields: [String]? = nil) {
        self.revision = revision
        self.payload = payload
        self.fields = fields
    }
}
