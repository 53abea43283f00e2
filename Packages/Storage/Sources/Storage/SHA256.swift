internal import CCrypto
import Foundation

/// SHA-256 through OpenSSL's EVP interface, as lowercase hex: the content
/// hash of photos (`sha256` in the contract) and of signatures.
public enum SHA256 {
    /// Bytes read from a file at a time: the memory a file hash takes, whatever the file's size.
    public static let chunkSize = 64 * 1024

    /// The hash of some bytes.
    public static func hex(of data: Data) throws(StorageError) -> String {
        let hasher = try Hasher()
        data.withUnsafeBytes { hasher.update($0) }
        return try hasher.finish()
    }

    /// The hash of a file's contents, read in 64 KiB chunks.
    public static func hex(ofFile path: String) throws(StorageError) -> String {
        let source = try PhotoFileStore.openForReading(path)
        defer { close(source) }
        let hasher = try Hasher()
        try PhotoFileStore.forEachChunk(of: source, path: path) { hasher.update($0) }
        return try hasher.finish()
    }

    /// An incremental hash: feed it chunks, then finish once. One per stream;
    /// not shared between threads.
    public final class Hasher {
        private let context: OpaquePointer

        /// Starts a hash.
        public init() throws(StorageError) {
            guard let context = EVP_MD_CTX_new() else {
                throw StorageError(.io, "SHA-256 is unavailable (out of memory).")
            }
            guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
                EVP_MD_CTX_free(context)
                throw StorageError(.io, "SHA-256 is unavailable (OpenSSL refused to start it).")
            }
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        /// Adds bytes.
        public func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            EVP_DigestUpdate(context, base, bytes.count)
        }

        /// The lowercase hex digest; call once, at the end.
        public func finish() throws(StorageError) -> String {
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else {
                throw StorageError(.io, "SHA-256 failed in OpenSSL.")
            }
            let hexDigits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(Int(length) * 2)
            for byte in digest.prefix(Int(length)) {
                text.append(hexDigits[Int(byte >> 4)])
                text.append(hexDigits[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
