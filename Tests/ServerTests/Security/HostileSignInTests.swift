import Foundation
@testable import ServerCore
@testable import ServerStore
import Models
import Testing
import TestSupport

/// Sign-in and tokens under attack: guessing, lockouts, memory, forged and
/// stolen tokens. Runs against the built binary; the throttle's table bound
/// is also checked on the type itself.
@Suite("Sign-in and tokens hold against hostile clients", .serialized)
struct HostileSignInTests {
    @Test("150 concurrent sign-ins raise the server's peak memory by less than 512 MiB; the excess is told to retry")
    func concurrentSignInsBoundedMemory() async throws {
        let server = try ServerProcess(["--demo"])
        let before = RawHTTP.memory(of: server.pid)
        let responses = RawHTTP.concurrently(150) { index in
            Hostile.login(server, "inspector", "inspector-pass", from: "127.0.1.\(1 + index)", timeout: 60)
        }
        let after = RawHTTP.memory(of: server.pid)
        let risen = (after.peak - before.peak) / 1024
        #expect(risen < 512, "peak memory rose by \(risen) MiB")
        let statuses = responses.map { $0?.status ?? 0 }
        #expect(statuses.filter { $0 == 200 }.count >= 2)
        for response in responses where response?.status != 200 {
            #expect(response?.status == 503, "a sign-in got \(response?.status ?? 0) \(response?.error ?? "no answer")")
            #expect(Int(response?.headers["retry-after"] ?? "") ?? 0 > 0)
        }
    }

    @Test("of 40 concurrent wrong passwords for one user from one address, at most 12 are checked; the rest are 429")
    func concurrentGuessesCounted() async throws {
        let server = try Shared.running()
        let responses = RawHTTP.concurrently(40) { _ in
            Hostile.login(server, "inspector", "wrong-guess", from: "127.0.2.1", timeout: 60)
        }
        let checked = responses.filter { $0?.status == 401 }.count
        let throttled = responses.filter { $0?.status == 429 }.count
        #expect(checked <= 12, "\(checked) guesses were checked")
        #expect(checked + throttled == 40, "statuses: \(responses.map { $0?.status ?? 0 })")
    }

    @Test("wrong sign-ins from one address do not lock the user out from another")
    func noLockoutFromElsewhere() async throws {
        let server = try Shared.running()
        var last: RawResponse?
        for _ in 0..<12 { last = Hostile.login(server, "supervisor", "not-it", from: "127.0.2.2") }
        #expect(last?.status == 429)
        let wait = Int(last?.headers["retry-after"] ?? "") ?? 0
        #expect(wait > 0)
        #expect(Hostile.login(server, "supervisor", "supervisor-pass", from: "127.0.2.2")?.status == 429)
        #expect(Hostile.login(server, "supervisor", "supervisor-pass", from: "127.0.2.3")?.status == 200)
    }

    @Test("user names over 256 bytes are refused unread; 100 of 1 MB leave the server's memory where it was")
    func longUserNames() async throws {
        let server = try ServerProcess(["--demo"])
        _ = Hostile.login(server, "inspector", "inspector-pass")
        let before = RawHTTP.memory(of: server.pid).rss
        let name = String(repeating: "n", count: 1_000_000)
        var responses: [RawResponse?] = []
        for round in 0..<10 {
            responses += RawHTTP.concurrently(10) { index in
                Hostile.login(server, name + String(round * 10 + index), "x", from: "127.0.3.\(1 + index)", timeout: 60)
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        let risen = (RawHTTP.memory(of: server.pid).rss - before) / 1024
        #expect(risen < 40, "resident memory rose by \(risen) MiB and stayed")
        for response in responses {
            #expect(response?.status == 400)
            #expect(response?.error.contains("'username'") == true, "\(response?.error ?? "no answer")")
        }
    }

    @Test("the throttle's table stays bounded however many names are tried")
    func throttleTableBounded() {
        let throttle = LoginThrottle(capacity: 100)
        let now = Date()
        for index in 0..<1000 {
            _ = throttle.begin(address: "127.0.0.1", username: "user-\(index)", now: now)
            throttle.finish(address: "127.0.0.1", username: "user-\(index)", outcome: .failed, now: now)
        }
        #expect(throttle.count <= 100)
    }

    @Test("lockouts grow: one minute, then two, for the same address and user name")
    func lockoutsGrow() {
        let throttle = LoginThrottle()
        func fail(times: Int, at now: Date) -> Int? {
            for _ in 0..<times {
                if let wait = throttle.begin(address: "127.0.0.9", username: "ana", now: now) { return wait }
                throttle.finish(address: "127.0.0.9", username: "ana", outcome: .failed, now: now)
            }
            return throttle.begin(address: "127.0.0.9", username: "ana", now: now)
        }
        let start = Date()
        #expect(fail(times: LoginThrottle.perUser, at: start) == 60)
        #expect(fail(times: LoginThrottle.perUser, at: start.addingTimeInterval(61)) == 120)
        #expect(throttle.begin(address: "127.0.0.10", username: "ana", now: start.addingTimeInterval(62)) == nil)
    }

    @Test("a token signed with the real key but naming another user's session is refused")
    func sessionBoundToUser() async throws {
        let server = try Shared.running()
        let inspector = try Hostile.token(Hostile.login(server, "inspector", "inspector-pass", from: "127.0.2.4"))
        let claimsPart = try #require(inspector.split(separator: ".").first)
        let claims = try JSONDecoder().decode(AccessClaims.self, from: Data(try #require(Base64URL.decode(claimsPart))))
        // The attacker has the database (and its key) and their own session.
        let read = try ServerDatabases.query(server.databasePath, "SELECT value FROM settings WHERE key = 'token_key'")
        let hex = read.trimmingCharacters(in: .whitespacesAndNewlines)
        let key = stride(from: 0, to: hex.count, by: 2).compactMap { offset -> UInt8? in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
        }
        try #require(key.count == 32)
        let forged = TokenSigner(key: key).sign(
            AccessClaims(
                sub: "U-SUPERVISOR", sid: claims.sid, role: "supervisor",
                exp: claims.exp))
        #expect(Hostile.send(server, RawHTTP.request("GET", "/api/v1/rollup", token: forged))?.status == 401)
        #expect(Hostile.send(server, RawHTTP.request("GET", "/api/v1/auth/me", token: inspector))?.status == 200)
    }

    @Test("a rotated refresh token used again revokes its whole family")
    func refreshReuseRevokesFamily() async throws {
        let server = try Shared.running()
        let login = try #require(Hostile.login(server, "inspector", "inspector-pass", from: "127.0.2.5"))
        let first = try #require(login.json["data"]?["refresh_token"]?.stringValue)
        let access = try #require(login.json["data"]?["access_token"]?.stringValue)
        let rotated = Hostile.send(
            server, RawHTTP.json("POST", "/api/v1/auth/refresh", ["refresh_token": .string(first)]))
        let second = try #require(rotated?.json["data"]?["refresh_token"]?.stringValue)
        let replay = Hostile.send(
            server, RawHTTP.json("POST", "/api/v1/auth/refresh", ["refresh_token": .string(first)]))
        #expect(replay?.status == 401)
        let successor = Hostile.send(
            server, RawHTTP.json("POST", "/api/v1/auth/refresh", ["refresh_token": .string(second)]))
        #expect(successor?.status == 401, "the successor of a replayed refresh token still works")
        #expect(Hostile.send(server, RawHTTP.request("GET", "/api/v1/auth/me", token: access))?.status == 401)
    }

    @Test("refresh tokens expire when unused (idle) and when their session is too old (absolute)")
    func refreshExpiry() async throws {
        // Stored times have whole seconds, so each check may see up to a second more.
        // An idle lifetime well above the refresh interval, so a request held up on a loaded machine is not idle.
        let server = try ServerProcess(["--demo", "--refresh-idle-ttl", "5", "--refresh-max-age", "10"])
        func refresh(_ token: String) -> RawResponse? {
            Hostile.send(server, RawHTTP.json("POST", "/api/v1/auth/refresh", ["refresh_token": .string(token)]))
        }
        let idle = try #require(
            Hostile.login(server, "inspector", "inspector-pass")?.json["data"]?["refresh_token"]?.stringValue)
        try await Task.sleep(for: .milliseconds(6_200))
        #expect(refresh(idle)?.status == 401, "a refresh token idle past --refresh-idle-ttl still works")

        // Refreshed every 0.7 s, the session is never idle, yet it ends at its maximum age. On a server whose
        // idle lifetime is longer than that age: a refresh held up on a loaded machine does not end it first.
        let aging = try ServerProcess(["--demo", "--refresh-idle-ttl", "60", "--refresh-max-age", "10"])
        func refreshAging(_ token: String) -> RawResponse? {
            Hostile.send(aging, RawHTTP.json("POST", "/api/v1/auth/refresh", ["refresh_token": .string(token)]))
        }
        var token = try #require(
            Hostile.login(aging, "inspector", "inspector-pass")?.json["data"]?["refresh_token"]?.stringValue)
        let started = Date()
        var endedAfter: TimeInterval?
        while Date().timeIntervalSince(started) < 18 {
            try await Task.sleep(for: .milliseconds(700))
            let asked = Date().timeIntervalSince(started)
            let response = try #require(refreshAging(token))
            if response.status == 401 { endedAfter = asked; break }
            try #require(response.status == 200, "a refresh failed: \(response.status) \(response.error)")
            token = try #require(response.json["data"]?["refresh_token"]?.stringValue)
        }
        let ended = try #require(endedAfter, "a session older than --refresh-max-age can still be refreshed")
        // Stored times have whole seconds: the session may end up to a second early, never sooner.
        #expect(ended >= 9, "the session ended \(ended) s after sign-in, before its maximum age of 10 s")
    }

    @Test("a password change signs the user out everywhere")
    func passwordChangeRevokes() async throws {
        let server = try ServerProcess(["--demo"])
        let login = try #require(Hostile.login(server, "inspector", "inspector-pass"))
        let access = try Hostile.token(login)
        let refresh = try #require(login.json["data"]?["refresh_token"]?.stringValue)
        let changed = try Programs.run(
            "jqc-server", ["admin", "set-password", "inspector", "--db", server.databasePath],
            stdin: "a-new-pass\n")
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(Hostile.send(server, RawHTTP.request("GET", "/api/v1/auth/me", token: access))?.status == 401)
        #expect(
            Hostile.send(server, RawHTTP.json("POST", "/api/v1/auth/refresh", ["refresh_token": .string(refresh)]))?
                .status == 401)
        #expect(Hostile.login(server, "inspector", "a-new-pass")?.status == 200)
    }
}
