import APIRoutes

extension Route {
    /// How the server serves a route of the contract's table: the operation
    /// that answers it, how its body is read, whether it needs a token. The
    /// method and the path come from the table itself. The switch names every
    /// route, so a route added to the table does not compile until the server
    /// serves it (and `ServerApp.dispatch` names every `Endpoint`).
    init(serving route: APIRoute) {
        let (endpoint, body, requiresToken): (Endpoint, Body, Bool) =
            switch route {
            case .login: (.login, .json, false)
            case .refresh: (.refresh, .json, false)
            case .logout: (.logout, .json, true)
            case .me: (.me, .none, true)
            case .facilities: (.facilities, .none, true)
            case .areas: (.areas, .none, true)
            case .templates: (.templates, .none, true)
            case .assignments: (.assignments, .none, true)
            case .syncReports: (.syncReports, .json, true)
            case .getReport: (.getReport, .none, true)
            case .patchReport: (.patchReport, .json, true)
            case .uploadPhoto: (.uploadPhoto, .multipart, true)
            case .downloadPhoto: (.downloadPhoto, .none, true)
            case .createUpload: (.createUpload, .json, true)
            case .uploadStatus: (.uploadStatus, .none, true)
            case .appendUpload: (.appendUpload, .octets, true)
            case .inspections: (.inspections, .none, true)
            case .rollup: (.rollup, .none, true)
            case .reviews: (.reviews, .none, true)
            case .decideReview: (.decideReview, .json, true)
            case .reportEvents: (.reportEvents, .none, true)
            case .exportReports: (.exportReports, .none, true)
            }
        self.init(
            method: route.method.rawValue, pattern: route.template, endpoint: endpoint, body: body,
            requiresToken: requiresToken, apiRoute: route)
    }
}
