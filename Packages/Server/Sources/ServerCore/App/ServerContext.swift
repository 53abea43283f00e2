import Foundation
import ServerHTTP
import ServerStore
import Synchronization

/// What every request handler of the running server reaches: the
/// configuration, the store, the clock-free services (tokens, judging,
/// templates, photos, uploads), the log and the metrics. One per server,
/// made at start-up and handed to each capability's routes.
final class ServerContext: Sendable {
    let config: ServerConfig
    let store: any ServerStorage
    let signer: TokenSigner
    let faults: FaultInjector
    let judge: AnswerJudge
    /// The templates compiled once, reloaded when an import changes them.
    let templateCache: TemplateCache
    let photos: any PhotoStore
    let loginThrottle: LoginThrottle
    let passwordGate: PasswordGate
    let log: ServerLog
    /// What `/metrics` reports (`--metrics-listen`).
    let metrics: ServerMetrics
    /// The console's session cookies and CSRF tokens.
    let consoleSessions: ConsoleSessions
    /// A hash checked when the user name is unknown, so a wrong name and a
    /// wrong password take the same time.
    let decoyHash: String
    /// The exports streaming now, at most a few at once.
    let exportSlots = ExportSlots(limit: 4)
    /// Rung after a change of this instance wrote an event, to wake its outboxes' senders.
    let outboxBells = OutboxBells()
    /// Resumable uploads, records and partial bytes.
    let uploads: any UploadStore
    /// The `PATCH` bodies of resumable uploads arriving here, in order.
    let arrivals = UploadArrivals()
    /// When a new upload next looks for expired ones: once a minute at most (start-up sweeps them all).
    /// Uploads live an hour at least, and an expired one is refused whether swept or not (every
    /// lookup and the quota ask its `expires_at`): sweeping later only frees its bytes later.
    let uploadSweeps = Mutex(Cadence(seconds: 60))
    /// Says once in a while, not once a request, that the disk is full.
    let diskFullAlarm = DiskFullAlarm()
    let databaseAlarm = DatabaseAlarm()

    init(
        config: ServerConfig, store: any ServerStorage, signer: TokenSigner, judge: AnswerJudge, photos: any PhotoStore,
        uploads: any UploadStore, log: ServerLog, metrics: ServerMetrics = ServerMetrics()
    ) {
        self.config = config
        self.uploads = uploads
        self.log = log
        self.metrics = metrics
        passwordGate = PasswordGate(limit: config.passwordChecks)
        loginThrottle = LoginThrottle(window: TimeInterval(config.signInWindow))
        self.store = store
        self.signer = signer
        consoleSessions = ConsoleSessions(
            tokenKey: signer.key, idleLifetime: config.consoleIdleLifetime,
            maximumAge: config.consoleMaximumAge, secure: config.behindTLS)
        self.judge = judge
        templateCache = TemplateCache(registry: judge.registry)
        self.photos = photos
        faults = FaultInjector(
            rate: config.faultRate, drop: config.faultDrop, afterAccept: config.faultAfterAccept,
            seed: config.seed)
        decoyHash = PasswordHasher.hash(Hex.encode(PasswordHasher.randomBytes(16))) ?? ""
    }

}
