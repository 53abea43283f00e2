import APIRoutes
import Models
import ServerStore

/// What a client (contract 1.2's `client` role) may see: the one check every
/// route and console page asks. A client sees the facilities an admin named
/// for them, and there only reports past the review gate (approved, or
/// accepted with `--clients-see accepted`), drawn without private fields,
/// and actions that are not internal. Anything else is as if it did not
/// exist (404), and a route made for devices answers 403.
struct ClientScope: Sendable, Equatable {
    /// Which reports a client sees: those a supervisor approved (the default), or every accepted one.
    enum ReportGate: String, CaseIterable, Sendable {
        case approved, accepted
    }

    /// The facilities named for the client.
    let facilities: Set<String>
    /// The review gate the server was started with.
    let gate: ReportGate

    /// The routes of the contract a client may use: signing in, their own
    /// facilities and areas, and the action routes (contract 1.2). Every
    /// other route answers 403.
    static let apiRoutes: Set<APIRoute> = [
        .login, .refresh, .logout, .me, .facilities, .areas, .createAction, .actionFeed, .getAction, .updateAction,
        .createActionUpload, .uploadStatus, .appendUpload, .downloadActionPhoto,
    ]

    /// The refusal of a route made for the organisation's own people.
    static func refusal() -> ServerError {
        ServerError.forbidden("a client may use the console, their facilities and their service requests only")
    }

    /// 403 unless a client may use `endpoint`; anyone else passes.
    static func check(_ endpoint: Endpoint, caller: Caller?) throws(ServerError) {
        guard let caller, caller.user.role == .client else { return }
        guard case .contract(let route) = endpoint, apiRoutes.contains(route) else { throw refusal() }
    }

    /// The scope of `caller` when they are a client; nil for anyone else.
    static func of(_ caller: Caller, gate: ReportGate, in session: any StorageSession) throws(ServerError)
        -> ClientScope?
    {
        guard caller.user.role == .client else { return nil }
        return ClientScope(facilities: Set(try session.clientFacilities(userID: caller.user.id)), gate: gate)
    }

    /// The review states of the reports the client sees.
    var reviewStates: [ReviewState] {
        switch gate {
        case .approved: return [.approved]
        case .accepted: return ReviewState.allCases.filter { $0 != .rejected }
        }
    }

    /// Whether the client sees this facility.
    func sees(facility id: String) -> Bool { facilities.contains(id) }

    /// Whether the client sees this report: at one of their facilities, past the review gate.
    func sees(_ report: StoredReport) -> Bool {
        guard sees(facility: report.facilityID) else { return false }
        switch gate {
        case .approved: return report.reviewState == .approved
        case .accepted: return report.reviewState != .rejected
        }
    }

    /// Whether the client sees this action: at one of their facilities, not internal.
    func sees(_ action: StoredAction) -> Bool { sees(facility: action.facilityID) && !action.isInternal }

    /// A "not found" that says no more about what exists than an unknown id does.
    static func notFound(_ what: String) -> ServerError { ServerError.notFound("there is no \(what) here") }
}
