import Foundation
import Models
import Testing
import TestSupport

/// Photos of corrective actions and of their updates (contract 1.2), on
/// both stores: begun with `POST /actions/{id}/uploads`, sent with the
/// resumable upload's `PATCH`, listed in the action's or update's
/// `photos`, served to whoever may see the action and to nobody else.
@Suite("Photos of corrective actions")
struct ActionPhotoTests {
    /// An action the supervisor made, assigned to crew member cora; its id.
    static func action(_ supervisor: Session) async throws -> String {
        let made = try await supervisor.post(
            "/actions",
            [
                "id": .string(UUID().uuidString.lowercased()), "facility_id": "F-100", "title": "Descale the urinals",
                "severity": "high", "assignee": "cora",
            ])
        try #require(made.status == 201, "\(made.message)")
        return try #require(made.data["action"]?["id"]?.stringValue)
    }

    /// `POST /actions/{id}/uploads` for `photo`, with `update` when given.
    static func begin(_ me: Session, _ actionID: String, _ photo: Data, localID: String, update: String? = nil)
        async throws -> TestResponse
    {
        var body: [String: JSONValue] = [
            "local_id": .string(localID), "sha256": .string(try PhotoContractTests.sha256(photo)),
            "byte_size": .integer(Int64(photo.count)),
        ]
        if let update { body["update_id"] = .string(update) }
        return try await me.post("/actions/\(actionID)/uploads", .object(body))
    }

    @Test(
        "the crew member's photo of their 'done' goes in two PATCHes; the update lists it, the change moves, and it is served to who may see the action only"
    )
    func photoOfAnUpdate() async throws {
        let server = try ActionContractTests.server.get()
        let supervisor = try await Session.supervisor(server)
        let crew = try await ActionContractTests.crew(server)
        let id = try await Self.action(supervisor)
        let updateID = UUID().uuidString.lowercased()
        let done = try await crew.post(
            "/actions/\(id)/updates", ["id": .string(updateID), "state": "done", "comment": "Descaled"])
        #expect(done.status == 200, "\(done.message)")
        let before = try #require(done.data["action"]?["change"]?.stringValue)

        let photo = PhotoContractTests.jpeg(40_000)
        let photoID = UUID().uuidString.lowercased()
        let started = try await Self.begin(crew, id, photo, localID: photoID, update: updateID)
        #expect(started.status == 201, "\(started.status) \(started.message)")
        let url = try #require(started.data["upload"]?["url"]?.stringValue)
        #expect(try await UploadContractTests.patch(crew, url, offset: 0, photo.prefix(25_000)).status == 204)
        let last = try await UploadContractTests.patch(crew, url, offset: 25_000, photo[25_000...])
        #expect(last.status == 201, "\(last.status) \(last.message)")
        #expect(last.data["photo"]?["url"]?.stringValue == "/api/v1/actions/\(id)/photos/\(photoID)")

        let action = try #require(try await supervisor.get("/actions/\(id)").data["action"])
        let update = try #require(action["updates"]?.arrayValue?.first { $0["id"]?.stringValue == updateID })
        #expect(
            update["photos"]
                == .array([
                    [
                        "local_id": .string(photoID), "sha256": .string(try PhotoContractTests.sha256(photo)),
                        "byte_size": .integer(40_000),
                    ]
                ]))
        #expect(action["photos"] == .array([]), "the photo is the update's, not the action's")
        #expect(action["change"]?.stringValue != before, "storing a photo moves the action's change")
        let since = try await supervisor.get("/actions?since=\(before)")
        #expect(
            since.data["actions"]?.arrayValue?.contains { $0["id"]?.stringValue == id } == true,
            "the feed from the change before brings the action again")

        let again = try await Self.begin(crew, id, photo, localID: photoID, update: updateID)
        #expect(again.status == 200 && again.data["photo"]?["local_id"]?.stringValue == photoID, "held: the photo")

        for viewer in [supervisor, crew] {
            let served = try await viewer.client.send(
                "GET", server.url("/actions/\(id)/photos/\(photoID)"), token: viewer.accessToken)
            #expect(served.status == 200 && served.body == photo)
        }
        let stranger = try await Session.inspector(server)
        let hidden = try await stranger.client.send(
            "GET", server.url("/actions/\(id)/photos/\(photoID)"), token: stranger.accessToken)
        #expect(hidden.status == 404, "a photo of an action reaches only those who may see the action")
    }

    @Test(
        "who may upload: an update's author only (403), the action's own photos its maker only; an unknown update 404; an unseen action 404"
    )
    func whoMayUpload() async throws {
        let server = try ActionContractTests.server.get()
        let supervisor = try await Session.supervisor(server)
        let crew = try await ActionContractTests.crew(server)
        let id = try await Self.action(supervisor)
        let updateID = UUID().uuidString.lowercased()
        #expect(
            try await crew.post("/actions/\(id)/updates", ["id": .string(updateID), "state": "in_progress"]).status
                == 200)
        let photo = PhotoContractTests.jpeg(5_000)
        func begin(_ me: Session, update: String?) async throws -> TestResponse {
            try await Self.begin(me, id, photo, localID: UUID().uuidString.lowercased(), update: update)
        }
        let notAuthor = try await begin(supervisor, update: updateID)
        #expect(notAuthor.status == 403 && notAuthor.code == "FORBIDDEN")
        let notMaker = try await begin(crew, update: nil)
        #expect(notMaker.status == 403 && notMaker.code == "FORBIDDEN")
        #expect(try await begin(supervisor, update: nil).status == 201, "the maker adds the action's own photo")
        let unknown = try await begin(crew, update: UUID().uuidString.lowercased())
        #expect(unknown.status == 404)
        let stranger = try await Session.inspector(server)
        let unseen = try await begin(stranger, update: nil)
        #expect(unseen.status == 404 && !unseen.message.contains("Descale"))
    }

    @Test("bytes that are not the hash announced are refused 422 and nothing is listed")
    func hashMismatch() async throws {
        let server = try ActionContractTests.server.get()
        let supervisor = try await Session.supervisor(server)
        let id = try await Self.action(supervisor)
        let photo = PhotoContractTests.jpeg(8_000)
        var other = photo
        other[other.count - 10] ^= 0xFF
        let started = try await Self.begin(supervisor, id, photo, localID: UUID().uuidString.lowercased())
        let url = try #require(started.data["upload"]?["url"]?.stringValue)
        let refused = try await UploadContractTests.patch(supervisor, url, offset: 0, other)
        #expect(refused.status == 422 && refused.code == "PHOTO_HASH_MISMATCH")
        #expect(try await supervisor.get("/actions/\(id)").data["action"]?["photos"] == .array([]))
    }
}
