import Foundation
import Models
import Testing
import TestSupport

/// Resumable photo uploads (contract 1.1) against a real server on loopback,
/// on the run's store (SQLite, or PostgreSQL with `JQC_TEST_SERVER_DATABASE=postgres`).
@Suite("Resumable uploads")
struct UploadContractTests {
    /// A report of the caller's and an upload begun for `photo`; its url.
    static func begin(_ me: Session, _ photo: Data, sha256: String? = nil) async throws -> (
        serverID: String, url: String, localID: String
    ) {
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        let localID = UUID().uuidString.lowercased()
        let created = try await me.post(
            "/reports/\(serverID)/uploads",
            [
                "local_id": .string(localID), "field_id": "notes",
                "sha256": .string(try sha256 ?? PhotoContractTests.sha256(photo)),
                "byte_size": .integer(Int64(photo.count)),
            ])
        #expect(created.status == 201, "\(created.status) \(created.message)")
        #expect(created.data["upload"]?["offset"] == 0)
        let url = try #require(created.data["upload"]?["url"]?.stringValue)
        #expect(url.hasPrefix("/api/v1/uploads/"))
        return (serverID, url, localID)
    }

    static func patch(_ me: Session, _ url: String, offset: Int, _ bytes: Data) async throws -> TestResponse {
        try await me.client.send(
            "PATCH", me.server.baseURL + url, body: bytes, token: me.accessToken,
            headers: ["Content-Type": "application/offset+octet-stream", "Upload-Offset": String(offset)])
    }

    static func head(_ me: Session, _ url: String) async throws -> TestResponse {
        try await me.client.send("HEAD", me.server.baseURL + url, token: me.accessToken)
    }

    @Test(
        "an upload in three PATCHes: 204 with each new Upload-Offset, HEAD tells it, the last is 201 the photo, and the bytes come back whole"
    )
    func wholeInParts() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let photo = PhotoContractTests.jpeg(60_000)
        let (serverID, url, localID) = try await Self.begin(me, photo)
        let first = try await Self.patch(me, url, offset: 0, photo.prefix(20_000))
        #expect(first.status == 204)
        #expect(first.header("Upload-Offset") == "20000")
        #expect(try await Self.head(me, url).header("Upload-Offset") == "20000")
        #expect(
            try await Self.patch(me, url, offset: 20_000, photo[20_000..<40_000]).header("Upload-Offset") == "40000")
        let last = try await Self.patch(me, url, offset: 40_000, photo[40_000...])
        #expect(last.status == 201, "\(last.status) \(last.message)")
        #expect(last.data["photo"]?["byte_size"] == 60_000)
        #expect(last.data["photo"]?["local_id"]?.stringValue == localID)
        let finished = try await Self.head(me, url)
        #expect(finished.status == 200)
        #expect(finished.header("Upload-Offset") == "60000")
        let download = try await me.client.send(
            "GET", server.baseURL + (try #require(last.data["photo"]?["url"]?.stringValue)), token: me.accessToken)
        #expect(download.body == photo)
        // The same POST again answers the photo, as the multipart route does.
        let again = try await me.post(
            "/reports/\(serverID)/uploads",
            [
                "local_id": .string(localID), "sha256": .string(try PhotoContractTests.sha256(photo)),
                "byte_size": 60_000,
            ])
        #expect(again.status == 200)
        #expect(again.data["photo"]?["url"] == last.data["photo"]?["url"])
    }

    @Test(
        "a whole photo in one PATCH is 201 the photo; HEAD answers its size; sent again it is 409 at its size, and the empty PATCH there answers the photo"
    )
    func wholeInOne() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let photo = PhotoContractTests.jpeg(45_000)
        let (_, url, localID) = try await Self.begin(me, photo)
        let whole = try await Self.patch(me, url, offset: 0, photo)
        #expect(whole.status == 201, "\(whole.status) \(whole.message)")
        #expect(whole.data["photo"]?["local_id"]?.stringValue == localID)
        #expect(whole.data["photo"]?["byte_size"] == 45_000)
        #expect(try await Self.head(me, url).header("Upload-Offset") == "45000")
        let download = try await me.client.send(
            "GET", server.baseURL + (try #require(whole.data["photo"]?["url"]?.stringValue)), token: me.accessToken)
        #expect(download.body == photo)
        let again = try await Self.patch(me, url, offset: 0, photo)
        #expect(again.status == 409)
        #expect(again.header("Upload-Offset") == "45000")
        let end = try await Self.patch(me, url, offset: 45_000, Data())
        #expect(end.status == 200, "\(end.status) \(end.message)")
        #expect(end.data["photo"]?["url"] == whole.data["photo"]?["url"])
    }

    @Test("the same POST for an unfinished upload is 200 with its url and offset")
    func sameUploadAgain() async throws {
        let me = try await Session.inspector(try Shared.running())
        let photo = PhotoContractTests.jpeg(50_000)
        let (serverID, url, localID) = try await Self.begin(me, photo)
        _ = try await Self.patch(me, url, offset: 0, photo.prefix(20_000))
        let again = try await me.post(
            "/reports/\(serverID)/uploads",
            [
                "local_id": .string(localID), "sha256": .string(try PhotoContractTests.sha256(photo)),
                "byte_size": 50_000,
            ])
        #expect(again.status == 200)
        #expect(again.data["upload"]?["url"]?.stringValue == url)
        #expect(again.data["upload"]?["offset"] == 20_000)
    }

    @Test(
        "on SQLite, an unfinished upload whose bytes the upload folder no longer holds (a database restored from a backup, uploads in flight left behind) is gone: HEAD 404, and the same POST begins a new upload from 0 that completes"
    )
    func bytesLeftBehindBeginAgain() async throws {
        let photo = PhotoContractTests.jpeg(50_000)
        let kept = try await PartlyKept(photo)
        let (server, me, serverID, url, localID) = (kept.server, kept.me, kept.serverID, kept.url, kept.localID)
        try FileManager.default.removeItem(atPath: kept.partial)

        let head = try await Self.head(me, url)
        #expect(head.status == 404, "\(head.status)")
        let again = try await me.post(
            "/reports/\(serverID)/uploads",
            [
                "local_id": .string(localID), "field_id": "notes",
                "sha256": .string(try PhotoContractTests.sha256(photo)),
                "byte_size": .integer(Int64(photo.count)),
            ])
        #expect(
            again.status == 201, "a new upload, not the old one whose bytes are gone: \(again.status) \(again.message)")
        #expect(again.data["upload"]?["offset"] == 0)
        let fresh = try #require(again.data["upload"]?["url"]?.stringValue)
        #expect(fresh != url)
        let stored = try await Self.patch(me, fresh, offset: 0, photo)
        #expect(stored.status == 201, "\(stored.status) \(stored.message)")
        let download = try await me.client.send(
            "GET", server.baseURL + (try #require(stored.data["photo"]?["url"]?.stringValue)),
            token: me.accessToken)
        #expect(download.body == photo)
    }

    @Test(
        "on SQLite, the bytes of an upload sent in two PATCHes are kept in the upload folder until the photo is stored, and not after"
    )
    func finishedUploadLeavesNoFile() async throws {
        let photo = PhotoContractTests.jpeg(50_000)
        let kept = try await PartlyKept(photo)
        let last = try await Self.patch(kept.me, kept.url, offset: 20_000, photo[20_000...])
        #expect(last.status == 201, "\(last.status) \(last.message)")
        #expect(!FileManager.default.fileExists(atPath: kept.partial), "the upload's bytes stayed behind")
    }

    /// A SQLite server's upload of `photo` whose first 20,000 bytes it keeps, in `partial`.
    struct PartlyKept {
        let server: ServerProcess
        let me: Session
        let serverID: String
        let url: String
        let localID: String
        let partial: String

        init(_ photo: Data) async throws {
            server = try ServerProcess(["--demo"], sqlite: true)
            me = try await Session.inspector(server)
            (serverID, url, localID) = try await UploadContractTests.begin(me, photo)
            #expect(try await UploadContractTests.patch(me, url, offset: 0, photo.prefix(20_000)).status == 204)
            partial = server.uploadDirectory + "/partial-" + (url.split(separator: "/").last.map(String.init) ?? "")
            try #require(FileManager.default.fileExists(atPath: partial))
        }
    }

    @Test(
        "a wrong offset is 409 with the right one in Upload-Offset; bytes past the size are 413; neither keeps anything"
    )
    func wrongOffsetAndPastSize() async throws {
        let me = try await Session.inspector(try Shared.running())
        let photo = PhotoContractTests.jpeg(40_000)
        let (_, url, _) = try await Self.begin(me, photo)
        _ = try await Self.patch(me, url, offset: 0, photo.prefix(10_000))
        let wrong = try await Self.patch(me, url, offset: 5_000, photo[5_000..<15_000])
        #expect(wrong.status == 409)
        #expect(wrong.header("Upload-Offset") == "10000")
        let past = try await Self.patch(me, url, offset: 10_000, photo[10_000...] + Data(count: 10))
        #expect(past.status == 413)
        #expect(try await Self.head(me, url).header("Upload-Offset") == "10000")
    }

    @Test(
        "bytes that do not hash to the announced sha256 are 422 PHOTO_HASH_MISMATCH at the last byte, and the upload is gone"
    )
    func hashMismatch() async throws {
        let me = try await Session.inspector(try Shared.running())
        let photo = PhotoContractTests.jpeg(30_000)
        let (serverID, url, _) = try await Self.begin(me, photo, sha256: String(repeating: "ab", count: 32))
        let last = try await Self.patch(me, url, offset: 0, photo)
        #expect(last.status == 422)
        #expect(last.code == "PHOTO_HASH_MISMATCH")
        let gone = try await Self.head(me, url)
        #expect(gone.status == 404)
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["photos"]?.arrayValue?.isEmpty == true)
    }

    @Test("another user's upload answers 404 to HEAD and PATCH, and takes no bytes")
    func anotherUser() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let other = try await Session.supervisor(server)
        let photo = PhotoContractTests.jpeg(20_000)
        let (_, url, _) = try await Self.begin(me, photo)
        #expect(try await Self.head(other, url).status == 404)
        let patched = try await Self.patch(other, url, offset: 0, photo)
        #expect(patched.status == 404)
        #expect(patched.code == "UPLOAD_GONE")
        #expect(try await Self.head(me, url).header("Upload-Offset") == "0")
    }

    @Test("a PATCH whose connection drops mid-body keeps the bytes that arrived; the rest completes the photo")
    func cutShortKeepsBytes() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let photo = PhotoContractTests.jpeg(60_000)
        let (_, url, _) = try await Self.begin(me, photo)
        let port = try #require(URLComponents(string: server.baseURL)?.port)
        let connection = try RawConnection(port: UInt16(port))
        #expect(
            connection.send(
                "PATCH \(url) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(me.accessToken)\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nUpload-Offset: 0\r\nContent-Length: 60000\r\n\r\n"
            ))
        #expect(connection.send(photo.prefix(40_000)))
        usleep(200_000)
        shutdown(connection.fd, Int32(SHUT_RDWR))
        let held = try await Self.head(me, url)
        #expect(held.header("Upload-Offset") == "40000")
        let rest = try await Self.patch(me, url, offset: 40_000, photo[40_000...])
        #expect(rest.status == 201, "\(rest.status) \(rest.message)")
    }

    @Test("unfinished uploads past the per-user cap are 429 QUOTA_EXCEEDED with Retry-After")
    func cap() async throws {
        let server = try ServerProcess(["--demo", "--quota-upload-bytes", "100000"])
        let me = try await Session.inspector(server)
        _ = try await Self.begin(me, PhotoContractTests.jpeg(60_000))
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        let refused = try await me.post(
            "/reports/\(serverID)/uploads",
            [
                "local_id": .string(UUID().uuidString), "sha256": .string(String(repeating: "cd", count: 32)),
                "byte_size": 60_000,
            ])
        #expect(refused.status == 429)
        #expect(refused.code == "QUOTA_EXCEEDED")
        #expect(refused.header("Retry-After") != nil)
    }

    @Test("an upload whose time passed is 404 UPLOAD_GONE, and the server's sweep removes it")
    func expired() async throws {
        let first = try ServerProcess()
        var me = try await Session.inspector(first)
        let photo = PhotoContractTests.jpeg(30_000)
        let (serverID, url, localID) = try await Self.begin(me, photo)
        _ = try await Self.patch(me, url, offset: 0, photo.prefix(10_000))
        first.stop()
        // The same data, two days later: past the default lifetime of a day after the last byte.
        let server = try ServerProcess(
            [], database: first.databasePath, clock: DeviceClock(start: Date().addingTimeInterval(2 * 86_400)))
        #expect(server.stderr.contains("expired resumable upload"))
        me = try await Session.inspector(server)
        let gone = try await Self.patch(me, url, offset: 10_000, photo[10_000...])
        #expect(gone.status == 404)
        #expect(gone.code == "UPLOAD_GONE")
        #expect(try await Self.head(me, url).status == 404)
        // The same photo announced again begins a new upload from its first byte.
        let again = try await me.post(
            "/reports/\(serverID)/uploads",
            [
                "local_id": .string(localID), "sha256": .string(try PhotoContractTests.sha256(photo)),
                "byte_size": 30_000,
            ])
        #expect(again.status == 201, "\(again.message)")
        #expect(again.data["upload"]?["offset"] == 0)
        #expect(again.data["upload"]?["url"]?.stringValue != url)
    }

    @Test("a PATCH without a token is 401, and one of another Content-Type 415, before a byte of its body is read")
    func refusedBeforeTheBody() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let (_, url, _) = try await Self.begin(me, PhotoContractTests.jpeg(20_000))
        let port = UInt16(try #require(URLComponents(string: server.baseURL)?.port))
        let head = "PATCH \(url) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpload-Offset: 0\r\nContent-Length: 20000\r\n"
        let anonymous = try RawConnection(port: port)
        let refused = try #require(
            anonymous.exchange(Data((head + "Content-Type: application/offset+octet-stream\r\n\r\n").utf8)))
        #expect(refused.status == 401)
        let wrongType = try RawConnection(port: port)
        let unsupported = try #require(
            wrongType.exchange(
                Data((head + "Authorization: Bearer \(me.accessToken)\r\nContent-Type: image/jpeg\r\n\r\n").utf8)))
        #expect(unsupported.status == 415)
        #expect(try await Self.head(me, url).header("Upload-Offset") == "0")
    }

    @Test(
        "a signed-out session can neither begin nor continue an upload: 401 before anything its body or headers get wrong, and no byte is kept"
    )
    func signedOutSession() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let photo = PhotoContractTests.jpeg(30_000)
        let (serverID, url, _) = try await Self.begin(me, photo)
        let out = try await me.post("/auth/logout", ["refresh_token": .string(me.refreshToken)])
        #expect(out.status == 200)
        let announced: JSONValue = [
            "local_id": .string(UUID().uuidString.lowercased()),
            "sha256": .string(try PhotoContractTests.sha256(photo)),
            "byte_size": .integer(Int64(photo.count)),
        ]
        let begun = try await me.post("/reports/\(serverID)/uploads", announced)
        #expect(begun.status == 401, "\(begun.status) \(begun.message)")
        let malformed = try await me.post("/reports/\(serverID)/uploads", ["local_id": "not a uuid"])
        #expect(malformed.status == 401, "\(malformed.status) \(malformed.message)")
        let bytes = try await Self.patch(me, url, offset: 0, photo)
        #expect(bytes.status == 401, "\(bytes.status) \(bytes.message)")
        let noOffset = try await me.client.send(
            "PATCH", server.baseURL + url, body: photo, token: me.accessToken,
            headers: ["Content-Type": "application/offset+octet-stream"])
        #expect(noOffset.status == 401, "\(noOffset.status) \(noOffset.message)")
        // Signed in again, the same person finds the upload where it was: nothing of the refused PATCH was kept.
        let again = try await Session.inspector(server)
        #expect(try await Self.head(again, url).header("Upload-Offset") == "0")
        let whole = try await Self.patch(again, url, offset: 0, photo)
        #expect(whole.status == 201, "\(whole.status) \(whole.message)")
    }
}
