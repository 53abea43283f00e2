import Foundation
@testable import ServerCore
@testable import ServerStore
import ServerHTTP
import Testing

/// The text of tokens: base64url without padding, one spelling per byte string,
/// so a token altered in its text is never taken for the one the server signed.
@Suite("Token text")
struct TokenTextTests {
    /// Foundation's base64, made url-safe and unpadded: the spelling every other implementation writes.
    static func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }

    @Test(
        "every length from 0 to 300 bytes, of random bytes, is written as other implementations write it and read back whole"
    )
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(text == Self.reference(bytes), "\(length) bytes")
            #expect(Base64URL.decode(Substring(text)) == bytes, "\(length) bytes")
        }
        #expect(Base64URL.encode(Array(repeating: 0xFF, count: 6)) == "________")
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    }

    @Test(
        "text that is not the one spelling of its bytes is refused: padding, characters outside the alphabet, a dangling character, unused bits set"
    )
    func refused() {
        for text in ["QQ==", "QQ=", "Q+", "Q/", "Q Q", "QQ\n", "é", "Q", "QUJDR", "QR", "QUJ", "QUI"] {
            let decoded = Base64URL.decode(Substring(text))
            #expect(decoded == nil || Base64URL.encode(decoded ?? []) == text, "'\(text)'")
        }
        // "QQ" is the one spelling of "A"; "QR" spells the same bits with an unused one set.
        #expect(Base64URL.decode("QQ") == [0x41])
        #expect(Base64URL.decode("QR") == nil)
        #expect(Base64URL.decode("QUI") == [0x41, 0x42])
        #expect(Base64URL.decode("QUJ") == nil)
        #expect(Base64URL.decode("Q") == nil)
        #expect(Base64URL.decode("QQ==") == nil)
        #expect(Base64URL.decode("Q+") == nil)
        #expect(Base64URL.decode("") == [])
    }
}

/// Access tokens remembered once verified: a token still ends at its expiry,
/// and one altered in any byte is refused, whether or not the genuine one was seen.
@Suite("Verified access tokens")
struct VerifiedTokenTests {
    @Test("a token verified once is refused after its expiry and any alteration of it is refused, before and after")
    func rememberedTokens() {
        let signer = TokenSigner(key: Array(repeating: 7, count: 32))
        let claims = AccessClaims(sub: "U-1", sid: "S-1", role: "inspector", exp: 2_000)
        let token = signer.sign(claims)
        let altered = String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")
        #expect(signer.verify(altered, now: Date(timeIntervalSince1970: 1_000)) == nil)
        #expect(signer.verify(token, now: Date(timeIntervalSince1970: 1_000)) == claims)
        #expect(signer.verify(token, now: Date(timeIntervalSince1970: 1_999)) == claims)
        #expect(signer.verify(token, now: Date(timeIntervalSince1970: 2_000)) == nil)
        #expect(signer.verify(altered, now: Date(timeIntervalSince1970: 1_000)) == nil)
        let other = TokenSigner(key: Array(repeating: 8, count: 32))
        #expect(other.verify(token, now: Date(timeIntervalSince1970: 1_000)) == nil)
    }

    @Test("header text is trimmed of spaces and tabs only, as Foundation trims them")
    func trimming() {
        for text in [
            "", " ", "\t", "  12 ", "\tBearer x\t", "a b", " é ", "x\u{00A0}", " \r1\n ", " \u{301}x\t", "\t\t",
        ] {
            #expect(
                text.trimmingHTTPSpace() == text.trimmingCharacters(in: CharacterSet(charactersIn: " \t")), "'\(text)'")
            #expect(
                Substring(text).trimmingHTTPSpace() == text.trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
        }
    }
}
