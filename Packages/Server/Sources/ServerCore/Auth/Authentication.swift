import Foundation
import ServerHTTP
import ServerStore

/// Who is asking, as every capability's routes find out: the bearer token
/// checked from the headers, and the account and session behind it read in
/// the store.
extension RouteCapability {
    /// The caller behind the request's bearer token. `allowRevoked` lets
    /// logout succeed again after the session is already revoked.
    func authenticate(_ request: ServerRequest, allowRevoked: Bool) throws(ServerError) -> Caller {
        let claims = try bearerClaims(request.headers)
        return try store.read { session in try self.caller(claims, allowRevoked: allowRevoked, in: session) }
    }

    /// The caller behind `claims` (a token already verified), read in
    /// `session`: the account still there and enabled, the session not
    /// signed out unless `allowRevoked`; 401 otherwise.
    func caller(_ claims: AccessClaims, allowRevoked: Bool = false, in session: any StorageSession)
        throws(ServerError) -> Caller
    {
        guard let user = try session.user(id: claims.sub) else {
            throw ServerError.authRequired("the account no longer exists")
        }
        guard !user.isDisabled else { throw ServerError.authRequired(AuthRoutes.disabledMessage) }
        guard try session.isSessionLive(claims.sid, userID: claims.sub) || allowRevoked else {
            throw ServerError.authRequired("the session was signed out; sign in again")
        }
        return Caller(user: user, sessionID: claims.sid)
    }

    /// The caller of `input`, read in `session` for a route that reads its
    /// own (and remembered there); the one authenticated before otherwise.
    func caller(of input: RouteInput, in session: any StorageSession) throws(ServerError) -> Caller {
        if let caller = input.caller { return caller }
        guard let claims = input.claims else { throw ServerError.authRequired() }
        let found = try caller(claims, in: session)
        input.confirmed.confirm(found)
        return found
    }

    /// `handler` for a route that reads its own caller, its errors in the
    /// order of every other route's: one thrown before the caller was read
    /// gives way to the 401 of a token whose account or session is gone.
    func readingOwnCaller(_ input: RouteInput, _ handler: (RouteInput) throws(ServerError) -> Reply)
        throws(ServerError) -> Reply
    {
        do {
            return try handler(input)
        } catch {
            guard input.caller == nil, input.confirmed.value == nil else { throw error }
            _ = try authenticate(input.request, allowRevoked: false)
            throw error
        }
    }

    /// The claims of the request's bearer token, checked from the headers
    /// alone (signature and expiry); 401 otherwise. Cheap enough to run
    /// before a body is read.
    func bearerClaims(_ headers: [String: String]) throws(ServerError) -> AccessClaims {
        guard let header = headers["authorization"] else {
            throw ServerError.authRequired("this needs 'Authorization: Bearer <access token>'; sign in first")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw ServerError.authRequired("the Authorization header must be 'Bearer <access token>'")
        }
        guard let claims = signer.verify(parts[1].trimmingHTTPSpace(), now: Date()) else {
            throw ServerError.authRequired("the access token is invalid or expired; refresh it or sign in again")
        }
        return claims
    }
}
