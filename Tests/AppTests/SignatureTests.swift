import Foundation
import Models
import Testing
import TestSupport

/// A typed signature vouches for the report's answers as they stood when it
/// was given: changing an answer afterwards withdraws it (the inspector is
/// told and signs again), and `complete` refuses a signature that vouches
/// for other answers. Photos are sealed by their own SHA-256 and may be
/// attached after signing.
@Suite("a signature holds only for the answers it vouched for")
struct SignatureTests {
    static let demo: Result<ServerProcess, any Error> = Result { try ServerProcess(["--demo"]) }

    @Test("changing an answer after signing withdraws the signature, says so, and completion waits for a new one")
    func changeAfterSigningWithdraws() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        #expect(try profile.show(id)["answers"]?["18"] != nil)

        let changed = try profile.jqc(["answer", id, "17", "Mirror cracked"])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(
            changed.stdout.contains(
                "Signature '18' (Inspector signature) withdrawn: the answers changed after signing"),
            "\(changed.stdout)")
        #expect(try profile.show(id)["answers"]?["18"] == nil)
        let json = try profile.document(["answer", id, "3", "2"]).value
        #expect(json["signatures_withdrawn"] == .array([]))

        let refused = try profile.jqc(["complete", id])
        #expect(refused.status == 4, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("Inspector signature"), "\(refused.stderr)")

        #expect(try profile.jqc(["answer", id, "18", "Dana Inspector"]).status == 0)
        let photo = try profile.writeJPEG("after.jpg")
        #expect(try profile.jqc(["photo", "add", id, "--field", "14", photo]).status == 0)
        #expect(try profile.show(id)["answers"]?["18"] != nil, "a photo attached after signing keeps the signature")
        let completed = try profile.jqc(["complete", id])
        #expect(completed.status == 0, "\(completed.stderr)")
    }

    @Test("answering the same value again keeps the signature")
    func sameAnswerKeeps() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let again = try profile.jqc(["answer", id, "2", "4"])
        #expect(again.status == 0)
        #expect(!again.stdout.contains("withdrawn"), "\(again.stdout)")
        #expect(try profile.jqc(["complete", id]).status == 0)
    }

    @Test("a signature set as JSON for other answers is refused at completion with SIGNATURE_STALE")
    func staleJSONSignatureRefused() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let forged =
            #"{"signer": "Dana Inspector", "signed_at_device": "2026-03-01T14:02:00Z", "sha256": "\#(String(repeating: "ab", count: 32))"}"#
        #expect(try profile.jqc(["answer", id, "18", "--value-json", forged]).status == 0)
        let refused = try profile.jqc(["--json", "complete", id])
        #expect(refused.status == 4, "\(refused.stdout) \(refused.stderr)")
        let error = try JSONValue.parse(refused.stdout.isEmpty ? refused.stderr : refused.stdout)
        #expect(error["error"]?["code"] == "SIGNATURE_STALE", "\(error)")
        #expect(try profile.show(id)["state"] == "DRAFT")
    }

    @Test(
        "a re-inspection is pre-filled with the parent's answers but never its signature, which vouched for another report"
    )
    func reinspectionNotSigned() throws {
        let profile = try DemoProfile()
        let parent = try profile.startDraft()
        try profile.answerRequired(parent)
        #expect(try profile.jqc(["complete", parent]).status == 0)
        let (status, started) = try profile.document(["reinspect", parent])
        #expect(status == 0)
        let child = try #require(started["local_id"]?.stringValue)
        let shown = try profile.show(child)
        #expect(shown["answers"]?["6"] == "Good", "answers are pre-filled")
        #expect(shown["answers"]?["18"] == nil, "the signature is not")
        let refused = try profile.jqc(["complete", child])
        #expect(refused.status == 4 && refused.stderr.contains("Inspector signature"), "\(refused.stderr)")
    }

    @Test("in the runner, changing an answer after signing says the signature was withdrawn")
    func runnerSaysWithdrawn() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let run = try profile.jqc(["run", id], stdin: "/jump 17\nStains by the door\n/q\n")
        #expect(run.stdout.contains("Signature '18' (Inspector signature) withdrawn"), "\(run.stdout)")
        #expect(try profile.show(id)["answers"]?["18"] == nil)
    }

    @Test(
        "resolving per field with answers the signature never saw is refused (SIGNATURE_STALE): nothing queued, nothing changed"
    )
    func pickedAnswersRefused() throws {
        let profile = try DemoProfile()
        let id = try ConflictCommandTests().conflicted(profile)
        let refused = try profile.jqc(["--json", "resolve", id, "--pick", "2=server", "--pick", "15=mine"])
        #expect(refused.status == 4, "\(refused.stdout) \(refused.stderr)")
        let error = try JSONValue.parse(refused.stdout)
        #expect(error["error"]?["code"] == "SIGNATURE_STALE", "\(error)")
        #expect(
            error["error"]?["message"]?.stringValue?.contains("signature '18' (Inspector signature)") == true,
            "\(error)")
        let shown = try profile.show(id)
        #expect(shown["state"] == "CONFLICT", "a refused resolution queues nothing")
        #expect(shown["answers"]?["18"] != nil)
        #expect(try profile.document(["status"]).value["pending"] == 0)
    }

    @Test("taking the server's answers withdraws the signature that sealed other answers, and says so")
    func takeServerWithdraws() throws {
        let profile = try DemoProfile()
        let id = try ConflictCommandTests().conflicted(profile)
        let taken = try profile.jqc(["resolve", id, "--take-server"])
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(taken.stdout.contains("Signature '18' (Inspector signature) withdrawn"), "\(taken.stdout)")
        let shown = try profile.show(id)
        #expect(shown["state"] == "SYNCED")
        #expect(shown["answers"]?["15"] == "Samantha")
        #expect(shown["answers"]?["18"] == nil, "the server's answers are not what the signature sealed")
        #expect(try profile.jqc(["amend", id]).status == 0)
        let refused = try profile.jqc(["complete", id])
        #expect(refused.status == 4)
        #expect(
            refused.stderr.contains("Inspector signature"), "completing asks for a new signature: \(refused.stderr)")
        try profile.sign(id)
        #expect(try profile.jqc(["complete", id]).status == 0)
    }

    @Test(
        "a revision someone else made on the server keeps the signature as covering the revision it sealed; show, the HTML export and take-server say so"
    )
    func serverRevisionCovers() throws {
        let server = try Self.demo.get()
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        let id = try inspector.startDraft()
        try inspector.answerRequired(id)
        #expect(try inspector.jqc(["complete", id]).status == 0)
        #expect(try inspector.jqc(["sync"]).status == 0)
        let serverID = try #require(try inspector.show(id)["server_id"]?.stringValue)

        let edit = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "edit-report", serverID, "--answer", "3=2"])
        #expect(edit.status == 0, "\(edit.stderr)")
        let fetched = try supervisor.document(["show", serverID]).value
        #expect(fetched["answers"]?["18"]?["covers_revision"] == 1, "\(fetched)")
        let shown = try supervisor.jqc(["show", serverID])
        #expect(shown.stdout.contains("covering revision 1 only"), "\(shown.stdout)")
        let page = try supervisor.jqc(["export", serverID, "--format", "html"])
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("covering revision 1 only"), "the page never reads as signed for revision 2")

        // The inspector's amendment meets the edited revision; taking the
        // server's keeps the signature as the server marked it.
        #expect(try inspector.jqc(["amend", id]).status == 0)
        #expect(try inspector.jqc(["answer", id, "17", "Restocked"]).status == 0)
        try inspector.sign(id)
        #expect(try inspector.jqc(["complete", id]).status == 0)
        #expect(try inspector.jqc(["sync"]).status == 7)
        #expect(try inspector.jqc(["resolve", id, "--take-server"]).status == 0)
        let taken = try inspector.jqc(["show", id])
        #expect(taken.stdout.contains("covering revision 1 only"), "\(taken.stdout)")
    }
}
