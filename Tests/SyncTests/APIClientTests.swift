import Foundation
import Models
import Networking
import Sync
import Testing
import TestSupport

@Suite("API client against jqc-server --demo")
struct APIClientTests {

    // MARK: - Auth

    @Test("login keeps and reports the credentials, and me names the signed-in inspector")
    func loginAndMe() async throws {
        let server = try DemoServer.running()
        let log = TokenLog()
        let client = try makeClient(server.baseURL, log: log)
        let credentials = try await client.login(username: "inspector", password: "inspector-pass")
        #expect(credentials.user.username == "inspector")
        #expect(credentials.user.role == .inspector)
        #expect(log.all == [credentials])
        #expect(await client.credentials == credentials)

        let me = try await client.me()
        #expect(me.username == "inspector")
        #expect(me.role == .inspector)
    }

    @Test("a wrong password is authRequired, and the message never shows the password")
    func wrongPassword() async throws {
        let server = try DemoServer.running()
        let log = TokenLog()
        let client = try makeClient(server.baseURL, log: log)
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.login(username: "supervisor", password: "not-the-Secret-9")
            })
        #expect(error.code == .authRequired)
        #expect(error.status == 401)
        #expect(!error.description.contains("not-the-Secret-9"))
        #expect(log.all.isEmpty)
        #expect(await client.credentials == nil)
    }

    @Test("a request before signing in is authRequired without reaching the network")
    func notSignedIn() async throws {
        let client = try makeClient("http://127.0.0.1:\(try CannedHTTPServer.closedPort())")
        let error = try #require(await apiError { () async throws(APIError) in try await client.me() })
        #expect(error.code == .authRequired)
        #expect(error.message == "Sign in again with 'jqc login'; nothing on this device was lost.")
    }

    @Test("a 401 refreshes once and retries once; the rotated tokens are reported")
    func refreshAndRetry() async throws {
        let server = try DemoServer.running()
        let signed = try await signedIn(server)
        let original = try #require(await signed.credentials)
        let log = TokenLog()
        var stale = original
        stale.accessToken = "expired-" + original.accessToken.dropFirst(8)
        let client = try makeClient(server.baseURL, credentials: stale, log: log)

        let me = try await client.me()
        #expect(me.username == "inspector")
        let reported = log.all
        #expect(reported.count == 1)
        let renewed = try #require(reported.first ?? nil)
        #expect(renewed.refreshToken != original.refreshToken)
        #expect(renewed.accessToken != stale.accessToken)
        #expect(await client.credentials == renewed)
    }

    @Test("tokens the app cannot keep fail the request that brought them: a sign-in, and a refresh after a 401")
    func tokensNotKept() async throws {
        let server = try DemoServer.running()
        let refusing: APIClient.TokensChanged = { new throws(APIError) in
            if new != nil { throw APIError(.sessionNotSaved, "could not keep them") }
        }
        let fresh = try APIClient(
            configuration: .init(serverURL: server.baseURL, appVersion: "0.1.0", deviceID: UUID()),
            transport: CurlTransport(options: .init(connectTimeout: 5, totalTimeout: 20)),
            onTokensChanged: refusing)
        let signIn = await #expect(throws: APIError.self) {
            try await fresh.login(username: "inspector", password: "inspector-pass")
        }
        #expect(signIn?.code == .sessionNotSaved)

        let original = try #require(await signedIn(server).credentials)
        var stale = original
        stale.accessToken = "expired-" + original.accessToken.dropFirst(8)
        let client = try APIClient(
            configuration: .init(serverURL: server.baseURL, appVersion: "0.1.0", deviceID: UUID()),
            transport: CurlTransport(options: .init(connectTimeout: 5, totalTimeout: 20)),
            credentials: stale, onTokensChanged: refusing)
        let refreshed = await #expect(throws: APIError.self) { try await client.me() }
        #expect(refreshed?.code == .sessionNotSaved, "the person hears of it now, not at the next run")
        #expect(
            await client.credentials?.refreshToken != original.refreshToken,
            "the renewed tokens stay in use in this client")
    }

    @Test("concurrent requests that meet one expired token share a single refresh")
    func concurrentRefresh() async throws {
        let server = try DemoServer.running()
        let signed = try await signedIn(server)
        let original = try #require(await signed.credentials)
        var stale = original
        stale.accessToken = "expired"
        let log = TokenLog()
        let client = try makeClient(server.baseURL, credentials: stale, log: log)

        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 { group.addTask { try await client.me().username } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(names == Array(repeating: "inspector", count: 4))
        #expect(log.all.count == 1)
        #expect(log.all.allSatisfy { $0 != nil })
    }

    @Test("a spent refresh token ends the session: authRequired, sign in again, credentials reported gone")
    func spentRefreshToken() async throws {
        let server = try DemoServer.running()
        let client = try await signedIn(server)
        let spent = try #require(await client.credentials)
        try await client.refresh() // spends `spent.refreshToken`

        var stale = spent
        stale.accessToken = "expired"
        let log = TokenLog()
        let other = try makeClient(server.baseURL, credentials: stale, log: log)
        let error = try #require(await apiError { () async throws(APIError) in try await other.facilities() })
        #expect(error.code == .authRequired)
        #expect(error.message == "Sign in again with 'jqc login'; nothing on this device was lost.")
        #expect(log.all == [nil])
        #expect(await other.credentials == nil)
    }

    @Test("failed requests never show the tokens, and neither do the credentials' descriptions")
    func tokensNeverShown() async throws {
        let server = try DemoServer.running()
        let user = WireUser(id: "1", username: "inspector", role: .inspector, displayName: "Ines")
        let credentials = Credentials(
            accessToken: "ACCESS-7f3a9c-secret", refreshToken: "REFRESH-91b2d4-secret", user: user)
        let client = try makeClient(server.baseURL, credentials: credentials)
        let refused = try #require(await apiError { () async throws(APIError) in try await client.templates() })
        #expect(refused.code == .authRequired)

        let offline = try makeClient("http://127.0.0.1:\(try CannedHTTPServer.closedPort())", credentials: credentials)
        let unreachable = try #require(await apiError { () async throws(APIError) in try await offline.me() })
        #expect(unreachable.code == .offline)

        let texts = [
            refused.description, String(reflecting: refused), unreachable.description, String(reflecting: unreachable),
            String(describing: credentials), String(reflecting: credentials), dumped(credentials),
        ]
        for text in texts {
            #expect(!text.contains("ACCESS-7f3a9c-secret"), "\(text)")
            #expect(!text.contains("REFRESH-91b2d4-secret"), "\(text)")
        }
    }

    @Test("logout forgets the credentials and revokes the session on the server")
    func logout() async throws {
        let server = try DemoServer.running()
        let log = TokenLog()
        let client = try await signedIn(server, log: log)
        let before = try #require(await client.credentials)
        try await client.logout()
        #expect(await client.credentials == nil)
        #expect(log.all.last == .some(nil))

        let revived = try makeClient(server.baseURL, credentials: before)
        let error = try #require(await apiError { () async throws(APIError) in try await revived.me() })
        #expect(error.code == .authRequired)
    }

    // MARK: - Reference data, history, roll-up

    @Test("facilities, areas, templates and assignments decode from the demo world")
    func referenceData() async throws {
        let client = try await signedIn(try DemoServer.running())
        let facilities = try await client.facilities()
        #expect(facilities.contains { $0.id == "F-100" })
        let areas = try await client.areas(facilityID: "F-100")
        #expect(areas.map(\.id).contains("A-102"))
        #expect(areas.allSatisfy { $0.facilityID == "F-100" })
        let templates = try await client.templates()
        #expect(templates.contains { $0["id"]?.stringValue == "lobby-walk" })
        let assignments = try await client.assignments()
        #expect(assignments.assignments.contains { $0.id == "AS-1" })
        #expect(!assignments.cursor.isEmpty)
        let unknown = try #require(
            await apiError { () async throws(APIError) in try await client.areas(facilityID: "F/none?") })
        #expect(unknown.code == .notFound)
    }

    @Test("the roll-up is for supervisors: forbidden to an inspector, decoded for a supervisor")
    func rollup() async throws {
        let server = try DemoServer.running()
        let inspector = try await signedIn(server)
        let refused = try #require(await apiError { () async throws(APIError) in try await inspector.rollup() })
        #expect(refused.code == .forbidden)
        #expect(refused.status == 403)

        let supervisor = try await signedIn(server, "supervisor")
        let rollup = try await supervisor.rollup()
        #expect(!rollup.generatedAt.isEmpty)
    }

    // MARK: - Reports

    @Test("a sync batch is accepted, replayed idempotently, readable back and in the history")
    func syncAndReplay() async throws {
        let client = try await signedIn(try DemoServer.running())
        let report = Wire.lobby()
        let first = try await client.syncReports(Wire.batch([report]))
        let accepted = try #require(first.results.first)
        #expect(accepted.status == .accepted)
        #expect(accepted.localID == report.localID)
        let serverID = try #require(accepted.serverID)

        let again = try await client.syncReports(Wire.batch([report]))
        #expect(again.results.first?.status == .accepted)
        #expect(again.results.first?.serverID == serverID)
        #expect(again.results.first?.revision == accepted.revision)

        let remote = try await client.report(serverID: serverID)
        #expect(remote.report.localID == report.localID)
        #expect(remote.revision == accepted.revision)

        let history = try await client.history(limit: 100)
        #expect(history.items.contains { $0.serverID == serverID })
    }

    @Test("a supervisor's PATCH makes a new revision; a stale base revision is conflict")
    func amendAndConflict() async throws {
        let server = try DemoServer.running()
        let inspector = try await signedIn(server)
        let report = Wire.lobby()
        let result = try #require(try await inspector.syncReports(Wire.batch([report])).results.first)
        let serverID = try #require(result.serverID)
        let base = try #require(result.revision)

        let supervisor = try await signedIn(server, "supervisor")
        var payload = report.payload
        payload.answers = ["entrance": "fail", "glass": 2, "notes": "smudged"]
        let amended = try await supervisor.amendReport(serverID: serverID, payload: payload, baseRevision: base)
        #expect(amended.revision == base + 1)

        let stale = try #require(
            await apiError { () async throws(APIError) in
                try await supervisor.amendReport(serverID: serverID, payload: payload, baseRevision: base)
            })
        #expect(stale.code == .conflict)
        #expect(stale.status == 409)
    }

    // MARK: - Photos

    @Test("a photo streamed from disk is 201, the same photo again 200, and a wrong sha256 is hashMismatch")
    func photoUpload() async throws {
        let client = try await signedIn(try DemoServer.running())
        let serverID = try #require(try await client.syncReports(Wire.batch([Wire.lobby()])).results.first?.serverID)
        let directory = TemporaryDirectory()
        let path = try Photos.jpeg(300_000, in: directory)
        let photo = PhotoUpload(
            serverID: serverID, localID: UUID(), fieldID: "notes", sha256: try Photos.sha256(path), filePath: path)

        let first = try await client.uploadPhoto(photo)
        #expect(first.created)
        #expect(first.photo.localID == photo.localID)
        #expect(first.photo.byteSize == 300_000)
        let again = try await client.uploadPhoto(photo)
        #expect(!again.created)
        #expect(again.photo == first.photo)
        #expect(try await client.report(serverID: serverID).photos.map(\.localID) == [photo.localID])

        var wrong = photo
        wrong.localID = UUID()
        wrong.sha256 = String(repeating: "ab", count: 32)
        let mismatch = try #require(await apiError { () async throws(APIError) in try await client.uploadPhoto(wrong) })
        #expect(mismatch.code == .hashMismatch)
        #expect(mismatch.status == 422)
    }

    @Test("several photos upload concurrently, three at a time, each accepted, results in input order")
    func uploadMany() async throws {
        let client = try await signedIn(try DemoServer.running())
        let serverID = try #require(try await client.syncReports(Wire.batch([Wire.lobby()])).results.first?.serverID)
        let directory = TemporaryDirectory()
        var photos: [PhotoUpload] = []
        for index in 0..<7 {
            let path = try Photos.jpeg(40_000 + index * 9_000, in: directory, seed: UInt32(index))
            photos.append(
                PhotoUpload(serverID: serverID, localID: UUID(), sha256: try Photos.sha256(path), filePath: path))
        }
        let results = await client.uploadPhotos(photos, maxConcurrent: 3)
        #expect(results.count == photos.count)
        for (index, (photo, result)) in zip(photos, results).enumerated() {
            let receipt = try result.get()
            #expect(receipt.created)
            #expect(receipt.photo.localID == photo.localID)
            #expect(receipt.photo.byteSize == Int64(40_000 + index * 9_000))
        }
        #expect(Set(try await client.report(serverID: serverID).photos.map(\.localID)) == Set(photos.map(\.localID)))
    }

    @Test("in a concurrent batch a missing file fails alone, and a 401 is refreshed once for the whole batch")
    func uploadManyWithFailures() async throws {
        let server = try DemoServer.running()
        let signed = try await signedIn(server)
        let serverID = try #require(try await signed.syncReports(Wire.batch([Wire.lobby()])).results.first?.serverID)
        var stale = try #require(await signed.credentials)
        stale.accessToken = "expired"
        let log = TokenLog()
        let client = try makeClient(server.baseURL, credentials: stale, log: log)

        let directory = TemporaryDirectory()
        let good = try Photos.jpeg(20_000, in: directory, seed: 1)
        let other = try Photos.jpeg(25_000, in: directory, seed: 2)
        let photos = [
            PhotoUpload(serverID: serverID, localID: UUID(), sha256: try Photos.sha256(good), filePath: good),
            PhotoUpload(
                serverID: serverID, localID: UUID(), sha256: String(repeating: "0", count: 64),
                filePath: directory.path("gone.jpg")),
            PhotoUpload(serverID: serverID, localID: UUID(), sha256: try Photos.sha256(other), filePath: other),
        ]
        let results = await client.uploadPhotos(photos, maxConcurrent: 3)
        #expect(try results[0].get().photo.localID == photos[0].localID)
        #expect(try results[2].get().photo.localID == photos[2].localID)
        guard case .failure(let missing) = results[1] else {
            Issue.record("a missing file uploaded")
            return
        }
        #expect(missing.code == .fileUnreadable)
        #expect(missing.message.contains("gone.jpg"))
        #expect(log.all.count == 1)
    }

    // MARK: - Faults

    @Test("a server answering 503 with Retry-After is unavailable, with the wait it asked for")
    func unavailable() async throws {
        let busy = try ServerProcess(["--demo", "--fault-rate", "1"])
        defer { busy.stop() }
        let client = try makeClient(busy.baseURL, longestRetryAfterWait: 0)
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.login(username: "inspector", password: "inspector-pass")
            })
        #expect(error.code == .unavailable)
        #expect(error.status == 503)
        #expect(error.retryAfter == 1)
        #expect(error.isTransient)
        #expect(error.message.contains(URL(string: busy.baseURL)?.port.map(String.init) ?? "?"))
    }

    @Test("https to a plain-HTTP port fails TLS instead of succeeding: verification is always on")
    func tlsRequired() async throws {
        let server = try DemoServer.running()
        let https = server.baseURL.replacingOccurrences(of: "http://", with: "https://")
        let client = try makeClient(https)
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.login(username: "inspector", password: "inspector-pass")
            })
        #expect(error.code == .tls)
        #expect(error.message.contains("127.0.0.1"))
        #expect(!error.message.contains("\n"))
    }

    @Test("a closed port is offline, at once, and transient")
    func offline() async throws {
        let port = try CannedHTTPServer.closedPort()
        let client = try makeClient("http://127.0.0.1:\(port)")
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.login(username: "inspector", password: "inspector-pass")
            })
        #expect(error.code == .offline)
        #expect(error.isTransient)
        #expect(error.message.contains("127.0.0.1:\(port)"))
    }

    @Test(
        "a server URL that is not http or https is refused when the client is made",
        arguments: ["ftp://example.com", "example.com", "file:///etc/passwd", "https://user:pw@example.com"])
    func badServerURL(url: String) {
        #expect(throws: APIError.self) { try makeClient(url) }
    }

    private func dumped(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}
