import Foundation

/// What a resumable upload's photo goes to once it is whole.
public enum UploadTarget: Sendable, Equatable {
    /// A report's photo (`StoredUpload.serverID` is the report's server id).
    case report
    /// A corrective action's photo (`serverID` is the action's id), or its update's.
    case action(updateID: String?)
}

/// One resumable photo upload (contract 1.1) as the server keeps it.
public struct StoredUpload: Sendable, Equatable {
    /// `U-` and 32 hex digits (128 random bits): the last segment of its url.
    public var id: String
    /// Whose it is; nobody else's requests find it.
    public var userID: String
    /// The report (or, for an action's photo, the action) the photo goes to.
    public var serverID: String
    /// Whether the photo goes to a report or to an action.
    public var target: UploadTarget
    public var localID: UUID
    public var fieldID: String?
    public var issueLocalID: UUID?
    /// The hash the whole file must have.
    public var sha256: String
    /// The size the whole file has.
    public var byteSize: Int64
    /// Bytes held durably.
    public var offset: Int64
    /// When it is dropped, unless more bytes come.
    public var expiresAt: Date
    /// The photo was stored: nothing more is taken, its bytes are gone.
    public var finished: Bool

    public init(
        id: String, userID: String, serverID: String, localID: UUID, fieldID: String?, issueLocalID: UUID?,
        sha256: String, byteSize: Int64, offset: Int64, expiresAt: Date, finished: Bool, target: UploadTarget = .report
    ) {
        self.target = target
        self.id = id
        self.userID = userID
        self.serverID = serverID
        self.localID = localID
        self.fieldID = fieldID
        self.issueLocalID = issueLocalID
        self.sha256 = sha256
        self.byteSize = byteSize
        self.offset = offset
        self.expiresAt = expiresAt
        self.finished = finished
    }

    /// A new upload id, from libsodium's CSPRNG.
    public static func makeID() -> String { "U-" + Hex.encode(PasswordHasher.randomBytes(16)) }

    /// Whether `text` has the shape of an upload id: the one check before it names a file or a row.
    public static func isID(_ text: String) -> Bool {
        let digits = text.utf8.dropFirst(2)
        return text.hasPrefix("U-") && digits.count == 32
            && digits.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// How an append ended.
public enum UploadAppend: Sendable, Equatable {
    /// The bytes are held; the new offset.
    case appended(Int64)
    /// The upload holds another number of bytes than the request assumed.
    case moved(Int64)
    /// The upload is no longer there.
    case gone
}

/// Where resumable uploads live, records and partial bytes together, so a
/// store keeps both in step: a SQLite server in its private upload folder
/// (a file per upload) with a row each; PostgreSQL in the database, the bytes
/// as chunks, so any instance continues an upload another began. Every
/// method finds only uploads that are not expired.
public protocol UploadStore: Sendable {
    /// The upload `id` of `userID`, unexpired at `now`.
    func upload(id: String, userID: String, now: Date) throws(ServerError) -> StoredUpload?
    /// `upload` (found by `StorageSession.unexpiredUpload`) if the store still
    /// holds the bytes its offset counts; dropped, and nil, if it does not.
    func checked(_ upload: StoredUpload) throws(ServerError) -> StoredUpload?
    /// Records a new upload with no bytes, unless `admit`, given the bytes
    /// the user's unfinished uploads announce (read in the same transaction),
    /// answers a refusal, which is thrown.
    func create(_ upload: StoredUpload, now: Date, admit: (Int64) -> ServerError?) throws(ServerError)
    /// Appends `count` bytes read from `descriptor` (from its start) to
    /// `upload` if it still holds `upload.offset` bytes, durably, and moves
    /// its expiry to `expiresAt`. With `durably` false (the bytes complete
    /// the upload, whose photo is stored at once, durably, by the photo
    /// store) a store may leave them unflushed and its recorded offset where
    /// it was: should storing the photo fail, the upload still holds the
    /// earlier offset and the client sends the rest again.
    func append(
        _ upload: StoredUpload, from descriptor: Int32, count: Int64, expiresAt: Date,
        durably: Bool
    ) throws(ServerError) -> UploadAppend
    /// A descriptor reading the upload's bytes whole from the start, in a
    /// private local file, and their SHA-256. The caller closes it.
    func assemble(_ upload: StoredUpload) throws(ServerError) -> (descriptor: Int32, sha256: String)
    /// Lets go of the bytes of an upload marked finished (`StorageSession.finishUpload`) that the
    /// store keeps outside its database; nothing for a store that keeps them in it.
    func release(_ upload: StoredUpload)
    /// Removes the upload and its bytes.
    func drop(_ upload: StoredUpload) throws(ServerError)
    /// Removes uploads expired at `now` (at most `limit`); how many.
    func sweep(now: Date, limit: Int) throws(ServerError) -> Int
}
