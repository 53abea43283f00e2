import Foundation
import Models
import Networking
import Synchronization
import Sync
import Testing
import TestSupport

/// `GET /reports/{id}/photos/{local_id}` streamed: a photo reaches its sink
/// piece by piece however large (past the transport's limit for answers held
/// in memory), an error answer is read as the API's, and a sink that cannot
/// keep the bytes stops the transfer.
@Suite("Photo downloads are streamed")
struct PhotoDownloadTests {
    /// What a sink received: every byte, and the largest piece it was handed at once.
    final class Received: Sendable {
        private let state = Mutex<(bytes: Data, largest: Int, calls: Int)>((Data(), 0, 0))
        func take(_ piece: UnsafeRawBufferPointer) {
            state.withLock {
                $0.bytes.append(contentsOf: piece); $0.largest = max($0.largest, piece.count); $0.calls += 1
            }
        }
        var bytes: Data { state.withLock { $0.bytes } }
        var largest: Int { state.withLock { $0.largest } }
        var calls: Int { state.withLock { $0.calls } }
    }

    static let user = WireUser(id: "7", username: "sam", role: .supervisor, displayName: "Sam")
    static let signedIn = Credentials(accessToken: "tok-A1", refreshToken: "tok-R1", user: user)

    /// Bytes that do not repeat in short runs, so a lost or repeated piece shows.
    static func photoBytes(_ count: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: count)
        var state: UInt32 = 0x9E37_79B9
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices {
                state = state &* 1_664_525 &+ 1_013_904_223
                buffer[index] = UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        return Data(bytes)
    }

    @Test("a 12 MB photo arrives whole through a transport that holds at most 1 MB of an answer, in small pieces")
    func largePhoto() async throws {
        let photo = Self.photoBytes(12 * 1024 * 1024)
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(status: 200, headers: [("Content-Type", "image/jpeg")], body: photo)
        ])
        defer { canned.stop() }
        let options = CurlTransport.Options(connectTimeout: 5, totalTimeout: 20, maximumResponseBytes: 1024 * 1024)
        let client = try makeClient(canned.baseURL, credentials: Self.signedIn, options: options)
        let received = Received()
        let serverID = "R-abc"
        let photoID = UUID()
        try await client.downloadPhoto(serverID: serverID, localID: photoID) { piece in
            received.take(piece)
            return true
        }
        #expect(received.bytes == photo)
        #expect(received.largest <= 1024 * 1024, "never the whole photo at once: \(received.largest) bytes")
        #expect(received.calls > 1)
        let head = try #require(canned.requests.first)
        #expect(
            head.hasPrefix("GET /api/v1/reports/R-abc/photos/\(photoID.uuidString.lowercased()) HTTP/1.1"), "\(head)")
        #expect(head.contains("Authorization: Bearer tok-A1"))

        // The same answer through `send` is refused: held in memory, it is over the limit.
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.serverReport(serverID: serverID)
            })
        #expect(error.code == .invalidResponse)
    }

    @Test("a 404 envelope is the API's notFound and nothing reaches the sink; a refusing sink stops the transfer")
    func errorsAndRefusals() async throws {
        let missing = #"{"ok":false,"code":"NOT_FOUND","error":"no photo"}"#
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(status: 404, contentType: "application/json", missing),
            CannedHTTPServer.response(
                status: 200, headers: [("Content-Type", "image/jpeg")], body: Self.photoBytes(512 * 1024)),
        ])
        defer { canned.stop() }
        let client = try makeClient(canned.baseURL, credentials: Self.signedIn)
        let received = Received()
        let notFound = try #require(
            await apiError { () async throws(APIError) in
                try await client.downloadPhoto(serverID: "R-1", localID: UUID()) { piece in
                    received.take(piece); return true
                }
            })
        #expect(notFound.code == .notFound)
        #expect(received.calls == 0, "an error answer is never written as the photo")

        let refused = try #require(
            await apiError { () async throws(APIError) in
                try await client.downloadPhoto(serverID: "R-1", localID: UUID()) { piece in
                    received.take(piece); return false
                }
            })
        #expect(refused.code == .transport)
        #expect(refused.message.contains("could not be kept"), "\(refused.message)")
        #expect(received.calls == 1, "stopped at the first piece it could not keep")
    }
}
