import Foundation
import ServerStore

/// Signing in to the console and out of it, with the same accounts, the
/// same throttle and the same session store as the API.
extension ConsoleRoutes {
    /// `GET /console/sign-in`: the form, with a token of its own (set as a
    /// cookie and echoed by the form, so another site cannot sign a person
    /// in to an account of its choosing).
    func consoleSignInPage(_ input: ConsoleInput, cookies: inout [String]) throws(ServerError) -> ConsoleReply {
        if input.caller != nil { return .redirect(Self.nextPath(input.query("next"))) }
        return .page(signInForm(next: input.query("next"), username: nil, error: nil, status: 200, cookies: &cookies))
    }

    /// `POST /console/sign-in`: a session cookie and on to the page asked for, or the form again with why not.
    func consoleSignIn(_ input: ConsoleInput, cookies: inout [String]) throws(ServerError) -> ConsoleReply {
        let next = input.form.text("next")
        let expected = ConsoleSessions.cookies(input.request.headers["cookie"])[ConsoleSessions.signInCookieName]
        guard let expected, let presented = input.form.raw("csrf"),
            Digest.constantTimeEqual(Array(expected.utf8), Array(presented.utf8))
        else {
            return .page(
                signInForm(
                    next: next, username: input.form.text("username"),
                    error: "The sign-in form had expired or came from another page; sign in again.",
                    status: 403, cookies: &cookies))
        }
        let username = input.form.text("username") ?? ""
        let password = input.form.raw("password") ?? ""
        let user: StoredUser
        do throws(ServerError) {
            user = try AuthRoutes(context: context).verifySignIn(
                username: username, password: password, request: input.request)
        } catch {
            guard error.status == 401 || error.status == 429 || error.status == 400 else { throw error }
            return .page(
                signInForm(
                    next: next, username: username,
                    error: error.message.prefix(1).uppercased() + error.message.dropFirst() + ".",
                    status: error.status, cookies: &cookies))
        }
        let now = Date()
        let sessionID = try store.write { session in
            // The session's refresh token is never given out: a console session cannot be refreshed through the API.
            try session.createSession(
                userID: user.id, refreshHash: AuthRoutes(context: context).newRefreshToken().hash, now: now)
        }
        let claims = consoleSessions.claims(
            userID: user.id, sessionID: sessionID, signedInAt: Int64(now.timeIntervalSince1970), now: now)
        cookies = [
            consoleSessions.sessionCookie(claims, now: now),
            consoleSessions.expiredCookie(ConsoleSessions.signInCookieName),
        ]
        return .redirect(Self.nextPath(next))
    }

    /// `POST /console/sign-out`: the session ends in the store, so for every
    /// instance at once, and the cookie is removed.
    func consoleSignOut(_ input: ConsoleInput, cookies: inout [String]) throws(ServerError) -> ConsoleReply {
        let caller = try input.requireCaller()
        try input.requireCSRF()
        try store.write { session in try session.revokeSession(id: caller.sessionID, now: Date()) }
        cookies = [consoleSessions.expiredCookie(ConsoleSessions.cookieName)]
        return .redirect(Self.consolePath + "/sign-in")
    }

    /// Where to go after signing in: a console page asked for, else the queue.
    static func nextPath(_ next: String?) -> String {
        guard let next, next.hasPrefix(consolePath + "/"), !next.hasPrefix(consolePath + "/sign-"),
            !next.contains("//"), !next.contains("\\"),
            next.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return consolePath + "/queue" }
        return next
    }

    private func signInForm(next: String?, username: String?, error: String?, status: Int, cookies: inout [String])
        -> ConsolePage
    {
        let token = Hex.encode(PasswordHasher.randomBytes(24))
        cookies.append(consoleSessions.setCookie(ConsoleSessions.signInCookieName, token, maxAge: 3600))
        let body = """
            \(ConsoleLayout.error(error))<form id="sign-in" class="card narrow" method="post" action="\(Self.consolePath)/sign-in">
            <input type="hidden" name="csrf" value="\(HTML.attribute(token))">
            <input type="hidden" name="next" value="\(HTML.attribute(Self.nextPath(next)))">
            <label>User name <input name="username" autocomplete="username" required value="\(HTML.attribute(username ?? ""))"\(username == nil ? " autofocus" : "")></label>
            <label>Password <input name="password" type="password" autocomplete="current-password" required\(username == nil ? "" : " autofocus")></label>
            <button type="submit">Sign in</button>
            </form>
            <p class="muted">The same account as <code>jqc login</code>. Inspectors see their own reports; supervisors review everyone's.</p>
            """
        return ConsolePage(status: status, title: "Sign in", body: body)
    }
}
