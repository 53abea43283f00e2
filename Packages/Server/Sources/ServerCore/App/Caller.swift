import Models
import ServerStore
import Synchronization

/// Who is asking: the user behind a valid access token.
struct Caller: Sendable {
    var user: StoredUser
    /// The session the token belongs to.
    var sessionID: String

    /// Supervisors and admins read everyone's reports.
    var isSupervisor: Bool { user.role.supervises }
    var isAdmin: Bool { user.role == .admin }
    /// The caller as review records name people.
    var person: WirePerson { WirePerson(id: user.id, displayName: user.displayName) }
}

/// The caller a route that reads its own (`RouteInput.claims`) found: for
/// the access log, and for the order of its errors.
final class ConfirmedCaller: Sendable {
    private let caller = Mutex<Caller?>(nil)

    var value: Caller? { caller.withLock { $0 } }

    func confirm(_ found: Caller) { caller.withLock { $0 = found } }
}
