import ArgumentParsing
import Foundation

/// Everything `jqc-server` is started with, read from its command line.
struct ServerConfig: Sendable {
    /// The server's SQLite file; photos live in a folder beside it.
    var databasePath: String
    var host = "127.0.0.1"
    /// 0 picks a free port.
    var port: UInt16 = 8080
    /// Seed the demo world and its two accounts.
    var demo = false
    /// The demo inspector's user name and password.
    var demoInspector = (username: "inspector", password: "inspector-pass")
    /// The demo supervisor's user name and password.
    var demoSupervisor = (username: "supervisor", password: "supervisor-pass")
    /// The `min_supported_app_version` of every sync response.
    var minAppVersion = "0.1.0"
    /// Share of requests answered 503 with `Retry-After`.
    var faultRate = 0.0
    /// Share of requests whose connection is closed without a response.
    var faultDrop = 0.0
    /// Share of sync batches stored and then left without a response.
    var faultAfterAccept = 0.0
    /// Delay added before every response, in milliseconds.
    var latencyMilliseconds = 0
    /// Seed of the fault injector's random numbers, for reproducible runs.
    var seed: UInt64?
    /// Largest photo accepted, in bytes.
    var maxPhotoBytes: Int64 = 50 * 1024 * 1024
    /// Largest JSON body accepted, in bytes.
    var maxJSONBytes = 2 * 1024 * 1024
    /// How long an access token lives, in seconds.
    var accessTokenLifetime = 900

    /// A configuration with defaults for everything but the database.
    init(databasePath: String) { self.databasePath = databasePath }

    /// The folder holding photos, named after the database file.
    var photoDirectory: String { databasePath + ".photos" }

    /// The options of the serve command.
    static let options: [OptionSpec] = [
        .value("db", "FILE", help: "the server's SQLite database (created if missing)"),
        .value("host", "ADDRESS", help: "address to listen on (default 127.0.0.1)"),
        .value("port", "PORT", help: "port to listen on; 0 picks a free one (default 8080)"),
        .flag("demo", help: "seed the demo world and its inspector and supervisor accounts"),
        .value("demo-inspector", "USER:PASSWORD", help: "the demo inspector's account (default inspector:inspector-pass)"),
        .value("demo-supervisor", "USER:PASSWORD", help: "the demo supervisor's account (default supervisor:supervisor-pass)"),
        .value("min-app-version", "VERSION", help: "lowest client version the server supports (default 0.1.0)"),
        .value("fault-rate", "P", help: "share of requests answered 503 with Retry-After (0 to 1)"),
        .value("fault-drop", "P", help: "share of connections closed without a response (0 to 1)"),
        .value("fault-after-accept", "P", help: "share of sync batches stored, then left without a response (0 to 1)"),
        .value("latency-ms", "N", help: "milliseconds added before every response"),
        .value("seed", "N", help: "seed for the fault injector's randomness"),
        .value("max-photo-bytes", "N", help: "largest photo accepted (default 52428800)"),
        .value("max-json-bytes", "N", help: "largest JSON body accepted, a sync batch included (default 2097152)"),
        .value("access-token-ttl", "SECONDS", help: "access token lifetime (default 900)"),
    ]

    /// Reads a configuration from parsed arguments, naming the first bad value.
    static func from(_ parsed: ParsedArguments) throws(UsageError) -> ServerConfig {
        guard let db = parsed.value("db"), !db.isEmpty else {
            throw UsageError("jqc-server needs --db FILE, the database to serve from.")
        }
        var config = ServerConfig(databasePath: db)
        if let host = parsed.value("host") { config.host = host == "localhost" ? "127.0.0.1" : host }
        if let port = parsed.value("port") {
            guard let value = UInt16(port) else { throw UsageError("--port '\(port)' is not a port number (0 to 65535).") }
            config.port = value
        }
        config.demo = parsed.flag("demo")
        if let account = parsed.value("demo-inspector") { config.demoInspector = try Self.account(account, option: "demo-inspector") }
        if let account = parsed.value("demo-supervisor") { config.demoSupervisor = try Self.account(account, option: "demo-supervisor") }
        if let version = parsed.value("min-app-version") {
            guard SemanticVersion(version) != nil else {
                throw UsageError("--min-app-version '\(version)' is not a version like 1.2.0.")
            }
            config.minAppVersion = version
        }
        config.faultRate = try probability(parsed, "fault-rate")
        config.faultDrop = try probability(parsed, "fault-drop")
        config.faultAfterAccept = try probability(parsed, "fault-after-accept")
        config.latencyMilliseconds = try whole(parsed, "latency-ms", default: 0, range: 0...600_000)
        if let seed = parsed.value("seed") {
            guard let value = UInt64(seed) else { throw UsageError("--seed '\(seed)' is not a whole number.") }
            config.seed = value
        }
        if let text = parsed.value("max-photo-bytes") {
            guard let value = Int64(text), value > 0 else { throw UsageError("--max-photo-bytes '\(text)' is not a positive number of bytes.") }
            config.maxPhotoBytes = value
        }
        config.maxJSONBytes = try whole(parsed, "max-json-bytes", default: 2 * 1024 * 1024, range: 1024...(256 * 1024 * 1024))
        config.accessTokenLifetime = try whole(parsed, "access-token-ttl", default: 900, range: 1...86_400)
        return config
    }

    private static func account(_ text: String, option: String) throws(UsageError) -> (username: String, password: String) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else {
            throw UsageError("--\(option) must be USER:PASSWORD, both non-empty.")
        }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    private static func probability(_ parsed: ParsedArguments, _ name: String) throws(UsageError) -> Double {
        guard let text = parsed.value(name) else { return 0 }
        guard let value = Double(text), value >= 0, value <= 1 else {
            throw UsageError("--\(name) '\(text)' is not a share between 0 and 1.")
        }
        return value
    }

    private static func whole(_ parsed: ParsedArguments, _ name: String, default value: Int,
                              range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = parsed.value(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("--\(name) '\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }
}

/// A `major.minor.patch` version, compared numerically.
struct SemanticVersion: Sendable, Comparable {
    let parts: [Int]

    /// Reads "1.2.3" (missing parts are 0; a pre-release suffix is ignored); nil for anything else.
    init?(_ text: String) {
        let core = text.split(separator: "-", maxSplits: 1).first.map(String.init) ?? ""
        let pieces = core.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(pieces.count) else { return nil }
        var parts: [Int] = []
        for piece in pieces {
            guard let n = Int(piece), n >= 0 else { return nil }
            parts.append(n)
        }
        while parts.count < 3 { parts.append(0) }
        self.parts = parts
    }

    static func < (a: SemanticVersion, b: SemanticVersion) -> Bool { a.parts.lexicographicallyPrecedes(b.parts) }
}
