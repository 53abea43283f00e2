import Foundation
import ServerHTTP

/// One line of the access log: `{"time", "level":"info", "kind":"access",
/// "request_id", "method", "route", "status", "duration_ms", "user_id",
/// "client"}` for each request answered.
///
/// It holds what an operator needs and nothing a client could hide in a
/// request: the route's pattern from `Router.table` (or `unmatched`), never
/// the path as sent; no query string, header, token, password or body.
struct AccessEntry: Sendable {
    var requestID: String
    var method: String
    var route: String
    /// The status answered; 0 when the connection was closed without an answer (an injected fault).
    var status: Int
    var seconds: Double
    /// The signed-in user, when the request carried a valid token.
    var userID: String?
    var client: String

    /// The fields after `time`, `level` and `kind`.
    var fields: [(String, LogValue)] {
        [
            ("request_id", .string(requestID)), ("method", .string(String(method.prefix(16)))),
            ("route", .string(route)),
            ("status", .integer(status)), ("duration_ms", .milliseconds(seconds * 1000)),
            ("user_id", userID.map { .string($0) } ?? .null), ("client", client.isEmpty ? .null : .string(client)),
        ]
    }
}

/// The request ids and route labels the access log and the metrics share.
enum AccessLog {
    /// The header that carries a request's id back to its client.
    static let header = "X-Request-Id"

    /// 16 random hex digits, new for each request.
    static func requestID() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The full pattern of the route `path` matches (with any method), or `unmatched`.
    static func route(method: String, path: String) -> String {
        if ConsoleRoutes.isConsole(path) { return ConsoleRoutes.consolePattern(path) }
        switch Router.match(method: method, path: path) {
        case .route(let route, _):
            return route.fullPattern
        case .wrongMethod(let allowed):
            for other in allowed {
                if case .route(let route, _) = Router.match(method: other, path: path) { return route.fullPattern }
            }
            return "unmatched"
        case .notFound:
            return "unmatched"
        }
    }

    /// Writes `entry` to `log` at info.
    static func write(_ entry: AccessEntry, to log: ServerLog) {
        log.record(.info, kind: "access", entry.fields)
    }
}
