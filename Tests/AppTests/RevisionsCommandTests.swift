import Foundation
import Models
import Testing
import TestSupport

/// `jqc show LOCAL_ID --history`: the revisions a report keeps on the device,
/// where `resolve --take-server` says "your answers are kept in its history".
@Suite("show --history lists a report's revisions")
struct RevisionsCommandTests {
    @Test("each revision with its number, time, what saved it and the answers that changed; --json the same")
    func listsRevisions() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        #expect(try profile.jqc(["answer", id, "2", "4"]).status == 0)
        #expect(try profile.jqc(["answer", id, "15", "Sam"]).status == 0)
        #expect(try profile.jqc(["answer", id, "15", "--clear"]).status == 0)

        let text = try profile.jqc(["show", id, "--history"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("4 revisions kept on this device") == true, "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("#1  ") && $0.contains("started (DRAFT)") }, "\(text.stdout)")
        let second = try #require(lines.firstIndex { $0.hasPrefix("#2  ") }, "\(text.stdout)")
        #expect(lines[second].contains("answer saved (DRAFT)"))
        #expect(lines[second + 1].contains("[2] Floors: ") && lines[second + 1].contains("4/5"), "\(text.stdout)")
        #expect(text.stdout.contains("[15] Attendant on duty: Sam"))
        #expect(text.stdout.contains("[15] Attendant on duty: cleared"))

        let (status, document) = try profile.document(["show", id, "--history"])
        #expect(status == 0)
        let revisions = try #require(document["revisions"]?.arrayValue)
        #expect(revisions.count == 4)
        #expect(revisions.map { $0["number"] } == [1, 2, 3, 4])
        #expect(revisions[1]["reason"] == "autosave")
        #expect(revisions[1]["changed"]?[0]?["field_id"] == "2" && revisions[1]["changed"]?[0]?["after"] == 4)
        #expect(revisions[3]["changed"]?[0]?["before"] == "Sam" && revisions[3]["changed"]?[0]?["after"] == .null)
        #expect(revisions.allSatisfy { $0["saved_at_device"]?.stringValue?.isEmpty == false })
    }

    @Test("after taking the server's revision, the answers it replaced are there in the history")
    func takeServerKeepsMine() throws {
        let profile = try DemoProfile()
        let id = try ConflictCommandTests().conflicted(profile)
        let taken = try profile.jqc(["resolve", id, "--take-server"])
        #expect(taken.stdout.contains("Your answers are kept in its history"), "\(taken.stdout)")
        let history = try profile.jqc(["show", id, "--history"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("[15] Attendant on duty: Sam (corrected)"), "\(history.stdout)")
        let last = try #require(history.stdout.split(separator: "\n").last { $0.hasPrefix("#") })
        #expect(last.contains("conflict resolved, the server's answers taken (SYNCED"), "\(last)")
        #expect(history.stdout.contains("[15] Attendant on duty: Samantha"))
    }
}
