import Foundation
import Synchronization

/// Which database the suite's servers run on. By default each `ServerProcess`
/// gets a SQLite file of its own; with `JQC_TEST_SERVER_DATABASE=postgres`
/// each gets an empty database of its own in one throwaway PostgreSQL cluster
/// shared by the whole run, so the same contract tests hold on both stores.
/// That cluster is the one `JQC_TEST_POSTGRES_URL` names when set (`.ci/run`
/// starts one), else one started for the run.
public enum ServerDatabases {
    /// True when this run's servers use PostgreSQL.
    public static let usePostgres = ProcessInfo.processInfo.environment["JQC_TEST_SERVER_DATABASE"] == "postgres"

    private static let cluster = Mutex<PostgresCluster?>(nil)

    /// The shared cluster, started on first use.
    public static func sharedCluster() throws -> PostgresCluster {
        try cluster.withLock { current in
            if let current { return current }
            let given = ProcessInfo.processInfo.environment["JQC_TEST_POSTGRES_URL"] ?? ""
            let started = try given.isEmpty ? PostgresCluster() : PostgresCluster(running: given)
            current = started
            return started
        }
    }

    /// The output of one query (`-At`: values only) on a server's database, file or URL. On
    /// SQLite it waits up to 10 s for a running server's write to end, as the server's own
    /// connections do, instead of failing at once with "database is locked".
    @discardableResult
    public static func query(_ location: String, _ sql: String) throws -> String {
        if location.hasPrefix("postgres://") {
            let cluster = try sharedCluster()
            return try cluster.psql(sql, database: String(location.split(separator: "/").last ?? "jqc"))
        }
        let outcome = try Subprocess.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", location, sql])
        guard outcome.status == 0 else { throw PostgresClusterError(message: "sqlite3: \(outcome.stderr)") }
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The URL of a new, empty database in the shared cluster.
    public static func freshPostgres() throws -> String {
        let cluster = try sharedCluster()
        let name = "server_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try cluster.psql("CREATE DATABASE \(name)")
        return cluster.url(database: name)
    }
}
