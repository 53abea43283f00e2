extension ServerError {
    /// The catalogue of the contract's machine codes: what the error envelope's
    /// `code` says, stable for every client. A code is one of these values,
    /// never a free string; the status each goes with is in `docs/contract.md`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written in the error envelope.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// 400: the request cannot be read.
        public static let badRequest = Code("BAD_REQUEST")
        /// 401: no token, or one that is expired, forged or revoked; wrong credentials at sign-in.
        public static let authRequired = Code("AUTH_REQUIRED")
        /// 403: the role or the ownership does not allow it.
        public static let forbidden = Code("FORBIDDEN")
        /// 404: no such route or object.
        public static let notFound = Code("NOT_FOUND")
        /// 405: the path exists with other methods.
        public static let methodNotAllowed = Code("METHOD_NOT_ALLOWED")
        /// 409: a stale base revision.
        public static let conflict = Code("CONFLICT")
        /// 413: the body, the photo or the batch is over the limit.
        public static let tooLarge = Code("TOO_LARGE")
        /// 414: a request target longer than any route takes.
        public static let uriTooLong = Code("URI_TOO_LONG")
        /// 415: a JSON route was sent another content type.
        public static let unsupportedMediaType = Code("UNSUPPORTED_MEDIA_TYPE")
        /// 422: uploaded bytes that do not hash to the sha256 sent.
        public static let photoHashMismatch = Code("PHOTO_HASH_MISMATCH")
        /// 422: a report whose answers or template the server cannot accept; also a report's result in a batch.
        public static let reportInvalid = Code("REPORT_INVALID")
        /// A report of a batch the server refuses because it cannot read its schema version
        /// (the report's result in the batch's answer, which is a 200).
        public static let schemaUnsupported = Code("SCHEMA_UNSUPPORTED")
        /// 422: a template with problems (the management API's imports).
        public static let templateInvalid = Code("TEMPLATE_INVALID")
        /// 429: too many failed sign-ins.
        public static let rateLimited = Code("RATE_LIMITED")
        /// 429: the caller's stored bytes, revisions of the day or photos of a report are at their quota.
        public static let quotaExceeded = Code("QUOTA_EXCEEDED")
        /// 500: a failure of the server itself.
        public static let `internal` = Code("INTERNAL")
        /// 503: overloaded, or the database is busy or unreachable.
        public static let unavailable = Code("UNAVAILABLE")
        /// 507: the server's disk is full; nothing of the request was kept.
        public static let storageFull = Code("STORAGE_FULL")
        /// 409: a decision on a revision that is no longer the current one.
        public static let revisionStale = Code("REVISION_STALE")
        /// 400: a cursor this server (this generation of its data) did not issue.
        public static let cursorInvalid = Code("CURSOR_INVALID")
        /// 404: a resumable upload that expired, was dropped or is another user's.
        public static let uploadGone = Code("UPLOAD_GONE")
        /// 409: a resumable upload's `PATCH` from another offset than the one the server holds.
        public static let uploadOffsetMismatch = Code("UPLOAD_OFFSET_MISMATCH")
        /// 409: a change of an action's state that its current state does not allow (contract 1.2).
        public static let actionState = Code("ACTION_STATE")
    }
}
