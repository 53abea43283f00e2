import Foundation
/// Where photo bytes live, by SHA-256: on the server's disk beside a SQLite
/// database (`PhotoVault`), or in the database itself when many instances
/// share one (PostgreSQL). Uploads stream to a local file first, are hashed
/// and checked, then handed to `keep`; a download is an open descriptor the
/// HTTP layer streams from and closes. Either way no photo is ever held in
/// memory whole.
public protocol PhotoStore: Sendable {
    /// Stores the checked upload, read through `descriptor` (the one it was
    /// written and hashed through, never its name), under `sha256`, durably;
    /// bytes already stored under the same hash are kept as they are.
    func keep(descriptor: Int32, sha256: String, byteSize: Int64) throws(ServerError)
    /// `keep` for a file that lives on after it (a resumable upload's own
    /// file, written to again if storing its photo fails afterwards): the
    /// photo never shares that file's bytes on disk.
    func keep(copying descriptor: Int32, sha256: String, byteSize: Int64) throws(ServerError)
    /// An open, readable descriptor positioned at the first byte of the
    /// photo stored under `sha256`, or nil when none is. The caller closes it.
    func open(sha256: String, byteSize: Int64) throws(ServerError) -> Int32?
}

extension PhotoStore {
    /// A store that always writes bytes of its own (a database) keeps a copy as it keeps anything.
    public func keep(copying descriptor: Int32, sha256: String, byteSize: Int64) throws(ServerError) {
        try keep(descriptor: descriptor, sha256: sha256, byteSize: byteSize)
    }
}

/// What `--db` opened: the records, the photo bytes, and the local folder
/// uploads stream into before they are checked.
public struct OpenedDatabase: Sendable {
    /// The records.
    public var store: any ServerStorage
    /// The photo bytes.
    public var photos: any PhotoStore
    /// A private local folder for uploads in flight.
    public var uploadDirectory: String
    /// Resumable uploads (contract 1.1), records and partial bytes.
    public var uploads: any UploadStore

    /// True when `uploadDirectory` was made fresh for this process (no
    /// `--upload-dir` on PostgreSQL): it is removed when the process is done.
    public var uploadDirectoryIsTemporary: Bool

    /// Groups what a store's opener made.
    public init(
        store: any ServerStorage, photos: any PhotoStore, uploadDirectory: String, uploads: any UploadStore,
        uploadDirectoryIsTemporary: Bool = false
    ) {
        self.store = store
        self.photos = photos
        self.uploadDirectory = uploadDirectory
        self.uploads = uploads
        self.uploadDirectoryIsTemporary = uploadDirectoryIsTemporary
    }

    /// Removes the upload folder if it was made for this process only; what is
    /// in it is bodies of requests that can no longer finish.
    public func removeTemporaryUploads() {
        guard uploadDirectoryIsTemporary else { return }
        try? FileManager.default.removeItem(atPath: uploadDirectory)
    }
}
