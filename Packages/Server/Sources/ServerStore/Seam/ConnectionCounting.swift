/// How many database connections a store holds, for the metrics.
public struct ConnectionCounts: Sendable, Equatable {
    /// Connections open (idle or in use).
    public var open: Int
    /// Connections a request holds now.
    public var inUse: Int

    public init(open: Int, inUse: Int) {
        self.open = open
        self.inUse = inUse
    }
}

/// A store that can say how many connections it holds (the PostgreSQL
/// pool). A store that does not conform is counted as one connection,
/// none in use (the SQLite store's single connection).
public protocol ConnectionCounting: Sendable {
    /// The counts now.
    var connectionCounts: ConnectionCounts { get }
}
