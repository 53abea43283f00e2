import Foundation
import Models
import Testing
import TestSupport

@Suite("Auth")
struct AuthContractTests {
    @Test("login answers tokens and the user; /auth/me names the same user")
    func login() async throws {
        let server = try Shared.running()
        let response = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": "supervisor", "password": "supervisor-pass"])
        #expect(response.status == 200)
        #expect(response.json["ok"] == true)
        #expect(response.data["expires_in"]?.integerValue ?? 0 > 0)
        #expect(response.data["user"]?["role"] == "supervisor")
        let token = try #require(response.data["access_token"]?.stringValue)
        let me = try await HTTPTestClient().send("GET", server.url("/auth/me"), token: token)
        #expect(me.data["user"]?["username"] == "supervisor")
        #expect(me.data["user"]?["display_name"]?.stringValue?.isEmpty == false)
    }

    @Test(
        "wrong credentials are 401 AUTH_REQUIRED",
        arguments: [("inspector", "nope"), ("nobody", "inspector-pass"), ("", "")])
    func wrongCredentials(_ username: String, _ password: String) async throws {
        let server = try Shared.running()
        let response = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": .string(username), "password": .string(password)])
        #expect(response.status == 401)
        #expect(response.code == "AUTH_REQUIRED")
    }

    @Test("refresh rotates: the new pair works; the spent refresh token is 401 and ends the session")
    func refreshRotates() async throws {
        let server = try Shared.running()
        let session = try await Session.inspector(server)
        let client = HTTPTestClient()
        let first = try await client.send(
            "POST", server.url("/auth/refresh"), json: ["refresh_token": .string(session.refreshToken)])
        #expect(first.status == 200)
        let newRefresh = try #require(first.data["refresh_token"]?.stringValue)
        #expect(newRefresh != session.refreshToken)
        let newAccess = try #require(first.data["access_token"]?.stringValue)
        #expect(try await client.send("GET", server.url("/facilities"), token: newAccess).status == 200)

        let spent = try await client.send(
            "POST", server.url("/auth/refresh"), json: ["refresh_token": .string(session.refreshToken)])
        #expect(spent.status == 401)
        #expect(spent.code == "AUTH_REQUIRED")
        let next = try await client.send(
            "POST", server.url("/auth/refresh"), json: ["refresh_token": .string(newRefresh)])
        #expect(next.status == 401, "a spent refresh token presented again must end its whole session")
    }

    @Test("logout revokes the session: its access and refresh tokens stop working; a second logout is still {}")
    func logoutRevokes() async throws {
        let server = try Shared.running()
        let session = try await Session.inspector(server)
        let body: JSONValue = ["refresh_token": .string(session.refreshToken)]
        let out = try await session.post("/auth/logout", body)
        #expect(out.status == 200)
        #expect(out.data == .object([:]))
        #expect(try await session.get("/auth/me").status == 401)
        let refresh = try await HTTPTestClient().send("POST", server.url("/auth/refresh"), json: body)
        #expect(refresh.status == 401)
        let again = try await session.post("/auth/logout", body)
        #expect(again.status == 200)
    }

    @Test(
        "a missing, malformed or tampered token is 401",
        arguments: [nil, "", "not-a-token", "eyJzdWIiOiJVLUlOU1BFQ1RPUiJ9.AAAA"])
    func badTokens(_ token: String?) async throws {
        let server = try Shared.running()
        let response = try await HTTPTestClient().send("GET", server.url("/facilities"), token: token)
        #expect(response.status == 401)
        #expect(response.code == "AUTH_REQUIRED")
    }

    @Test("a token signed correctly but altered in its claims is 401")
    func alteredClaims() async throws {
        let server = try Shared.running()
        let session = try await Session.inspector(server)
        let parts = session.accessToken.split(separator: ".")
        let forged = Data(#"{"exp":9999999999,"role":"supervisor","sid":"x","sub":"U-SUPERVISOR"}"#.utf8)
            .base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(
                of: "/", with: "_")
        let response = try await HTTPTestClient().send("GET", server.url("/rollup"), token: forged + "." + parts[1])
        #expect(response.status == 401)
    }

    @Test("repeated failed sign-ins are refused with 429 and Retry-After")
    func throttled() async throws {
        // A server of its own: the shared one's password checks are busy with
        // every other suite's sign-ins, and a check that waits too long is a 503.
        // An hour's window: on a loaded machine twelve password checks can take over a minute.
        let server = try ServerProcess(["--demo", "--sign-in-window", "3600"])
        var last: TestResponse?
        for _ in 0..<12 {
            // A connection each, as a stranger guessing sends them: none waits on one the server closed while idle.
            last = try await HTTPTestClient().send(
                "POST", server.url("/auth/login"), json: ["username": "mallory", "password": "guess"])
        }
        let response = try #require(last)
        #expect(response.status == 429)
        #expect(Int(response.header("Retry-After") ?? "") ?? 0 > 0)
    }
}
