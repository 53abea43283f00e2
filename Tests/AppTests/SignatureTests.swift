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
    @Test("changing an answer after signing withdraws the signature, says so, and completion waits for a new one")
    func changeAfterSigningWithdraws() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        #expect(try profile.show(id)["answers"]?["18"] != nil)

        let changed = try profile.jqc(["answer", id, "17", "Mirror cracked"])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout.contains("Signature '18' (Inspector signature) withdrawn: the answers changed after signing"), "\(changed.stdout)")
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
        let forged = #"{"signer": "Dana Inspector", "signed_at_device": "2026-03-01T14:02:00Z", "sha256": "\#(String(repeating: "ab", count: 32))"}"#
        #expect(try profile.jqc(["answer", id, "18", "--value-json", forged]).status == 0)
        let refused = try profile.jqc(["--json", "complete", id])
        #expect(refused.status == 4, "\(refused.stdout) \(refused.stderr)")
        let error = try JSONValue.parse(refused.stdout.isEmpty ? refused.stderr : refused.stdout)
        #expect(error["error"]?["code"] == "SIGNATURE_STALE", "\(error)")
        #expect(try profile.show(id)["state"] == "DRAFT")
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
}
