import Foundation
import ServerHTTP

/// The second listener (`--metrics-listen`): `GET /metrics`
/// in the Prometheus text format, on its own address so it can stay on
/// loopback while the API faces the network. Any other path is 404, any
/// other method 405; no body is read. It runs on an `HTTPServer` of its own
/// with small limits, so a scraper can never take a worker of the API.
final class MetricsServer: Sendable {
    private let server: HTTPServer

    /// The port actually bound (useful with port 0).
    var port: UInt16 { server.port }

    /// A listener answering `/metrics` with `text()`; nothing listens until `start`.
    init(log: ServerLog, text: @escaping @Sendable () -> String) {
        var limits = HTTPLimits()
        limits.connections = 64
        limits.connectionsPerAddress = 16
        limits.eventThreads = 2
        limits.workers = 2
        limits.waitingRequests = 16
        limits.bodySeconds = 30
        server = HTTPServer(
            uploadDirectory: FileManager.default.temporaryDirectory.path, limits: limits, log: log,
            screen: { _ in (.none, nil) },
            overloaded: { _ in MetricsServer.plain(503, "busy; retry shortly\n") },
            handler: { request in MetricsServer.answer(request, text) })
    }

    /// Binds `host:port` and starts answering.
    func start(host: String, port: UInt16) throws(HTTPServerError) {
        try server.start(host: host, port: port)
    }

    /// Stops answering, letting a scrape in flight finish first (briefly).
    func stop() { server.stop(grace: 2) }

    private static func answer(_ request: ServerRequest, _ text: @Sendable () -> String) -> ServerResponse {
        guard request.path == "/metrics" else { return plain(404, "not found; the metrics are at /metrics\n") }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = plain(405, "/metrics answers GET\n")
            response.headers.append((name: "Allow", value: "GET, HEAD"))
            return response
        }
        return ServerResponse(
            status: 200,
            headers: [
                (name: "Content-Type", value: MetricsExposition.contentType),
                (name: "Cache-Control", value: "no-store"),
            ],
            content: .data(Data(text().utf8)))
    }

    private static func plain(_ status: Int, _ text: String) -> ServerResponse {
        ServerResponse(
            status: status, headers: [(name: "Content-Type", value: "text/plain; charset=utf-8")],
            content: .data(Data(text.utf8)))
    }
}
