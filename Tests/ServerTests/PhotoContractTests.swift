import Foundation
import Models
import Testing
import TestSupport

@Suite("Photos")
struct PhotoContractTests {
    static func jpeg(_ size: Int) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        var seed: UInt32 = UInt32(truncatingIfNeeded: size) &* 2_654_435_761
        while bytes.count < size - 2 {
            seed = seed &* 1_103_515_245 &+ 12_345
            bytes.append(UInt8(truncatingIfNeeded: seed >> 16))
        }
        return Data(bytes + [0xFF, 0xD9])
    }

    static func sha256(_ data: Data) throws -> String {
        let dir = TemporaryDirectory()
        let path = dir.path("f")
        try data.write(to: URL(fileURLWithPath: path))
        let out = try ProcessRunner.run("/usr/bin/sha256sum", [path])
        return String(out.prefix(64))
    }

    private func report(_ me: Session) async throws -> String {
        try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
    }

    @Test("an upload is 201, the same local_id again is 200 with the same body, and the bytes come back")
    func uploadIdempotent() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let serverID = try await report(me)
        let photo = Self.jpeg(20_000)
        let localID = UUID().uuidString.lowercased()
        let fields = [("local_id", localID), ("field_id", "notes"), ("sha256", try Self.sha256(photo))]
        let first = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: me.accessToken)
        #expect(first.status == 201)
        #expect(first.data["photo"]?["byte_size"] == 20_000)
        let again = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: me.accessToken)
        #expect(again.status == 200)
        #expect(again.data == first.data)

        let url = try #require(first.data["photo"]?["url"]?.stringValue)
        let download = try await me.client.send("GET", server.baseURL + url, token: me.accessToken)
        #expect(download.status == 200)
        #expect(download.body == photo)
        #expect(download.header("Cache-Control") == "private, no-store")
        let listed = try await me.get("/reports/\(serverID)")
        #expect(listed.data["report"]?["photos"]?.arrayValue?.count == 1)
    }

    @Test("bytes that do not match their sha256 are 422 PHOTO_HASH_MISMATCH and nothing is stored")
    func hashMismatch() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let serverID = try await report(me)
        let photo = Self.jpeg(5_000)
        let fields = [("local_id", UUID().uuidString), ("sha256", String(repeating: "ab", count: 32))]
        let response = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: me.accessToken)
        #expect(response.status == 422)
        #expect(response.code == "PHOTO_HASH_MISMATCH")
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["photos"]?.arrayValue?.isEmpty == true)
    }

    @Test("a photo over the server's limit is 413 TOO_LARGE")
    func tooLarge() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let serverID = try await report(me)
        let photo = Self.jpeg(Shared.photoLimit + 10_000)
        let fields = [("local_id", UUID().uuidString), ("sha256", try Self.sha256(photo))]
        let response = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: me.accessToken)
        #expect(response.status == 413)
        #expect(response.code == "TOO_LARGE")
    }

    @Test("uploading to another inspector's report is 404, as to an unknown report: its existence is not told")
    func notYours() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let other = try await Session.other(server)
        let serverID = try await report(me)
        let photo = Self.jpeg(1_000)
        let fields = [("local_id", UUID().uuidString), ("sha256", try Self.sha256(photo))]
        let theirs = try await other.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo,
            token: other.accessToken)
        #expect(theirs.status == 404)
        let unknown = try await me.client.upload(
            server.url("/reports/R424242/photos"), fields: fields, file: photo, token: me.accessToken)
        #expect(unknown.status == 404)
    }

    @Test(
        "missing or malformed parts are 400",
        arguments: [
            [("sha256", String(repeating: "0", count: 64))],
            [("local_id", "not-a-uuid"), ("sha256", String(repeating: "0", count: 64))],
            [("local_id", "7b4c3a1e-8c57-4a8e-9e8e-3b1d2f0c9a11"), ("sha256", "../../etc/passwd")],
        ])
    func badParts(_ fields: [(String, String)]) async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let serverID = try await report(me)
        let response = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: Self.jpeg(100),
            token: me.accessToken)
        #expect(response.status == 400)
        #expect(response.code == "BAD_REQUEST")
    }

    @Test("a JSON body where multipart is expected is 400")
    func notMultipart() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let serverID = try await report(me)
        let response = try await me.post("/reports/\(serverID)/photos", ["local_id": "x"])
        #expect(response.status == 400)
    }
}

/// Runs a system tool and returns its stdout.
enum ProcessRunner {
    static func run(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = try out.fileHandleForReading.readToEnd() ?? Data()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
