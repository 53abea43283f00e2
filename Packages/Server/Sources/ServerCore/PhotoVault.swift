import Foundation
import ProgramOutput

/// Photo bytes on disk, named by their SHA-256 and nothing else: the folder
/// beside the database holds `<first two hex digits>/<sha256>`. No part of a
/// path ever comes from the client except a hash already checked to be 64
/// hex digits, so nothing can be written or read outside the folder.
public struct PhotoVault: PhotoStore {
    let directory: String

    /// The folder a SQLite database's photos live in: beside the file.
    public static func directory(besideDatabase path: String) -> String { path + ".photos" }

    /// Creates the folder and its upload area.
    public init(directory: String) throws(ServerError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(atPath: uploadDirectory, withIntermediateDirectories: true)
        } catch {
            throw ServerError.internal("cannot create the photo folder '\(directory)'")
        }
    }

    /// Where uploads stream to before they are checked.
    public var uploadDirectory: String { directory + "/incoming" }

    /// The path of the photo with this hash; nil for anything that is not a hash.
    func path(sha256: String) -> String? {
        guard Hex.isSHA256(sha256) else { return nil }
        let hash = sha256.lowercased()
        return "\(directory)/\(hash.prefix(2))/\(hash)"
    }

    /// Moves a checked upload into place, durably: the upload is flushed to
    /// disk before it is linked under its hash, and the folder after, each
    /// step checked. A photo already stored under the same hash is kept (same
    /// hash, same bytes). On any failure nothing is stored under the hash and
    /// the error names the cause; the client sends the photo again.
    public func keep(temporaryPath: String, sha256: String, byteSize: Int64) throws(ServerError) {
        guard let target = path(sha256: sha256) else { throw ServerError.badRequest("'sha256' is not a SHA-256") }
        let folder = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw ServerError.internal("cannot store the photo: cannot create its folder")
        }
        if FileManager.default.fileExists(atPath: target) { return }
        try Self.flush(temporaryPath)
        guard link(temporaryPath, target) == 0 || errno == EEXIST else {
            throw Self.failure("store", errno)
        }
        try Self.flush(folder)
    }

    public func open(sha256: String, byteSize: Int64) throws(ServerError) -> Int32? {
        guard let path = path(sha256: sha256) else { return nil }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
    }

    /// fsync(2) of a file or a folder, through `AtomicFile`.
    private static func flush(_ path: String) throws(ServerError) {
        do throws(OutputError) {
            try AtomicFile.flush(path)
        } catch {
            throw failure(error.action, error.errno)
        }
    }

    private static func failure(_ action: String, _ code: Int32) -> ServerError {
        .internal("cannot \(action) the photo on the server's disk (\(String(cString: strerror(code)))); send it again later")
    }
}
