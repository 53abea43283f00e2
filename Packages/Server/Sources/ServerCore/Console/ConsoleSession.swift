import Foundation
import ServerStore

/// What the console's session cookie says: who, which session, since when,
/// until when. Signed with a key of its own (derived from the token key), so
/// an access token is never a cookie and a cookie never an access token.
struct ConsoleClaims: Codable, Equatable, Sendable {
    /// The user's id.
    var sub: String
    /// The session in the store: signing out revokes it for every instance.
    var sid: String
    /// When the person signed in, seconds since 1970 (the absolute expiry counts from here).
    var iat: Int64
    /// When the cookie stops working unless a page is opened before (the idle expiry).
    var exp: Int64
}

/// The console's cookies: the signed session, the sign-in form's token, and
/// the CSRF token of every form of a session.
struct ConsoleSessions: Sendable {
    /// The session cookie's name.
    static let cookieName = "jqc_console"
    /// The cookie that carries the sign-in form's token until a session exists.
    static let signInCookieName = "jqc_console_signin"
    /// Where both cookies are sent.
    static let cookiePath = "/console"

    /// The key the cookies are signed with (derived from the token key, so no access token opens as a cookie).
    let signer: TokenSigner
    /// Seconds a session lasts without a page being opened.
    let idleLifetime: Int64
    /// Seconds a session lasts at most after its sign-in.
    let maximumAge: Int64
    /// Cookies carry `Secure` (the server is reached through TLS).
    let secure: Bool

    /// The sessions of a server whose token key is `tokenKey`.
    init(tokenKey: [UInt8], idleLifetime: Int, maximumAge: Int, secure: Bool) {
        signer = TokenSigner(key: Digest.hmacSHA256(key: tokenKey, message: Array("jqc console session cookie".utf8)))
        self.idleLifetime = Int64(idleLifetime)
        self.maximumAge = Int64(maximumAge)
        self.secure = secure
    }

    /// The claims of a new session, or of one renewed by a page opened at `now`.
    func claims(userID: String, sessionID: String, signedInAt: Int64, now: Date) -> ConsoleClaims {
        let seconds = Int64(now.timeIntervalSince1970)
        return ConsoleClaims(
            sub: userID, sid: sessionID, iat: signedInAt, exp: min(seconds + idleLifetime, signedInAt + maximumAge))
    }

    /// The cookie's value for these claims.
    func sign(_ claims: ConsoleClaims) -> String { signer.seal(claims) }

    /// The claims of a cookie value that is well-formed, correctly signed and
    /// not past its idle or absolute expiry at `now`; nil otherwise.
    func verify(_ value: String, now: Date) -> ConsoleClaims? {
        let seconds = Int64(now.timeIntervalSince1970)
        guard value.utf8.count < 2048, let claims = signer.open(value, as: ConsoleClaims.self),
            claims.exp > seconds, claims.iat + maximumAge > seconds
        else { return nil }
        return claims
    }

    /// The CSRF token of every form of one session: a MAC of its id, so it
    /// needs no storage and dies with the session.
    func csrfToken(sessionID: String) -> String {
        Hex.encode(Digest.hmacSHA256(key: signer.key, message: Array("csrf:\(sessionID)".utf8)))
    }

    /// Whether `presented` is the CSRF token of the session.
    func csrfMatches(_ presented: String?, sessionID: String) -> Bool {
        guard let presented else { return false }
        return Digest.constantTimeEqual(Array(presented.utf8), Array(csrfToken(sessionID: sessionID).utf8))
    }

    /// A `Set-Cookie` value: `HttpOnly`, `SameSite=Strict`, the console's path, `Secure` behind TLS.
    func setCookie(_ name: String, _ value: String, maxAge: Int64) -> String {
        "\(name)=\(value); Path=\(Self.cookiePath); Max-Age=\(max(0, maxAge)); HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie` of a session cookie carrying `claims`.
    func sessionCookie(_ claims: ConsoleClaims, now: Date) -> String {
        setCookie(Self.cookieName, sign(claims), maxAge: claims.exp - Int64(now.timeIntervalSince1970))
    }

    /// The `Set-Cookie` that removes a cookie.
    func expiredCookie(_ name: String) -> String { setCookie(name, "", maxAge: 0) }

    /// The cookies of a request's `Cookie` header, by name (the first of a repeated name wins).
    static func cookies(_ header: String?) -> [String: String] {
        var found: [String: String] = [:]
        for part in (header ?? "").split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            if found[name] == nil { found[name] = pair[1].trimmingCharacters(in: .whitespaces) }
        }
        return found
    }
}
