import Foundation
import Models
import ServerHTTP
import ProgramOutput

/// Runs the server until SIGTERM or SIGINT: opens the store, seeds the demo
/// world, listens, prints the address, and shuts down cleanly.
enum ServerRunner {
    static func serve(_ config: ServerConfig, storage: StorageOpener) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        HTTPServerPanic.install()
        BodyMemory.mapLargeAllocations(from: 128 * 1024)
        // Block the stop signals before any thread starts, so every thread
        // inherits the mask and only `sigwait` below ever receives them.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

        let server: HTTPServer
        let log = ServerLog(stamp: { RFC3339.string($0) })
        do throws(ServerError) {
            guard PasswordHasher.prepare() else { throw ServerError.internal("libsodium could not start") }
            FilePermissions.restrict(config)
            var limits = config.http
            limits.connections = FilePermissions.raiseOpenFileLimit(toServe: limits.connections)
            let opened = try storage.open(config.database, config.storageSettings)
            let store = opened.store
            FilePermissions.restrict(config)
            let swept = FilePermissions.sweepUploads(in: opened.uploadDirectory, olderThan: limits.bodySeconds + 60)
            if swept > 0 { log.note("removed \(swept) unfinished upload(s) left by an earlier run") }
            if config.demo { try DemoWorld.seed(store, config: config) }
            let key = try signingKey(store)
            let registry = ServerFieldTypes.registry(directories: config.fieldTypeDirectories, timeout: config.fieldTypeTimeout,
                                                     warn: { log.note("warning: \($0)") })
            let app = ServerApp(config: config, store: store, signer: TokenSigner(key: key), judge: AnswerJudge(registry: registry),
                                photos: opened.photos, log: log)
            server = HTTPServer(uploadDirectory: opened.uploadDirectory, limits: limits, log: log,
                                screen: { head in app.screen(head) },
                                overloaded: { app.overloaded() },
                                handler: { request in app.handle(request) })
            do throws(HTTPServerError) {
                try server.start(host: config.host, port: config.port)
            } catch {
                throw ServerError.internal(error.message)
            }
        } catch {
            OutputChannel.standardError.write("jqc-server: \(error.message)\n")
            return 1
        }
        let shownHost = config.host.contains(":") ? "[\(config.host)]" : config.host
        var banner = "listening on http://\(shownHost):\(server.port)\n"
        if config.demo {
            banner += "demo accounts: \(config.demoInspector.username) / \(config.demoInspector.password) (inspector), "
                + "\(config.demoSupervisor.username) / \(config.demoSupervisor.password) (supervisor)\n"
        }
        // The address line is how a supervisor or a test learns the port (with
        // --port 0): a server that cannot say where it listens stops.
        guard OutputChannel.standardOutput.write(banner) else {
            let reason = OutputChannel.standardOutput.failure?.reason ?? "unknown error"
            OutputChannel.standardError.write("jqc-server: cannot write the address to standard output (\(reason)); stopping\n")
            StopWatchdog.arm(seconds: 15)
            server.stop(grace: 0)
            return 1
        }

        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        OutputChannel.standardError.write("jqc-server: stopping; finishing requests in flight\n")
        StopWatchdog.arm(seconds: stopGrace + 15)
        server.stop(grace: stopGrace)
        return 0
    }

    /// How long requests in flight may take to finish once a stop is asked for.
    static let stopGrace: TimeInterval = 30

    /// The HMAC key of access tokens: made at first start, kept in the database.
    private static func signingKey(_ store: any ServerStorage) throws(ServerError) -> [UInt8] {
        try store.write { session -> [UInt8] in
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
