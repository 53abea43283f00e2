import Foundation
import ServerHTTP
import ServerStore

/// When a request began to be answered, for its duration.
struct AnswerClock: Sendable {
    let started = DispatchTime.now().uptimeNanoseconds

    /// Seconds since `started`.
    var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds &- started) / 1_000_000_000 }
}

extension ServerApp {
    /// The last step of every answer: the response gets its request id
    /// (`X-Request-Id`), the access log its line, the metrics their count.
    func finish(
        _ response: ServerResponse, method: String, path: String, headers: [String: String], peer: String,
        userID: String?, clock: AnswerClock
    ) -> ServerResponse {
        let id = AccessLog.requestID()
        let route = AccessLog.route(method: method, path: path)
        let forwarded = ServerRequest(method: method, path: path, headers: headers, clientAddress: peer)
        let status = response.dropConnection ? 0 : response.status
        let seconds = clock.seconds
        AccessLog.write(
            AccessEntry(
                requestID: id, method: method, route: route, status: status, seconds: seconds,
                userID: userID, client: ClientAddress.of(forwarded, trustedProxies: config.trustedProxies)),
            to: log)
        metrics.answered(route: route, method: method, status: status, seconds: seconds)
        var stamped = response
        if !response.dropConnection { stamped.headers.append((name: AccessLog.header, value: id)) }
        return stamped
    }

    /// `finish` for a complete request.
    func finish(_ response: ServerResponse, for request: ServerRequest, userID: String?, clock: AnswerClock)
        -> ServerResponse
    {
        finish(
            response, method: request.method, path: request.path, headers: request.headers, peer: request.clientAddress,
            userID: userID, clock: clock)
    }

    /// The 503 of a request no worker could take, logged and counted as any answer.
    func overloaded(_ request: ServerRequest) -> ServerResponse {
        arrivals.end(request.tag)
        return finish(overloaded(), for: request, userID: nil, clock: AnswerClock())
    }

    /// The gauges of `/metrics`, read now.
    var metricsGauges: MetricsGauges {
        MetricsGauges(
            connections: (store as? any ConnectionCounting)?.connectionCounts ?? ConnectionCounts(open: 1, inUse: 0),
            droppedLogLines: log.droppedLines)
    }

    /// The text `GET /metrics` answers.
    func metricsText() -> String { MetricsExposition.text(metrics.snapshot, metricsGauges) }
}
