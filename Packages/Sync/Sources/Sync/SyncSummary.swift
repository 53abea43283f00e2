import Foundation
import Models
import Storage

/// How a sync cycle ended.
public enum SyncOutcome: String, Sendable, Hashable {
    /// Every network phase ran.
    case done
    /// The server could not be reached or was unavailable; what was left waits for the next cycle.
    case offline
    /// The session is over; sign in again (nothing local was lost).
    case authRequired = "auth_required"
}

/// What the reference pull brought.
public struct ReferenceCounts: Sendable, Hashable {
    /// Facilities stored.
    public var facilities: Int
    /// Areas stored.
    public var areas: Int
    /// Templates stored.
    public var templates: Int
    /// Assignments new or changed since the stored cursor.
    public var assignments: Int
    /// Templates the server sent whose schema this app cannot read: skipped, never fatal.
    public var skippedTemplates: [SkippedTemplate]

    /// Reference counts.
    public init(
        facilities: Int = 0, areas: Int = 0, templates: Int = 0, assignments: Int = 0,
        skippedTemplates: [SkippedTemplate] = []
    ) {
        self.facilities = facilities
        self.areas = areas
        self.templates = templates
        self.assignments = assignments
        self.skippedTemplates = skippedTemplates
    }
}

/// What the reviews pull of one cycle brought (contract 1.1).
public struct ReviewCounts: Sendable, Hashable {
    /// Reviews the server sent.
    public var received = 0
    /// Reviews that changed a report's stored review.
    public var recorded = 0
    /// Reviews of reports this device does not hold, or of older revisions.
    public var ignored = 0

    /// No reviews yet.
    public init(received: Int = 0, recorded: Int = 0, ignored: Int = 0) {
        self.received = received
        self.recorded = recorded
        self.ignored = ignored
    }

    /// These counts with a stored page's added.
    public func adding(_ page: ReviewPageResult) -> ReviewCounts {
        ReviewCounts(
            received: received + page.received, recorded: recorded + page.recorded, ignored: ignored + page.ignored)
    }
}

/// A template left out of the cache, and why.
public struct SkippedTemplate: Sendable, Hashable {
    /// Its id, or "?" when it has none.
    public var id: String
    /// The first problem found, for one line of output.
    public var reason: String

    /// A skipped template.
    public init(id: String, reason: String) {
        self.id = id
        self.reason = reason
    }
}

/// A report the server accepted merged with its own changes.
public struct MergedReport: Sendable, Hashable {
    /// The report.
    public var localID: UUID
    /// What came from the server's side (field ids, `follow_up_required`, `issue:<local_id>`).
    public var fields: [String]

    /// A merged report.
    public init(localID: UUID, fields: [String]) {
        self.localID = localID
        self.fields = fields
    }
}

/// What one sync cycle did: the `sync` command's output and `sync --json`.
/// It never holds a token or any answer.
/// What a cycle did after the server's data was found restored from a
/// backup (its `server_generation` changed): the reports and photos the
/// restored server lacked, put back to be sent again.
public struct ServerRestore: Sendable, Hashable {
    /// Reports the server no longer had, queued again as new uploads with their local ids.
    public var reportsSentAgain: Int
    /// Photos of reports the server still had, uploaded again because it lacked them.
    public var photosSentAgain: Int

    /// A restore's counts.
    public init(reportsSentAgain: Int = 0, photosSentAgain: Int = 0) {
        self.reportsSentAgain = reportsSentAgain
        self.photosSentAgain = photosSentAgain
    }
}

public struct SyncSummary: Sendable, Hashable {
    /// A report the server refused.
    public struct Rejection: Sendable, Hashable {
        /// The report.
        public var localID: UUID
        /// The server's code (`REPORT_INVALID`, `SCHEMA_UNSUPPORTED`, ...).
        public var code: String
        /// The server's message.
        public var message: String

        /// A rejection.
        public init(localID: UUID, code: String, message: String) {
            self.localID = localID
            self.code = code
            self.message = message
        }
    }

    /// How the cycle ended.
    public var outcome: SyncOutcome = .done
    /// Whether the last network attempt reached the server.
    public var online = false
    /// What the reference pull stored; nil when it failed.
    public var reference: ReferenceCounts?
    /// Why the reference pull failed, if it did.
    public var referenceError: SyncFailure?
    /// Reports the server accepted.
    public var accepted = 0
    /// Reports that became SYNCED (accepted with every photo up).
    public var synced = 0
    /// Reports that came back in CONFLICT.
    public var conflicts: [UUID] = []
    /// Reports the server accepted merged with its own changes (contract 1.1), with the fields that came from the server.
    public var merged: [MergedReport] = []
    /// Reports the server rejected.
    public var rejected: [Rejection] = []
    /// Reports whose upload failed this cycle (they retry later).
    public var failed = 0
    /// PENDING reports not sent because their next attempt is not due yet.
    public var waiting = 0
    /// PENDING reports at the retry ceiling: they wait for `jqc retry`.
    public var needsPerson = 0
    /// Photos uploaded.
    public var photosUploaded = 0
    /// Photo bytes uploaded.
    public var photoBytes: Int64 = 0
    /// Photos whose upload failed.
    public var photosFailed = 0
    /// SYNCED reports removed after the retention window.
    public var expired = 0
    /// Photo files that interrupted imports left and no record names, removed as retention started.
    public var leftoverPhotosRemoved = 0
    /// One line for each such file that could not be removed (it is tried again at the next sweep).
    public var leftoverPhotoProblems: [String] = []
    /// What the reviews pull brought; nil when the server has no reviews or it was not reached.
    public var reviews: ReviewCounts?
    /// Reports that came back returned for changes in this cycle.
    public var returned: [ReturnedReport] = []
    /// Why the reviews could not be pulled, when the rest of the cycle went on.
    public var reviewsError: SyncFailure?
    /// What the actions step did (contract 1.2); nil when it did not run.
    public var actions: ActionCounts?
    /// Why the actions step stopped, when the rest of the cycle went on.
    public var actionsError: SyncFailure?
    /// The failure that stopped or marred the cycle, if any.
    public var error: SyncFailure?
    /// Drafts moved onto the newest versions of their templates after the
    /// cycle (set by whoever runs the cycle: the mapping lives above Sync).
    public var moved: [DraftsMoved] = []
    /// Set when the server's data was found restored from a backup this cycle.
    public var serverRestore: ServerRestore?

    /// An empty summary.
    public init() {}

    /// The `sync --json` document.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "outcome": .string(outcome.rawValue),
            "online": .bool(online),
            "accepted": .integer(Int64(accepted)),
            "synced": .integer(Int64(synced)),
            "conflicts": .array(conflicts.map { .string($0.wireString) }),
            "merged": .array(
                merged.map {
                    ["local_id": .string($0.localID.wireString), "fields": .array($0.fields.map(JSONValue.string))]
                }),
            "rejected": .array(
                rejected.map {
                    [
                        "local_id": .string($0.localID.wireString), "code": .string($0.code),
                        "message": .string($0.message),
                    ]
                }),
            "failed": .integer(Int64(failed)),
            "waiting": .integer(Int64(waiting)),
            "needs_attention": .integer(Int64(needsPerson)),
            "photos_uploaded": .integer(Int64(photosUploaded)),
            "photo_bytes": .integer(photoBytes),
            "photos_failed": .integer(Int64(photosFailed)),
            "expired": .integer(Int64(expired)),
            "error": error.map { ["code": .string($0.code), "message": .string($0.message)] } ?? .null,
        ]
        if let reference {
            object["pulled"] = [
                "facilities": .integer(Int64(reference.facilities)),
                "areas": .integer(Int64(reference.areas)),
                "templates": .integer(Int64(reference.templates)),
                "assignments": .integer(Int64(reference.assignments)),
                "skipped_templates": .array(
                    reference.skippedTemplates.map { ["id": .string($0.id), "reason": .string($0.reason)] }),
            ]
        } else {
            object["pulled"] = .null
        }
        object["reviews"] =
            reviews.map {
                [
                    "received": .integer(Int64($0.received)), "recorded": .integer(Int64($0.recorded)),
                    "ignored": .integer(Int64($0.ignored)),
                ]
            } ?? .null
        object["server_restored"] =
            serverRestore.map {
                [
                    "reports_sent_again": .integer(Int64($0.reportsSentAgain)),
                    "photos_sent_again": .integer(Int64($0.photosSentAgain)),
                ]
            } ?? .null
        object["moved"] = .array(moved.map(\.json))
        object["returned"] = .array(
            returned.map { ["local_id": .string($0.localID.wireString), "server_id": .string($0.serverID)] })
        object["actions"] =
            actions.map {
                [
                    "sent": .integer(Int64($0.sent)), "refused": .integer(Int64($0.refused)),
                    "pulled": .integer(Int64($0.pulled)), "photos_sent": .integer(Int64($0.photosSent)),
                    "photos_refused": .integer(Int64($0.photosRefused)),
                ]
            } ?? .null
        if let actionsError {
            object["actions_error"] = ["code": .string(actionsError.code), "message": .string(actionsError.message)]
        }
        if let reviewsError {
            object["reviews_error"] = ["code": .string(reviewsError.code), "message": .string(reviewsError.message)]
        }
        if let referenceError {
            object["reference_error"] = [
                "code": .string(referenceError.code), "message": .string(referenceError.message),
            ]
        }
        return .object(object)
    }
}

extension SyncSummary {
    /// What an `offline` cycle waits for, as the person reads it: "room on
    /// the server" when the server answered that its disk is full (it is
    /// reachable; the wait is for its operator), else "network".
    public var waitingFor: String {
        (error ?? referenceError)?.code == APIError.Code.storageFull.rawValue ? "room on the server" : "network"
    }
}
