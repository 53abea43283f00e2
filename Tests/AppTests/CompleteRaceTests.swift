import Foundation
import Models
import SQLite
import Testing
import TestSupport

/// `jqc complete` checks a report and stores it completed. Another program
/// (the form runner's autosave in a second terminal, a script's `jqc
/// answer`) may save an answer in between: what is completed and uploaded
/// must be the answers as they are then, never the ones complete first read.
@Suite("Completing while another program saves an answer", .serialized)
struct CompleteRaceTests {
    /// A lobby walkthrough draft with its required answers and a note.
    func draft(_ profile: DemoProfile) throws -> String {
        let id = try profile.start(["--template", "lobby-walk", "--facility", "F-100", "--area", "A-102"])
        for (field, value) in [("entrance", "pass"), ("glass", "3"), ("notes", "first")] {
            let answered = try profile.jqc(["answer", id, field, value])
            try #require(answered.status == 0, "\(answered.stderr)")
        }
        return id
    }

    @Test("an answer saved by another program while jqc complete waits to write is in the completed report, and in its revision")
    func answerSavedMeanwhileIsKept() throws {
        let profile = try DemoProfile()
        let id = try draft(profile)
        // Another program holds the store's write lock while jqc complete reads and checks the
        // report, then saves a note and lets go: complete's write comes after that save.
        let other = try Database(path: profile.storePath)
        other.setBusyTimeout(milliseconds: 10_000)
        try other.execute("BEGIN IMMEDIATE")
        let completing = try RunningProgram("jqc", ["--home", profile.home, "complete", id])
        Thread.sleep(forTimeInterval: 1.5)
        let saved = try other.run("UPDATE reports SET answers = json_set(answers, '$.notes', 'saved meanwhile') WHERE lower(local_id) = lower(?)",
                                  [.text(id)])
        try #require(saved == 1)
        try other.execute("COMMIT")
        let outcome = completing.wait()
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")

        let shown = try profile.show(id)
        #expect(shown["state"] == "PENDING")
        #expect(shown["answers"]?["notes"] == "saved meanwhile", "the completed report lost the answer saved meanwhile: \(shown["answers"] ?? "none")")
        #expect(shown["answers"]?["glass"] == 3)
        let completedRevision = try other.scalar("""
            SELECT json_extract(answers, '$.notes') FROM report_revisions
            WHERE lower(report_local_id) = lower(?) ORDER BY seq DESC LIMIT 1
            """, [.text(id)])
        #expect(completedRevision.stringValue == "saved meanwhile", "what is uploaded is the last revision")
    }

    @Test("a required answer removed by another program meanwhile: jqc complete refuses, exit 4, naming the field, and the report stays a draft")
    func requiredAnswerRemovedMeanwhileIsChecked() throws {
        let profile = try DemoProfile()
        let id = try draft(profile)
        let other = try Database(path: profile.storePath)
        other.setBusyTimeout(milliseconds: 10_000)
        try other.execute("BEGIN IMMEDIATE")
        let completing = try RunningProgram("jqc", ["--home", profile.home, "complete", id])
        Thread.sleep(forTimeInterval: 1.5)
        try #require(try other.run("UPDATE reports SET answers = json_remove(answers, '$.glass') WHERE lower(local_id) = lower(?)",
                                   [.text(id)]) == 1)
        try other.execute("COMMIT")
        let outcome = completing.wait()
        #expect(outcome.status == 4, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stderr.contains("Glass and doors"), "\(outcome.stderr)")
        #expect(try profile.show(id)["state"] == "DRAFT")
    }
}
