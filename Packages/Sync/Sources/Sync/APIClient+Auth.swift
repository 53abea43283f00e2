import Foundation
import Models
import Networking

extension APIClient {
    /// `POST /auth/login`: signs in and keeps (and reports) the new credentials.
    /// Wrong credentials are `authRequired`; the password is never kept or shown.
    @discardableResult
    public func login(username: String, password: String) async throws(APIError) -> Credentials {
        let body = try encode(LoginRequest(username: username, password: password))
        let (grant, _) = try await perform(
            Call(.login, body: body, authenticated: false),
            as: TokenGrant.self)
        let credentials = Credentials(grant)
        try keep(credentials)
        return credentials
    }

    /// `POST /auth/refresh`: spends the refresh token for new credentials, kept and reported.
    /// A spent or revoked refresh token ends the session (`authRequired`, credentials reported as nil).
    @discardableResult
    public func refresh() async throws(APIError) -> Credentials {
        try await sharedRefresh()
    }

    /// `POST /auth/logout`: revokes the refresh token on the server, best effort.
    /// The credentials are forgotten on this device (and reported as nil) whatever the
    /// server answers; an error only says the server could not be told.
    public func logout() async throws(APIError) {
        guard let current = credentials else { return }
        defer { forget() }
        let body = try encode(RefreshRequest(refreshToken: current.refreshToken))
        do throws(APIError) {
            _ = try await perform(Call(.logout, body: body, refreshOn401: false), as: JSONValue.self)
        } catch  where error.code == .authRequired {
            // The session was already over on the server: signed out either way.
        }
    }

    /// `GET /auth/me`: who the server says is signed in.
    public func me() async throws(APIError) -> WireUser {
        try await perform(Call(.me), as: MeResponse.self).0.user
    }
}
