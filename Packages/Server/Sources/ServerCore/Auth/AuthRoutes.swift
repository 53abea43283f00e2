import Foundation
import ServerHTTP
import Models
import ServerStore
import Synchronization

struct AuthRoutes: RouteCapability {
    let context: ServerContext

    /// `POST /auth/login`.
    func login(_ input: RouteInput) throws(ServerError) -> Reply {
        let body = try input.decode(LoginRequest.self)
        let user = try verifySignIn(username: body.username, password: body.password, request: input.request)
        let now = Date()
        let refresh = newRefreshToken()
        let sessionID = try store.write { session in
            try session.createSession(userID: user.id, refreshHash: refresh.hash, now: now)
        }
        return .ok(grant(for: user, sessionID: sessionID, refreshToken: refresh.token, now: now))
    }

    /// The account a user name and password sign in to, checked the one way
    /// the API and the console share: the lengths, the throttle of this
    /// process and the limit every instance shares, the password under the
    /// gate (a wrong name takes as long as a wrong password), and a disabled
    /// account told only to the holder of its password.
    func verifySignIn(username: String, password: String, request: ServerRequest) throws(ServerError) -> StoredUser {
        guard username.utf8.count <= Self.longestUsername else {
            throw ServerError.badRequest("'username' is longer than \(Self.longestUsername) bytes")
        }
        guard !username.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ServerError.badRequest("'username' holds a control character")
        }
        guard password.utf8.count <= Self.longestPassword else {
            throw ServerError.badRequest("'password' is longer than \(Self.longestPassword) bytes")
        }
        let now = Date()
        let address = ClientAddress.of(request, trustedProxies: config.trustedProxies)
        if let wait = loginThrottle.begin(address: address, username: username, now: now) {
            throw ServerError.tooManyRequests(
                "too many failed sign-ins for '\(username)' from this address; wait \(wait) seconds",
                retryAfter: wait)
        }
        // A busy server (503) leaves the attempt uncounted; only a wrong password counts.
        var outcome = LoginThrottle.Outcome.notChecked
        defer { loginThrottle.finish(address: address, username: username, outcome: outcome, now: Date()) }
        let shared = SharedSignInLimit(address: address, username: username, window: loginThrottle.window)
        let (user, wait) = try store.write { session in
            (try session.user(username: username), try shared.refusal(in: session, now: now))
        }
        if let wait {
            throw ServerError.tooManyRequests(
                "too many failed sign-ins for '\(username)' from this address; wait \(wait) seconds",
                retryAfter: wait)
        }
        let matches = try passwordGate.run { PasswordHasher.verify(password, against: user?.passwordHash ?? decoyHash) }
        guard let user, matches else {
            outcome = .failed
            try store.write { session in try shared.recordFailure(in: session, now: Date()) }
            throw ServerError.authRequired("wrong user name or password")
        }
        outcome = .succeeded
        // Only the holder of the right password learns that the account is disabled.
        guard !user.isDisabled else { throw ServerError.authRequired(AuthRoutes.disabledMessage) }
        try store.write { session in try shared.recordSuccess(in: session, now: now) }
        return user
    }

    /// `POST /auth/refresh`: the token presented is spent and a new pair issued.
    func refresh(_ input: RouteInput) throws(ServerError) -> Reply {
        let body = try input.decode(RefreshRequest.self)
        let now = Date()
        let next = newRefreshToken()
        let rotated = try store.write {
            try $0.rotateRefreshToken(
                presentedHash: Digest.sha256Hex(Data(body.refreshToken.utf8)), nextHash: next.hash, now: now,
                idleLifetime: TimeInterval(config.refreshIdleLifetime),
                maximumAge: TimeInterval(config.refreshMaximumAge))
        }
        guard let (user, sessionID) = rotated else {
            throw ServerError.authRequired("the refresh token is spent, expired, revoked or unknown; sign in again")
        }
        guard !user.isDisabled else { throw ServerError.authRequired(AuthRoutes.disabledMessage) }
        return .ok(grant(for: user, sessionID: sessionID, refreshToken: next.token, now: now))
    }

    /// `POST /auth/logout`: revokes the session the refresh token belongs to
    /// (when it is the caller's), and with it that session's access tokens.
    /// Idempotent: a second call answers `{}` again.
    func logout(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let body = try input.decode(RefreshRequest.self)
        let hash = Digest.sha256Hex(Data(body.refreshToken.utf8))
        try store.write { session in try session.revokeSession(refreshHash: hash, userID: caller.user.id) }
        return .ok(EmptyData())
    }

    /// `GET /auth/me`.
    func me(_ input: RouteInput) throws(ServerError) -> Reply {
        .ok(MeResponse(user: try input.requireCaller().user.wire))
    }

    /// Routes that read their caller in their own first transaction rather
    /// than in one before it: a photo's two requests (the upload begun, its
    /// bytes), each a database transaction fewer.
    static let readsOwnCaller: Set<Endpoint> = [.contract(.createUpload), .contract(.appendUpload)]

    /// What a disabled account is told.
    static let disabledMessage = "this account is disabled; ask your organisation's administrator"

    /// The longest user name accepted at sign-in, in bytes.
    static let longestUsername = 256
    /// The longest password accepted at sign-in, in bytes.
    static let longestPassword = 4096

    private func grant(for user: StoredUser, sessionID: String, refreshToken: String, now: Date) -> TokenGrant {
        let claims = AccessClaims(
            sub: user.id, sid: sessionID, role: user.role.rawValue,
            exp: Int64(now.timeIntervalSince1970) + Int64(config.accessTokenLifetime))
        return TokenGrant(
            accessToken: signer.sign(claims), refreshToken: refreshToken,
            expiresIn: config.accessTokenLifetime, user: user.wire)
    }

    /// 32 random bytes as hex; only their SHA-256 is stored.
    func newRefreshToken() -> (token: String, hash: String) {
        let token = Hex.encode(PasswordHasher.randomBytes(32))
        return (token, Digest.sha256Hex(Data(token.utf8)))
    }
}
