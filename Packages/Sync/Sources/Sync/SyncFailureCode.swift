extension SyncFailure {
    /// The catalogue of the codes a failed step of the cycle records: the
    /// cycle's own, and the API client's passed through `init(carrying:)`.
    /// Kept with a report as its last error code, so each is stable.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as kept with a report and shown after a sync.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// A code of the API client's catalogue, carried as it is.
        init(carrying code: APIError.Code) { self.rawValue = code.rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// The server could not be reached at all: the cycle waits for the network.
        public static let offline = Code("SYNC_OFFLINE")
        /// The server's answer to a batch left a report out: it is sent again.
        public static let incomplete = Code("SYNC_INCOMPLETE")
        /// Some of an accepted report's photos are not on the server yet.
        public static let photoUploadFailed = Code("PHOTO_UPLOAD_FAILED")
        /// A photo's file is gone from this device, so it cannot be uploaded.
        public static let photoFileMissing = Code("PHOTO_FILE_MISSING")
        /// The server was restored from a backup while a batch was on its way: its refusals go again.
        public static let serverRestored = Code("SERVER_RESTORED")
        /// The server rejected a report of a batch without saying why.
        public static let rejected = Code("REPORT_REJECTED")
        /// The server refused the reviews feed's cursor even from the feed's start (the server's `CURSOR_INVALID`).
        public static let cursorInvalid = Code("CURSOR_INVALID")
        /// The session is over: sign in again.
        public static let authRequired = Code(carrying: .authRequired)
        /// An answer that is not the API's (an accepted report without its server id or revision).
        public static let invalidResponse = Code(carrying: .invalidResponse)
    }
}
