import ArgumentParsing
import Foundation
import Models
import ServerHTTP
import ProgramOutput
import ServerStore

/// Runs the server until SIGTERM or SIGINT: opens the log, the store, seeds
/// the demo world, listens (and for metrics, with `--metrics-listen`), prints
/// the addresses, reopens the log file on SIGHUP, and shuts down cleanly.
enum ServerRunner {
    static func serve(_ config: ServerConfig, storage: StorageOpener) -> ExitCode {
        signal(SIGPIPE, SIG_IGN)
        HTTPServerPanic.install()
        BodyMemory.mapLargeAllocations(from: 128 * 1024)
        var stopSignals = blockStopSignals()
        guard let log = openLog(config) else { return .failure }
        var opened: OpenedDatabase?
        let running: Running
        do throws(ServerError) {
            running = try start(config, storage: storage, log: log, opened: &opened)
        } catch {
            OutputChannel.standardError.write("jqc-server: \(error.message)\n")
            opened?.removeTemporaryUploads()
            return .failure
        }
        let banner = banner(config, port: running.server.port, metricsPort: running.metricsServer?.port)
        // The address line is how a supervisor or a test learns the port (with
        // --port 0): a server that cannot say where it listens stops.
        guard OutputChannel.standardOutput.write(banner) else {
            let reason = OutputChannel.standardOutput.failure?.reason ?? "unknown error"
            OutputChannel.standardError.write(
                "jqc-server: cannot write the address to standard output (\(reason)); stopping\n")
            StopWatchdog.arm(seconds: 15)
            running.metricsServer?.stop()
            running.server.stop(grace: 0)
            opened?.removeTemporaryUploads()
            return .failure
        }
        if config.logFile != nil { log.note(banner.split(separator: "\n").first.map(String.init) ?? "", level: .info) }
        running.webhooks.start()
        running.mail.start()
        running.visits.start()

        var received: Int32 = 0
        while true {
            sigwait(&stopSignals, &received)
            guard received == SIGHUP else { break }
            reopen(log)
        }
        OutputChannel.standardError.write("jqc-server: stopping; finishing requests in flight\n")
        if config.logFile != nil { log.note("stopping; finishing requests in flight", level: .info) }
        StopWatchdog.arm(seconds: stopGrace + 15)
        running.metricsServer?.stop()
        running.server.stop(grace: stopGrace)
        // An attempt still in flight is left to its lease: attempted again later, by this instance or another.
        running.webhooks.stop(grace: 2)
        running.mail.stop(grace: 2)
        running.visits.stop(grace: 2)
        opened?.removeTemporaryUploads()
        return .ok
    }

    /// What a started server runs: the HTTP listener, the metrics listener
    /// when asked for, and the webhook senders (started once the address is told).
    private struct Running {
        let server: HTTPServer
        let metricsServer: MetricsServer?
        let webhooks: OutboxDispatcher<WebhookCourier>
        let mail: OutboxDispatcher<MailCourier>
        let visits: VisitMaker
    }

    /// Blocks the stop signals and SIGHUP before any thread starts, so every
    /// thread inherits the mask and only `sigwait` in `serve` ever receives them.
    private static func blockStopSignals() -> sigset_t {
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        return stopSignals
    }

    /// The log on `--log-file` or stderr; nil, having said why, when the file cannot be opened.
    private static func openLog(_ config: ServerConfig) -> ServerLog? {
        do throws(OutputError) {
            let sink = try config.logFile.map { path throws(OutputError) in try LogSink.file(path) } ?? .standardError()
            return ServerLog(level: config.logLevel, sink: sink, stamp: { RFC3339.string($0, milliseconds: true) })
        } catch {
            OutputChannel.standardError.write(
                "jqc-server: cannot open the log file '\(config.logFile ?? "")' (\(error.reason)); give --log-file a file this user may write\n"
            )
            return nil
        }
    }

    /// Opens the store (`opened` as soon as it is, so a failure after can
    /// clean up), sweeps what an earlier run left, seeds the demo world,
    /// and starts the listeners.
    private static func start(
        _ config: ServerConfig, storage: StorageOpener, log: ServerLog, opened: inout OpenedDatabase?
    ) throws(ServerError) -> Running {
        guard PasswordHasher.prepare() else { throw ServerError.internal("libsodium could not start") }
        FilePermissions.restrict(config)
        var limits = config.http
        limits.connections = FilePermissions.raiseOpenFileLimit(toServe: limits.connections)
        let database = try storage.open(config.database, config.storageSettings)
        opened = database
        let store = database.store
        FilePermissions.restrict(config)
        let swept = FilePermissions.sweepUploads(in: database.uploadDirectory, olderThan: limits.bodySeconds + 60)
        if swept > 0 { log.note("removed \(swept) unfinished upload(s) left by an earlier run", level: .info) }
        let expired = try database.uploads.sweep(now: Date(), limit: 10_000)
        if expired > 0 { log.note("removed \(expired) expired resumable upload(s)", level: .info) }
        if config.demo { try DemoWorld.seed(store, config: config) }
        let key = try signingKey(store)
        let registry = ServerFieldTypes.registry(
            directories: config.fieldTypeDirectories, timeout: config.fieldTypeTimeout,
            warn: { log.note($0, level: .warn) })
        let regraded = try GradeBackfill.run(store, judge: AnswerJudge(registry: registry))
        if regraded > 0 { log.note("graded \(regraded) report(s) kept from before grades", level: .info) }
        let app = ServerApp(
            config: config, store: store, signer: TokenSigner(key: key), judge: AnswerJudge(registry: registry),
            photos: database.photos, uploads: database.uploads, log: log)
        let webhooks = OutboxDispatcher(
            store: store,
            courier: WebhookCourier(
                store: store, settings: config.webhooks, log: log, metrics: app.metrics, diskFull: app.diskFullAlarm),
            bell: app.outboxBells.webhooks, log: log, diskFull: app.diskFullAlarm, databaseAlarm: app.databaseAlarm)
        var mailSettings = config.mail
        if !mailSettings.isOn { mailSettings.senders = 0 }
        let mail = OutboxDispatcher(
            store: store,
            courier: MailCourier(
                store: store, settings: mailSettings,
                documents: DigestDocuments(
                    registry: registry, photos: database.photos, gate: config.clientsSee),
                log: log, metrics: app.metrics, diskFull: app.diskFullAlarm),
            bell: app.outboxBells.mail, log: log, diskFull: app.diskFullAlarm, databaseAlarm: app.databaseAlarm)
        let visits = VisitMaker(store: store, horizonDays: config.scheduleHorizonDays, log: log)
        let server = HTTPServer(
            uploadDirectory: database.uploadDirectory, limits: limits, log: log,
            screen: { head in app.screen(head) },
            overloaded: { request in app.overloaded(request) },
            abandoned: { request in app.uploadRoutes.abandonedUpload(request) },
            handler: { request in app.handle(request) })
        do throws(HTTPServerError) {
            try server.start(host: config.host, port: config.port)
        } catch {
            throw ServerError.internal(error.message)
        }
        guard let port = config.metricsPort else {
            return Running(server: server, metricsServer: nil, webhooks: webhooks, mail: mail, visits: visits)
        }
        let metrics = MetricsServer(log: log, text: { app.metricsText() })
        do throws(HTTPServerError) {
            try metrics.start(host: config.metricsHost, port: port)
        } catch {
            server.stop(grace: 0)
            throw ServerError.internal("the metrics listener (--metrics-listen): \(error.message)")
        }
        return Running(server: server, metricsServer: metrics, webhooks: webhooks, mail: mail, visits: visits)
    }

    /// What the server prints on standard output once it listens: its
    /// address, the metrics address, and the demo accounts with `--demo`.
    private static func banner(_ config: ServerConfig, port: UInt16, metricsPort: UInt16?) -> String {
        let shownHost = config.host.contains(":") ? "[\(config.host)]" : config.host
        var banner = "listening on http://\(shownHost):\(port)\n"
        if let metricsPort {
            let metricsHost = config.metricsHost.contains(":") ? "[\(config.metricsHost)]" : config.metricsHost
            banner += "metrics on http://\(metricsHost):\(metricsPort)/metrics\n"
        }
        if config.demo {
            banner +=
                "demo accounts: \(config.demoInspector.username) / \(config.demoInspector.password) (inspector), "
                + "\(config.demoSupervisor.username) / \(config.demoSupervisor.password) (supervisor)\n"
        }
        return banner
    }

    /// SIGHUP: the log file is opened again by its name, so logrotate may move
    /// it away and the next line goes to the new file. If it cannot be opened,
    /// the old file is kept and says why.
    private static func reopen(_ log: ServerLog) {
        guard let path = log.sink.path else { return }
        do throws(OutputError) {
            try log.sink.reopen()
            log.note("reopened the log file '\(path)' (SIGHUP)", level: .info)
        } catch {
            log.note(
                "cannot reopen the log file '\(path)' (\(error.reason)); writing on to the file open before",
                level: .error)
        }
    }

    /// How long requests in flight may take to finish once a stop is asked for.
    static let stopGrace: TimeInterval = 30

    /// The HMAC key of access tokens: made at first start, kept in the database.
    private static func signingKey(_ store: any ServerStorage) throws(ServerError) -> [UInt8] {
        try store.write { session -> [UInt8] in
            // The generation of the data: cursors of reviews carry it (a restored backup is given another).
            if try session.setting(ReviewCursor.generationKey) == nil {
                try session.setSetting(ReviewCursor.generationKey, Hex.encode(PasswordHasher.randomBytes(6)))
            }
            if let hex = try session.setting("token_key"), let key = bytes(hex), key.count == 32 { return key }
            let key = PasswordHasher.randomBytes(32)
            try session.setSetting("token_key", Hex.encode(key))
            return key
        }
    }

    private static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < digits.count {
            guard let byte = UInt8(String(decoding: digits[i..<(i + 2)], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
            i += 2
        }
        return out
    }
}
