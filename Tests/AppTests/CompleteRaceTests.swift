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

    /// Runs `jqc complete` while another program holds the store's write
    /// lock: complete reads and checks the report, then waits to write; the
    /// other program runs `change` on the report meanwhile and lets go.
    /// Returns complete's outcome and the other program's connection.
    func completeWhile(_ profile: DemoProfile, _ id: String, _ change: String) throws -> (ProcessOutcome, Database) {
        let other = try Database(path: profile.storePath)
        other.setBusyTimeout(milliseconds: 10_000)
        try other.execute("BEGIN IMMEDIATE")
        let completing = try RunningProgram("jqc", ["--home", profile.home, "complete", id])
        Thread.sleep(forTimeInterval: 1.5)
        try #require(try other.run(change, [.text(id)]) == 1)
        try other.execute("COMMIT")
        return (completing.wait(), other)
    }

    @Test(
        "an answer saved by another program while jqc complete waits to write is in the completed report, and in its revision"
    )
    func answerSavedMeanwhileIsKept() throws {
        let profile = try DemoProfile()
        let id = try draft(profile)
        let (outcome, other) = try completeWhile(
            profile, id,
            "UPDATE reports SET answers = json_set(answers, '$.notes', 'saved meanwhile') WHERE lower(local_id) = lower(?)"
        )
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")

        let shown = try profile.show(id)
        #expect(shown["state"] == "PENDING")
        #expect(
            shown["answers"]?["notes"] == "saved meanwhile",
            "the completed report lost the answer saved meanwhile: \(shown["answers"] ?? "none")")
        #expect(shown["answers"]?["glass"] == 3)
        let completedRevision = try other.scalar(
            """
            SELECT json_extract(answers, '$.notes') FROM report_revisions
            WHERE lower(report_local_id) = lower(?) ORDER BY seq DESC LIMIT 1
            """, [.text(id)])
        #expect(completedRevision.stringValue == "saved meanwhile", "what is uploaded is the last revision")
    }

    @Test(
        "a required answer removed by another program meanwhile: jqc complete refuses, exit 4, naming the field, and the report stays a draft"
    )
    func requiredAnswerRemovedMeanwhileIsChecked() throws {
        let profile = try DemoProfile()
        let id = try draft(profile)
        let (outcome, _) = try completeWhile(
            profile, id,
            "UPDATE reports SET answers = json_remove(answers, '$.glass') WHERE lower(local_id) = lower(?)")
        #expect(outcome.status == 4, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stderr.contains("Glass and doors"), "\(outcome.stderr)")
        #expect(try profile.show(id)["state"] == "DRAFT")
    }
}
