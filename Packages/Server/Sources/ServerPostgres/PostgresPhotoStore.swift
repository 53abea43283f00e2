import Foundation
import PostgreSQL
import ServerStore
import ServerHTTP

/// Photo bytes inside PostgreSQL, so instances share no disk: each distinct
/// photo once, by SHA-256, as 1 MiB rows of `photo_chunks`, and a row of
/// `photo_blobs` written last, in the same transaction, marking it whole.
/// Bytes move one chunk at a time both ways, so memory stays bounded
/// whatever the photo's size.
struct PostgresPhotoStore: PhotoStore {
    let store: PostgresServerStorage
    /// A private local folder: uploads in flight, and downloads spooled from the database.
    let scratchDirectory: String
    static let chunkSize = 1 << 20

    init(store: PostgresServerStorage, scratchDirectory: String) throws(ServerError) {
        self.store = store
        self.scratchDirectory = scratchDirectory
        try PrivateFolder.prepare(scratchDirectory, option: "--upload-dir")
    }

    func keep(descriptor: Int32, sha256: String, byteSize: Int64) throws(ServerError) {
        guard Hex.isSHA256(sha256) else { throw ServerError.badRequest("'sha256' is not a SHA-256") }
        let hash = sha256.lowercased()
        try store.writing { session throws(ServerError) in
            if try !session.query("SELECT 1 AS found FROM photo_blobs WHERE sha256 = $1", [.text(hash)]).isEmpty {
                return
            }
            // Read through the descriptor the upload was written and hashed through, and hash
            // again what is stored: bytes that are not the ones checked are never kept under the hash.
            guard lseek(descriptor, 0, SEEK_SET) == 0, let hasher = BodyHasher() else {
                throw ServerError.internal("cannot read the upload back")
            }
            var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
            var chunk = 0
            var total: Int64 = 0
            while true {
                let count = try Self.fill(&buffer, from: descriptor)
                if count == 0 { break }
                buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                try session.query(
                    "INSERT INTO photo_chunks (sha256, chunk, bytes) VALUES ($1, $2, $3)",
                    [.text(hash), .integer(Int64(chunk)), .bytes(Array(buffer[0..<count]))])
                chunk += 1
                total += Int64(count)
            }
            guard total == byteSize, hasher.finish() == hash else {
                throw ServerError.internal("the upload changed while it was stored; send it again")
            }
            try session.query(
                "INSERT INTO photo_blobs (sha256, byte_size, chunks) VALUES ($1, $2, $3)",
                [.text(hash), .integer(total), .integer(Int64(chunk))])
        }
    }

    func open(sha256: String, byteSize: Int64) throws(ServerError) -> Int32? {
        guard Hex.isSHA256(sha256) else { return nil }
        let hash = sha256.lowercased()
        var template = Array((scratchDirectory + "/download-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw ServerError.disk("cannot spool the photo; try again later", errno: errno)
        }
        // The spool has no name once open: it goes when the response closes it.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        do throws(ServerError) {
            let found = try store.reading { session throws(ServerError) -> Bool in
                guard
                    let chunks = try session.query("SELECT chunks FROM photo_blobs WHERE sha256 = $1", [.text(hash)])
                        .first?.integer("chunks")
                else { return false }
                for chunk in 0..<chunks {
                    guard
                        let bytes = try session.query(
                            "SELECT bytes FROM photo_chunks WHERE sha256 = $1 AND chunk = $2",
                            [.text(hash), .integer(chunk)]
                        ).first?.bytes("bytes")
                    else {
                        throw ServerError.internal("photo \(hash) is missing part \(chunk) in the database")
                    }
                    try Self.write(bytes, to: descriptor)
                }
                return true
            }
            guard found else {
                close(descriptor)
                return nil
            }
            guard lseek(descriptor, 0, SEEK_SET) == 0 else {
                throw ServerError.internal("cannot rewind the spooled photo")
            }
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Reads until `buffer` is full or the file ends; returns the count.
    private static func fill(_ buffer: inout [UInt8], from descriptor: Int32) throws(ServerError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { raw in
                read(descriptor, raw.baseAddress! + filled, raw.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw ServerError.internal("cannot read the upload back (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) throws(ServerError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw ServerError.disk("cannot spool the photo; try again later", errno: errno) }
            offset += count
        }
    }
}
