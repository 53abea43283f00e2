import APIRoutes

extension Route {
    /// How the server serves a route of the contract's table: the operation
    /// that answers it, how its body is read, whether it needs a token. The
    /// method and the path come from the table itself. The switch names every
    /// route, so a route added to the table does not compile until the server
    /// serves it (and `ServerApp.dispatch` names every route).
    init(serving route: APIRoute) {
        let (body, requiresToken): (Body, Bool) =
            switch route {
            case .login: (.json, false)
            case .refresh: (.json, false)
            case .logout: (.json, true)
            case .me: (.none, true)
            case .facilities: (.none, true)
            case .areas: (.none, true)
            case .templates: (.none, true)
            case .assignments: (.none, true)
            case .syncReports: (.json, true)
            case .getReport: (.none, true)
            case .patchReport: (.json, true)
            case .uploadPhoto: (.multipart, true)
            case .downloadPhoto: (.none, true)
            case .createUpload: (.json, true)
            case .uploadStatus: (.none, true)
            case .appendUpload: (.octets, true)
            case .inspections: (.none, true)
            case .rollup: (.none, true)
            case .reviews: (.none, true)
            case .decideReview: (.json, true)
            case .reportEvents: (.none, true)
            case .exportReports: (.none, true)
            case .exportActions: (.none, true)
            case .exportIssues: (.none, true)
            case .createAction: (.json, true)
            case .actionFeed: (.none, true)
            case .getAction: (.none, true)
            case .updateAction: (.json, true)
            case .createActionUpload: (.json, true)
            case .downloadActionPhoto: (.none, true)
            }
        self.init(
            method: route.method.rawValue, pattern: route.template, endpoint: .contract(route), body: body,
            requiresToken: requiresToken)
    }
}
