extension SyncFailure {
    /// The cycle's reading of an API failure: transient ones wait for a later
    /// cycle, an ended session asks for `jqc login`, anything else was refused.
    public init(_ error: APIError) {
        switch error.code {
        case .authRequired:
            self.init(kind: .authRequired, code: .authRequired, message: error.message)
        case .sessionNotSaved:
            // Rotated tokens that could not be kept: the next run would find the session over.
            self.init(kind: .authRequired, code: Code(carrying: error.code), message: error.message)
        case .offline:
            self.init(kind: .transient, code: .offline, message: error.message, retryAfter: error.retryAfter)
        default:
            self.init(
                kind: error.isTransient ? .transient : .refused, code: Code(carrying: error.code),
                message: error.message,
                retryAfter: error.retryAfter)
        }
    }
}
