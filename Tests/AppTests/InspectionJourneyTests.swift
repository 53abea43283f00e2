import Foundation
import Models
import Testing
import TestSupport

/// The whole offline workflow through the real `jqc` binary, as an inspector
/// with no server at all would go through it (issue: the inspector's offline workflow).
@Suite("An inspection from start to export, offline")
struct InspectionJourneyTests {
    @Test("import, start, answer every field type, issue with photo, photos to the cap, complete, reinspect, export")
    func journey() throws {
        let profile = try DemoProfile()

        // Start from the demo assignment for the Washroom QC template.
        let id = try profile.start(["--assignment", "AS-1"])
        #expect(try profile.show(id)["state"] == "DRAFT")

        // Answer every answerable field type as a person types it.
        let typed: [(String, [String])] = [
            ("2", ["4"]), // rating, weight 2
            ("3", ["3/5"]), // rating
            ("4", ["pass"]), // pass_fail, critical
            ("5", ["yes"]), // checkbox
            ("6", ["2"]), // radio by number: Acceptable
            ("7", ["night shift"]), // select by text, any case
            ("9", ["1, 3"]), // checkbox group by numbers
            ("10", ["12"]), // number
            ("11", ["2026-11-28"]), // date
            ("12", ["Fixture=Sink 2;Problem=leak;Action=call plumber", "--add-row"]),
            ("12", ["Fixture=Dryer;Problem=noisy;Action=replace", "--add-row"]),
            ("15", ["Sam Attendant"]), // text
            ("16", ["ops@example.com"]), // email
            ("17", ["Mop bucket left in the corridor"]), // textarea
            ("18", ["Dana Inspector"]), // signature
        ]
        for (field, arguments) in typed {
            let outcome = try profile.jqc(["answer", id, field] + arguments)
            try #require(outcome.status == 0, "answer \(field): \(outcome.stderr)")
            #expect(!outcome.stdout.contains(" pending · "), "the status line is for a terminal, not a pipe")
        }

        // Flag an issue with a photo.
        let tap = try profile.writeJPEG("tap.jpg", width: 320, height: 240, seed: 9)
        let (issueStatus, issue) = try profile.document([
            "issue", "add", id, "--severity", "high", "--description", "Leaking tap", "--photo", tap,
        ])
        try #require(issueStatus == 0, "\(issue)")
        let issueID = try #require(issue["local_id"]?.stringValue)

        // Photos for the image field up to a 1 MB cap, and one beyond it.
        #expect(try profile.jqc(["settings", "photo-cap-mb", "1"]).status == 0)
        var added = 0
        var refusal: ProcessOutcome?
        for n in 1...12 {
            let photo = try profile.writeJPEG("site-\(n).jpg", width: 1000, height: 750, seed: UInt32(100 + n))
            let outcome = try profile.jqc(["photo", "add", id, "--field", "14", photo])
            if outcome.status != 0 {
                refusal = outcome
                break
            }
            #expect(outcome.stdout.contains("of 1.0 MB used"), "the cap is stated at every import: \(outcome.stdout)")
            added += 1
        }
        let refused = try #require(refusal, "a 1 MB cap must refuse a photo within twelve")
        #expect(added >= 1)
        #expect(refused.status == 5)
        #expect(refused.stderr.contains("Photo cap reached for this report"))
        #expect(refused.stderr.contains("of 1.0 MB used"))
        let shown = try profile.show(id)
        let photos = try #require(shown["photos"]?.arrayValue)
        #expect(
            photos.count == added + 1, "the field photos that fit and the issue's photo; nothing from the refused one")
        #expect(shown["answers"]?["14"]?.arrayValue?.count == added)
        #expect(photos.contains { $0["issue_local_id"]?.stringValue == issueID })

        // Complete: weighted score by hand. Rating 2 is 4/5 at weight 2 (1.6 of 2),
        // rating 3 is 3/5 (0.6), pass (1), checkbox yes (1), radio "Acceptable" is a
        // pass keyword (1): 5.2 of 6.
        let (completeStatus, completed) = try profile.document(["complete", id, "--follow-up"])
        try #require(completeStatus == 0, "\(completed)")
        let score = try #require(completed["score"]?.numberValue)
        #expect(abs(score - 5.2 / 6.0) < 1e-9)
        #expect(completed["state"] == "PENDING")
        #expect(completed["follow_up_required"] == true)
        #expect(try profile.jqc(["show", id]).stdout.contains("Score: 87% (5.20 of 6)"))

        // Re-inspect: copyable answers are pre-filled, ratings, pass/fail, photos and signatures are not.
        let (childStatus, child) = try profile.document(["reinspect", id])
        try #require(childStatus == 0, "\(child)")
        let childID = try #require(child["local_id"]?.stringValue)
        let parentAnswers = try #require(profile.show(id)["answers"]?.objectValue)
        let childShown = try profile.show(childID)
        let childAnswers = try #require(childShown["answers"]?.objectValue)
        for copied in ["5", "6", "7", "9", "10", "11", "12", "15", "16", "17"] {
            #expect(
                childAnswers[copied] != nil && childAnswers[copied] == parentAnswers[copied],
                "field \(copied) is copied")
        }
        for fresh in ["2", "3", "4", "14", "18"] {
            #expect(childAnswers[fresh] == nil, "field \(fresh) starts blank")
        }
        #expect(childShown["parent_local_id"]?.stringValue == id)

        // Completing the re-inspection clears the parent's follow-up flag.
        for (field, value) in [("2", "5"), ("3", "5"), ("4", "pass"), ("18", "Dana Inspector")] {
            #expect(try profile.jqc(["answer", childID, field, value]).status == 0)
        }
        #expect(try profile.jqc(["complete", childID]).status == 0)
        #expect(try profile.show(id)["follow_up_required"] == false)

        // Export in all three formats.
        let jsonPath = profile.path("report.json"), csvPath = profile.path("report.csv"),
            htmlPath = profile.path("report.html")
        for (format, path) in [("json", jsonPath), ("csv", csvPath), ("html", htmlPath)] {
            let outcome = try profile.jqc(["export", id, "--format", format, "-o", path])
            try #require(outcome.status == 0, "export \(format): \(outcome.stderr)")
        }
        let exported = try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: jsonPath)))
        #expect(exported["local_id"]?.stringValue == id)
        #expect(abs((exported["score"]?.numberValue ?? 0) - 5.2 / 6.0) < 1e-9)
        let csv = try String(contentsOfFile: csvPath, encoding: .utf8)
        #expect(csv.contains("Leaking tap"))
        #expect(csv.contains("Sam Attendant"))
        let html = try String(contentsOfFile: htmlPath, encoding: .utf8)
        #expect(html.contains("87%"))
        #expect(html.contains("Leaking tap"))
        #expect(html.contains("data:image/jpeg;base64,"))
    }
}
