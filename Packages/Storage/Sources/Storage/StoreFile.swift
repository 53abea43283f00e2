import Foundation

/// Opens a store file safely: a file that is not a jqc store, or one written
/// by a newer jqc, is refused before anything is written to it.
enum StoreFile {
    /// How long a statement waits for another process's write lock.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// Opens the store at `path`, creating it when absent or empty, and brings its schema up to date.
    static func open(path: String) throws(StorageError) -> StoreDatabase {
        if try hasContent(path) {
            // Inspect through a read-only connection first: a refused file must
            // stay byte-identical, and a read-only connection cannot write.
            let inspector = try StoreDatabase(path: path, mode: .readOnly)
            inspector.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            try settingUp(within: busyTimeoutMilliseconds) { () throws(StorageError) in
                try check(inspector, path: path)
            }
        }
        let db = try StoreDatabase(path: path, mode: .readWriteCreate)
        db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        try settingUp(within: busyTimeoutMilliseconds) { () throws(StorageError) in
            // Checked again on the writing connection: another process may have
            // created or upgraded the file between the two opens.
            try check(db, path: path)
            try configure(db, path: path)
            try Migrations.migrate(db, path: path)
        }
        db.cachesStatements = true
        return db
    }

    /// Runs the set-up of a store, tried again while it meets a busy store,
    /// for up to `milliseconds` in all. Two processes creating one new store
    /// at once (jqc and the agent on a fresh profile) meet each other's
    /// switch to WAL and first migration, where SQLite may answer busy
    /// without waiting through the busy handler; each step is idempotent, so
    /// the one that loses simply does it again once the other is done.
    private static func settingUp(within milliseconds: Int32, _ body: () throws(StorageError) -> Void)
        throws(StorageError)
    {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
        while true {
            do {
                try body()
                return
            } catch  where error.code == .busy && DispatchTime.now().uptimeNanoseconds < deadline {
                usleep(UInt32.random(in: 5_000...25_000))
            }
        }
    }

    /// A new private store in memory, with the full schema.
    static func inMemory() throws(StorageError) -> StoreDatabase {
        let db = try StoreDatabase.inMemory()
        try db.execute("PRAGMA foreign_keys = ON")
        try Migrations.migrate(db, path: ":memory:")
        db.cachesStatements = true
        return db
    }

    /// The refusal of a store written by a newer jqc.
    static func newerStore(path: String, version: Int) -> StorageError {
        StorageError(
            .newerStore,
            "The store at '\(path)' was written by a newer version of jqc (store version \(version), this jqc knows \(Migrations.all.count)). Update jqc; the store was left untouched.",
            context: path)
    }

    /// The refusal of a file that is not a SQLite database or is damaged.
    static func notAStore(path: String, native: String? = nil) -> StorageError {
        StorageError(
            .corruptStore,
            "The file at '\(path)' is not a jqc store or is damaged; it was left untouched. Move it aside or choose another --home.",
            context: native.map { "\(path): \($0)" } ?? path)
    }

    /// The refusal of a SQLite database that belongs to another program.
    static func foreignDatabase(path: String) -> StorageError {
        StorageError(
            .corruptStore,
            "The file at '\(path)' is a SQLite database of another program, not a jqc store; it was left untouched. Choose another --home.",
            context: path)
    }

    /// True when a file with at least one byte exists at `path`; checks its
    /// SQLite header on the way, without opening it through SQLite.
    /// The error for a store file that exists but cannot be read: a
    /// permission, or the device failing (named as such, with its cause).
    private static func unreadable(_ path: String, _ code: Int32) -> StorageError {
        if StorageError.isDeviceFailure(errno: code) {
            return StorageError(
                .io,
                "The store at '\(path)' cannot be read (\(StorageError.cause(code))); check the disk and try again.",
                context: path)
        }
        return StorageError(
            .permission, "The store at '\(path)' cannot be read (\(StorageError.cause(code))); check its permissions.",
            context: path)
    }

    private static func hasContent(_ path: String) throws(StorageError) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        if isDirectory.boolValue {
            throw StorageError(
                .permission, "The store path '\(path)' is a folder, not a file; choose another --home.", context: path)
        }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, errno) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 100)
        var count = 0
        var interrupted = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count)
            }
            if read > 0 {
                count += read
            } else if read == 0 {
                break
            } else if (errno == EINTR || errno == EAGAIN) && interrupted < 100 {
                interrupted += 1
            } else {
                throw unreadable(path, errno)
            }
        }
        let header = Data(bytes[0..<count])
        if header.isEmpty { return false }
        // Every SQLite file starts with this 16-byte magic and a 100-byte header.
        guard header.count == 100, header.prefix(16) == Data("SQLite format 3\0".utf8) else {
            throw notAStore(path: path)
        }
        return true
    }

    /// Refuses a foreign or newer database; writes nothing.
    private static func check(_ db: StoreDatabase, path: String) throws(StorageError) {
        let applicationID: Int32
        let version: Int
        let objectCount: Int64
        do {
            // One snapshot for all three: read one by one, another process's
            // first migration could commit between them, and a store seen
            // unstamped yet with tables would be refused as another program's.
            (applicationID, version, objectCount) = try db.snapshot { () throws(StorageError) in
                (
                    try db.applicationID(), try db.userVersion(),
                    try db.scalar("SELECT count(*) FROM sqlite_master").int64Value ?? 0
                )
            }
        } catch  where error.code == .corruptStore {
            throw notAStore(path: path, native: error.context)
        }
        if applicationID != 0 && applicationID != Migrations.applicationID {
            throw foreignDatabase(path: path)
        }
        // A database with tables but never stamped by jqc belongs to someone else.
        if applicationID == 0 && version == 0 && objectCount > 0 {
            throw foreignDatabase(path: path)
        }
        if version > Migrations.all.count {
            throw newerStore(path: path, version: version)
        }
    }

    private static func configure(_ db: StoreDatabase, path: String) throws(StorageError) {
        // WAL lets the CLI read and write while the agent syncs; NORMAL is
        // durable across application crashes in WAL mode and much cheaper.
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = NORMAL")
        try db.execute("PRAGMA foreign_keys = ON")
    }
}
