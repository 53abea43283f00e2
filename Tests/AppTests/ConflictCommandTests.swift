import Foundation
import Models
import Storage
import Testing
import TestSupport

/// Conflicts are decided by a person, field by field if they like (BR-06, AC-04, AC-05).
@Suite("conflicts, diff and resolve")
struct ConflictCommandTests {
    /// A report that was synced as revision 1, amended here (field 15 changed), completed,
    /// and then met server revision 2 (field 15 and field 2 changed there): what a sync leaves.
    func conflicted(_ profile: DemoProfile) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        #expect(try profile.jqc(["answer", id, "15", "Sam"]).status == 0)
        try profile.sign(id)
        #expect(try profile.jqc(["complete", id]).status == 0)
        let localID = try #require(UUID(uuidString: id))
        let store = try LocalStore.open(at: profile.directory.path("jqc.sqlite"))
        _ = try store.apply(.accepted(serverID: "R1", revision: 1, photosOutstanding: 0), to: localID)
        _ = try store.apply(.amend, to: localID)
        #expect(try profile.jqc(["answer", id, "15", "Sam (corrected)"]).status == 0)
        try profile.sign(id)
        #expect(try profile.jqc(["complete", id]).status == 0)
        var server = try #require(try store.report(localID)).answers
        server["15"] = "Samantha"
        server["2"] = 2
        _ = try store.apply(.conflict(serverRevision: 2, serverPayload: ["answers": server.json]), to: localID)
        return id
    }

    @Test("conflicts lists the report with both revisions; diff shows both sides field by field")
    func listAndDiff() throws {
        let profile = try DemoProfile()
        let id = try conflicted(profile)
        let (status, list) = try profile.document(["conflicts"])
        #expect(status == 0)
        #expect(list["conflicts"]?[0]?["local_id"]?.stringValue == id)
        #expect(list["conflicts"]?[0]?["base_revision"] == 1)
        #expect(list["conflicts"]?[0]?["server_revision"] == 2)

        let (diffStatus, diff) = try profile.document(["diff", id])
        #expect(diffStatus == 0)
        let fields = try #require(diff["fields"]?.arrayValue)
        let differing = fields.filter { $0["differs"] == true }.compactMap { $0["field_id"]?.stringValue }
        #expect(differing.sorted() == ["15", "2"])
        let text = fields.first { $0["field_id"] == "15" }
        #expect(text?["mine"] == "Sam (corrected)")
        #expect(text?["server"] == "Samantha")

        let human = try profile.jqc(["diff", id])
        #expect(human.stdout.contains("2 fields differ."))
        #expect(human.stdout.contains("Sam (corrected)"))
        #expect(human.stdout.contains("Samantha"))
    }

    @Test("keep mine: PENDING again with the server's revision as base, my answers kept (AC-05)")
    func keepMine() throws {
        let profile = try DemoProfile()
        let id = try conflicted(profile)
        let (status, result) = try profile.document(["resolve", id, "--keep-mine"])
        #expect(status == 0)
        #expect(result["state"] == "PENDING")
        #expect(result["base_revision"] == 2)
        #expect(try profile.show(id)["answers"]?["15"] == "Sam (corrected)")
    }

    @Test("take the server's: SYNCED with its answers; mine stay in the revision history")
    func takeServer() throws {
        let profile = try DemoProfile()
        let id = try conflicted(profile)
        let (status, result) = try profile.document(["resolve", id, "--take-server"])
        #expect(status == 0)
        #expect(result["state"] == "SYNCED")
        #expect(try profile.show(id)["answers"]?["15"] == "Samantha")
        let store = try LocalStore.open(at: profile.directory.path("jqc.sqlite"))
        let history = try store.revisions(of: try #require(UUID(uuidString: id)))
        #expect(
            history.contains { $0.answers["15"] == "Sam (corrected)" },
            "the discarded revision is field evidence and is kept")
    }

    @Test("per field: every differing field must be chosen; the merge goes up on the server's revision")
    func pick() throws {
        let profile = try DemoProfile()
        let id = try conflicted(profile)
        let partial = try profile.jqc(["resolve", id, "--pick", "15=server"])
        #expect(partial.status == 4)
        #expect(partial.stderr.contains("2 still open"))
        #expect(try profile.show(id)["state"] == "CONFLICT", "a refused resolution changes nothing")

        // Picking the server's side for an answer the signature never saw is
        // refused (SignatureTests); choosing mine field by field keeps it.
        let (status, result) = try profile.document(["resolve", id, "--pick", "15=mine", "--pick", "2=mine"])
        #expect(status == 0)
        #expect(result["state"] == "PENDING")
        #expect(result["base_revision"] == 2)
        #expect(result["answers"]?["15"] == "Sam (corrected)")
        #expect(result["answers"]?["2"] == 4)
        #expect(result["signatures_withdrawn"] == .array([]))
    }

    @Test("resolving a report that is not in conflict is refused (exit 5); bad picks are usage errors")
    func refusals() throws {
        let profile = try DemoProfile()
        let draft = try profile.startDraft()
        let outcome = try profile.jqc(["resolve", draft, "--keep-mine"])
        #expect(outcome.status == 5)
        #expect(outcome.stderr.contains("not CONFLICT"))
        #expect(try profile.jqc(["diff", draft]).status == 5)
        let id = try conflicted(profile)
        #expect(try profile.jqc(["resolve", id, "--pick", "15=theirs"]).status == 2)
        #expect(try profile.jqc(["resolve", id, "--keep-mine", "--take-server"]).status == 2)
        #expect(try profile.jqc(["resolve", id, "--pick", "99=mine"]).status == 3)
    }
}
