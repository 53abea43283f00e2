import Foundation
import ServerStore

/// What an access token says: who, which session, until when.
struct AccessClaims: Codable, Equatable, Sendable {
    /// The user's id.
    var sub: String
    /// The session (one login and its refreshes); revoked by logout.
    var sid: String
    /// The role at issue time.
    var role: String
    /// Expiry, seconds since 1970.
    var exp: Int64
}

/// Signs and checks access tokens: `base64url(JSON claims) "." base64url(HMAC-SHA256(key, first part))`.
///
/// The key is 32 random bytes kept in the server database, so tokens survive
/// a restart and a second server on the same database accepts them.
struct TokenSigner: Sendable {
    let key: [UInt8]
    /// Access tokens already verified by this signer.
    let verified = VerifiedTokens()

    /// The token for these claims.
    func sign(_ claims: AccessClaims) -> String { seal(claims) }

    /// The claims of a token that is well-formed, correctly signed and not
    /// expired at `now`; nil otherwise (the caller answers 401 either way).
    func verify(_ token: String, now: Date) -> AccessClaims? {
        let known = verified.claims(of: token)
        guard let claims = known ?? open(token, as: AccessClaims.self), claims.exp > Int64(now.timeIntervalSince1970)
        else {
            return nil
        }
        if known == nil { verified.remember(token, claims) }
        return claims
    }

    /// Any claims as `base64url(JSON) "." base64url(HMAC)` under this key.
    func seal<Claims: Encodable>(_ claims: Claims) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let payload = Base64URL.encode(Array((try? encoder.encode(claims)) ?? Data()))
        let mac = Digest.hmacSHA256(key: key, message: Array(payload.utf8))
        return payload + "." + Base64URL.encode(mac)
    }

    /// The claims of a sealed value that is well-formed and correctly signed
    /// under this key (its MAC compared in constant time); nil otherwise.
    func open<Claims: Decodable>(_ token: String, as type: Claims.Type) -> Claims? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, token.utf8.count < 4096,
            let mac = Base64URL.decode(parts[1]),
            Digest.constantTimeEqual(mac, Digest.hmacSHA256(key: key, message: Array(parts[0].utf8))),
            let payload = Base64URL.decode(parts[0])
        else { return nil }
        return try? JSONDecoder().decode(type, from: Data(payload))
    }
}
