import Foundation
import Synchronization
internal import CMicroHTTPD

/// The limits the HTTP layer enforces on every connection.
public struct HTTPLimits: Sendable {
    /// Open connections in all.
    public var connections = 2048
    /// Open connections from one client address.
    public var connectionsPerAddress = 256
    /// libmicrohttpd event threads (epoll), each serving many connections.
    public var eventThreads = 4
    /// Threads that run request handlers.
    public var workers = 16
    /// Complete requests waiting for a worker; beyond it, 503 at once.
    public var waitingRequests = 256
    /// Seconds a request may wait for a worker before it is answered 503 instead.
    public var waitSeconds: TimeInterval = 5
    /// Seconds from opening a connection, or from the request line of a later request on it, to a complete head.
    public var headerSeconds: TimeInterval = 10
    /// Seconds from the head to a complete body (plus one per 64 KiB announced), and to send a response.
    public var bodySeconds: TimeInterval = 300
    /// Seconds of silence after which a connection is closed.
    public var idleSeconds: Int = 30
    /// Parts of one multipart body.
    public var multipartParts = 8

    /// The defaults above.
    public init() {}
}

/// An HTTP/1.1 server on libmicrohttpd: a few event threads (epoll) serve
/// every connection, and a bounded pool of workers runs the handler.
///
/// MHD parses requests and multipart bodies. When a request's head has
/// arrived, `screen` decides how its body is read and may answer at once
/// (401, 413, 415, 400) so a body that will be refused is never read. A
/// complete request is suspended on its event thread and handed to a worker
/// (`RequestWorkers`); the worker's response resumes it. JSON bodies are
/// buffered up to their route's limit; file parts stream to a temporary file
/// while being hashed, so a 50 MB photo never sits in memory. A body that
/// passes its limit while arriving is answered 413 there and then, and the
/// connection closed.
///
/// Thread safety: MHD calls the callbacks for one connection on one event
/// thread, and a suspended connection is touched by its worker only until
/// `MHD_resume_connection` (which synchronises with MHD's lock), so a
/// `RequestContext` is only ever used by one thread at a time; the handler
/// must itself be safe to call from many threads.
public final class HTTPServer: @unchecked Sendable {
    // `daemon` and `logger` are written in `start` and `stop` only, both called
    // from the owning thread; the callbacks never touch them.
    private var daemon: OpaquePointer?
    private var logger: UnsafeMutablePointer<jqc_mhd_logger>?
    let handler: @Sendable (ServerRequest) -> ServerResponse
    let screen: @Sendable (RequestHead) -> (BodyPolicy, ServerResponse?)
    let overloaded: @Sendable (ServerRequest) -> ServerResponse
    /// Given each `octets` request that never reached `handler`: its body cut
    /// short, refused mid-way or never begun; what arrived is in its body.
    let abandoned: @Sendable (ServerRequest) -> Void
    let uploadDirectory: String
    let limits: HTTPLimits
    let log: ServerLog
    /// libmicrohttpd's own diagnostics, on a budget of their own so they never crowd out the server's lines.
    let libraryLog: ServerLog
    let deadlines: ConnectionDeadlines
    private let workers: RequestWorkers
    private let inFlight = Mutex(0)
    /// Workers inside `MHD_resume_connection`. It uses the daemon after the
    /// event thread may already have sent the answer and ended the request, so
    /// the daemon is freed only once none is left there.
    private let resuming = Atomic(0)
    /// Streamed responses being sent, ended before the daemon stops.
    private let streams = StreamRegistry()
    /// Where file bodies gather before they are written: 64 buffers, 4 MiB at most.
    let spool = SpoolBuffers(capacity: 64)

    /// The port actually bound (useful with port 0).
    public private(set) var port: UInt16 = 0

    /// Makes a server; nothing listens until `start`.
    public init(
        uploadDirectory: String, limits: HTTPLimits, log: ServerLog,
        screen: @escaping @Sendable (RequestHead) -> (BodyPolicy, ServerResponse?),
        overloaded: @escaping @Sendable (ServerRequest) -> ServerResponse,
        abandoned: @escaping @Sendable (ServerRequest) -> Void = { _ in },
        handler: @escaping @Sendable (ServerRequest) -> ServerResponse
    ) {
        self.uploadDirectory = uploadDirectory
        self.limits = limits
        self.log = log
        libraryLog = log.sharing(burst: 5, interval: 10)
        self.screen = screen
        self.overloaded = overloaded
        self.abandoned = abandoned
        self.handler = handler
        deadlines = ConnectionDeadlines(
            headerTimeout: limits.headerSeconds, bodyTimeout: limits.bodySeconds,
            idleTimeout: TimeInterval(limits.idleSeconds), log: log)
        workers = RequestWorkers(
            count: limits.workers, capacity: limits.waitingRequests, maximumWait: limits.waitSeconds)
    }

    /// Binds `host:port` and starts accepting connections.
    public func start(host: String, port: UInt16) throws(HTTPServerError) {
        let flags =
            MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        let me = Unmanaged.passUnretained(self).toOpaque()
        let logger = UnsafeMutablePointer<jqc_mhd_logger>.allocate(capacity: 1)
        logger.initialize(to: jqc_mhd_logger(line: HTTPServer.logLine, cls: me))
        self.logger = logger
        func launch(_ address: UnsafePointer<sockaddr>, _ extra: UInt32) -> OpaquePointer? {
            jqc_mhd_start(
                flags | extra, address, HTTPServer.accessHandler, me, HTTPServer.completedHandler, me,
                HTTPServer.connectionHandler, me, HTTPServer.requestLineHandler, me, logger,
                UInt32(limits.idleSeconds), UInt32(limits.connections), UInt32(limits.connectionsPerAddress),
                UInt32(limits.eventThreads))
        }
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let started: OpaquePointer?
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            started = withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { launch($0, 0) }
            }
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            started = withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { launch($0, MHD_USE_IPv6.rawValue) }
            }
        } else {
            throw HTTPServerError(
                .badAddress, "'\(host)' is not an IP address; give --host an IPv4 or IPv6 address such as 127.0.0.1")
        }
        guard let started else {
            throw HTTPServerError(.cannotListen, "could not listen on \(host):\(port); is the port already in use?")
        }
        daemon = started
        self.port = jqc_mhd_bound_port(started)
        deadlines.start()
    }

    /// The version of libmicrohttpd this process runs with.
    public static var libraryVersion: String {
        guard let text: UnsafePointer<CChar> = MHD_get_version() else { return "unknown" }
        return String(cString: text)
    }

    /// Stops accepting connections, lets requests in flight finish (up to
    /// `grace` seconds), then closes everything.
    public func stop(grace: TimeInterval = 30) {
        guard let daemon else { return }
        let listener = MHD_quiesce_daemon(daemon)
        if listener >= 0 { close(listener) }
        let deadline = Date().addingTimeInterval(grace)
        while inFlight.withLock({ $0 }) > 0 && Date() < deadline {
            usleep(20_000)
        }
        // A stream still going is cut short (MHD cannot stop while its connection is suspended).
        if streams.stopAll() > 0 {
            let settle = Date().addingTimeInterval(2)
            while inFlight.withLock({ $0 }) > 0 && Date() < settle { usleep(20_000) }
        }
        // The answer to the last request can be sent (and the request end) before the worker that handed it over
        // has left MHD_resume_connection, which still signals the event thread through the daemon.
        while resuming.load(ordering: .sequentiallyConsistent) > 0 { usleep(1_000) }
        MHD_stop_daemon(daemon)
        self.daemon = nil
    }

    /// Runs a complete request on a worker and resumes its connection with
    /// the response; 503 at once when every worker is taken and the queue is full.
    private func dispatch(_ context: RequestContext) -> MHD_Result {
        let request = context.finishRequest()
        deadlines.enter(context.key, .working)
        let queued = workers.submit(accepted: { MHD_suspend_connection(context.connection) }) { [self] expired in
            context.pending = expired ? overloaded(request) : handler(request)
            // Counted before the call: the request cannot end, nor `inFlight` fall, before MHD sees the resume.
            resuming.add(1, ordering: .sequentiallyConsistent)
            MHD_resume_connection(context.connection)
            resuming.subtract(1, ordering: .sequentiallyConsistent)
        }
        if queued { return MHD_Result.YES }
        return reply(overloaded(request), on: context)
    }

    private func reply(_ response: ServerResponse, on context: RequestContext) -> MHD_Result {
        let key = context.key
        if case .stream = response.content {
            deadlines.enter(key, .streaming)
            return context.send(response, streams: streams) { [deadlines] in deadlines.enter(key, .streaming) }
        }
        deadlines.enter(key, .replying)
        return context.send(response)
    }

    // MARK: - Callbacks

    private static func server(_ cls: UnsafeMutableRawPointer) -> HTTPServer {
        Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    }

    private static func address(of connection: OpaquePointer) -> String {
        var text = [CChar](repeating: 0, count: 64)
        jqc_mhd_client_address(connection, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A connection opened or closed: its deadlines start or end.
    private static let connectionHandler: MHD_NotifyConnectionCallback = { cls, connection, _, code in
        guard let cls, let connection else { return }
        let server = server(cls)
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
        if code.rawValue == 0 { // MHD_CONNECTION_NOTIFY_STARTED
            server.deadlines.opened(key, fd: jqc_mhd_connection_fd(connection), address: address(of: connection))
        } else {
            server.deadlines.closed(key)
        }
    }

    /// The request line arrived: the request's state begins, with the target as sent.
    private static let requestLineHandler:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
            -> UnsafeMutableRawPointer? = { cls, uri, connection in
                guard let cls, let connection else { return nil }
                let server = server(cls)
                server.deadlines.enter(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))), .headers)
                let context = RequestContext(
                    target: uri.map { String(cString: $0) } ?? "/", connection: connection,
                    address: address(of: connection))
                server.inFlight.withLock { $0 += 1 }
                return Unmanaged.passRetained(context).toOpaque()
            }

    private static let logLine: jqc_mhd_log_line = { cls, line in
        guard let cls, let line else { return }
        server(cls).libraryLog.note(
            "libmicrohttpd: " + String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static let accessHandler: MHD_AccessHandlerCallback = {
        cls, connection, url, method, _, uploadData, uploadSize, state in
        guard let cls, let connection, let state, let uploadSize, let existing = state.pointee else {
            return MHD_Result.NO
        }
        let server = server(cls)
        let context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
        if !context.started {
            context.started = true
            let method = method.map { String(cString: $0) } ?? "GET"
            let path = url.map { String(cString: $0) } ?? "/"
            let head = context.readHead(method: method, path: path)
            let (policy, early) = server.screen(head)
            if let early { return server.reply(early, on: context) }
            context.policy = policy
            context.fileLimit =
                switch policy {
                case .multipart(let limit), .octets(let limit, _): limit
                default: 0
                }
            context.partLimit = server.limits.multipartParts
            context.begin(uploadDirectory: server.uploadDirectory, spool: server.spool)
            // The body deadline grows by a second for every 64 KiB announced, up to the route's limit.
            let declared =
                head.headers["content-length"].flatMap { Double($0.trimmingHTTPSpace()) } ?? 0
            let limit: Double =
                switch policy {
                case .none: 0
                case .json(let limit): Double(limit)
                case .multipart(let limit), .octets(let limit, _): Double(limit)
                }
            let streamsFile =
                switch policy {
                case .multipart, .octets: true
                default: false
                }
            server.deadlines.enter(context.key, .body, extra: min(declared, limit) / 65_536, watchingClose: streamsFile)
            return MHD_Result.YES
        }
        if let pending = context.pending {
            context.pending = nil
            return server.reply(pending, on: context)
        }
        if uploadSize.pointee > 0 {
            if let uploadData, !context.refused {
                context.consume(UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee))
                if let limit = context.passedLimit {
                    // MHD cannot queue a response in the middle of a body, so the
                    // 413 is written on the socket directly and the connection closed.
                    context.refused = true
                    server.log.note(
                        "request body over its limit of \(limit) bytes; answered 413 and closed",
                        address: context.address, level: .info)
                    context.writeAndClose(server.tooLarge(limit))
                    uploadSize.pointee = 0
                    return MHD_Result.NO
                }
            }
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        guard !context.answered else { return MHD_Result.YES }
        context.answered = true
        return server.dispatch(context)
    }

    private static let completedHandler: MHD_RequestCompletedCallback = { cls, connection, state, code in
        guard let cls, let state, let existing = state.pointee else { return }
        let server = server(cls)
        let context = Unmanaged<RequestContext>.fromOpaque(existing).takeRetainedValue()
        state.pointee = nil
        if !context.answered, case .octets = context.policy { server.salvage(context) }
        context.cleanUp()
        if code.rawValue != 0 && !context.refused { // not MHD_REQUEST_TERMINATED_COMPLETED_OK
            // The path only: a query string may hold what the log must not.
            let path = context.target.prefix { $0 != "?" }.prefix(80)
            server.log.note("request \(path) ended early: \(describe(code))", address: context.address, level: .info)
        }
        if let connection {
            server.deadlines.enter(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))), .idle)
        }
        server.inFlight.withLock { $0 -= 1 }
    }

    private static func describe(_ code: MHD_RequestTerminationCode) -> String {
        // The values of MHD_REQUEST_TERMINATED_*, which Swift does not import by name.
        switch code.rawValue {
        case 2: "the connection was idle too long"
        case 3: "the server is stopping"
        case 4: "the client closed the connection"
        case 5: "the client went away"
        default: "the connection failed"
        }
    }

    /// Hands a raw body that never reached the handler (the client left
    /// mid-way) to `abandoned` on a worker, with the descriptor of what
    /// arrived, which the job closes; on this thread when every worker is taken.
    private func salvage(_ context: RequestContext) {
        let request = context.finishRequest(complete: false)
        let descriptor = context.takeFile()
        let job: @Sendable (Bool) -> Void = { [abandoned] _ in
            abandoned(request)
            if descriptor >= 0 { close(descriptor) }
        }
        if !workers.submit(accepted: {}, job) { job(false) }
    }

    /// The 413 written when a body passes its limit while arriving.
    func tooLarge(_ limit: Int64) -> ServerResponse {
        let body = #"{"code":"TOO_LARGE","error":"the body is over the limit of \#(limit) bytes","ok":false}"#
        return ServerResponse(
            status: 413, headers: [(name: "Content-Type", value: "application/json; charset=utf-8")],
            content: .data(Data(body.utf8)))
    }
}
