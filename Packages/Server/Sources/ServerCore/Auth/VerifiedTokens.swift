import Synchronization

/// Access tokens whose signature was checked, with their claims: a client
/// sends the same token with every request for its lifetime, and checking
/// it again (HMAC, base64url, JSON) costs more than most requests' own
/// work. Only tokens this server signed get in, at most `capacity` of them
/// (all forgotten at once when full), so nobody can make it grow; expiry is
/// still checked at every use, and revocation is the session's, looked up
/// as before.
final class VerifiedTokens: Sendable {
    private let claims = Mutex<[String: AccessClaims]>([:])
    private let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The claims of `token` if it was verified before.
    func claims(of token: String) -> AccessClaims? {
        claims.withLock { $0[token] }
    }

    /// Remembers `token`, verified, with its claims.
    func remember(_ token: String, _ verified: AccessClaims) {
        claims.withLock { known in
            if known.count >= capacity { known.removeAll(keepingCapacity: true) }
            known[token] = verified
        }
    }
}
