import ServerStore

extension PostgresServerStorage: ConnectionCounting {
    /// The pool's connections, for `jqc_server_db_connections` and `..._in_use`.
    public var connectionCounts: ConnectionCounts { pool.counts }
}
