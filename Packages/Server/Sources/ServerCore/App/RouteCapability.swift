import Foundation
import ServerHTTP
import ServerStore
import Synchronization

/// One capability's request handlers (auth, reports, reviews, photos, the
/// console, ...): a value holding the server's `ServerContext`, through which
/// its handlers reach the store, the configuration, the log and the metrics.
protocol RouteCapability: Sendable {
    var context: ServerContext { get }
}

extension RouteCapability {
    var config: ServerConfig { context.config }
    var store: any ServerStorage { context.store }
    var signer: TokenSigner { context.signer }
    var faults: FaultInjector { context.faults }
    var judge: AnswerJudge { context.judge }
    var templateCache: TemplateCache { context.templateCache }
    var photos: any PhotoStore { context.photos }
    var loginThrottle: LoginThrottle { context.loginThrottle }
    var passwordGate: PasswordGate { context.passwordGate }
    var log: ServerLog { context.log }
    var metrics: ServerMetrics { context.metrics }
    var consoleSessions: ConsoleSessions { context.consoleSessions }
    var decoyHash: String { context.decoyHash }
    var exportSlots: ExportSlots { context.exportSlots }
    var outboxBells: OutboxBells { context.outboxBells }
    var uploads: any UploadStore { context.uploads }
    var arrivals: UploadArrivals { context.arrivals }
    var diskFullAlarm: DiskFullAlarm { context.diskFullAlarm }
    var databaseAlarm: DatabaseAlarm { context.databaseAlarm }
    /// The organisation's administration on this server's store.
    var administration: Administration { Administration(store: store, judge: judge) }
}
