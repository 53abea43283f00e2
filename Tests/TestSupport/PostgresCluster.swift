import Foundation
import Synchronization

/// A throwaway PostgreSQL cluster for one test suite (`Tools/postgres/cluster`):
/// initdb into a temporary folder, a server on 127.0.0.1 on a free port, the
/// database `jqc`; stopped and removed on release. Starting one takes a few
/// seconds, so suites share one through a `static let`.
public final class PostgresCluster: @unchecked Sendable {
    // Immutable after init; stopped once, in deinit.
    /// The folder holding the cluster.
    public let directory: String
    /// `postgres://jqc:jqc-test@127.0.0.1:PORT/jqc`.
    public let url: String
    /// The port it listens on.
    public let port: Int
    /// False for a cluster someone else started (and stops).
    private let owned: Bool

    /// Starts a cluster; throws with the script's message when it cannot.
    public init() throws {
        Self.stopOrphans()
        directory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("jqc-pg-\(UUID().uuidString.prefix(8))").path
        let outcome = try Self.script(["start", directory])
        guard outcome.status == 0, let line = outcome.stdout.split(separator: "\n").last, line.hasPrefix("postgres://")
        else {
            throw PostgresClusterError(message: "could not start a PostgreSQL cluster: \(outcome.stderr)")
        }
        url = String(line)
        port = Int(url.split(separator: ":").last?.split(separator: "/").first ?? "") ?? 0
        owned = true
        // Who owns it: a test process killed before its exit handler ran leaves
        // the cluster behind, and the next run stops it (`stopOrphans`).
        try? Data(String(getpid()).utf8).write(to: URL(fileURLWithPath: directory + "/owner"))
        _ = Self.running.withLock { $0.insert(directory) }
        Self.installExitHandler
    }

    /// A cluster already running (started by `.ci/run` with the same script),
    /// named by its `jqc` database URL; left running on release.
    public init(running url: String) throws {
        guard url.hasPrefix("postgres://"),
            let port = Int(url.split(separator: ":").last?.split(separator: "/").first ?? "")
        else {
            throw PostgresClusterError(message: "'\(url)' is not a postgres://...:PORT/DB URL")
        }
        self.url = url
        self.port = port
        directory = ""
        owned = false
    }

    /// The URL of another database on the same server (which need not exist).
    public func url(database: String) -> String {
        guard let slash = url.lastIndex(of: "/") else { return url }
        return String(url[...slash]) + database
    }

    /// Runs SQL on the cluster's `jqc` database with psql; returns its output.
    @discardableResult
    public func psql(_ sql: String, database: String = "jqc") throws -> String {
        let outcome = try Subprocess.run(
            try Self.binary("psql"),
            [
                "-h", "127.0.0.1", "-p", String(port), "-U", "jqc", "-d", database, "-qAt",
                "-v", "ON_ERROR_STOP=1", "-c", sql,
            ],
            environment: ["PGPASSWORD": "jqc-test"])
        guard outcome.status == 0 else { throw PostgresClusterError(message: "psql: \(outcome.stderr)") }
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the cluster as a crash would (`pg_ctl stop -m immediate`: no checkpoint,
    /// connections cut); only a cluster this process started.
    public func crash() throws {
        guard owned else { throw PostgresClusterError(message: "only a cluster this test started may be crashed") }
        let outcome = try Self.script(["crash", directory])
        guard outcome.status == 0 else {
            throw PostgresClusterError(message: "could not crash the cluster: \(outcome.stderr)")
        }
    }

    /// Starts a crashed cluster again on its port; it recovers from its log first.
    public func restart() throws {
        guard owned else { throw PostgresClusterError(message: "only a cluster this test started may be restarted") }
        let outcome = try Self.script(["restart", directory])
        guard outcome.status == 0 else {
            throw PostgresClusterError(message: "could not restart the cluster: \(outcome.stderr)")
        }
    }

    deinit {
        guard owned else { return }
        _ = Self.running.withLock { $0.remove(directory) }
        _ = try? Self.script(["stop", directory])
    }

    private static let running = Mutex<Set<String>>([])

    /// Stops the clusters still running when the test process exits (suites
    /// keep theirs in a `static let`, which is never released).
    private static let installExitHandler: Void = {
        atexit {
            for directory in PostgresCluster.running.withLock({ $0 }) {
                _ = try? Subprocess.run(RepositoryFiles.path("Tools/postgres/cluster"), ["stop", directory])
            }
        }
    }()

    /// Stops the clusters of test processes that are gone (killed before
    /// their exit handler could stop them).
    private static func stopOrphans() {
        let temporary = FileManager.default.temporaryDirectory.path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix("jqc-pg-") {
            let folder = temporary + "/" + name
            guard let text = try? String(contentsOfFile: folder + "/owner", encoding: .utf8), let pid = Int32(text),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            _ = try? script(["stop", folder])
        }
    }

    /// The path of a PostgreSQL program (`psql`) of the newest version installed.
    public static func binary(_ name: String) throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let newest = versions.sorted(by: { $0.compare($1, options: .numeric) == .orderedAscending }).last else {
            throw PostgresClusterError(message: "PostgreSQL is not installed; run Tools/setup")
        }
        return "/usr/lib/postgresql/\(newest)/bin/\(name)"
    }

    private static func script(_ arguments: [String]) throws -> ProcessOutcome {
        try Subprocess.run(RepositoryFiles.path("Tools/postgres/cluster"), arguments)
    }
}

/// A cluster that could not be started or queried.
public struct PostgresClusterError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
