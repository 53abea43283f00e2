import APIRoutes
import Foundation

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
    public var apiRoute: APIRoute? { endpoint.apiRoute }

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
            method: "GET", pattern: "/admin/facilities", endpoint: .administration(.facilities), body: .none,
            requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/facilities", endpoint: .administration(.addFacility), body: .json,
            requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/facilities/import", endpoint: .administration(.importFacilities),
            body: .json,
            requiresToken: true),
        Route(
            method: "PATCH", pattern: "/admin/facilities/{id}", endpoint: .administration(.changeFacility), body: .json,
            requiresToken: true),
        Route(
            method: "GET", pattern: "/admin/areas", endpoint: .administration(.areas), body: .none, requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/areas", endpoint: .administration(.addArea), body: .json,
            requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/areas/import", endpoint: .administration(.importAreas), body: .json,
            requiresToken: true),
        Route(
            method: "PATCH", pattern: "/admin/areas/{id}", endpoint: .administration(.changeArea), body: .json,
            requiresToken: true),
        Route(
            method: "GET", pattern: "/admin/assignments", endpoint: .administration(.assignments), body: .none,
            requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/assignments", endpoint: .administration(.createAssignment), body: .json,
            requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/assignments/import", endpoint: .administration(.importAssignments),
            body: .json,
            requiresToken: true),
        Route(
            method: "PATCH", pattern: "/admin/assignments/{id}", endpoint: .administration(.changeAssignment),
            body: .json,
            requiresToken: true),
        Route(
            method: "GET", pattern: "/admin/schedules", endpoint: .administration(.schedules), body: .none,
            requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/schedules", endpoint: .administration(.addSchedule), body: .json,
            requiresToken: true),
        Route(
            method: "PATCH", pattern: "/admin/schedules/{id}", endpoint: .administration(.changeSchedule), body: .json,
            requiresToken: true),
        Route(
            method: "DELETE", pattern: "/admin/schedules/{id}", endpoint: .administration(.removeSchedule),
            body: .none, requiresToken: true),
        Route(
            method: "GET", pattern: "/admin/templates", endpoint: .administration(.templates), body: .none,
            requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/templates", endpoint: .administration(.publishTemplates), body: .json,
            requiresToken: true),
        Route(
            method: "PATCH", pattern: "/admin/templates/{id}", endpoint: .administration(.changeTemplate), body: .json,
            requiresToken: true),
        Route(
            method: "GET", pattern: "/admin/users", endpoint: .administration(.users), body: .none, requiresToken: true),
        Route(
            method: "POST", pattern: "/admin/users", endpoint: .administration(.addUser), body: .json,
            requiresToken: true),
        Route(
            method: "PATCH", pattern: "/admin/users/{id}", endpoint: .administration(.changeUser), body: .json,
            requiresToken: true),
        Route(
            method: "GET", pattern: "/admin/users/{id}/mail", endpoint: .administration(.userMail), body: .none,
            requiresToken: true),
        Route(
            method: "PUT", pattern: "/admin/users/{id}/mail", endpoint: .administration(.changeUserMail), body: .json,
            requiresToken: true),
        Route(
            method: "GET", pattern: "/admin/events", endpoint: .administration(.events), body: .none,
            requiresToken: true),
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

    /// Resolves a method and a decoded path against the table. A request is
    /// matched several times (its body policy, its handler, the access log),
    /// so the path is read as bytes once and compared byte by byte: splitting
    /// it as `String` cost about 20,000 instructions a match.
    public static func match(method: String, path: String) -> Match {
        let bytes = Array(path.utf8)
        guard bytes.count > prefix.count, bytes[..<prefix.count].elementsEqual(prefix) else { return .notFound }
        let segments = split(bytes, from: prefix.count - 1)
        var allowed: [String] = []
        for (route, pattern) in patterns[segments.count] ?? [] {
            guard fits(pattern, bytes, segments) else { continue }
            if route.method == method { return .route(route, parameters: parameters(pattern, bytes, segments)) }
            allowed.append(route.method)
        }
        return allowed.isEmpty ? .notFound : .wrongMethod(allowed: allowed)
    }

    /// The bytes every served path begins with: the base path and its slash.
    private static let prefix = Array((basePath + "/").utf8)

    /// A segment of a route's pattern: the bytes themselves, or `{name}`.
    private enum Segment: Sendable {
        case literal([UInt8])
        case parameter(String)
    }

    /// Each route with its pattern split once, grouped by their number of
    /// segments, in the table's order: a path is only ever compared with its own length's.
    private static let patterns: [Int: [(route: Route, segments: [Segment])]] = Dictionary(
        grouping: table.map { route in
            let bytes = Array(route.pattern.utf8)
            return (
                route: route,
                segments: split(bytes, from: 0).map { range -> Segment in
                    let part = bytes[range]
                    return part.first == UInt8(ascii: "{") && part.last == UInt8(ascii: "}")
                        ? .parameter(String(decoding: part.dropFirst().dropLast(), as: UTF8.self))
                        : .literal(Array(part))
                }
            )
        },
        by: { $0.segments.count })

    /// The ranges between the slashes of `bytes`, from the slash at `slash` on
    /// (empty ranges kept: `a//b` has an empty segment, which no route has).
    private static func split(_ bytes: [UInt8], from slash: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = slash + 1
        for index in start..<bytes.count where bytes[index] == UInt8(ascii: "/") {
            ranges.append(start..<index)
            start = index + 1
        }
        ranges.append(start..<bytes.count)
        return ranges
    }

    private static func fits(_ pattern: [Segment], _ bytes: [UInt8], _ segments: [Range<Int>]) -> Bool {
        guard pattern.count == segments.count else { return false }
        for (expected, range) in zip(pattern, segments) {
            switch expected {
            case .literal(let text): if !bytes[range].elementsEqual(text) { return false }
            case .parameter: if range.isEmpty { return false }
            }
        }
        return true
    }

    private static func parameters(_ pattern: [Segment], _ bytes: [UInt8], _ segments: [Range<Int>]) -> [String: String]
    {
        var parameters: [String: String] = [:]
        for case (.parameter(let name), let range) in zip(pattern, segments) {
            parameters[name] = String(decoding: bytes[range], as: UTF8.self)
        }
        return parameters
    }
}
