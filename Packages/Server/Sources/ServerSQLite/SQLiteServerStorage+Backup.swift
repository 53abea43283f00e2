import ServerStore
import SQLite

extension SQLiteServerStorage {
    /// `admin backup`: SQLite's online backup API into a new file, checked
    /// with `PRAGMA integrity_check`; servers on the same file go on writing
    /// (WAL), and the copy is the database at one moment.
    public func backup(to path: String) throws(ServerError) {
        _ = try withDatabase(writing: false) { database throws(ServerError) -> Bool in
            do throws(SQLiteError) {
                try database.backup(to: path)
            } catch  where error.code == .cannotOpen && error.openedPath == path {
                throw ServerError.conflict(error.message)
            } catch {
                throw ServerError.database(error)
            }
            return true
        }
    }
}
