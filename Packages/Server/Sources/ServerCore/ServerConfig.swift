import ArgumentParsing
import ExternalFieldTypes
import Foundation
import ServerHTTP

/// Everything `jqc-server` is started with, read from its command line.
struct ServerConfig: Sendable {
    /// What `--db` names: a SQLite file (photos in a folder beside it) or a PostgreSQL URL.
    var database: String
    /// Connections to PostgreSQL this process may hold.
    var databaseConnections = 8
    /// Where uploads stream before they are checked (PostgreSQL; a SQLite
    /// server keeps them in its photo folder).
    var uploadDirectory: String?
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
    /// A refresh token unused for this many seconds is refused (and its session ended).
    var refreshIdleLifetime = 30 * 24 * 3600
    /// A session older than this many seconds can no longer be refreshed; its user signs in again.
    var refreshMaximumAge = 90 * 24 * 3600
    /// Revisions one report may have; a change beyond is refused.
    var maxRevisions = 500

    /// Revisions a device may bring a report to: the last few are kept for
    /// the server (a supervisor's correction, an admin's edit), so an inspector
    /// who amends a report to the cap never leaves it uncorrectable.
    var deviceRevisionLimit: Int { maxRevisions - (maxRevisions < 2 ? 0 : max(1, min(10, maxRevisions / 10))) }
    /// Password checks (argon2id, 64 MiB each) run at the same time; more wait briefly, then get 503.
    var passwordChecks = 2
    /// Seconds over which failed sign-ins are counted against the limits.
    var signInWindow = 60
    /// Reverse proxies whose `X-Forwarded-For` names the client (for the sign-in limits).
    var trustedProxies: Set<String> = []
    /// Connections, deadlines and workers of the HTTP layer.
    var http = HTTPLimits()
    /// Folders searched for external field types (`jqc-field-NAME`) after `JQC_FIELD_TYPES_PATH`'s.
    var fieldTypeDirectories: [String] = []
    /// Seconds an external field type has for each answer; nil means `JQC_FIELD_TYPE_TIMEOUT`, or 2.
    var fieldTypeTimeout: TimeInterval?
    /// The least severe log lines written; access lines are `info`.
    var logLevel = LogLevel.info
    /// The file the log is appended to (reopened on SIGHUP); nil means stderr.
    var logFile: String?
    /// The server is reached through a TLS reverse proxy: the console's cookies are `Secure`.
    var behindTLS = false
    /// Seconds a console session lasts with no page opened.
    var consoleIdleLifetime = 3600
    /// Seconds a console session lasts at most after signing in.
    var consoleMaximumAge = 12 * 3600
    /// The port of the metrics listener (0 picks a free one); nil means none.
    var metricsPort: UInt16?
    /// The address of the metrics listener.
    var metricsHost = "127.0.0.1"
    /// How this instance delivers webhooks.
    var webhooks = WebhookSettings()
    /// What one user may store.
    var quotas = Quotas()
    /// Seconds an unfinished resumable upload is kept after its last byte (contract: at least an hour).
    var uploadLifetime = 86_400

    /// A configuration with defaults for everything but the database.
    init(database: String) { self.database = database }

    /// What the store's opener is told.
    var storageSettings: StorageOpener.Settings {
        StorageOpener.Settings(connections: databaseConnections, uploadDirectory: uploadDirectory)
    }

    /// The options of the serve command.
    static let options: [OptionSpec] = [
        .value(
            "db", "FILE|URL",
            help: "a SQLite database file (created if missing) or postgres://USER[:PASSWORD]@HOST[:PORT]/DB"),
        .value("db-connections", "N", help: "connections to PostgreSQL this process may hold (default 8)"),
        .value("upload-dir", "DIR", help: "local folder uploads stream to before they are checked (PostgreSQL only)"),
        .value("host", "ADDRESS", help: "address to listen on (default 127.0.0.1)"),
        .value("port", "PORT", help: "port to listen on; 0 picks a free one (default 8080)"),
        .flag("demo", help: "seed the demo world and its inspector and supervisor accounts"),
        .value(
            "demo-inspector", "USER:PASSWORD", help: "the demo inspector's account (default inspector:inspector-pass)"),
        .value(
            "demo-supervisor", "USER:PASSWORD",
            help: "the demo supervisor's account (default supervisor:supervisor-pass)"),
        .value("min-app-version", "VERSION", help: "lowest client version the server supports (default 0.1.0)"),
        .value("fault-rate", "P", help: "share of requests answered 503 with Retry-After (0 to 1)"),
        .value("fault-drop", "P", help: "share of connections closed without a response (0 to 1)"),
        .value("fault-after-accept", "P", help: "share of sync batches stored, then left without a response (0 to 1)"),
        .value("latency-ms", "N", help: "milliseconds added before every response"),
        .value("seed", "N", help: "seed for the fault injector's randomness"),
        .value("max-photo-bytes", "N", help: "largest photo accepted (default 52428800)"),
        .value("max-json-bytes", "N", help: "largest JSON body accepted, a sync batch included (default 2097152)"),
        .value("access-token-ttl", "SECONDS", help: "access token lifetime (default 900)"),
        .value(
            "refresh-idle-ttl", "SECONDS",
            help: "a refresh token unused this long is refused (default 2592000, 30 days)"),
        .value(
            "refresh-max-age", "SECONDS",
            help: "a session older than this must sign in again (default 7776000, 90 days)"),
        .value("max-revisions", "N", help: "revisions one report may have (default 500)"),
        .value("password-checks", "N", help: "password checks run at once; each takes 64 MiB (default 2)"),
        .value(
            "trusted-proxy", "ADDRESS", repeatable: true,
            help: "a reverse proxy whose X-Forwarded-For names the client; repeatable"),
        .value(
            "sign-in-window", "SECONDS",
            help:
                "failed sign-ins are counted over this many seconds: 10 per address and user, 100 per address (default 60)"
        ),
        .value("max-connections", "N", help: "open connections in all (default 2048)"),
        .value("max-connections-per-address", "N", help: "open connections from one client address (default 256)"),
        .value("workers", "N", help: "threads running requests (default 16)"),
        .value("max-waiting-requests", "N", help: "requests waiting for a worker before 503 (default 256)"),
        .value("header-timeout", "SECONDS", help: "time to send a request's headers (default 10)"),
        .value("body-timeout", "SECONDS", help: "time to send a request's body, or read a response (default 300)"),
        .value("idle-timeout", "SECONDS", help: "silence after which a connection is closed (default 30)"),
        .value(
            "field-types-dir", "DIR", repeatable: true,
            help:
                "a folder of external field types (executables named jqc-field-NAME), searched after $JQC_FIELD_TYPES_PATH; repeatable"
        ),
        .value(
            "field-type-timeout", "SECONDS",
            help: "seconds an external field type has for each answer (default $JQC_FIELD_TYPE_TIMEOUT, or 2)"),
        .value(
            "log-level", "LEVEL",
            help: "least severe log lines written: error, warn, info (with a line per request) or debug (default info)"),
        .value("log-file", "PATH", help: "append the log to PATH (created 0600, reopened on SIGHUP) instead of stderr"),
        .flag(
            "behind-tls",
            help: "the server is reached through a TLS reverse proxy: the console's cookies are marked Secure"),
        .value(
            "console-idle-ttl", "SECONDS",
            help: "a console session with no page opened for this long ends (default 3600)"),
        .value(
            "console-max-age", "SECONDS",
            help: "a console session ends this long after signing in, whatever its use (default 43200, 12 hours)"),
        .value(
            "metrics-port", "PORT",
            help: "serve Prometheus metrics at /metrics on this port; 0 picks a free one (default: none)"),
        .value("metrics-host", "ADDRESS", help: "address of the metrics listener (default 127.0.0.1)"),
        .value(
            "quota-bytes", "N", help: "bytes one user may store, revisions and photos (default 21474836480, 20 GiB)"),
        .value("quota-revisions-per-day", "N", help: "revisions one user may send a UTC day (default 100000)"),
        .value("quota-photos-per-report", "N", help: "photos one report may hold (default 500)"),
        .value(
            "quota-upload-bytes", "N",
            help: "bytes one user's unfinished resumable uploads may announce in all (default 2147483648, 2 GiB)"),
        .value(
            "upload-ttl", "SECONDS",
            help:
                "an unfinished resumable upload is dropped this long after its last byte, 3600 or more (default 86400)"),
        .value(
            "webhook-senders", "N",
            help: "webhook deliveries this instance makes at once; 0 leaves them to other instances (default 4)"),
        .value(
            "webhook-timeout", "SECONDS", help: "seconds a webhook receiver has to answer 2xx, 1 to 10 (default 10)"),
        .value(
            "webhook-lease", "SECONDS",
            help: "seconds a delivery stays with the instance attempting it before another may (default 60)"),
        .value(
            "webhook-first-retry-ms", "N",
            help: "milliseconds before a failed delivery's second attempt; each later wait doubles (default 10000)"),
        .value("webhook-longest-retry", "SECONDS", help: "the longest wait between attempts (default 3600)"),
        .value("webhook-attempts", "N", help: "attempts before a delivery is failed and kept for replay (default 12)"),
        .value(
            "webhook-keep-days", "N",
            help: "days a delivered webhook event is kept for 'admin webhook deliveries' and replay (default 30)"),
    ]

    /// Reads a configuration from parsed arguments, naming the first bad value.
    static func from(_ parsed: ParsedArguments) throws(UsageError) -> ServerConfig {
        guard let db = parsed.value("db"), !db.isEmpty else {
            throw UsageError("jqc-server needs --db FILE or --db postgres://..., the database to serve from.")
        }
        var config = ServerConfig(database: db)
        config.databaseConnections = try whole(
            parsed, "db-connections", default: config.databaseConnections, range: 1...256)
        if let folder = parsed.value("upload-dir") {
            guard DatabaseLocation.isPostgres(db) else {
                throw UsageError(
                    "--upload-dir is for a PostgreSQL database; a SQLite server keeps uploads beside its file.")
            }
            config.uploadDirectory = folder
        }
        if let host = parsed.value("host") { config.host = host == "localhost" ? "127.0.0.1" : host }
        if let port = parsed.value("port") {
            guard let value = UInt16(port) else {
                throw UsageError("--port '\(port)' is not a port number (0 to 65535).")
            }
            config.port = value
        }
        config.demo = parsed.flag("demo")
        if let account = parsed.value("demo-inspector") {
            config.demoInspector = try Self.account(account, option: "demo-inspector")
        }
        if let account = parsed.value("demo-supervisor") {
            config.demoSupervisor = try Self.account(account, option: "demo-supervisor")
        }
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
            guard let value = Int64(text), value > 0 else {
                throw UsageError("--max-photo-bytes '\(text)' is not a positive number of bytes.")
            }
            config.maxPhotoBytes = value
        }
        config.maxJSONBytes = try whole(
            parsed, "max-json-bytes", default: 2 * 1024 * 1024, range: 1024...(256 * 1024 * 1024))
        config.accessTokenLifetime = try whole(parsed, "access-token-ttl", default: 900, range: 1...86_400)
        config.refreshIdleLifetime = try whole(
            parsed, "refresh-idle-ttl", default: config.refreshIdleLifetime,
            range: 1...(3650 * 86_400))
        config.refreshMaximumAge = try whole(
            parsed, "refresh-max-age", default: config.refreshMaximumAge,
            range: 1...(3650 * 86_400))
        config.behindTLS = parsed.flag("behind-tls")
        config.consoleIdleLifetime = try whole(
            parsed, "console-idle-ttl", default: config.consoleIdleLifetime, range: 60...(30 * 86_400))
        config.consoleMaximumAge = try whole(
            parsed, "console-max-age", default: config.consoleMaximumAge, range: 60...(90 * 86_400))
        config.maxRevisions = try whole(parsed, "max-revisions", default: config.maxRevisions, range: 1...100_000)
        config.signInWindow = try whole(parsed, "sign-in-window", default: config.signInWindow, range: 10...86_400)
        config.passwordChecks = try whole(parsed, "password-checks", default: config.passwordChecks, range: 1...64)
        for proxy in parsed.all("trusted-proxy") {
            guard ClientAddress.isAddress(proxy) else {
                throw UsageError("--trusted-proxy '\(proxy)' is not an IP address.")
            }
            config.trustedProxies.insert(proxy)
        }
        var http = HTTPLimits()
        http.connections = try whole(parsed, "max-connections", default: http.connections, range: 16...60_000)
        http.connectionsPerAddress = try whole(
            parsed, "max-connections-per-address", default: http.connectionsPerAddress,
            range: 1...60_000)
        http.workers = try whole(parsed, "workers", default: http.workers, range: 1...512)
        http.waitingRequests = try whole(
            parsed, "max-waiting-requests", default: http.waitingRequests, range: 1...100_000)
        http.headerSeconds = TimeInterval(
            try whole(parsed, "header-timeout", default: Int(http.headerSeconds), range: 1...3600))
        http.bodySeconds = TimeInterval(
            try whole(parsed, "body-timeout", default: Int(http.bodySeconds), range: 1...86_400))
        http.idleSeconds = try whole(parsed, "idle-timeout", default: http.idleSeconds, range: 1...3600)
        config.http = http
        config.fieldTypeDirectories = parsed.all("field-types-dir")
        if let text = parsed.value("field-type-timeout") {
            do throws(ExternalFieldTypesError) {
                config.fieldTypeTimeout = try ExternalFieldTypeSettings.timeout(text, source: "--field-type-timeout")
            } catch {
                throw UsageError(error.message + ".")
            }
        }
        try readObservability(parsed, into: &config)
        try readWebhooks(parsed, into: &config)
        if let text = parsed.value("quota-bytes") {
            guard let value = Int64(text), value > 0 else {
                throw UsageError("--quota-bytes '\(text)' is not a positive number of bytes.")
            }
            config.quotas.bytes = value
        }
        config.quotas.revisionsPerDay = try whole(
            parsed, "quota-revisions-per-day", default: config.quotas.revisionsPerDay, range: 1...10_000_000)
        if let text = parsed.value("quota-upload-bytes") {
            guard let value = Int64(text), value > 0 else {
                throw UsageError("--quota-upload-bytes '\(text)' is not a positive number of bytes.")
            }
            config.quotas.uploadBytes = value
        }
        config.uploadLifetime = try whole(
            parsed, "upload-ttl", default: config.uploadLifetime, range: 3_600...(30 * 86_400))
        config.quotas.photosPerReport = try whole(
            parsed, "quota-photos-per-report", default: config.quotas.photosPerReport, range: 1...100_000)
        return config
    }

    /// The webhook options: the lease outlasts an attempt, so a delivery in flight is never taken by another instance.
    private static func readWebhooks(_ parsed: ParsedArguments, into config: inout ServerConfig) throws(UsageError) {
        var settings = WebhookSettings()
        settings.senders = try whole(parsed, "webhook-senders", default: settings.senders, range: 0...64)
        settings.timeout = TimeInterval(
            try whole(parsed, "webhook-timeout", default: Int(settings.timeout), range: 1...10))
        settings.lease = TimeInterval(
            try whole(parsed, "webhook-lease", default: Int(settings.lease), range: 2...86_400))
        guard settings.lease > settings.timeout else {
            throw UsageError(
                "--webhook-lease \(Int(settings.lease)) must be longer than --webhook-timeout \(Int(settings.timeout)), so an attempt ends before another instance may take its delivery."
            )
        }
        settings.firstDelay =
            TimeInterval(
                try whole(
                    parsed, "webhook-first-retry-ms", default: Int(settings.firstDelay * 1000),
                    range: 10...86_400_000)) / 1000
        settings.longestDelay = TimeInterval(
            try whole(parsed, "webhook-longest-retry", default: Int(settings.longestDelay), range: 1...604_800))
        settings.attempts = try whole(parsed, "webhook-attempts", default: settings.attempts, range: 1...100)
        settings.keepDays = try whole(parsed, "webhook-keep-days", default: settings.keepDays, range: 1...3650)
        config.webhooks = settings
    }

    /// The log and metrics options.
    private static func readObservability(_ parsed: ParsedArguments, into config: inout ServerConfig) throws(UsageError)
    {
        if let text = parsed.value("log-level") {
            guard let level = LogLevel(name: text) else {
                throw UsageError("--log-level '\(text)' is not a level; give error, warn, info or debug.")
            }
            config.logLevel = level
        }
        if let path = parsed.value("log-file") {
            guard !path.isEmpty else { throw UsageError("--log-file needs the path of a file to append the log to.") }
            config.logFile = path
        }
        if let port = parsed.value("metrics-port") {
            guard let value = UInt16(port) else {
                throw UsageError("--metrics-port '\(port)' is not a port number (0 to 65535).")
            }
            config.metricsPort = value
        }
        if let host = parsed.value("metrics-host") {
            guard config.metricsPort != nil else {
                throw UsageError("--metrics-host needs --metrics-port, the port the metrics are served on.")
            }
            config.metricsHost = host == "localhost" ? "127.0.0.1" : host
        }
        if let port = config.metricsPort, port != 0, port == config.port, config.metricsHost == config.host {
            throw UsageError("--metrics-port \(port) is the API's own port; give the metrics a port of their own.")
        }
    }

    private static func account(_ text: String, option: String) throws(UsageError) -> (
        username: String, password: String
    ) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex
        else {
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

    private static func whole(
        _ parsed: ParsedArguments, _ name: String, default value: Int,
        range: ClosedRange<Int>
    ) throws(UsageError) -> Int {
        guard let text = parsed.value(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "--\(name) '\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound).")
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
