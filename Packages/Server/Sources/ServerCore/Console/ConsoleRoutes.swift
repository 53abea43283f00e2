import FieldTypes
import Foundation
import ServerHTTP
import ServerStore

/// A console page, rendered inside the layout.
struct ConsolePage: Sendable {
    var status = 200
    /// The `<title>` and the page's heading.
    var title: String
    /// The HTML inside `<main>`, every outside string already escaped.
    var body: String
    /// Who is signed in, for the navigation and the sign-out form; nil on the sign-in page.
    var viewer: ConsoleViewer?
    /// The printable view: no navigation, no forms.
    var printable = false
}

/// The signed-in person as the layout shows them.
struct ConsoleViewer: Sendable {
    var displayName: String
    var role: String
    var isSupervisor: Bool
    var isAdmin: Bool
    /// The session's CSRF token, for every form of the page.
    var csrf: String
}

/// What a console handler answers.
enum ConsoleReply: Sendable {
    case page(ConsolePage)
    /// `303 See Other` to a path of the console (after a form, or to sign in).
    case redirect(String)
    /// A photo streamed from an open descriptor.
    case photo(descriptor: Int32, byteSize: Int64)
    /// The console's stylesheet.
    case stylesheet
    /// A file to save (a roll-up's CSV).
    case download(Data, contentType: String, fileName: String)
    /// A file to save streamed from an open descriptor (a PDF).
    case file(descriptor: Int32, byteSize: Int64, contentType: String, fileName: String)
}

/// A console request, once its cookie and form are read.
struct ConsoleInput: Sendable {
    var request: ServerRequest
    /// The path's segments after `/console`, percent-decoded.
    var segments: [String]
    var form: ConsoleForm
    /// The signed-in person; nil before sign-in.
    var caller: Caller?
    /// The CSRF token of the caller's session.
    var csrf: String?
    /// Whether the form carried the session's CSRF token.
    var csrfValid: Bool

    /// The signed-in person (every page but sign-in has one).
    func requireCaller() throws(ServerError) -> Caller {
        guard let caller else { throw ServerError.authRequired("sign in first") }
        return caller
    }

    /// The caller, when a supervisor or an admin; 403 otherwise.
    func requireSupervisor() throws(ServerError) -> Caller {
        let caller = try requireCaller()
        guard caller.isSupervisor else { throw ServerError.forbidden("only supervisors and admins may do this") }
        return caller
    }

    /// The caller, when an admin; 403 otherwise.
    func requireAdmin() throws(ServerError) -> Caller {
        let caller = try requireCaller()
        guard caller.isAdmin else { throw ServerError.forbidden("the administration pages are for admins only") }
        return caller
    }

    /// 403 unless the form carried the session's CSRF token.
    func requireCSRF() throws(ServerError) {
        guard csrfValid else {
            throw ServerError.forbidden(
                "the form was refused: it did not carry this session's security token. Open the page again and resend it"
            )
        }
    }

    /// The signed-in person as pages show them.
    var viewer: ConsoleViewer? {
        guard let caller, let csrf else { return nil }
        return ConsoleViewer(
            displayName: caller.user.displayName, role: caller.user.role.rawValue, isSupervisor: caller.isSupervisor,
            isAdmin: caller.isAdmin, csrf: csrf)
    }

    /// A query argument, trimmed; nil when absent or blank.
    func query(_ name: String) -> String? {
        guard let value = request.query[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }
}

struct ConsoleRoutes: RouteCapability {
    let context: ServerContext

    /// The console's path prefix.
    static let consolePath = "/console"

    /// Whether a path is the console's rather than the API's.
    static func isConsole(_ path: String) -> Bool { path == consolePath || path.hasPrefix(consolePath + "/") }

    /// How a console request's body is read: forms only, bounded (sign-in's small).
    func consoleBodyPolicy(method: String, path: String, contentType: String?) -> BodyPolicy {
        guard method == "POST" else { return .none }
        // A request for service may carry a photo: its form is multipart, the photo streamed to disk.
        if path == Self.consolePath + "/requests/new",
            contentType?.lowercased().hasPrefix("multipart/form-data") == true
        {
            return .multipart(fileLimit: config.maxPhotoBytes)
        }
        return .json(limit: path == Self.consolePath + "/sign-in" ? 16 * 1024 : config.maxJSONBytes)
    }

    /// Refuses, before its body is read, a console form posted without a
    /// session cookie that verifies (sign-in aside): an unauthenticated
    /// client cannot make the server read more than the sign-in form.
    func screenConsole(_ head: RequestHead) -> ServerResponse? {
        guard head.method == "POST", head.path != Self.consolePath + "/sign-in" else { return nil }
        let cookies = ConsoleSessions.cookies(head.headers["cookie"])
        if let value = cookies[ConsoleSessions.cookieName], consoleSessions.verify(value, now: Date()) != nil {
            return nil
        }
        return consoleResponse(
            .page(
                ConsoleLayout.errorPage(
                    ServerError.forbidden("your session has ended; sign in again"),
                    viewer: nil)), cookies: [])
    }

    /// Answers one console request (a page, a form, a photo); never throws.
    func console(_ request: ServerRequest) -> (ServerResponse, userID: String?) {
        let now = Date()
        var cookies: [String] = []
        let jar = ConsoleSessions.cookies(request.headers["cookie"])
        var caller: Caller?
        var claims: ConsoleClaims?
        if let value = jar[ConsoleSessions.cookieName], let verified = consoleSessions.verify(value, now: now) {
            if let found = try? consoleCaller(verified) {
                caller = found
                // Every page opened renews the idle expiry, never past the absolute one.
                let renewed = consoleSessions.claims(
                    userID: verified.sub, sessionID: verified.sid, signedInAt: verified.iat, now: now)
                claims = renewed
                cookies.append(consoleSessions.sessionCookie(renewed, now: now))
            } else {
                cookies.append(consoleSessions.expiredCookie(ConsoleSessions.cookieName))
            }
        }
        let segments = request.path.dropFirst(Self.consolePath.count).split(separator: "/").map(String.init)
        var form = ConsoleForm.empty
        if request.method == "POST" {
            switch request.body {
            case .data(let data):
                guard let decoded = ConsoleForm.decode(data) else {
                    return (
                        consoleResponse(
                            .page(
                                ConsoleLayout.errorPage(
                                    ServerError.badRequest("the form could not be read"),
                                    viewer: nil)), cookies: cookies), caller?.user.id
                    )
                }
                form = decoded
            case .multipart(let body):
                form = ConsoleForm(fields: body.fields)
            case .unreadable(let why):
                return (
                    consoleResponse(
                        .page(ConsoleLayout.errorPage(ServerError.badRequest(why), viewer: nil)), cookies: cookies),
                    caller?.user.id
                )
            case .storageFull:
                return (
                    consoleResponse(
                        .page(ConsoleLayout.errorPage(ServerError.storageFull(), viewer: nil)), cookies: cookies),
                    caller?.user.id
                )
            case .tooLarge(let limit):
                return (
                    consoleResponse(
                        .page(
                            ConsoleLayout.errorPage(
                                ServerError.tooLarge("the form is over the limit of \(limit) bytes"),
                                viewer: nil)), cookies: cookies), caller?.user.id
                )
            default:
                break
            }
        }
        let csrf = claims.map { consoleSessions.csrfToken(sessionID: $0.sid) }
        let input = ConsoleInput(
            request: request, segments: segments, form: form, caller: caller, csrf: csrf,
            csrfValid: claims.map { consoleSessions.csrfMatches(form.raw("csrf"), sessionID: $0.sid) } ?? false)
        let reply: ConsoleReply
        do throws(ServerError) {
            reply = try routeConsole(input, cookies: &cookies)
        } catch {
            if error.status == 401 {
                // Signed out: a page opened goes to sign-in and comes back after.
                if request.method == "GET" {
                    return (consoleResponse(.redirect(Self.signInPath(next: request)), cookies: cookies), nil)
                }
            }
            return (
                consoleResponse(.page(ConsoleLayout.errorPage(error, viewer: input.viewer)), cookies: cookies),
                caller?.user.id
            )
        }
        return (consoleResponse(reply, cookies: cookies), caller?.user.id)
    }

    /// The page or action a console path names (`ConsoleEndpoint`): a page
    /// the caller's role may not open is 404, as one that does not exist;
    /// a method the page does not answer, 405.
    private func routeConsole(_ input: ConsoleInput, cookies: inout [String]) throws(ServerError) -> ConsoleReply {
        let method = input.request.method
        guard let (endpoint, values) = ConsoleEndpoint.match(input.segments) else {
            throw ServerError.notFound("there is no console page \(OneLine.quote(input.request.path, limit: 80))")
        }
        var isClient = false
        if endpoint.audience != .everyone {
            let caller = try input.requireCaller()
            isClient = caller.user.role == .client
            switch (endpoint.audience, isClient) {
            case (.staff, true): throw ClientScope.notFound("page")
            case (.clients, false):
                throw ServerError.notFound("there is no console page \(OneLine.quote(input.request.path, limit: 80))")
            default: break
            }
        }
        guard endpoint.methods.contains(method) else {
            throw ServerError.methodNotAllowed(method, path: input.request.path)
        }
        let posted = method == "POST"
        let first = values.first ?? ""
        switch endpoint {
        case .home:
            let home = input.caller?.user.role == .client ? "/buildings" : "/queue"
            return .redirect(input.caller == nil ? Self.consolePath + "/sign-in" : Self.consolePath + home)
        case .stylesheet: return .stylesheet
        case .signIn:
            return posted
                ? try consoleSignIn(input, cookies: &cookies) : try consoleSignInPage(input, cookies: &cookies)
        case .signOut: return try consoleSignOut(input, cookies: &cookies)
        case .queue: return .page(isClient ? try consoleBuildings(input) : try consoleQueue(input))
        case .report, .reportPrint:
            let printable = endpoint == .reportPrint
            return .page(
                isClient
                    ? try consoleClientReport(input, serverID: first, printable: printable)
                    : try consoleReport(input, serverID: first, printable: printable))
        case .reportReview: return try consoleDecide(input, serverID: first)
        case .reportPhoto:
            return isClient
                ? try consoleClientPhoto(input, serverID: first, photo: values[1])
                : try consolePhoto(input, serverID: first, photo: values[1])
        case .sites: return .page(try consoleSites(input))
        case .site: return .page(try consoleSite(input, facilityID: first))
        case .team: return .page(try consoleTeam(input))
        case .rollups: return .page(try consoleRollups(input))
        case .rollupsCSV: return try consoleRollupsCSV(input)
        case .coverage: return .page(try consoleCoverage(input))
        case .coverageCSV: return try consoleCoverageCSV(input)
        case .actions: return .page(try consoleActions(input))
        case .action:
            return posted
                ? try consoleActionUpdate(input, actionID: first) : .page(try consoleAction(input, actionID: first))
        case .actionPhoto: return try consoleActionPhoto(input, actionID: first, photo: values[1])
        case .admin: return .page(try consoleAdminHome(input))
        case .adminSection:
            return posted
                ? try consoleAdminAction(input, action: first) : .page(try consoleAdminSection(input, first))
        case .reportPDF: return try consoleReportPDF(input, serverID: first, isClient: isClient)
        case .siteSummary, .buildingSummary: return try consoleSiteSummary(input, facilityID: first, isClient: isClient)
        case .buildings: return .page(try consoleBuildings(input))
        case .building: return .page(try consoleBuilding(input, facilityID: first))
        case .requestService:
            return posted ? try consoleRequestService(input) : .page(try consoleRequestForm(input))
        case .mail:
            return posted
                ? try consoleMailChange(input)
                : .page(try consoleMailPage(input, notice: input.query("notice") == "saved" ? "Saved." : nil))
        }
    }

    /// The headers of a file to save: its type, its name (plain ASCII), kept by no cache.
    private static func attachment(_ contentType: String, _ fileName: String) -> [(name: String, value: String)] {
        let name = fileName.filter { $0.isASCII && $0 != "\"" && $0 != "\\" && !$0.isNewline }
        return [
            (name: "Content-Type", value: contentType),
            (name: "Content-Disposition", value: "attachment; filename=\"\(name)\""),
            (name: "Cache-Control", value: "private, no-store"),
        ]
    }

    /// The pattern of a console path for the access log and the metrics: its
    /// page's pattern (`ConsoleEndpoint`), anything unknown one label, so
    /// what a client sends never grows the set of labels.
    static func consolePattern(_ path: String) -> String {
        let parts = path.dropFirst(consolePath.count).split(separator: "/").map(String.init)
        guard let (endpoint, _) = ConsoleEndpoint.match(parts) else { return consolePath + "/unmatched" }
        return consolePath + endpoint.pattern
    }

    /// The caller behind a verified cookie: the session still live, the account enabled.
    private func consoleCaller(_ claims: ConsoleClaims) throws(ServerError) -> Caller? {
        let found = try store.read { session -> (StoredUser?, Bool) in
            (try session.user(id: claims.sub), try session.isSessionLive(claims.sid, userID: claims.sub))
        }
        guard let user = found.0, !user.isDisabled, found.1 else { return nil }
        return Caller(user: user, sessionID: claims.sid)
    }

    /// The sign-in page, asked to come back to this request's page after.
    static func signInPath(next request: ServerRequest) -> String {
        var next = request.path
        let query = request.query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        next += HTML.query(query)
        return consolePath + "/sign-in" + HTML.query([("next", next)])
    }

    /// The HTTP response of a console reply, with the headers every console answer carries.
    func consoleResponse(_ reply: ConsoleReply, cookies: [String]) -> ServerResponse {
        // A photo opened alone is shown by the browser's own image viewer, which styles itself inline;
        // the photo's policy allows that and nothing else (no script can run in an image, and it is sandboxed).
        var policy =
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        if case .photo = reply {
            policy = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox"
        }
        var headers: [(name: String, value: String)] = [
            (name: "Content-Security-Policy", value: policy),
            (name: "X-Frame-Options", value: "DENY"),
            (name: "Referrer-Policy", value: "same-origin"),
        ]
        headers += cookies.map { (name: "Set-Cookie", value: $0) }
        switch reply {
        case .page(let page):
            headers.append((name: "Content-Type", value: "text/html; charset=utf-8"))
            headers.append((name: "Cache-Control", value: "no-store"))
            return ServerResponse(
                status: page.status, headers: headers, content: .data(Data(ConsoleLayout.document(page).utf8)))
        case .redirect(let location):
            headers.append((name: "Location", value: location))
            headers.append((name: "Cache-Control", value: "no-store"))
            return ServerResponse(status: 303, headers: headers, content: .data(Data()))
        case .photo(let descriptor, let size):
            headers.append((name: "Content-Type", value: PhotoKind.contentType(of: descriptor)))
            // Kept by no cache, the browser's own included: after signing out, nothing of it is left to open.
            headers.append((name: "Cache-Control", value: "private, no-store"))
            return ServerResponse(status: 200, headers: headers, content: .file(descriptor: descriptor, byteSize: size))
        case .download(let data, let contentType, let fileName):
            headers += Self.attachment(contentType, fileName)
            return ServerResponse(status: 200, headers: headers, content: .data(data))
        case .file(let descriptor, let size, let contentType, let fileName):
            headers += Self.attachment(contentType, fileName)
            return ServerResponse(status: 200, headers: headers, content: .file(descriptor: descriptor, byteSize: size))
        case .stylesheet:
            headers.append((name: "Content-Type", value: "text/css; charset=utf-8"))
            headers.append((name: "Cache-Control", value: "public, max-age=3600"))
            return ServerResponse(status: 200, headers: headers, content: .data(Data(ConsoleStyle.css.utf8)))
        }
    }
}
