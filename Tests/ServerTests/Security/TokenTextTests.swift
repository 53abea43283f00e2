import Foundation
@testable import ServerCore
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
