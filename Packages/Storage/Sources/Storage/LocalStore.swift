import Foundation
import SQLite
import Models

/// The device's local store: reports, their revisions, photos and issues,
/// the cached reference data and a few settings, behind intent-named methods.
///
/// Every write runs in one `BEGIN IMMEDIATE` transaction, so a change is
/// either saved whole or not at all, and two processes (`jqc` and
/// `jqc-agent`) can share the file: each waits its turn instead of failing.
public final class LocalStore: @unchecked Sendable {
    // @unchecked Sendable is safe because the only mutable state is the
    // connection, which is never handed out: every public method takes `lock`
    // for its whole duration, so one thread at a time uses the connection.
    private let db: StoreDatabase
    private let lock = NSLock()

    /// The store file, or `:memory:`.
    public let path: String
    /// Where this store's photo files live; nil when the store keeps no files
    /// (then photo rows are still removed, with no file to delete).
    public let photoFiles: PhotoFileStore?

    private init(db: StoreDatabase, path: String, photoFiles: PhotoFileStore?) {
        self.db = db
        self.path = path
        self.photoFiles = photoFiles
    }

    /// Opens the store file at `path`, creating it when absent or empty.
    ///
    /// A file that is not a jqc store, or was written by a newer jqc, is
    /// refused and left byte-for-byte untouched.
    public static func open(at path: String, photoFiles: PhotoFileStore? = nil) throws(StorageError) -> LocalStore {
        LocalStore(db: try StoreFile.open(path: path), path: path, photoFiles: photoFiles)
    }

    /// Opens the profile's store and photo directory, creating the directories (mode 0700).
    public static func open(profile: Profile) throws(StorageError) -> LocalStore {
        try profile.createDirectories()
        let photos = try PhotoFileStore(directory: profile.photosDirectory)
        return try open(at: profile.storePath, photoFiles: photos)
    }

    /// A new empty store in memory, for tests and dry runs.
    public static func inMemory(photoFiles: PhotoFileStore? = nil) throws(StorageError) -> LocalStore {
        LocalStore(db: try StoreFile.inMemory(), path: ":memory:", photoFiles: photoFiles)
    }

    /// The names of the schema steps applied to this store, in order.
    public func appliedMigrations() throws(StorageError) -> [String] {
        try read { db throws(StorageError) in
            try db.rows("SELECT name FROM schema_migrations ORDER BY rowid").compactMap { $0["name"].stringValue }
        }
    }

    /// Runs `body` with the connection, serialised with every other call.
    func read<T>(_ body: (StoreDatabase) throws(StorageError) -> T) throws(StorageError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(db)
    }

    /// Runs `body` in one immediate transaction: committed when it returns,
    /// rolled back when it throws.
    func write<T>(_ body: (StoreDatabase) throws(StorageError) -> T) throws(StorageError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try db.transaction { () throws(StorageError) -> T in try body(db) }
    }

    /// The next number of a creation sequence, allocated inside the caller's
    /// write transaction: strictly increasing, never the clock, never reused.
    static func nextSequence(_ name: String, _ db: StoreDatabase) throws(StorageError) -> Int64 {
        try db.run("UPDATE sequences SET value = value + 1 WHERE name = ?", [.text(name)])
        guard let value = try db.scalar("SELECT value FROM sequences WHERE name = ?", [.text(name)]).int64Value else {
            throw StorageError(
                .corruptStore, "The store has lost its '\(name)' sequence; it is damaged.", context: name)
        }
        return value
    }
}

// MARK: - Meta

/// Keys of the store's settings table.
public enum MetaKey {
    /// The assignments cursor from `GET /assignments`, for the next incremental fetch.
    public static let assignmentsCursor = "assignments_cursor"
    /// The reviews cursor from `GET /reviews` (contract 1.1), for the next incremental pull.
    public static let reviewsCursor = "reviews_cursor"
    /// "true" once the server answered `GET /reviews`; unset for a server without reviews.
    public static let reviewsSupported = "reviews_supported"
    /// When the last sync cycle finished (RFC 3339, diagnostic).
    public static let lastSyncAt = "last_sync_at"
    /// The server's `min_supported_app_version` from the last sync.
    public static let minAppVersion = "min_app_version"
    /// This device's id, sent with every sync.
    public static let deviceID = "device_id"
    /// "true" when the last network attempt reached the server, else "false" (no polling).
    public static let online = "online"
    /// Sync cycles `jqc-agent` has run on this profile, over all its runs.
    public static let agentCycles = "agent_cycles_total"
    /// When an agent cycle last finished against the server (Unix seconds, device clock).
    public static let agentLastSuccess = "agent_last_success_at"
    /// The `contract_version` of the server's last sync answer ("1.0" when it sent none):
    /// whether photos go through resumable uploads (1.1).
    public static let serverContract = "server_contract_version"
    /// The `server_generation` of the server's sync answers: another one means the
    /// server's data was restored from a backup (`LocalStore.adoptServerGeneration`).
    public static let serverGeneration = "server_generation"
    /// How far the check of a restored server got: its generation and the
    /// creation sequence of the last report checked ("GENERATION SEQ"), so a
    /// check cut short goes on from there in the next cycle.
    public static let generationCheck = "server_generation_check"
    /// The actions cursor from `GET /actions` (contract 1.2), for the next incremental pull.
    public static let actionsCursor = "actions_cursor"
}

extension LocalStore {
    /// A stored setting, or nil when unset.
    public func meta(_ key: String) throws(StorageError) -> String? {
        try read { db throws(StorageError) in
            try db.scalar("SELECT value FROM meta WHERE key = ?", [.text(key)]).stringValue
        }
    }

    /// Adds one to the counter stored under `key` and returns the new count, in one transaction.
    public func incrementCounter(_ key: String) throws(StorageError) -> Int64 {
        try write { db throws(StorageError) in
            let next =
                (Int64(try db.scalar("SELECT value FROM meta WHERE key = ?", [.text(key)]).stringValue ?? "0") ?? 0) + 1
            try Self.setMeta(key, String(next), db)
            return next
        }
    }

    /// Stores a setting; nil removes it.
    public func setMeta(_ key: String, _ value: String?) throws(StorageError) {
        try write { db throws(StorageError) in
            try Self.setMeta(key, value, db)
        }
    }

    /// This device's id, made and stored on first use.
    public func deviceID() throws(StorageError) -> UUID {
        try write { db throws(StorageError) -> UUID in
            if let text = try db.scalar("SELECT value FROM meta WHERE key = ?", [.text(MetaKey.deviceID)]).stringValue,
                let id = UUID(uuidString: text)
            {
                return id
            }
            let id = UUID()
            try Self.setMeta(MetaKey.deviceID, id.uuidString, db)
            return id
        }
    }

    static func setMeta(_ key: String, _ value: String?, _ db: StoreDatabase) throws(StorageError) {
        if let value {
            try db.run(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.text(key), .text(value)])
        } else {
            try db.run("DELETE FROM meta WHERE key = ?", [.text(key)])
        }
    }
}

// MARK: - Write-ahead log

extension LocalStore {
    /// Copies what the write-ahead log holds into the store file now, without
    /// waiting for any reader or writer (SQLite's passive checkpoint). The
    /// sync engine calls it while a request is in flight, so that the commit
    /// recording the answer does not have to do it on its way.
    public func checkpoint() throws(StorageError) {
        _ = try read { db throws(StorageError) -> Bool in
            _ = try db.rows("PRAGMA wal_checkpoint(PASSIVE)")
            return true
        }
    }
}
