/// Every route of the wire contract (docs/contract.md, 1.0 to 1.2), each
/// declared once: its method and its path under `APIRoute.basePath`.
///
/// The device's client builds its paths from this table (`path(_:)`) and
/// the server serves exactly these routes: its `Router` turns each case into
/// a route of its own table through one exhaustive switch, so a route added
/// here does not compile until the server has a handler for it. Routes only
/// the server has (the management API under `/admin`, the console's pages)
/// are not listed here.
public enum APIRoute: String, Sendable, CaseIterable {
    /// `POST /auth/login`, `POST /auth/refresh`, `POST /auth/logout`, `GET /auth/me`.
    case login, refresh, logout, me
    /// `GET /facilities`, `GET /facilities/{id}/areas`, `GET /templates`, `GET /assignments`.
    case facilities, areas, templates, assignments
    /// `POST /reports/sync`, `GET /reports/{server_id}`, `PATCH /reports/{server_id}`.
    case syncReports, getReport, patchReport
    /// `POST /reports/{server_id}/photos` and `GET /reports/{server_id}/photos/{local_id}`.
    case uploadPhoto, downloadPhoto
    /// Contract 1.1's resumable uploads: `POST /reports/{server_id}/uploads`, `HEAD` and `PATCH /uploads/{upload_id}`.
    case createUpload, uploadStatus, appendUpload
    /// `GET /inspections` and `GET /rollup`.
    case inspections, rollup
    /// Contract 1.1's review: `GET /reviews`, `POST /reports/{server_id}/review`, `GET /reports/{server_id}/events`.
    case reviews, decideReview, reportEvents
    /// Contract 1.1's exports: `GET /exports/reports`; the server's exports of actions and of the reports'
    /// issues, `GET /exports/actions` and `GET /exports/issues`.
    case exportReports, exportActions, exportIssues
    /// Contract 1.2's corrective actions: `POST /actions`, `GET /actions`, `GET /actions/{id}`,
    /// `POST /actions/{id}/updates`; an action's photos: `POST /actions/{id}/uploads` (then the resumable
    /// upload's `HEAD` and `PATCH`) and `GET /actions/{id}/photos/{local_id}`.
    case createAction, actionFeed, getAction, updateAction, createActionUpload, downloadActionPhoto

    /// The methods the contract uses.
    public enum Method: String, Sendable, CaseIterable {
        case get = "GET", post = "POST", patch = "PATCH", head = "HEAD"
    }

    /// Every route lives under this prefix.
    public static let basePath = "/api/v1"

    /// The route's method.
    public var method: Method {
        switch self {
        case .login, .refresh, .logout, .syncReports, .uploadPhoto, .createUpload, .decideReview, .createAction,
            .updateAction, .createActionUpload:
            .post
        case .me, .facilities, .areas, .templates, .assignments, .getReport, .downloadPhoto, .inspections, .rollup,
            .reviews,
            .reportEvents, .exportReports, .exportActions, .exportIssues, .actionFeed, .getAction, .downloadActionPhoto:
            .get
        case .patchReport, .appendUpload: .patch
        case .uploadStatus: .head
        }
    }

    /// The path under `basePath`, with `{name}` for each parameter.
    public var template: String {
        switch self {
        case .login: "/auth/login"
        case .refresh: "/auth/refresh"
        case .logout: "/auth/logout"
        case .me: "/auth/me"
        case .facilities: "/facilities"
        case .areas: "/facilities/{id}/areas"
        case .templates: "/templates"
        case .assignments: "/assignments"
        case .syncReports: "/reports/sync"
        case .getReport, .patchReport: "/reports/{server_id}"
        case .uploadPhoto: "/reports/{server_id}/photos"
        case .downloadPhoto: "/reports/{server_id}/photos/{local_id}"
        case .createUpload: "/reports/{server_id}/uploads"
        case .uploadStatus, .appendUpload: "/uploads/{upload_id}"
        case .inspections: "/inspections"
        case .rollup: "/rollup"
        case .reviews: "/reviews"
        case .decideReview: "/reports/{server_id}/review"
        case .reportEvents: "/reports/{server_id}/events"
        case .exportReports: "/exports/reports"
        case .exportActions: "/exports/actions"
        case .exportIssues: "/exports/issues"
        case .createAction, .actionFeed: "/actions"
        case .getAction: "/actions/{id}"
        case .updateAction: "/actions/{id}/updates"
        case .createActionUpload: "/actions/{id}/uploads"
        case .downloadActionPhoto: "/actions/{id}/photos/{local_id}"
        }
    }
}
