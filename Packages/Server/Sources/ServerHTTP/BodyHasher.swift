import Foundation
internal import COpenSSL

/// SHA-256 of a body while it streams to disk (OpenSSL EVP), as lowercase
/// hex: a photo's content hash is known the moment its last byte arrives.
/// One per upload; used by one thread at a time, like its `RequestContext`.
/// The photo stores use it too, to hash the bytes they actually store.
public final class BodyHasher {
    private let context: OpaquePointer

    /// Starts a hash; nil when OpenSSL cannot (out of memory).
    public init?() {
        guard let context = EVP_MD_CTX_new() else { return nil }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            return nil
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// The lowercase hex digest; nil if OpenSSL fails. Call once, at the end.
    public func finish() -> String? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return nil }
        // Two digits a byte from a table (`String(format:)` costs some ten thousand instructions a byte).
        var text = [UInt8]()
        text.reserveCapacity(Int(length) * 2)
        for byte in digest.prefix(Int(length)) {
            text.append(Self.digits[Int(byte >> 4)])
            text.append(Self.digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
