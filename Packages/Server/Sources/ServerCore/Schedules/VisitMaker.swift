import Foundation
import Models
import ServerHTTP
import ServerStore
import Synchronization

/// This instance's maker of visits: a thread that makes the horizon's visits
/// at start and every `every` seconds after (`VisitMaking`), so devices see
/// a schedule's visits days ahead whichever instance runs. A database out of
/// reach or a full disk is said in the log and tried again at the next look.
final class VisitMaker: Sendable {
    private let making: VisitMaking
    private let log: ServerLog
    private let every: TimeInterval
    private let bell = OutboxBell()
    private let stopping = Atomic<Bool>(false)
    private let running = DispatchGroup()

    init(store: any ServerStorage, horizonDays: Int, log: ServerLog, every: TimeInterval = 300) {
        making = VisitMaking(store: store, horizonDays: horizonDays)
        self.log = log
        self.every = every
    }

    func start() {
        running.enter()
        BackgroundThread.start { [self] in
            var seen = bell.count
            while !stopping.load(ordering: .relaxed) {
                do throws(ServerError) {
                    let made = try making.pass(now: Date(), log: log)
                    if made > 0 { log.note("made \(made) scheduled visit(s)", level: .info) }
                } catch {
                    log.note("scheduled visits could not be made now: \(error.message)", level: .warn)
                }
                seen = bell.wait(after: seen, timeout: every)
            }
            running.leave()
        }
    }

    /// Stops the thread, waiting up to `grace` seconds for a pass in flight.
    func stop(grace: TimeInterval) {
        stopping.store(true, ordering: .relaxed)
        bell.ringAll()
        _ = running.wait(timeout: .now() + grace)
    }
}
