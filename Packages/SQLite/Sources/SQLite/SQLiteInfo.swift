internal import CSQLite

/// Facts about the SQLite library this program runs with.
public enum SQLiteInfo {
    /// The SQLite library version ("3.40.1").
    public static var version: String { String(cString: sqlite3_libversion()) }
}
