import Foundation
import Models
import Testing
import TestSupport

/// The console's sign-in and session (both stores: the server suite runs
/// again on PostgreSQL): the same accounts as the API, cookies a script
/// cannot read and another site cannot send, sign-out for every instance,
/// idle and absolute expiry.
@Suite("Console sessions")
struct ConsoleSessionTests {
    @Test(
        "signing in takes the form's own token and the right password; the cookie is HttpOnly and SameSite=Strict; pages carry the security headers"
    )
    func signIn() throws {
        let server = try Shared.running()
        let browser = ConsoleClient(server)
        let away = try browser.get("/console/queue?state=returned")
        #expect(away.status == 303)
        #expect(away.headers["location"] == "/console/sign-in?next=%2Fconsole%2Fqueue%3Fstate%3Dreturned")
        let form = try browser.get("/console/sign-in")
        #expect(form.status == 200)
        let formCookie = try #require(browser.lastSetCookies.first { $0.hasPrefix("jqc_console_signin=") })
        #expect(
            formCookie.contains("HttpOnly") && formCookie.contains("SameSite=Strict") && !formCookie.contains("Secure"))
        #expect(form.headers["content-security-policy"]?.contains("default-src 'none'") == true)
        #expect(form.headers["content-security-policy"]?.contains("script-src") == false)
        #expect(form.headers["x-frame-options"] == "DENY")

        // A form posted from elsewhere (without the token this browser was given) is refused.
        let token = try #require(ConsoleClient.field("csrf", in: form.text))
        browser.drop("jqc_console_signin")
        let forged = try browser.post(
            "/console/sign-in", [("csrf", token), ("username", "supervisor"), ("password", "supervisor-pass")])
        #expect(forged.status == 403)
        #expect(browser.cookies["jqc_console"] == nil)

        let wrong = try browser.signIn("supervisor", "not-the-password")
        #expect(wrong.status == 401)
        #expect(wrong.text.contains("Wrong user name or password."))
        #expect(browser.cookies["jqc_console"] == nil)

        let right = try browser.signIn("supervisor", "supervisor-pass")
        #expect(right.status == 303)
        #expect(right.headers["location"] == "/console/queue")
        let session = try #require(browser.lastSetCookies.first { $0.hasPrefix("jqc_console=") })
        #expect(
            session.contains("HttpOnly") && session.contains("SameSite=Strict") && session.contains("Path=/console"))
        let queue = try browser.get("/console/queue")
        #expect(queue.status == 200)
        #expect(queue.text.contains("Sam Supervisor"))
        #expect(queue.headers["x-frame-options"] == "DENY")
        #expect(queue.headers["cache-control"] == "no-store")

        // An access token of the API is not a console cookie.
        let api = ConsoleClient(server)
        api.set("jqc_console", try #require(browser.cookies["jqc_console"]).replacingOccurrences(of: ".", with: "x."))
        #expect(try api.get("/console/queue").status == 303)
    }

    @Test("signing out needs the session's token, and ends the session on every instance at once")
    func signOutEverywhere() throws {
        let server = try Shared.running()
        let second = try ServerProcess([], database: server.databasePath)
        let browser = ConsoleClient(server)
        #expect(try browser.signIn("inspector", "inspector-pass").status == 303)
        let cookie = try #require(browser.cookies["jqc_console"])
        let elsewhere = ConsoleClient(second)
        elsewhere.set("jqc_console", cookie)
        #expect(try elsewhere.get("/console/queue").status == 200)

        #expect(try browser.post("/console/sign-out", []).status == 403)
        #expect(try browser.get("/console/queue").status == 200)
        let out = try browser.post("/console/sign-out", [("csrf", try browser.csrf())])
        #expect(out.status == 303)
        #expect(out.headers["location"] == "/console/sign-in")
        #expect(browser.cookies["jqc_console"] == nil)

        // The other instance, still holding the cookie, finds the session ended.
        let after = try elsewhere.get("/console/queue")
        #expect(after.status == 303)
        #expect(after.headers["location"]?.hasPrefix("/console/sign-in") == true)
        // A form posted with the ended session's cookie is refused before its body is read.
        #expect(try elsewhere.post("/console/reports/R-1/review", [("decision", "approve")]).status == 403)
    }

    @Test("a session ends after its idle time, and opening pages never keeps it past its absolute age")
    func expiry() throws {
        // Idle one day, at most two hours after signing in.
        let limits = ["--console-idle-ttl", "86400", "--console-max-age", "7200"]
        let server = try ServerProcess(["--demo"] + limits)
        let browser = ConsoleClient(server)
        #expect(try browser.signIn("supervisor", "supervisor-pass").status == 303)
        let cookie = try #require(browser.cookies["jqc_console"])

        // An instance on the same database whose clock is an hour ahead takes the cookie and renews it,
        // but only up to two hours after the sign-in.
        let hourAhead = try ServerProcess(
            limits, database: server.databasePath, clock: DeviceClock(start: Date().addingTimeInterval(3600)))
        let later = ConsoleClient(hourAhead)
        later.set("jqc_console", cookie)
        #expect(try later.get("/console/queue").status == 200)
        let renewed = try #require(later.lastSetCookies.first { $0.hasPrefix("jqc_console=") })
        let maxAge = renewed.split(separator: ";").compactMap { part -> Int? in
            let text = part.trimmingCharacters(in: .whitespaces)
            return text.hasPrefix("Max-Age=") ? Int(text.dropFirst("Max-Age=".count)) : nil
        }.first
        #expect((maxAge ?? .max) <= 3600 + 60, "renewed to \(String(describing: maxAge)) seconds")

        // Three hours on, neither the first cookie nor the renewed one works.
        let threeAhead = try ServerProcess(
            limits, database: server.databasePath, clock: DeviceClock(start: Date().addingTimeInterval(3 * 3600)))
        for value in [cookie, try #require(later.cookies["jqc_console"])] {
            let stale = ConsoleClient(threeAhead)
            stale.set("jqc_console", value)
            #expect(try stale.get("/console/queue").status == 303)
        }

        // With the default idle time of an hour, a cookie unused for two hours is refused.
        let idle = try ServerProcess(
            [], database: server.databasePath, clock: DeviceClock(start: Date().addingTimeInterval(2 * 3600)))
        let fresh = try ServerProcess([], database: server.databasePath)
        let quick = ConsoleClient(fresh)
        #expect(try quick.signIn("inspector", "inspector-pass").status == 303)
        let unused = ConsoleClient(idle)
        unused.set("jqc_console", try #require(quick.cookies["jqc_console"]))
        #expect(try unused.get("/console/queue").status == 303)
    }

    @Test("the Secure attribute is set when the server is told it is behind TLS")
    func secureBehindTLS() throws {
        let server = try ServerProcess(["--demo", "--behind-tls"])
        let browser = ConsoleClient(server)
        #expect(try browser.signIn("supervisor", "supervisor-pass").status == 303)
        #expect(browser.lastSetCookies.first { $0.hasPrefix("jqc_console=") }?.contains("; Secure") == true)
    }
}
