extension APIError {
    /// The contract's machine codes the client acts on, as the server writes
    /// them in the error envelope. `serverCode` holds whatever the server sent,
    /// a code this client knows or a newer one; `serverSaid(_:)` compares it
    /// with one of these, never with a free string.
    public struct ServerCode: Sendable, Hashable, CustomStringConvertible {
        /// The code as the server writes it.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// 422: the uploaded bytes do not hash to the sha256 sent.
        public static let photoHashMismatch = ServerCode("PHOTO_HASH_MISMATCH")
        /// 404: a resumable upload that expired, was dropped or is another user's.
        public static let uploadGone = ServerCode("UPLOAD_GONE")
        /// 409: a decision on a revision that is no longer the current one.
        public static let revisionStale = ServerCode("REVISION_STALE")
        /// 400: a cursor the server did not issue; pull again without `since`.
        public static let cursorInvalid = ServerCode("CURSOR_INVALID")
        /// 409: a move an action's current state does not allow (contract 1.2).
        public static let actionState = ServerCode("ACTION_STATE")
    }

    /// True when the server's envelope carried `code`.
    public func serverSaid(_ code: ServerCode) -> Bool { serverCode == code.rawValue }
}
