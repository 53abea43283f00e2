import Foundation
import Models
import Synchronization
import Testing
import TestSupport

/// A `jqc-server` on loopback started with its log and metrics options, as
/// an operator starts it, keeping every line of its banner (the listening
/// line, then the metrics line) and the path of its log file.
final class ObservedServer: @unchecked Sendable {
    // Immutable after init except `process`, which only `stop()` ends.
    let directory = TemporaryDirectory(prefix: "jqc-observed")
    let banner: [String]
    let baseURL: String
    let logPath: String
    private let process: ChildProcess

    /// Starts `jqc-server --demo --port 0 --db <tmp>/server.db --log-file <tmp>/server.log`
    /// and `arguments`; `database` (a PostgreSQL URL, or a SQLite file elsewhere) replaces the file.
    init(_ arguments: [String], database: String? = nil) throws {
        logPath = directory.path("server.log")
        let folder = directory
        let store =
            database.map {
                $0.hasPrefix("postgres://") ? ["--db", $0, "--upload-dir", folder.path("uploads")] : ["--db", $0]
            }
            ?? ["--db", folder.path("server.db")]
        let process = try ChildProcess(
            Programs.path("jqc-server"), ["--demo", "--port", "0", "--log-file", logPath] + store + arguments,
            environment: ProcessInfo.processInfo.environment, stdout: .pipe)
        self.process = process
        banner = Self.lines(
            of: process.output ?? FileHandle.nullDevice,
            count: arguments.contains("--metrics-port") || arguments.contains("--metrics-listen") ? 3 : 2,
            timeout: 60)
        guard let first = banner.first, first.hasPrefix("listening on http://") else {
            process.terminate()
            process.wait()
            throw ServerLaunchError(message: "jqc-server did not print its address: \(banner)")
        }
        baseURL = String(first.dropFirst("listening on ".count))
    }

    deinit { stop() }

    /// The URL of a contract path such as `/auth/login`.
    func url(_ path: String) -> String { baseURL + "/api/v1" + path }

    /// The metrics URL the banner's second line names.
    var metricsURL: String? {
        banner.dropFirst().first.flatMap {
            $0.hasPrefix("metrics on ") ? String($0.dropFirst("metrics on ".count)) : nil
        }
    }

    /// Sends `signal` to the server.
    func signal(_ number: Int32) { process.signal(number) }

    /// Stops the server with SIGTERM and returns its exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        return process.wait().status
    }

    /// The log file as it is now.
    func log() throws -> String { try String(contentsOfFile: logPath, encoding: .utf8) }

    /// The log's lines of `kind`, each parsed; a line that is not a JSON object fails the test.
    func logLines(kind: String) throws -> [JSONValue] {
        try Self.parse(log()).filter { $0["kind"]?.stringValue == kind }
    }

    /// Every line of `text` parsed as a JSON object.
    static func parse(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { line in
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            guard case .object = value else {
                throw ServerLaunchError(message: "a log line is not a JSON object: \(line)")
            }
            return value
        }
    }

    private static func lines(of handle: FileHandle, count: Int, timeout: TimeInterval) -> [String] {
        let box = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var bytes = Data()
            while bytes.filter({ $0 == 10 }).count < count {
                let chunk = handle.readAvailable()
                if chunk.isEmpty { break }
                bytes.append(chunk)
            }
            box.withLock { $0 = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init) }
            done.signal()
        }
        _ = done.wait(timeout: .now() + timeout)
        return box.withLock { $0 }
    }
}
