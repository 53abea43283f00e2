import Foundation
import Models
import Testing
import TestSupport

/// One inspector, or one stolen account, cannot fill the server's disk:
/// bytes stored, revisions a day and photos a report are bounded per user,
/// refused with 429 `QUOTA_EXCEEDED` and `Retry-After` (both stores).
@Suite("Security: quotas on what one user may store", .timeLimit(.minutes(3)))
struct QuotaTests {
    static func upload(_ me: Session, _ serverID: String, _ photo: Data) async throws -> TestResponse {
        let fields = [("local_id", UUID().uuidString.lowercased()), ("sha256", try PhotoContractTests.sha256(photo))]
        return try await me.client.upload(
            me.server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: me.accessToken)
    }

    @Test("a report holds at most --quota-photos-per-report photos: the next is 429 QUOTA_EXCEEDED and is not stored")
    func photosPerReport() async throws {
        let server = try ServerProcess(["--demo", "--quota-photos-per-report", "2"])
        let me = try await Session.inspector(server)
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        for size in [1_000, 1_100] {
            #expect(try await Self.upload(me, serverID, PhotoContractTests.jpeg(size)).status == 201)
        }
        let third = try await Self.upload(me, serverID, PhotoContractTests.jpeg(1_200))
        #expect(third.status == 429)
        #expect(third.code == "QUOTA_EXCEEDED")
        #expect(third.header("Retry-After") != nil)
        #expect(third.message.contains("holds 2 photos"))
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["photos"]?.arrayValue?.count == 2)
    }

    @Test(
        "a user sends at most --quota-revisions-per-day revisions: a batch past it is 429 whole, nothing of it stored; others sync on"
    )
    func revisionsPerDay() async throws {
        let server = try ServerProcess(["--demo", "--quota-revisions-per-day", "3"])
        let me = try await Session.inspector(server)
        let first = try await me.sync([Reports.lobby(), Reports.lobby()])
        #expect(first.data["results"]?.arrayValue?.allSatisfy { $0["status"] == "ACCEPTED" } == true)
        let refusedID = UUID()
        let past = try await me.sync([Reports.lobby(), Reports.lobby(localID: refusedID)])
        #expect(past.status == 429)
        #expect(past.code == "QUOTA_EXCEEDED")
        let wait = Int(past.header("Retry-After") ?? "") ?? 0
        #expect(wait >= 1 && wait <= 86_400, "until the next UTC day: \(wait)")
        // Nothing of the refused batch was kept: the same report sent again is new to the server.
        #expect(try await me.get("/inspections").data["total"] == 2)
        #expect(
            try await me.syncOne(Reports.lobby())["status"] == "ACCEPTED",
            "the third revision of the day is still allowed")
        let other = try await Session.login(server, "supervisor", "supervisor-pass")
        #expect(try await other.syncOne(Reports.lobby())["status"] == "ACCEPTED", "another user's count is their own")
    }

    @Test("a user stores at most --quota-bytes: a revision or a photo past it is 429 and not stored")
    func bytesStored() async throws {
        let server = try ServerProcess(["--demo", "--quota-bytes", "6000"])
        let me = try await Session.inspector(server)
        let note = String(repeating: "n", count: 3_000)
        let kept = try await me.syncOne(Reports.lobby(answers: ["notes": .string(note)]))
        #expect(kept["status"] == "ACCEPTED")
        let serverID = try #require(kept["server_id"]?.stringValue)
        let over = try await me.sync([Reports.lobby(answers: ["notes": .string(note)])])
        #expect(over.status == 429)
        #expect(over.code == "QUOTA_EXCEEDED")
        #expect(over.message.contains("--quota-bytes"))
        let photo = try await Self.upload(me, serverID, PhotoContractTests.jpeg(4_000))
        #expect(photo.status == 429)
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["photos"]?.arrayValue?.isEmpty == true)
    }
}
