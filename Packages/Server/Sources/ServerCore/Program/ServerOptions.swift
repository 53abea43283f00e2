import ArgumentParsing
import ExternalFieldTypes
import Foundation
import Models
import ServerHTTP

/// The options of `jqc-server serve`, each declared once: its name, the type
/// its word becomes, its range, its default (from the configuration's own,
/// `ServerConfig`, `HTTPLimits`, `WebhookSettings`, `Quotas`) and its help.
/// `ServerConfig.from` reads them back through these declarations.
enum ServerOptions {
    private static let config = ServerConfig(database: "")
    private static let http = HTTPLimits()
    private static let webhooks = WebhookSettings()
    private static let quotas = Quotas()

    static let db = Option(
        "db", "FILE|URL",
        help: "a SQLite database file (created if missing) or postgres://USER[:PASSWORD]@HOST[:PORT]/DB")
    static let dbConnections = Option(
        "db-connections", "N", default: config.databaseConnections,
        help: "connections to PostgreSQL this process may hold", as: .whole(in: 1...256))
    static let uploadDir = Option(
        "upload-dir", "DIR", help: "local folder uploads stream to before they are checked (PostgreSQL only)")
    static let host = Option(
        "host", "ADDRESS", default: config.host, help: "address to listen on", as: address)
    static let port = Option(
        "port", "PORT", default: config.port, help: "port to listen on; 0 picks a free one", as: portNumber)
    static let demo = Flag("demo", help: "seed the demo world and its inspector and supervisor accounts")
    static let demoInspector = Option(
        "demo-inspector", "USER:PASSWORD", default: config.demoInspector, help: "the demo inspector's account",
        as: account)
    static let demoSupervisor = Option(
        "demo-supervisor", "USER:PASSWORD", default: config.demoSupervisor, help: "the demo supervisor's account",
        as: account)
    static let minAppVersion = Option(
        "min-app-version", "VERSION", default: config.minAppVersion,
        help: "lowest client version the server supports",
        as: .checked(
            { SemanticVersion($0) == nil ? nil : $0 },
            otherwise: { word, label in "\(label) '\(word)' is not a version like 1.2.0." }))
    static let faultRate = Option(
        "fault-rate", "P", help: "share of requests answered 503 with Retry-After (0 to 1)", as: share)
    static let faultDrop = Option(
        "fault-drop", "P", help: "share of connections closed without a response (0 to 1)", as: share)
    static let faultAfterAccept = Option(
        "fault-after-accept", "P", help: "share of sync batches stored, then left without a response (0 to 1)",
        as: share)
    static let latency = Option(
        "latency-ms", "N", help: "milliseconds added before every response", as: .whole(in: 0...600_000))
    static let seed = Option(
        "seed", "N", help: "seed for the fault injector's randomness",
        as: .checked(UInt64.init, otherwise: { word, label in "\(label) '\(word)' is not a whole number." }))
    static let maxPhotoBytes = Option(
        "max-photo-bytes", "N", default: config.maxPhotoBytes, help: "largest photo accepted", as: bytes)
    static let maxJSONBytes = Option(
        "max-json-bytes", "N", default: config.maxJSONBytes,
        help: "largest JSON body accepted, a sync batch included", as: .whole(in: 1024...(256 * 1024 * 1024)))
    static let accessTokenTTL = Option(
        "access-token-ttl", "SECONDS", default: config.accessTokenLifetime, help: "access token lifetime",
        as: .whole(in: 1...86_400))
    static let refreshIdleTTL = Option(
        "refresh-idle-ttl", "SECONDS", default: config.refreshIdleLifetime, note: "30 days",
        help: "a refresh token unused this long is refused", as: .whole(in: 1...(3650 * 86_400)))
    static let refreshMaxAge = Option(
        "refresh-max-age", "SECONDS", default: config.refreshMaximumAge, note: "90 days",
        help: "a session older than this must sign in again", as: .whole(in: 1...(3650 * 86_400)))
    static let maxRevisions = Option(
        "max-revisions", "N", default: config.maxRevisions, help: "revisions one report may have",
        as: .whole(in: 1...100_000))
    static let passwordChecks = Option(
        "password-checks", "N", default: config.passwordChecks,
        help: "password checks run at once; each takes 64 MiB", as: .whole(in: 1...64))
    static let trustedProxy = Option(
        repeating: "trusted-proxy", "ADDRESS",
        help: "a reverse proxy whose X-Forwarded-For names the client; repeatable",
        as: .checked(
            { ClientAddress.isAddress($0) ? $0 : nil },
            otherwise: { word, label in "\(label) '\(word)' is not an IP address." }))
    static let signInWindow = Option(
        "sign-in-window", "SECONDS", default: config.signInWindow,
        help: "failed sign-ins are counted over this many seconds: 10 per address and user, 100 per address",
        as: .whole(in: 10...86_400))
    static let maxConnections = Option(
        "max-connections", "N", default: http.connections, help: "open connections in all",
        as: .whole(in: 16...60_000))
    static let maxConnectionsPerAddress = Option(
        "max-connections-per-address", "N", default: http.connectionsPerAddress,
        help: "open connections from one client address", as: .whole(in: 1...60_000))
    static let workers = Option(
        "workers", "N", default: http.workers, help: "threads running requests", as: .whole(in: 1...512))
    static let maxWaitingRequests = Option(
        "max-waiting-requests", "N", default: http.waitingRequests,
        help: "requests waiting for a worker before 503", as: .whole(in: 1...100_000))
    static let headerTimeout = Option(
        "header-timeout", "SECONDS", default: Int(http.headerSeconds), help: "time to send a request's headers",
        as: .whole(in: 1...3600))
    static let bodyTimeout = Option(
        "body-timeout", "SECONDS", default: Int(http.bodySeconds),
        help: "time to send a request's body, or read a response", as: .whole(in: 1...86_400))
    static let idleTimeout = Option(
        "idle-timeout", "SECONDS", default: http.idleSeconds,
        help: "silence after which a connection is closed", as: .whole(in: 1...3600))
    static let fieldTypesDir = Option(
        repeating: "field-types-dir", "DIR",
        help:
            "a folder of external field types (executables named jqc-field-NAME), searched after $JQC_FIELD_TYPES_PATH; repeatable"
    )
    static let fieldTypeTimeout = Option(
        "field-type-timeout", "SECONDS",
        help: "seconds an external field type has for each answer (default $JQC_FIELD_TYPE_TIMEOUT, or 2)",
        as: Conversion { (word, label) throws(UsageError) -> TimeInterval in
            do throws(ExternalFieldTypesError) {
                return try ExternalFieldTypeSettings.timeout(word, source: label)
            } catch {
                throw UsageError(error.message + ".")
            }
        })
    static let logLevel = Option(
        "log-level", "LEVEL", default: config.logLevel,
        help: "least severe log lines written: error, warn, info (with a line per request) or debug",
        as: .checked(
            LogLevel.init(name:),
            otherwise: { word, label in "\(label) '\(word)' is not a level; give error, warn, info or debug." }))
    static let logFile = Option(
        "log-file", "PATH", help: "append the log to PATH (created 0600, reopened on SIGHUP) instead of stderr",
        as: .checked(
            { $0.isEmpty ? nil : $0 },
            otherwise: { _, label in "\(label) needs the path of a file to append the log to." }))
    static let behindTLS = Flag(
        "behind-tls", help: "the server is reached through a TLS reverse proxy: the console's cookies are marked Secure"
    )
    static let consoleIdleTTL = Option(
        "console-idle-ttl", "SECONDS", default: config.consoleIdleLifetime,
        help: "a console session with no page opened for this long ends", as: .whole(in: 60...(30 * 86_400)))
    static let consoleMaxAge = Option(
        "console-max-age", "SECONDS", default: config.consoleMaximumAge, note: "12 hours",
        help: "a console session ends this long after signing in, whatever its use",
        as: .whole(in: 60...(90 * 86_400)))
    static let metricsListen = Option(
        "metrics-listen", "HOST:PORT",
        help: "serve Prometheus metrics at /metrics on this address ([::1]:PORT for IPv6); port 0 picks a free one",
        as: listenAddress)
    /// `--metrics-port` and `--metrics-host`: the older spelling of `--metrics-listen`, hidden from help.
    static let metricsPort = Option(
        "metrics-port", "PORT",
        help: "serve Prometheus metrics at /metrics on this port; 0 picks a free one (default: none)", as: portNumber
    ).hidden()
    static let metricsHost = Option(
        "metrics-host", "ADDRESS", default: config.metricsHost, help: "address of the metrics listener", as: address
    ).hidden()
    static let quotaBytes = Option(
        "quota-bytes", "N", default: quotas.bytes, note: "20 GiB",
        help: "bytes one user may store, revisions and photos", as: bytes)
    static let quotaRevisionsPerDay = Option(
        "quota-revisions-per-day", "N", default: quotas.revisionsPerDay,
        help: "revisions one user may send a UTC day", as: .whole(in: 1...10_000_000))
    static let quotaPhotosPerReport = Option(
        "quota-photos-per-report", "N", default: quotas.photosPerReport, help: "photos one report may hold",
        as: .whole(in: 1...100_000))
    static let quotaUploadBytes = Option(
        "quota-upload-bytes", "N", default: quotas.uploadBytes, note: "2 GiB",
        help: "bytes one user's unfinished resumable uploads may announce in all", as: bytes)
    static let uploadTTL = Option(
        "upload-ttl", "SECONDS", default: config.uploadLifetime,
        help: "an unfinished resumable upload is dropped this long after its last byte, 3600 or more",
        as: .whole(in: 3_600...(30 * 86_400)))
    static let webhookSenders = Option(
        "webhook-senders", "N", default: webhooks.senders,
        help: "webhook deliveries this instance makes at once; 0 leaves them to other instances",
        as: .whole(in: 0...64))
    static let webhookTimeout = Option(
        "webhook-timeout", "SECONDS", default: Int(webhooks.timeout),
        help: "seconds a webhook receiver has to answer 2xx, 1 to 10", as: .whole(in: 1...10))
    static let webhookLease = Option(
        "webhook-lease", "SECONDS", default: Int(webhooks.lease),
        help: "seconds a delivery stays with the instance attempting it before another may",
        as: .whole(in: 2...86_400))
    static let webhookFirstRetry = Option(
        "webhook-first-retry-ms", "N", default: Int(webhooks.firstDelay * 1000),
        help: "milliseconds before a failed delivery's second attempt; each later wait doubles",
        as: .whole(in: 10...86_400_000))
    static let webhookLongestRetry = Option(
        "webhook-longest-retry", "SECONDS", default: Int(webhooks.longestDelay),
        help: "the longest wait between attempts", as: .whole(in: 1...604_800))
    static let webhookAttempts = Option(
        "webhook-attempts", "N", default: webhooks.attempts,
        help: "attempts before a delivery is failed and kept for replay", as: .whole(in: 1...100))
    static let webhookKeepDays = Option(
        "webhook-keep-days", "N", default: webhooks.keepDays,
        help: "days a delivered webhook event is kept for 'admin webhook deliveries' and replay",
        as: .whole(in: 1...3650))
    static let actionThreshold = Option(
        "action-threshold", "SEVERITY", default: ActionPolicy().threshold,
        help:
            "the least severity of an issue that becomes a corrective action by itself: low, medium, high or critical",
        as: .checked(
            IssueSeverity.init(typed:),
            otherwise: { word, label in "\(label) '\(word)' is not a severity; give low, medium, high or critical." }))
    static let actionDue = Option(
        repeating: "action-due", "SEVERITY=HOURS",
        help: "hours from a report's acceptance to when an action of that severity is due; repeatable",
        as: Conversion<(IssueSeverity, Int)> { (word, label) throws(UsageError) -> (IssueSeverity, Int) in
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let severity = IssueSeverity(typed: parts[0]), let hours = Int(parts[1]),
                (1...8760).contains(hours)
            else {
                throw UsageError(
                    "\(label) '\(word)' is not SEVERITY=HOURS, such as critical=24 (hours from 1 to 8760).")
            }
            return (severity, hours)
        })

    static let clientsSee = Option(
        "clients-see", "GATE", values: ClientScope.ReportGate.allCases.map(\.rawValue),
        default: ClientScope.ReportGate.approved,
        help: "which reports clients see: approved (by a supervisor) or accepted (every report not rejected)",
        as: Conversion<ClientScope.ReportGate>.choice(otherwise: { word, label in
            "\(label) must be approved or accepted, not '\(word)'."
        }))

    static let scheduleHorizonDays = Option(
        "schedule-horizon-days", "N", default: 14,
        help: "days ahead each schedule's visits are made into assignments", as: .whole(in: 1...92))

    /// Every option of `serve`, in the order help lists them.
    static let all: [OptionSpec] =
        [
            db.spec, dbConnections.spec, uploadDir.spec, host.spec, port.spec, demo.spec, demoInspector.spec,
            demoSupervisor.spec, minAppVersion.spec, faultRate.spec, faultDrop.spec, faultAfterAccept.spec,
            latency.spec, seed.spec, maxPhotoBytes.spec, maxJSONBytes.spec, accessTokenTTL.spec, refreshIdleTTL.spec,
            refreshMaxAge.spec, maxRevisions.spec, passwordChecks.spec, trustedProxy.spec, signInWindow.spec,
            maxConnections.spec, maxConnectionsPerAddress.spec, workers.spec, maxWaitingRequests.spec,
            headerTimeout.spec, bodyTimeout.spec, idleTimeout.spec, fieldTypesDir.spec, fieldTypeTimeout.spec,
            logLevel.spec, logFile.spec, behindTLS.spec, consoleIdleTTL.spec, consoleMaxAge.spec, metricsListen.spec,
            metricsPort.spec, metricsHost.spec, quotaBytes.spec, quotaRevisionsPerDay.spec, quotaPhotosPerReport.spec,
            quotaUploadBytes.spec, uploadTTL.spec, webhookSenders.spec, webhookTimeout.spec, webhookLease.spec,
            webhookFirstRetry.spec, webhookLongestRetry.spec, webhookAttempts.spec, webhookKeepDays.spec,
            actionThreshold.spec, actionDue.spec, clientsSee.spec, scheduleHorizonDays.spec,
        ] + MailOptions.all

    // MARK: Conversions

    /// An address to listen on; `localhost` is 127.0.0.1.
    private static let address = Conversion<String> { (word, _) throws(UsageError) -> String in
        word == "localhost" ? "127.0.0.1" : word
    }

    /// `HOST:PORT`, `[IPV6]:PORT`; `localhost` is 127.0.0.1.
    private static let listenAddress = Conversion<ListenAddress> { (word, label) throws(UsageError) -> ListenAddress in
        guard let address = ListenAddress(word) else {
            throw UsageError("\(label) '\(word)' is not HOST:PORT, such as 127.0.0.1:9100 or [::1]:0.")
        }
        return address
    }

    private static let portNumber = Conversion<UInt16>.checked(
        UInt16.init, otherwise: { word, label in "\(label) '\(word)' is not a port number (0 to 65535)." })

    private static let bytes = Conversion<Int64>.checked(
        { Int64($0).flatMap { $0 > 0 ? $0 : nil } },
        otherwise: { word, label in "\(label) '\(word)' is not a positive number of bytes." })

    private static let share = Conversion<Double>.checked(
        { Double($0).flatMap { $0 >= 0 && $0 <= 1 ? $0 : nil } },
        otherwise: { word, label in "\(label) '\(word)' is not a share between 0 and 1." })

    /// `USER:PASSWORD`, both non-empty.
    private static let account = Conversion<DemoAccount> { (text, label) throws(UsageError) -> DemoAccount in
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex
        else {
            throw UsageError("\(label) must be USER:PASSWORD, both non-empty.")
        }
        return DemoAccount(username: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
    }
}

/// An address and port to listen on, as `--metrics-listen` gives them.
struct ListenAddress: Sendable, Equatable {
    var host: String
    var port: UInt16

    /// Reads `HOST:PORT` or `[IPV6]:PORT`; nil for anything else.
    init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            guard host.contains(":") else { return nil }
        } else if host.contains(":") || host.contains("[") || host.contains("]") {
            return nil
        }
        guard !host.isEmpty else { return nil }
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
    }
}

/// A demo account's user name and password, as `--demo-inspector` gives them.
struct DemoAccount: Sendable, CustomStringConvertible {
    var username: String
    var password: String

    /// `USER:PASSWORD`.
    var description: String { "\(username):\(password)" }
}
