import Foundation
import ServerStore
import Synchronization
import ServerHTTP
import Models
import ProgramOutput

/// The running server's request handling: faults, routing, auth, dispatch
/// to the endpoint handlers (one file per area), and the envelope.
final class ServerApp: RouteCapability, Sendable {
    let context: ServerContext
    let auth: AuthRoutes
    let reference: ReferenceRoutes
    let reports: ReportSyncRoutes
    let history: HistoryRoutes
    let reviews: ReviewRoutes
    let photoRoutes: PhotoRoutes
    let uploadRoutes: UploadRoutes
    let exports: ExportRoutes
    let actions: ActionRoutes
    let admin: AdminRoutes
    let console: ConsoleRoutes

    /// The version of the report payload this server reads.
    static let schemaVersion = 1
    /// The longest request target answered (a query of every filter of `GET /inspections` is under 1 KB).
    static let longestTarget = 8192
    /// The wire contract this server speaks, sent with every sync answer.
    static let contractVersion = "1.2"

    init(
        config: ServerConfig, store: any ServerStorage, signer: TokenSigner, judge: AnswerJudge, photos: any PhotoStore,
        uploads: any UploadStore, log: ServerLog, metrics: ServerMetrics = ServerMetrics()
    ) {
        let context = ServerContext(
            config: config, store: store, signer: signer, judge: judge, photos: photos, uploads: uploads, log: log,
            metrics: metrics)
        self.context = context
        auth = AuthRoutes(context: context)
        reference = ReferenceRoutes(context: context)
        reports = ReportSyncRoutes(context: context)
        history = HistoryRoutes(context: context)
        reviews = ReviewRoutes(context: context)
        photoRoutes = PhotoRoutes(context: context)
        uploadRoutes = UploadRoutes(context: context)
        exports = ExportRoutes(context: context)
        actions = ActionRoutes(context: context)
        admin = AdminRoutes(context: context)
        console = ConsoleRoutes(context: context)
    }

    /// How the HTTP layer should read the body of this method and path.
    func bodyPolicy(method: String, path: String, contentType: String? = nil) -> BodyPolicy {
        if ConsoleRoutes.isConsole(path) {
            return console.consoleBodyPolicy(method: method, path: path, contentType: contentType)
        }
        guard case .route(let route, _) = Router.match(method: method, path: path) else { return .none }
        switch route.body {
        case .none: return .none
        case .json: return .json(limit: config.maxJSONBytes)
        case .multipart: return .multipart(fileLimit: config.maxPhotoBytes)
        case .octets: return .octets(limit: config.maxPhotoBytes, tag: 0)
        }
    }

    /// Decides from a request's head alone how its body is read, and answers
    /// at once what would be refused anyway, before a byte of the body is
    /// read: a NUL in the path or conflicting framing headers (400), a
    /// missing or bad token (401), a JSON route sent something else (415),
    /// a declared length past the route's limit (413).
    /// Each of these answers is logged and counted as any other.
    func screen(_ head: RequestHead) -> (BodyPolicy, ServerResponse?) {
        let clock = AnswerClock()
        func refused(_ response: ServerResponse) -> ServerResponse {
            finish(
                response, method: head.method, path: head.path, headers: head.headers, peer: head.clientAddress,
                userID: nil, clock: clock)
        }
        let policy = bodyPolicy(method: head.method, path: head.path, contentType: head.headers["content-type"])
        // Injected faults come first, as an overloaded proxy in front would.
        if let fault = injectedFault(head) { return (policy, refused(fault)) }
        do throws(ServerError) {
            try checkFraming(head)
            if ConsoleRoutes.isConsole(head.path) {
                // A console form: refused unread without a session (sign-in aside); its length checked below.
                if let refusal = console.screenConsole(head) { return (policy, refused(refusal)) }
            } else {
                guard case .route(let route, _) = Router.match(method: head.method, path: head.path) else {
                    return (policy, nil)
                }
                try checkHead(head, of: route)
            }
            try checkDeclaredLength(head, policy)
            // An upload's body is numbered before it arrives, so what asks after it waits for it (`UploadArrivals`).
            if case .octets(let limit, _) = policy,
                case .route(_, let parameters) = Router.match(method: head.method, path: head.path),
                let uploadID = parameters["upload_id"]
            {
                return (.octets(limit: limit, tag: arrivals.begin(uploadID)), nil)
            }
        } catch {
            // With --latency-ms every answer is delayed: a missing token is
            // then refused by the handler, after the latency, not here.
            if error.status == 401 && config.latencyMilliseconds > 0 { return (policy, nil) }
            if error.status != 401 {
                log.note(
                    "refused \(head.method) \(head.path.prefix(80)) before its body: \(error.status)",
                    address: head.clientAddress,
                    level: .debug)
            }
            return (policy, refused(respond(error)))
        }
        return (policy, nil)
    }

    /// The answer an injected fault gives before a request is handled: a dropped
    /// connection or a 503; nil when no fault strikes.
    private func injectedFault(_ head: RequestHead) -> ServerResponse? {
        switch faults.beforeHandling() {
        case .drop?:
            logFault("drop", head.method, head.path)
            return .drop
        case .unavailable?:
            logFault("503", head.method, head.path)
            return respond(ServerError.unavailable("the server is busy (injected fault); retry shortly", retryAfter: 1))
        case nil:
            return nil
        }
    }

    /// 400 for a target too long, a NUL in the path, or conflicting framing headers.
    private func checkFraming(_ head: RequestHead) throws(ServerError) {
        // Answered here, with the server's own headers, well before libmicrohttpd's
        // buffer would make it answer a longer line itself.
        if head.target.utf8.count > Self.longestTarget {
            throw ServerError.targetTooLong(limit: Self.longestTarget)
        }
        if head.target.range(of: "%00", options: .caseInsensitive) != nil || head.path.utf8.contains(0) {
            throw ServerError.badRequest("the path must not contain %00 (a NUL byte)")
        }
        if head.conflictingHeaders.contains("content-length") {
            throw ServerError.badRequest("the request has two different Content-Length headers; send one")
        }
        if head.headers["content-length"] != nil && head.headers["transfer-encoding"] != nil {
            throw ServerError.badRequest("the request has both Content-Length and Transfer-Encoding; send one")
        }
    }

    /// 401 for a route that needs a token and has none valid; 415 for a body
    /// route sent another media type than its own.
    private func checkHead(_ head: RequestHead, of route: Route) throws(ServerError) {
        if route.requiresToken { _ = try bearerClaims(head.headers) }
        if route.body == .octets {
            let type = head.headers["content-type"]?.lowercased() ?? ""
            let media = type.split(separator: ";").first.map { $0.trimmingHTTPSpace() } ?? ""
            guard media == "application/offset+octet-stream" else {
                throw ServerError.unsupportedMediaType(
                    "this route takes Content-Type: application/offset+octet-stream, not '\(type.isEmpty ? "nothing" : String(type.prefix(60)))'"
                )
            }
        }
        if route.body == .json {
            let type = head.headers["content-type"]?.lowercased() ?? ""
            let media = type.split(separator: ";").first.map { $0.trimmingHTTPSpace() } ?? ""
            guard media == "application/json" else {
                throw ServerError.unsupportedMediaType(
                    "this route takes Content-Type: application/json, not '\(type.isEmpty ? "nothing" : String(type.prefix(60)))'"
                )
            }
        }
    }

    /// 413 for a declared `Content-Length` past the route's limit.
    private func checkDeclaredLength(_ head: RequestHead, _ policy: BodyPolicy) throws(ServerError) {
        let declared = head.headers["content-length"].flatMap { Int64($0.trimmingHTTPSpace()) }
        if let declared {
            switch policy {
            case .json(let limit) where declared > Int64(limit):
                throw ServerError.tooLarge("the body of \(declared) bytes is over the limit of \(limit) bytes")
            case .multipart(let limit) where declared > limit + 256 * 1024:
                throw ServerError.tooLarge(
                    "the body of \(declared) bytes is over the photo limit of \(limit) bytes")
            case .octets(let limit, _) where declared > limit:
                throw ServerError.tooLarge(
                    "the body of \(declared) bytes is over the photo limit of \(limit) bytes")
            default:
                break
            }
        }
    }

    /// The answer when every worker is taken or a request waited too long for one.
    func overloaded() -> ServerResponse {
        log.note("overloaded: a request was answered 503")
        return respond(ServerError.busy(retryAfter: 2))
    }

    /// Answers one request; never throws, never crashes on what a client
    /// sends. Every answer carries an `X-Request-Id` and is logged and counted.
    func handle(_ request: ServerRequest) -> ServerResponse {
        let clock = AnswerClock()
        metrics.began()
        defer { metrics.ended() }
        // A resumable upload's body is kept or refused by now, whatever the answer.
        defer { arrivals.end(request.tag) }
        var userID: String?
        func answer() -> ServerResponse {
            if config.latencyMilliseconds > 0 { usleep(UInt32(config.latencyMilliseconds) * 1000) }
            if ConsoleRoutes.isConsole(request.path) {
                let (response, user) = console.console(request)
                userID = user
                return response
            }
            let reply: Reply
            var endpoint: Endpoint?
            do throws(ServerError) {
                switch Router.match(method: request.method, path: request.path) {
                case .notFound:
                    throw ServerError.notFound("no route \(request.method) \(request.path); see docs/openapi.yaml")
                case .wrongMethod(let allowed):
                    var response = respond(ServerError.methodNotAllowed(request.method, path: request.path))
                    response.headers.append((name: "Allow", value: allowed.joined(separator: ", ")))
                    return response
                case .route(let route, let parameters):
                    endpoint = route.endpoint
                    switch request.body {
                    case .tooLarge(let limit):
                        throw ServerError.tooLarge("the body is over the limit of \(limit) bytes")
                    case .unreadable(let reason):
                        throw ServerError.badRequest(reason)
                    case .storageFull:
                        throw ServerError.storageFull()
                    default:
                        break
                    }
                    var input = RouteInput(request: request, parameters: parameters, caller: nil)
                    // A route that reads its own caller names it for the log however it ends.
                    defer { userID = userID ?? input.confirmed.value?.user.id }
                    if route.requiresToken && AuthRoutes.readsOwnCaller.contains(route.endpoint) {
                        input.claims = try bearerClaims(request.headers)
                    } else if route.requiresToken {
                        input.caller = try authenticate(request, allowRevoked: route.endpoint == .contract(.logout))
                        userID = input.caller?.user.id
                    }
                    try ClientScope.check(route.endpoint, caller: input.caller)
                    reply = try dispatch(route.endpoint, input)
                }
            } catch {
                return respond(error)
            }
            if endpoint == .contract(.syncReports) && faults.dropAfterAccept() {
                logFault("drop-after-accept", request.method, request.path)
                return .drop
            }
            switch reply {
            case .json(let status, let body):
                return ServerResponse(status: status, headers: jsonHeaders, content: .data(body))
            case .file(let descriptor, let size, let contentType):
                // A photo is field evidence of one organisation: no cache on the way keeps a copy.
                return ServerResponse(
                    status: 200,
                    headers: [
                        (name: "Content-Type", value: contentType),
                        (name: "Content-Security-Policy", value: "default-src 'none'; sandbox"),
                        (name: "Cache-Control", value: "private, no-store"),
                    ],
                    content: .file(descriptor: descriptor, byteSize: size))
            case .stream(let stream, let headers):
                return ServerResponse(status: 200, headers: headers, content: .stream(stream))
            case .status(let status, let headers, let body):
                return ServerResponse(
                    status: status, headers: (body.isEmpty ? [] : jsonHeaders) + headers, content: .data(body))
            }
        }
        return finish(answer(), for: request, userID: userID, clock: clock)
    }

    /// One line on stderr per injected fault, so a fault run can be counted.
    private func logFault(_ kind: String, _ method: String, _ path: String) {
        OutputChannel.standardError.write("jqc-server: injected fault \(kind) \(method) \(path)\n")
    }

    private func dispatch(_ endpoint: Endpoint, _ input: RouteInput) throws(ServerError) -> Reply {
        switch endpoint {
        case .contract(.login): return try auth.login(input)
        case .contract(.refresh): return try auth.refresh(input)
        case .contract(.logout): return try auth.logout(input)
        case .contract(.me): return try auth.me(input)
        case .contract(.facilities): return try reference.facilities(input)
        case .contract(.areas): return try reference.areas(input)
        case .contract(.templates): return try reference.templates(input)
        case .contract(.assignments): return try reference.assignments(input)
        case .contract(.syncReports): return try reports.syncReports(input)
        case .contract(.getReport): return try reports.getReport(input)
        case .contract(.patchReport): return try reports.patchReport(input)
        case .contract(.uploadPhoto): return try photoRoutes.uploadPhoto(input)
        case .contract(.createUpload): return try readingOwnCaller(input, uploadRoutes.createUpload)
        case .contract(.createActionUpload): return try readingOwnCaller(input, uploadRoutes.createActionUpload)
        case .contract(.downloadActionPhoto): return try photoRoutes.downloadActionPhoto(input)
        case .contract(.uploadStatus): return try uploadRoutes.uploadStatus(input)
        case .contract(.appendUpload): return try readingOwnCaller(input, uploadRoutes.appendUpload)
        case .contract(.downloadPhoto): return try photoRoutes.downloadPhoto(input)
        case .contract(.inspections): return try history.inspections(input)
        case .contract(.rollup): return try history.rollup(input)
        case .contract(.reviews): return try reviews.reviewFeed(input)
        case .contract(.decideReview): return try reviews.decideReview(input)
        case .contract(.reportEvents): return try reviews.reportEvents(input)
        case .contract(.exportReports): return try exports.exportReports(input)
        case .contract(.exportActions): return try exports.exportActions(input)
        case .contract(.exportIssues): return try exports.exportIssues(input)
        case .contract(.createAction): return try actions.createAction(input)
        case .contract(.actionFeed): return try actions.actionFeed(input)
        case .contract(.getAction): return try actions.getAction(input)
        case .contract(.updateAction): return try actions.updateAction(input)
        case .administration(let operation): return try admin.administer(operation, input)
        }
    }

    private var jsonHeaders: [(name: String, value: String)] {
        [(name: "Content-Type", value: "application/json; charset=utf-8"), (name: "Cache-Control", value: "no-store")]
    }

    /// The error envelope for `error`, with `Retry-After` when it has one.
    func respond(_ error: ServerError) -> ServerResponse {
        if error.code == .quotaExceeded { metrics.quotaRefused() }
        if diskFullAlarm.noted(error, in: log) { metrics.storageFullRefused() }
        databaseAlarm.noted(error, in: log)
        var headers = jsonHeaders
        if let retry = error.retryAfter { headers.append((name: "Retry-After", value: String(retry))) }
        if error.status == 401 { headers.append((name: "WWW-Authenticate", value: "Bearer")) }
        for (name, value) in error.headers.sorted(by: { $0.key < $1.key }) {
            headers.append((name: name, value: value))
        }
        let body =
            error.data.map { data in
                JSONBody.encode(
                    ["ok": false, "error": .string(error.message), "code": .string(error.code.rawValue), "data": data]
                        as JSONValue)
            } ?? JSONBody.encode(Envelope<EmptyData>.failure(code: error.code.rawValue, message: error.message))
        return ServerResponse(status: error.status, headers: headers, content: .data(body))
    }
}
