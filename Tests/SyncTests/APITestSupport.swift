import Foundation
import Models
import Networking
import Sync
import Synchronization
import Testing
import TestSupport

/// The demo server the API suites share (`--demo`: inspector/inspector-pass, supervisor/supervisor-pass).
enum DemoServer {
    static let shared: Result<ServerProcess, any Error> = Result { try ServerProcess(["--demo"]) }
    static func running() throws -> ServerProcess { try shared.get() }
}

/// Every credentials change a client reported, in order.
final class TokenLog: Sendable {
    private let entries = Mutex<[Credentials?]>([])
    /// Records one report.
    func record(_ credentials: Credentials?) { entries.withLock { $0.append(credentials) } }
    /// Everything reported so far.
    var all: [Credentials?] { entries.withLock { $0 } }
}

/// A client for `baseURL` as the apps will make one.
func makeClient(
    _ baseURL: String, credentials: Credentials? = nil, log: TokenLog = TokenLog(),
    options: CurlTransport.Options = .init(connectTimeout: 5, totalTimeout: 20),
    longestRetryAfterWait: Double = 5
) throws -> APIClient {
    try APIClient(
        configuration: .init(
            serverURL: baseURL, appVersion: "0.1.0", deviceID: UUID(),
            longestRetryAfterWait: longestRetryAfterWait),
        transport: CurlTransport(options: options), credentials: credentials,
        onTokensChanged: { log.record($0) })
}

/// A client already signed in as `username`.
func signedIn(_ server: ServerProcess, _ username: String = "inspector", log: TokenLog = TokenLog()) async throws
    -> APIClient
{
    let client = try makeClient(server.baseURL, log: log)
    try await client.login(username: username, password: "\(username)-pass")
    return client
}

/// Builders of wire values for the demo world.
enum Wire {
    /// A valid report for the demo "Lobby walkthrough" template.
    static func lobby(_ localID: UUID = UUID()) -> WireReport {
        WireReport(
            localID: localID, templateID: "lobby-walk", facilityID: "F-100", areaID: "A-102",
            payload: WirePayload(
                answers: ["entrance": "pass", "glass": 4, "notes": "fine"], score: 0.9,
                followUpRequired: false))
    }

    /// A sync batch of `reports`.
    static func batch(_ reports: [WireReport]) -> SyncRequest {
        SyncRequest(deviceID: UUID(), appVersion: "0.1.0", schemaVersion: 1, reports: reports)
    }
}

/// Photo files on disk.
enum Photos {
    /// Writes `size` bytes that start and end like a JPEG; returns the path.
    static func jpeg(_ size: Int, in directory: TemporaryDirectory, seed: UInt32 = 7) throws -> String {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        var state = seed &* 2_654_435_761 &+ UInt32(truncatingIfNeeded: size)
        while bytes.count < size - 2 {
            state = state &* 1_103_515_245 &+ 12_345
            bytes.append(UInt8(truncatingIfNeeded: state >> 16))
        }
        bytes += [0xFF, 0xD9]
        let path = directory.path("photo-\(seed)-\(size).jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The lower-case hex SHA-256 of a file, from `sha256sum`.
    static func sha256(_ path: String) throws -> String {
        String(try Tool.run("/usr/bin/sha256sum", [path]).prefix(64))
    }
}

/// Runs a system tool and returns its standard output.
enum Tool {
    static func run(_ path: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = try out.fileHandleForReading.readToEnd() ?? Data()
        process.waitUntilExit()
        return data
    }

    static func run(_ path: String, _ arguments: [String]) throws -> String {
        String(decoding: try run(path, arguments) as Data, as: UTF8.self)
    }
}

/// Runs `body` and returns the `APIError` it threw; fails the test when it threw nothing.
func apiError<T>(_ body: () async throws(APIError) -> T, sourceLocation: SourceLocation = #_sourceLocation) async
    -> APIError?
{
    do {
        _ = try await body()
        Issue.record("expected an APIError, got a success", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
