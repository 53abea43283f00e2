import APIRoutes
import Foundation

/// Every operation the server offers, one case per route: those of the
/// contract's table (`APIRoute`, matched to these in `Route(serving:)`) and
/// the management API's, which only the server has.
public enum Endpoint: String, Sendable, CaseIterable {
    /// `POST /auth/login`, `POST /auth/refresh`, `POST /auth/logout`, `GET /auth/me`.
    case login, refresh, logout, me
    /// The reference data: facilities, a facility's areas, templates, assignments.
    case facilities, areas, templates, assignments
    /// `POST /reports/sync`, `GET /reports/{id}`, `PATCH /reports/{id}`.
    case syncReports, getReport, patchReport
    /// `POST /reports/{id}/photos` and `GET /reports/{id}/photos/{local_id}`.
    case uploadPhoto, downloadPhoto
    /// Contract 1.1's resumable uploads: `POST /reports/{id}/uploads`, `HEAD` and `PATCH /uploads/{upload_id}`.
    case createUpload, uploadStatus, appendUpload
    /// `GET /inspections` and `GET /rollup`.
    case inspections, rollup
    /// Contract 1.1's review: `GET /reviews`, `POST /reports/{id}/review`, `GET /reports/{id}/events`.
    case reviews, decideReview, reportEvents
    /// Contract 1.1's exports: `GET /exports/reports`.
    case exportReports
    /// The management API of admins (`/admin/...`; not part of the device contract).
    case adminFacilities, adminAddFacility, adminChangeFacility, adminImportFacilities
    case adminAreas, adminAddArea, adminChangeArea, adminImportAreas
    case adminAssignments, adminCreateAssignment, adminChangeAssignment, adminImportAssignments
    case adminTemplates, adminPublishTemplates, adminChangeTemplate
    case adminUsers, adminAddUser, adminChangeUser
    case adminEvents

    /// Whether only admins may use it.
    public var isAdministration: Bool { rawValue.hasPrefix("admin") }
}

/// One line of the route table: method, path pattern, and what the route needs.
public struct Route: Sendable, Equatable {
    /// How a route's request body is read.
    public enum Body: Sendable, Equatable {
        /// No body is read.
        case none
        /// A JSON body up to the JSON limit.
        case json
        /// `multipart/form-data` with a file streamed to disk.
        case multipart
        /// Raw bytes (`application/offset+octet-stream`) streamed to disk, kept even when cut short.
        case octets
    }

    /// The HTTP method.
    public let method: String
    /// The path under `Router.basePath`, with `{name}` for a parameter.
    public let pattern: String
    /// The operation this route performs.
    public let endpoint: Endpoint
    /// How the request body is read.
    public let body: Body
    /// Whether a valid access token is required.
    public let requiresToken: Bool
    /// The route of the contract's table this one serves; nil for the management API's.
    public internal(set) var apiRoute: APIRoute? = nil

    /// The whole path pattern as served, base path included.
    public var fullPattern: String { Router.basePath + pattern }
}

/// The route table and the matching of paths against it.
public enum Router {
    /// Every route lives under this prefix, the contract's.
    public static let basePath = APIRoute.basePath

    /// Every route the server serves: each of the contract's table, in its
    /// order (which orders the methods of an `Allow` header), then the
    /// management API's. The OpenAPI document is checked against this list.
    public static let table: [Route] = APIRoute.allCases.map(Route.init(serving:)) + administration

    /// The management API: admins only, every route; documented in docs/openapi.yaml.
    /// Only the server has these (the device's client never calls them), so they
    /// are listed here and not in the contract's table.
    public static let administration: [Route] = [
        Route(
            method: "GET", pattern: "/admin/facilities", endpoint: .adminFacilities, body: .none, requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/facilities", endpoint: .adminAddFacility, body: .json, requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/facilities/import", endpoint: .adminImportFacilities, body: .json,
            requiresToken: true),
        Route(
            method: "PATCH", pattern: "/admin/facilities/{id}", endpoint: .adminChangeFacility, body: .json,
            requiresToken: true),
        Route(method: "GET", pattern: "/admin/areas", endpoint: .adminAreas, body: .none, requiresToken: true),
        Route(method: "POST", pattern: "/admin/areas", endpoint: .adminAddArea, body: .json, requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/areas/import", endpoint: .adminImportAreas, body: .json,
            requiresToken: true),
        Route(
            method: "PATCH", pattern: "/admin/areas/{id}", endpoint: .adminChangeArea, body: .json, requiresToken: true),
        Route(
            method: "GET", pattern: "/admin/assignments", endpoint: .adminAssignments, body: .none, requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/assignments", endpoint: .adminCreateAssignment, body: .json,
            requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/assignments/import", endpoint: .adminImportAssignments, body: .json,
            requiresToken: true),
        Route(
            method: "PATCH", pattern: "/admin/assignments/{id}", endpoint: .adminChangeAssignment, body: .json,
            requiresToken: true),
        Route(method: "GET", pattern: "/admin/templates", endpoint: .adminTemplates, body: .none, requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/templates", endpoint: .adminPublishTemplates, body: .json,
            requiresToken: true),
        Route(
            method: "PATCH", pattern: "/admin/templates/{id}", endpoint: .adminChangeTemplate, body: .json,
            requiresToken: true),
        Route(method: "GET", pattern: "/admin/users", endpoint: .adminUsers, body: .none, requiresToken: true),
        Route(method: "POST", pattern: "/admin/users", endpoint: .adminAddUser, body: .json, requiresToken: true),
        Route(
            method: "PATCH", pattern: "/admin/users/{id}", endpoint: .adminChangeUser, body: .json, requiresToken: true),
        Route(method: "GET", pattern: "/admin/events", endpoint: .adminEvents, body: .none, requiresToken: true),
    ]

    /// What a path resolved to.
    public enum Match: Sendable, Equatable {
        /// A route, with its path parameters.
        case route(Route, parameters: [String: String])
        /// The path exists, but not with this method; the allowed methods.
        case wrongMethod(allowed: [String])
        /// No route has this path.
        case notFound
    }

    /// Resolves a method and a decoded path against the table.
    public static func match(method: String, path: String) -> Match {
        guard path.hasPrefix(basePath + "/") else { return .notFound }
        let segments = split(String(path.dropFirst(basePath.count)))
        var allowed: [String] = []
        for (route, pattern) in patterns[segments.count] ?? [] {
            guard let parameters = bind(pattern, to: segments) else { continue }
            if route.method == method { return .route(route, parameters: parameters) }
            allowed.append(route.method)
        }
        return allowed.isEmpty ? .notFound : .wrongMethod(allowed: allowed)
    }

    /// A segment of a route's pattern: the text itself, or `{name}`.
    private enum Segment: Sendable {
        case literal(Substring)
        case parameter(String)
    }

    /// Each route with its pattern split once: a request is matched several times
    /// (its body policy, its handler, the access log), each against every route.
    /// Grouped by their number of segments, in the table's order: a path is only ever compared with its own length's.
    private static let patterns: [Int: [(route: Route, segments: [Segment])]] = Dictionary(
        grouping: table.map { route in
            (
                route: route,
                segments: split(route.pattern).map { part -> Segment in
                    part.hasPrefix("{") && part.hasSuffix("}")
                        ? .parameter(String(part.dropFirst().dropLast())) : .literal(part)
                }
            )
        },
        by: { $0.segments.count })

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    private static func bind(_ pattern: [Segment], to segments: [Substring]) -> [String: String]? {
        guard pattern.count == segments.count else { return nil }
        for (expected, actual) in zip(pattern, segments) {
            switch expected {
            case .literal(let text): if !text.utf8.elementsEqual(actual.utf8) { return nil }
            case .parameter: if actual.isEmpty { return nil }
            }
        }
        var parameters: [String: String] = [:]
        for case (.parameter(let name), let actual) in zip(pattern, segments) { parameters[name] = String(actual) }
        return parameters
    }
}
