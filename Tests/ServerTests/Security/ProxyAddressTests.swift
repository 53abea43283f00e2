import Foundation
import Models
import Testing
import TestSupport

/// Behind a reverse proxy every connection comes from the proxy; the
/// sign-in limits must still count each client on its own, and a client
/// must not be able to choose the address it is counted under. (An hour's
/// window, so a loaded machine's slow password checks stay inside it.)
@Suite("Sign-in limits behind a reverse proxy")
struct ProxyAddressTests {
    private func attempt(_ server: ServerProcess, forwardedFor: String) async throws -> Int {
        let body = try JSONEncoder().encode(JSONValue.object(["username": "inspector", "password": "wrong-password"]))
        return try await HTTPTestClient().send(
            "POST", server.url("/auth/login"), body: body,
            headers: ["X-Forwarded-For": forwardedFor]
        ).status
    }

    @Test("from a --trusted-proxy, X-Forwarded-For names the client: one client's failures do not lock out another")
    func trustedProxy() async throws {
        let server = try ServerProcess(["--demo", "--trusted-proxy", "127.0.0.1", "--sign-in-window", "3600"])
        var statuses: [Int] = []
        for _ in 0..<11 { statuses.append(try await attempt(server, forwardedFor: "198.51.100.7, 203.0.113.5")) }
        #expect(statuses == Array(repeating: 401, count: 10) + [429])
        #expect(
            try await attempt(server, forwardedFor: "203.0.113.6") == 401,
            "another client behind the proxy was locked out")
    }

    @Test("from anyone else, X-Forwarded-For is ignored: a new header each try does not escape the limit")
    func untrustedHeader() async throws {
        let server = try ServerProcess(["--demo", "--sign-in-window", "3600"])
        var statuses: [Int] = []
        for index in 0..<11 { statuses.append(try await attempt(server, forwardedFor: "203.0.113.\(index)")) }
        #expect(statuses == Array(repeating: 401, count: 10) + [429])
    }
}
