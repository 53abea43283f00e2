/// One consistent snapshot of the database, read through sessions as often
/// as needed until `close`, which must be called exactly once however the
/// work ends. It holds a connection and a read transaction meanwhile. Used
/// by one thread at a time.
public protocol SnapshotReader: AnyObject {
    /// Runs `body` with a session that reads the snapshot.
    func read<T>(_ body: (any StorageSession) throws -> T) throws(ServerError) -> T
    /// Ends the transaction and gives the connection back.
    func close()
}
