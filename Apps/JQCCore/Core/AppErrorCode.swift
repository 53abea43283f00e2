extension AppError {
    /// The catalogue of the apps' error codes: what `{"error": {"code": ...}}`
    /// says in `--json`, stable for scripts. A code is one of these values,
    /// never a free string; a code another module's error carries (the sync
    /// client's, the store's) passes through `init(carrying:)`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written in `--json` error output.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// A code of another module's catalogue, carried as it is.
        init(carrying rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// Another agent runs on this profile (exit 73).
        public static let agentRunning = Code("AGENT_RUNNING")
        /// A typed or JSON answer its field type refuses.
        public static let answerInvalid = Code("ANSWER_INVALID")
        /// The server needs a newer jqc to create reports (exit 5).
        public static let appVersionUnsupported = Code("APP_VERSION_UNSUPPORTED")
        /// The assignment is closed.
        public static let assignmentClosed = Code("ASSIGNMENT_CLOSED")
        /// The assignment already has a report under way.
        public static let assignmentInProgress = Code("ASSIGNMENT_IN_PROGRESS")
        /// Not signed in, or the session is over: sign in again (exit 6).
        public static let authRequired = Code("AUTH_REQUIRED")
        /// A conflict's choices leave a differing field undecided.
        public static let conflictUnresolved = Code("CONFLICT_UNRESOLVED")
        /// The saved sign-in cannot be read.
        public static let credentialsUnreadable = Code("CREDENTIALS_UNREADABLE")
        /// The sign-in could not be saved.
        public static let credentialsWriteFailed = Code("CREDENTIALS_WRITE_FAILED")
        /// The disk ran out while saving; what was saved before stays.
        public static let diskFull = Code("DISK_FULL")
        /// An export could not be written.
        public static let exportWriteFailed = Code("EXPORT_WRITE_FAILED")
        /// A calculated field cannot be typed.
        public static let fieldCalculated = Code("FIELD_CALCULATED")
        /// A field hidden by its condition cannot be answered.
        public static let fieldHidden = Code("FIELD_HIDDEN")
        /// Photos attached to a field that does not take photos.
        public static let fieldNotImage = Code("FIELD_NOT_IMAGE")
        /// An external field type fails the conformance kit.
        public static let fieldTypeNonconformant = Code("FIELD_TYPE_NONCONFORMANT")
        /// An input file over its size limit.
        public static let fileTooLarge = Code("FILE_TOO_LARGE")
        /// An input file cannot be read.
        public static let fileUnreadable = Code("FILE_UNREADABLE")
        /// The server's history needs the server.
        public static let historyRequiresNetwork = Code("HISTORY_REQUIRES_NETWORK")
        /// A file that is not JSON.
        public static let invalidJson = Code("INVALID_JSON")
        /// A reference-data file (templates, facilities, assignments) that is not what it should be.
        public static let invalidReference = Code("INVALID_REFERENCE")
        /// An issue's severity or description is not valid.
        public static let issueInvalid = Code("ISSUE_INVALID")
        /// The profile's lock file cannot be made or taken.
        public static let lockUnavailable = Code("LOCK_UNAVAILABLE")
        /// The agent's log file cannot be written.
        public static let logUnwritable = Code("LOG_UNWRITABLE")
        /// The agent's metrics file cannot be written.
        public static let metricsUnwritable = Code("METRICS_UNWRITABLE")
        /// A rule of the store or the queue refuses this.
        public static let notAllowed = Code("NOT_ALLOWED")
        /// Something named does not exist on this device (exit 3).
        public static let notFound = Code("NOT_FOUND")
        /// The reader of standard output went away.
        public static let outputClosed = Code("OUTPUT_CLOSED")
        /// Standard output could not be written; its cause is reported as the program exits.
        public static let outputFailed = Code("OUTPUT_FAILED")
        /// An output file's folder does not exist.
        public static let outputFolderMissing = Code("OUTPUT_FOLDER_MISSING")
        /// An output path names a folder.
        public static let outputIsFolder = Code("OUTPUT_IS_FOLDER")
        /// An output file cannot be written there.
        public static let outputNotWritable = Code("OUTPUT_NOT_WRITABLE")
        /// An output folder's path names something that is not a folder.
        public static let outputNotFolder = Code("OUTPUT_NOT_FOLDER")
        /// A file of the profile cannot be read or written.
        public static let permission = Code("PERMISSION")
        /// A photo file outside what jqc may read.
        public static let permissionPhotoDenied = Code("PERMISSION_PHOTO_DENIED")
        /// The report's photos would be over their cap (exit 5).
        public static let photoCapExceeded = Code("PHOTO_CAP_EXCEEDED")
        /// The profile's photo folder is gone.
        public static let photoFolderMissing = Code("PHOTO_FOLDER_MISSING")
        /// A file that is not a JPEG or PNG photo jqc can read.
        public static let photoInvalid = Code("PHOTO_INVALID")
        /// A photo file cannot be read.
        public static let photoUnreadable = Code("PHOTO_UNREADABLE")
        /// A photo could not be written to the profile's photo folder.
        public static let photoWriteFailed = Code("PHOTO_WRITE_FAILED")
        /// A photo fetched from the server is not the photo it lists (its SHA-256 differs).
        public static let photoDownloadMismatch = Code("PHOTO_DOWNLOAD_MISMATCH")
        /// A re-inspection of this report is already under way.
        public static let reinspectionInProgress = Code("REINSPECTION_IN_PROGRESS")
        /// A report cannot be completed: required answers missing or bad.
        public static let requiredAnswersMissing = Code("REQUIRED_ANSWERS_MISSING")
        /// Deciding on a report is for supervisors and admins (exit 5).
        public static let reviewForbidden = Code("REVIEW_FORBIDDEN")
        /// A decision the server (or the cached template) cannot take: no comment, a field comment on no field (exit 4).
        public static let reviewInvalid = Code("REVIEW_INVALID")
        /// The server keeps no reviews: it is older than contract 1.1 (exit 5).
        public static let reviewUnsupported = Code("REVIEW_UNSUPPORTED")
        /// Reviewing reads and writes the server, which needs the network (exit 75).
        public static let reviewRequiresNetwork = Code("REVIEW_REQUIRES_NETWORK")
        /// The report has a newer revision than the one decided on; nothing was recorded (exit 7).
        public static let revisionStale = Code("REVISION_STALE")
        /// The history rollup is for supervisors.
        public static let rollupForbidden = Code("ROLLUP_FORBIDDEN")
        /// The history rollup needs the server and there is no cached one.
        public static let rollupRequiresNetwork = Code("ROLLUP_REQUIRES_NETWORK")
        /// A report not on this device is read from the server, which needs the network (exit 75).
        public static let serverReportRequiresNetwork = Code("SERVER_REPORT_REQUIRES_NETWORK")
        /// The server cannot be reached or is busy: try later (exit 75).
        public static let serverUnavailable = Code("SERVER_UNAVAILABLE")
        /// Tokens the server rotated could not be kept on this device (exit 6).
        public static let sessionNotSaved = Code("SESSION_NOT_SAVED")
        /// A setting's value out of its range.
        public static let settingsInvalid = Code("SETTINGS_INVALID")
        /// A signature vouches for other answers than the report has now.
        public static let signatureStale = Code("SIGNATURE_STALE")
        /// The report's state does not allow this (a completed report edited, a draft retried).
        public static let stateNotAllowed = Code("STATE_NOT_ALLOWED")
        /// The store failed (busy, I/O).
        public static let storageError = Code("STORAGE_ERROR")
        /// Free space is under the profile's floor (exit 5).
        public static let storageLow = Code("STORAGE_LOW")
        /// The store is damaged.
        public static let storeCorrupt = Code("STORE_CORRUPT")
        /// The store was written by a newer jqc.
        public static let storeTooNew = Code("STORE_TOO_NEW")
        /// Another sync cycle holds the profile.
        public static let syncRunning = Code("SYNC_RUNNING")
        /// A template with problems (lint, import).
        public static let templateInvalid = Code("TEMPLATE_INVALID")
        /// The command line is wrong: an unknown option, a missing value (exit 2).
        public static let usage = Code("USAGE")
        /// Input that fails its checks (exit 4).
        public static let validationFailed = Code("VALIDATION_FAILED")
    }
}
