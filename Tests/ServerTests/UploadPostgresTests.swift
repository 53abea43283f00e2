import Foundation
import Models
import Testing
import TestSupport

/// Resumable uploads on PostgreSQL with two instances on one database, as
/// behind a load balancer: the bytes live in the database, so either
/// instance continues what the other began.
@Suite("Resumable uploads on PostgreSQL: two instances", .serialized, .timeLimit(.minutes(5)))
struct UploadPostgresTests {
    @Test(
        "an upload begun on one instance, cut short there, is asked for and finished on the other, and the photo comes back whole from the first"
    )
    func acrossInstances() async throws {
        let url = try ServerDatabases.freshPostgres()
        let one = try ServerProcess(["--demo", "--max-photo-bytes", "65536"], database: url)
        let two = try ServerProcess(["--max-photo-bytes", "65536"], database: url)
        let onOne = try await Session.inspector(one)
        let onTwo = Session(
            server: two, accessToken: onOne.accessToken, refreshToken: onOne.refreshToken, userID: onOne.userID)
        let photo = PhotoContractTests.jpeg(60_000)
        let (_, upload, _) = try await UploadContractTests.begin(onOne, photo)
        #expect(try await UploadContractTests.patch(onOne, upload, offset: 0, photo.prefix(15_000)).status == 204)
        // A PATCH to the first instance cut short after 30,000 bytes: they are kept, in the database.
        let port = try #require(URLComponents(string: one.baseURL)?.port)
        let connection = try RawConnection(port: UInt16(port))
        #expect(
            connection.send(
                "PATCH \(upload) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(onOne.accessToken)\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nUpload-Offset: 15000\r\nContent-Length: 45000\r\n\r\n"
            ))
        #expect(connection.send(photo[15_000..<45_000]))
        usleep(500_000)
        shutdown(connection.fd, Int32(SHUT_RDWR))
        usleep(500_000)
        let held = try await UploadContractTests.head(onTwo, upload)
        #expect(held.status == 200)
        #expect(held.header("Upload-Offset") == "45000")
        let last = try await UploadContractTests.patch(onTwo, upload, offset: 45_000, photo[45_000...])
        #expect(last.status == 201, "\(last.status) \(last.message)")
        let stored = try #require(last.data["photo"]?["url"]?.stringValue)
        let download = try await onOne.client.send("GET", one.baseURL + stored, token: onOne.accessToken)
        #expect(download.body == photo)
        #expect(try await UploadContractTests.head(onOne, upload).header("Upload-Offset") == "60000")
    }
}
