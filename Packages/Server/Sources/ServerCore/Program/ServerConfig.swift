import ArgumentParsing
import Foundation
import ServerHTTP
import ServerStore

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
    var demoInspector = DemoAccount(username: "inspector", password: "inspector-pass")
    /// The demo supervisor's user name and password.
    var demoSupervisor = DemoAccount(username: "supervisor", password: "supervisor-pass")
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
    /// Which issues become actions by themselves, and when each is due (`--action-threshold`, `--action-due`).
    var actions = ActionPolicy()
    /// Which reports clients see (`--clients-see`).
    var clientsSee = ClientScope.ReportGate.approved
    /// What one user may store.
    var quotas = Quotas()
    /// How this instance sends mail (off without `--smtp-url`).
    var mail = MailSettings()
    /// Days ahead schedules' visits are made (`--schedule-horizon-days`).
    var scheduleHorizonDays = 14
    /// Seconds an unfinished resumable upload is kept after its last byte (contract: at least an hour).
    var uploadLifetime = 86_400

    /// A configuration with defaults for everything but the database.
    init(database: String) { self.database = database }

    /// What the store's opener is told.
    var storageSettings: StorageOpener.Settings {
        StorageOpener.Settings(connections: databaseConnections, uploadDirectory: uploadDirectory)
    }

    /// The options of the serve command.
    static var options: [OptionSpec] { ServerOptions.all }

    /// Reads a configuration from parsed arguments, naming the first bad value.
    static func from(_ parsed: ParsedArguments) throws(UsageError) -> ServerConfig {
        typealias O = ServerOptions
        guard let db = try parsed[O.db], !db.isEmpty else {
            throw UsageError("jqc-server needs --db FILE or --db postgres://..., the database to serve from.")
        }
        var config = ServerConfig(database: db)
        config.databaseConnections = try parsed[O.dbConnections]
        if let folder = try parsed[O.uploadDir] {
            guard DatabaseLocation.isPostgres(db) else {
                throw UsageError(
                    "--upload-dir is for a PostgreSQL database; a SQLite server keeps uploads beside its file.")
            }
            config.uploadDirectory = folder
        }
        config.host = try parsed[O.host]
        config.port = try parsed[O.port]
        config.demo = parsed[O.demo]
        config.demoInspector = try parsed[O.demoInspector]
        config.demoSupervisor = try parsed[O.demoSupervisor]
        config.minAppVersion = try parsed[O.minAppVersion]
        config.faultRate = try parsed[O.faultRate] ?? config.faultRate
        config.faultDrop = try parsed[O.faultDrop] ?? config.faultDrop
        config.faultAfterAccept = try parsed[O.faultAfterAccept] ?? config.faultAfterAccept
        config.latencyMilliseconds = try parsed[O.latency] ?? config.latencyMilliseconds
        config.seed = try parsed[O.seed]
        config.maxPhotoBytes = try parsed[O.maxPhotoBytes]
        config.maxJSONBytes = try parsed[O.maxJSONBytes]
        config.accessTokenLifetime = try parsed[O.accessTokenTTL]
        config.refreshIdleLifetime = try parsed[O.refreshIdleTTL]
        config.refreshMaximumAge = try parsed[O.refreshMaxAge]
        config.behindTLS = parsed[O.behindTLS]
        config.consoleIdleLifetime = try parsed[O.consoleIdleTTL]
        config.consoleMaximumAge = try parsed[O.consoleMaxAge]
        config.maxRevisions = try parsed[O.maxRevisions]
        config.signInWindow = try parsed[O.signInWindow]
        config.passwordChecks = try parsed[O.passwordChecks]
        config.trustedProxies = Set(try parsed[O.trustedProxy])
        config.http.connections = try parsed[O.maxConnections]
        config.http.connectionsPerAddress = try parsed[O.maxConnectionsPerAddress]
        config.http.workers = try parsed[O.workers]
        config.http.waitingRequests = try parsed[O.maxWaitingRequests]
        config.http.headerSeconds = TimeInterval(try parsed[O.headerTimeout])
        config.http.bodySeconds = TimeInterval(try parsed[O.bodyTimeout])
        config.http.idleSeconds = try parsed[O.idleTimeout]
        config.fieldTypeDirectories = try parsed[O.fieldTypesDir]
        config.fieldTypeTimeout = try parsed[O.fieldTypeTimeout]
        try readObservability(parsed, into: &config)
        try readWebhooks(parsed, into: &config)
        config.quotas.bytes = try parsed[O.quotaBytes]
        config.quotas.revisionsPerDay = try parsed[O.quotaRevisionsPerDay]
        config.quotas.uploadBytes = try parsed[O.quotaUploadBytes]
        config.uploadLifetime = try parsed[O.uploadTTL]
        config.quotas.photosPerReport = try parsed[O.quotaPhotosPerReport]
        config.actions.threshold = try parsed[O.actionThreshold]
        for (severity, hours) in try parsed[O.actionDue] { config.actions.dueHours[severity] = hours }
        config.clientsSee = try parsed[O.clientsSee]
        config.scheduleHorizonDays = try parsed[O.scheduleHorizonDays]
        config.mail = try MailOptions.settings(parsed)
        return config
    }

    /// The webhook options: the lease outlasts an attempt, so a delivery in flight is never taken by another instance.
    private static func readWebhooks(_ parsed: ParsedArguments, into config: inout ServerConfig) throws(UsageError) {
        typealias O = ServerOptions
        var settings = WebhookSettings()
        settings.senders = try parsed[O.webhookSenders]
        settings.timeout = TimeInterval(try parsed[O.webhookTimeout])
        settings.lease = TimeInterval(try parsed[O.webhookLease])
        guard settings.lease > settings.timeout else {
            throw UsageError(
                "--webhook-lease \(Int(settings.lease)) must be longer than --webhook-timeout \(Int(settings.timeout)), so an attempt ends before another instance may take its delivery."
            )
        }
        settings.firstDelay = TimeInterval(try parsed[O.webhookFirstRetry]) / 1000
        settings.longestDelay = TimeInterval(try parsed[O.webhookLongestRetry])
        settings.attempts = try parsed[O.webhookAttempts]
        settings.keepDays = try parsed[O.webhookKeepDays]
        config.webhooks = settings
    }

    /// The log and metrics options.
    private static func readObservability(_ parsed: ParsedArguments, into config: inout ServerConfig) throws(UsageError)
    {
        typealias O = ServerOptions
        config.logLevel = try parsed[O.logLevel]
        config.logFile = try parsed[O.logFile]
        config.metricsPort = try parsed[O.metricsPort]
        if let listen = try parsed[O.metricsListen] {
            guard !parsed.isGiven(O.metricsPort) && !parsed.isGiven(O.metricsHost) else {
                throw UsageError("give --metrics-listen HOST:PORT alone, without --metrics-port or --metrics-host.")
            }
            config.metricsHost = listen.host
            config.metricsPort = listen.port
        } else if parsed.isGiven(O.metricsHost) {
            guard config.metricsPort != nil else {
                throw UsageError("--metrics-host needs --metrics-port, the port the metrics are served on.")
            }
            config.metricsHost = try parsed[O.metricsHost]
        }
        if let port = config.metricsPort, port != 0, port == config.port, config.metricsHost == config.host {
            let spelling = parsed.isGiven(O.metricsListen) ? "--metrics-listen port" : "--metrics-port"
            throw UsageError("\(spelling) \(port) is the API's own port; give the metrics a port of their own.")
        }
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
