import Foundation
import Models
import Testing
import TestSupport

/// Photo bodies longer than the 64 KiB in which the server gathers a body's
/// bytes before writing them to its file: every byte lands in order, by
/// either route, in a body cut short, and when more bodies are in flight
/// than the server has buffers for. One at a time: while the 70 bodies hold
/// every buffer of the server they share, a body cut short waits for one,
/// and a `HEAD` that waits longer than its patience (10 s) rightly answers
/// the bytes held before it.
@Suite("Photo bodies past one spool buffer", .serialized)
struct LargeBodyTests {
    /// A server of its own, with the default photo limit (the shared one's is 64 KiB).
    private static let server: Result<ServerProcess, any Error> = Result { try ServerProcess(["--demo"]) }
    /// The head of a `PATCH` of `length` bytes from offset 0, as a client sends it.
    private static func patchHead(_ me: Session, _ url: String, length: Int) -> String {
        "PATCH \(url) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(me.accessToken)\r\n"
            + "Content-Type: application/offset+octet-stream\r\nUpload-Offset: 0\r\nContent-Length: \(length)\r\n\r\n"
    }

    @Test("a 300 KB photo sent whole by the multipart route and by one PATCH comes back byte for byte")
    func wholeByBothRoutes() async throws {
        let server = try Self.server.get()
        let me = try await Session.inspector(server)
        let photo = PhotoContractTests.jpeg(300_001)
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        let fields = [
            ("local_id", UUID().uuidString.lowercased()), ("field_id", "notes"),
            ("sha256", try PhotoContractTests.sha256(photo)),
        ]
        let posted = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: me.accessToken)
        #expect(posted.status == 201, "\(posted.status) \(posted.message)")
        let second = PhotoContractTests.jpeg(300_003)
        let (_, url, _) = try await UploadContractTests.begin(me, second)
        let patched = try await UploadContractTests.patch(me, url, offset: 0, second)
        #expect(patched.status == 201, "\(patched.status) \(patched.message)")
        for (answer, bytes) in [(posted, photo), (patched, second)] {
            let path = try #require(answer.data["photo"]?["url"]?.stringValue)
            let download = try await me.client.send("GET", server.baseURL + path, token: me.accessToken)
            #expect(download.status == 200)
            #expect(download.body == bytes)
        }
    }

    @Test("a PATCH cut short at an odd byte, past two buffers' worth, keeps exactly the bytes that arrived")
    func cutShortPastBuffers() async throws {
        let server = try Self.server.get()
        let me = try await Session.inspector(server)
        let photo = PhotoContractTests.jpeg(300_000)
        let (_, url, _) = try await UploadContractTests.begin(me, photo)
        let port = try #require(URLComponents(string: server.baseURL)?.port)
        let connection = try RawConnection(port: UInt16(port))
        #expect(connection.send(Self.patchHead(me, url, length: photo.count)))
        #expect(connection.send(photo.prefix(150_001)))
        shutdown(connection.fd, Int32(SHUT_RDWR))
        let held = try await UploadContractTests.head(me, url)
        #expect(held.header("Upload-Offset") == "150001")
        let rest = try await UploadContractTests.patch(me, url, offset: 150_001, photo[150_001...])
        #expect(rest.status == 201, "\(rest.status) \(rest.message)")
        let path = try #require(rest.data["photo"]?["url"]?.stringValue)
        #expect(try await me.client.send("GET", server.baseURL + path, token: me.accessToken).body == photo)
    }

    @Test("70 PATCHes in flight at once, more than the server has buffers for, all store their photo whole")
    func moreInFlightThanBuffers() async throws {
        let server = try Self.server.get()
        let me = try await Session.inspector(server)
        let port = try #require(URLComponents(string: server.baseURL)?.port)
        var uploads: [(photo: Data, url: String)] = []
        for index in 0..<70 {
            let photo = PhotoContractTests.jpeg(120_000 + index)
            uploads.append((photo, try await UploadContractTests.begin(me, photo).url))
        }
        // Then every body begun and past one buffer's worth within moments, well inside the server's idle limit,
        // then each ended and its answer read: blocking socket work, on a thread of its own, so that the other
        // tests running meanwhile keep their share of the task threads.
        let heads = uploads.map { Self.patchHead(me, $0.url, length: $0.photo.count) }
        let photos = uploads.map(\.photo)
        let exchanged = try await OwnThread.run { () throws -> (sent: [Bool], answers: [RawResponse?]) in
            var sent: [Bool] = []
            var connections: [RawConnection] = []
            for (head, photo) in zip(heads, photos) {
                let connection = try RawConnection(port: UInt16(port))
                sent.append(connection.send(head) && connection.send(photo.prefix(100_000)))
                connections.append(connection)
            }
            // Now each ends.
            for (connection, photo) in zip(connections, photos) { sent.append(connection.send(photo[100_000...])) }
            return (sent, connections.map { $0.readResponse(timeout: 60) })
        }
        #expect(exchanged.sent.allSatisfy { $0 }, "bytes not sent: \(exchanged.sent.filter { !$0 }.count)")
        for (photo, answer) in zip(photos, exchanged.answers) {
            let answer = try #require(answer)
            #expect(answer.status == 201, "\(answer.status)")
            let body = try JSONValue.parse(answer.body)
            let path = try #require(body["data"]?["photo"]?["url"]?.stringValue)
            #expect(try await me.client.send("GET", server.baseURL + path, token: me.accessToken).body == photo)
        }
    }
}
