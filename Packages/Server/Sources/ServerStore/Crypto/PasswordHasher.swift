import Foundation
internal import CSodium

/// Password hashes with libsodium's argon2id (`crypto_pwhash_str`), in the
/// self-describing string form that carries its own salt and cost.
public enum PasswordHasher {
    /// Makes sure libsodium is initialised; safe to call more than once.
    public static func prepare() -> Bool { sodium_init() >= 0 }

    /// Hashes a password at the interactive cost; nil only if memory runs out.
    public static func hash(_ password: String) -> String? {
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let chars = Array(password.utf8CString)
        let result = crypto_pwhash_str(
            &out, chars, UInt64(chars.count - 1),
            UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE), Int(crypto_pwhash_MEMLIMIT_INTERACTIVE))
        guard result == 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True when `password` matches `stored`.
    public static func verify(_ password: String, against stored: String) -> Bool {
        let chars = Array(password.utf8CString)
        var storedC = Array(stored.utf8CString)
        guard storedC.count <= Int(crypto_pwhash_STRBYTES) else { return false }
        storedC += [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES) - storedC.count)
        return crypto_pwhash_str_verify(storedC, chars, UInt64(chars.count - 1)) == 0
    }

    /// `count` bytes from libsodium's CSPRNG.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }
}
