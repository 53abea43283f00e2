import APIRoutes

/// Every operation the server offers: each route of the contract's table,
/// named once there (`APIRoute`), and the management API's, which only the
/// server has.
public enum Endpoint: Sendable, Hashable, CaseIterable {
    /// A route of the contract's table.
    case contract(APIRoute)
    /// A route of the management API (`/admin/...`; not part of the device contract).
    case administration(AdminOperation)

    /// The contract's routes in the table's order, then the management API's.
    public static var allCases: [Endpoint] {
        APIRoute.allCases.map(Endpoint.contract) + AdminOperation.allCases.map(Endpoint.administration)
    }

    /// Whether only admins may use it.
    public var isAdministration: Bool {
        if case .administration = self { true } else { false }
    }

    /// The route of the contract's table it serves; nil for the management API's.
    public var apiRoute: APIRoute? {
        if case .contract(let route) = self { route } else { nil }
    }
}

/// What the management API of admins does, one case per route (`Router.administration`).
public enum AdminOperation: Sendable, Hashable, CaseIterable {
    case facilities, addFacility, changeFacility, importFacilities
    case areas, addArea, changeArea, importAreas
    case assignments, createAssignment, changeAssignment, importAssignments
    case schedules, addSchedule, changeSchedule, removeSchedule
    case templates, publishTemplates, changeTemplate
    case users, addUser, changeUser, userMail, changeUserMail
    case events
}
