import Foundation
import Models
import Synchronization

/// Counts failed sign-ins per user name and refuses more than a few a minute,
/// so passwords cannot be guessed at full speed (answered 429 with `Retry-After`).
final class LoginThrottle: Sendable {
    private struct Window { var start: Date; var failures: Int }
    private let windows = Mutex<[String: Window]>([:])
    /// Failures allowed per user name in one window.
    static let limit = 10
    static let window: TimeInterval = 60

    /// Seconds to wait when `username` is locked out, nil when it may try.
    func retryAfter(_ username: String, now: Date) -> Int? {
        windows.withLock { all in
            guard let window = all[username], now.timeIntervalSince(window.start) < Self.window else { return nil }
            guard window.failures >= Self.limit else { return nil }
            return max(1, Int((Self.window - now.timeIntervalSince(window.start)).rounded(.up)))
        }
    }

    func recordFailure(_ username: String, now: Date) {
        windows.withLock { all in
            if all.count > 10_000 { all = all.filter { now.timeIntervalSince($0.value.start) < Self.window } }
            var window = all[username] ?? Window(start: now, failures: 0)
            if now.timeIntervalSince(window.start) >= Self.window { window = Window(start: now, failures: 0) }
            window.failures += 1
            all[username] = window
        }
    }

    func recordSuccess(_ username: String) {
        _ = windows.withLock { $0.removeValue(forKey: username) }
    }
}

extension ServerApp {
    /// `POST /auth/login`.
    func login(_ input: RouteInput) throws(ServerError) -> Reply {
        let body = try input.decode(LoginRequest.self)
        let now = Date()
        if let wait = loginThrottle.retryAfter(body.username, now: now) {
            throw ServerError.tooManyRequests("too many failed sign-ins for '\(body.username)'; wait \(wait) seconds", retryAfter: wait)
        }
        let user = try store.read { try $0.user(username: body.username) }
        guard let user, PasswordHasher.verify(body.password, against: user.passwordHash) else {
            if user == nil { _ = PasswordHasher.verify(body.password, against: decoyHash) }
            loginThrottle.recordFailure(body.username, now: now)
            throw ServerError.authRequired("wrong user name or password")
        }
        loginThrottle.recordSuccess(body.username)
        let refresh = newRefreshToken()
        let sessionID = try store.write { try $0.createSession(userID: user.id, refreshHash: refresh.hash, now: now) }
        return .ok(grant(for: user, sessionID: sessionID, refreshToken: refresh.token, now: now))
    }

    /// `POST /auth/refresh`: the token presented is spent and a new pair issued.
    func refresh(_ input: RouteInput) throws(ServerError) -> Reply {
        let body = try input.decode(RefreshRequest.self)
        let now = Date()
        let next = newRefreshToken()
        let rotated = try store.write {
            try $0.rotateRefreshToken(presentedHash: Digest.sha256Hex(Data(body.refreshToken.utf8)), nextHash: next.hash, now: now)
        }
        guard let (user, sessionID) = rotated else {
            throw ServerError.authRequired("the refresh token is spent, revoked or unknown; sign in again")
        }
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

    /// The caller behind the request's bearer token. `allowRevoked` lets
    /// logout succeed again after the session is already revoked.
    func authenticate(_ request: ServerRequest, allowRevoked: Bool) throws(ServerError) -> Caller {
        guard let header = request.headers["authorization"] else {
            throw ServerError.authRequired("this needs 'Authorization: Bearer <access token>'; sign in first")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw ServerError.authRequired("the Authorization header must be 'Bearer <access token>'")
        }
        guard let claims = signer.verify(String(parts[1]).trimmingCharacters(in: .whitespaces), now: Date()) else {
            throw ServerError.authRequired("the access token is invalid or expired; refresh it or sign in again")
        }
        let found = try store.read { session -> (StoredUser?, Bool) in
            (try session.user(id: claims.sub), try session.isSessionLive(claims.sid))
        }
        guard let user = found.0 else { throw ServerError.authRequired("the account no longer exists") }
        guard found.1 || allowRevoked else {
            throw ServerError.authRequired("the session was signed out; sign in again")
        }
        return Caller(user: user, sessionID: claims.sid)
    }

    private func grant(for user: StoredUser, sessionID: String, refreshToken: String, now: Date) -> TokenGrant {
        let claims = AccessClaims(sub: user.id, sid: sessionID, role: user.role.rawValue,
                                  exp: Int64(now.timeIntervalSince1970) + Int64(config.accessTokenLifetime))
        return TokenGrant(accessToken: signer.sign(claims), refreshToken: refreshToken,
                          expiresIn: config.accessTokenLifetime, user: user.wire)
    }

    /// 32 random bytes as hex; only their SHA-256 is stored.
    private func newRefreshToken() -> (token: String, hash: String) {
        let token = Hex.encode(PasswordHasher.randomBytes(32))
        return (token, Digest.sha256Hex(Data(token.utf8)))
    }
}
