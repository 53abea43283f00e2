import ServerStore

/// A `StorageSession` that runs SQL: what both stores' sessions share, so
/// that a statement that is the same on SQLite and PostgreSQL is written
/// once, in the extensions of this protocol (one concern a file), with `?`
/// placeholders that each session binds in its own way.
///
/// What differs between the two databases (upserts, `RETURNING`, counters,
/// locks, where photo bytes live, date functions, migrations) stays in each
/// store; a store's own method of the same name is never also written here.
public protocol SQLStatements: StorageSession {
    /// The store's row type.
    associatedtype ResultRow: SQLRow

    /// Every row of a statement whose values stand at its `?` placeholders.
    func rows(_ sql: String, _ values: [SQLParameter]) throws(ServerError) -> [ResultRow]

    /// Runs a statement that changes rows.
    func run(_ sql: String, _ values: [SQLParameter]) throws(ServerError)

    /// What a read of a report (or a usage row) ends with: ` FOR UPDATE`
    /// inside a PostgreSQL write, so that it stays locked until commit;
    /// nothing on SQLite, whose writer holds the whole database.
    var lockClause: String { get }

    /// The columns a user is read from (`SQLRecords.user`).
    static var userColumns: String { get }

    /// What the read of a presented refresh token ends with: PostgreSQL
    /// locks the token's and the session's rows, so that of two instances
    /// presenting it at once one spends it and the other finds it spent.
    static var refreshTokenLock: String { get }

    /// The current revision of a report, nil when there is none; in
    /// PostgreSQL the report's row is locked until commit, whatever the
    /// session, so the revision cap and the next number are decided under it.
    func currentRevision(serverID: String) throws(ServerError) -> Int?

    /// The condition (on reports `r`) of a report whose follow-up is still open.
    static var openFollowUps: String { get }
    /// How the store words "the report failed its threshold" on `reports r`.
    static var failedOnly: String { get }

    /// The `ORDER BY` (on reports `r`) of a history page in `order`.
    static func historyOrder(_ order: HistoryOrder) -> String

    /// Bumps the revision clients compare to know the templates changed.
    func bumpTemplateRevision() throws(ServerError)

    /// The change number of the latest change to an assignment.
    func latestChangeSequence() throws(ServerError) -> Int64

    /// The change number the next change to an assignment takes.
    func nextChangeSequence() throws(ServerError) -> Int64

    /// The position the next change to an action takes; positions become
    /// visible in order (a reader never later sees a lower one).
    func nextActionChange() throws(ServerError) -> Int64
}

extension SQLStatements {
    /// Every row of a statement without parameters.
    public func rows(_ sql: String) throws(ServerError) -> [ResultRow] { try rows(sql, []) }

    /// The first row of a statement, if any.
    public func firstRow(_ sql: String, _ values: [SQLParameter] = []) throws(ServerError) -> ResultRow? {
        try rows(sql, values).first
    }
}
