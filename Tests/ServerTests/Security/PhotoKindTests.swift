import Foundation
import Models
import Testing
import TestSupport

/// Photos are JPEG or PNG by their bytes: anything else (an SVG, an HTML
/// page) is refused on both upload routes and never stored.
@Suite("Security trial: photos only as JPEG or PNG")
struct PhotoKindTests {
    static let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)
    static let html = Data("<!doctype html><html><body><script>alert(1)</script></body></html>".utf8)
    /// The eight bytes that begin every PNG file, then some more.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: UInt8(7), count: 200))

    static func multipart(_ me: Session, _ serverID: String, _ bytes: Data) async throws -> TestResponse {
        let fields = [("local_id", UUID().uuidString.lowercased()), ("sha256", try PhotoContractTests.sha256(bytes))]
        return try await me.client.upload(
            me.server.url("/reports/\(serverID)/photos"), fields: fields, file: bytes, token: me.accessToken)
    }

    @Test("an SVG or HTML file sent as a photo is 415 on the multipart route and on a resumable upload's last PATCH")
    func photosOnlyJPEGOrPNG() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        for bytes in [Self.svg, Self.html] {
            let refused = try await Self.multipart(me, serverID, bytes)
            #expect(refused.status == 415, "\(refused.status) \(refused.message)")
            #expect(refused.code == "UNSUPPORTED_MEDIA_TYPE")
            #expect(refused.message.contains("JPEG or PNG"), "\(refused.message)")
        }
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["photos"]?.arrayValue?.isEmpty == true)
        #expect(try await Self.multipart(me, serverID, Self.png).status == 201)
        #expect(try await Self.multipart(me, serverID, PhotoContractTests.jpeg(3_000)).status == 201)

        for bytes in [Self.svg, Self.html] {
            let (_, url, _) = try await UploadContractTests.begin(me, bytes)
            let half = bytes.count / 2
            #expect(try await UploadContractTests.patch(me, url, offset: 0, bytes.prefix(half)).status == 204)
            let last = try await UploadContractTests.patch(me, url, offset: half, bytes[half...])
            #expect(last.status == 415, "\(last.status) \(last.message)")
            #expect(last.code == "UNSUPPORTED_MEDIA_TYPE")
            #expect(try await UploadContractTests.head(me, url).status == 404, "the refused upload is dropped")
        }
        let (_, url, _) = try await UploadContractTests.begin(me, Self.png)
        #expect(try await UploadContractTests.patch(me, url, offset: 0, Self.png).status == 201)
    }
}
