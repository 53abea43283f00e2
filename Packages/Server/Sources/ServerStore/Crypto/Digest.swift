import Foundation
internal import COpenSSL

/// One-shot digests and MACs (OpenSSL libcrypto).
public enum Digest {
    /// Lowercase hex SHA-256 of `data` (a token's hash; empty only if OpenSSL fails).
    public static func sha256Hex(_ data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_sha256(), nil) == 1
        }
        return ok ? Hex.encode(digest.prefix(Int(length))) : ""
    }

    /// HMAC-SHA256 of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = key.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                HMAC(
                    EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    m.count, &out, &length) != nil
            }
        }
        return ok ? Array(out.prefix(Int(length))) : []
    }

    /// Compares two byte strings in time that does not depend on where they differ.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count, !a.isEmpty else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 }
        }
    }
}

/// Hex and base64url text for bytes.
public enum Hex {
    public static func encode<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// True for a 64-character lowercase or uppercase hex string (a SHA-256).
    public static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }
    }
}

/// Base64url without padding (RFC 4648 section 5), read and written byte by
/// byte: every request's token passes through `decode` twice.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's value in the alphabet, or -1.
    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = Int8(value) }
        return table
    }()

    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            // 3 bytes are 4 characters; 2 are 3; 1 is 2.
            for shift in stride(from: 18, through: 18 - 6 * count, by: -6) {
                text.append(alphabet[Int((group >> UInt32(shift)) & 63)])
            }
            index += count
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text`, or nil unless it is their one spelling: only
    /// characters of the alphabet, no padding, and the unused bits of the
    /// last character zero.
    public static func decode(_ text: Substring) -> [UInt8]? {
        let characters = text.utf8
        guard characters.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count * 3 / 4)
        var pending: UInt32 = 0
        var bits: UInt32 = 0
        for character in characters {
            let value = values[Int(character)]
            guard value >= 0 else { return nil }
            pending = pending << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: pending >> bits))
                pending &= (1 << bits) - 1
            }
        }
        return pending == 0 ? bytes : nil
    }
}
