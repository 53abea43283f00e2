import Foundation
import Models
import Testing
import TestSupport

@Suite("jqc issue add and jqc issues")
struct IssueCommandTests {
    @Test(
        "an issue flagged with a photo is listed by 'issues' with its report, severity and photo, and shown on the report"
    )
    func issueWithPhoto() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let photo = try profile.writeJPEG("dryer.jpg")

        let (status, added) = try profile.document([
            "issue", "add", id, "--severity", "HIGH",
            "--description", "  Hand dryer broken  ", "--photo", photo,
        ])
        #expect(status == 0)
        let issueID = try #require(added["local_id"]?.stringValue)
        let photoID = try #require(added["photo_local_id"]?.stringValue)

        let (listStatus, listed) = try profile.document(["issues"])
        #expect(listStatus == 0)
        let issues = try #require(listed["issues"]?.arrayValue)
        try #require(issues.count == 1)
        #expect(issues[0]["local_id"]?.stringValue == issueID)
        #expect(issues[0]["report_local_id"]?.stringValue == id)
        #expect(issues[0]["severity"]?.stringValue == "high")
        #expect(issues[0]["description"]?.stringValue == "Hand dryer broken")
        #expect(issues[0]["photo_count"]?.integerValue == 1)
        #expect(issues[0]["report_state"]?.stringValue == "DRAFT")

        let shown = try profile.show(id)
        #expect(shown["photos"]?[0]?["local_id"]?.stringValue == photoID)
        #expect(shown["photos"]?[0]?["issue_local_id"]?.stringValue == issueID)
        #expect(shown["issues"]?[0]?["local_id"]?.stringValue == issueID)
        #expect(try profile.photoFolderContents() == [photoID.uppercased() + ".jpg"])

        let human = try profile.jqc(["issues"])
        #expect(human.status == 0)
        #expect(human.stdout.contains("Hand dryer broken"))
        #expect(human.stdout.contains("HIGH"))

        let flagged = try profile.jqc([
            "issue", "add", id, "--severity", "low", "--description", "Mirror smudged", "--photo", photo,
        ])
        #expect(flagged.status == 0)
        #expect(flagged.stdout.contains("of 25.0 MB used, "))
    }

    @Test("'issues' lists every issue on the device, newest first, across reports")
    func newestFirst() throws {
        let profile = try DemoProfile()
        let first = try profile.startDraft()
        let second = try profile.startDraft()
        #expect(try profile.jqc(["issue", "add", first, "--severity", "low", "--description", "Older"]).status == 0)
        #expect(
            try profile.jqc(["issue", "add", second, "--severity", "critical", "--description", "Newer"]).status == 0)

        let issues = try #require(try profile.document(["issues"]).value["issues"]?.arrayValue)
        #expect(issues.map { $0["description"]?.stringValue } == ["Newer", "Older"])
        #expect(issues.map { $0["report_local_id"]?.stringValue } == [second, first])
        #expect(issues.map { $0["photo_count"]?.integerValue } == [0, 0])
    }

    @Test("a severity outside the four is refused (exit 4) listing them, and nothing is created")
    func badSeverity() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()

        let (status, refused) = try profile.document([
            "issue", "add", id, "--severity", "urgent", "--description", "Leak",
        ])
        #expect(status == 4)
        #expect(refused.errorMessage.contains("'urgent' is not a severity; use low, medium, high or critical."))
        let typo = try profile.jqc(["issue", "add", id, "--severity", "hihg", "--description", "Leak"])
        #expect(typo.status == 4)
        #expect(
            typo.stderr
                == "jqc: No issue was flagged: 'hihg' is not a severity; did you mean 'high'? Use low, medium, high or critical.\n",
            "\(typo.stderr)")
        let empty = try profile.jqc(["issue", "add", id, "--severity", "low", "--description", "   "])
        #expect(empty.status == 4)
        #expect(empty.stderr.contains("The description is empty"))

        #expect(try profile.document(["issues"]).value["issues"]?.arrayValue?.isEmpty == true)
        #expect(try profile.show(id)["issues"]?.arrayValue?.isEmpty == true)
    }

    @Test("when the issue's photo is refused the issue is not created, and the message says so")
    func refusedPhotoCreatesNoIssue() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()

        let (status, refused) = try profile.document([
            "issue", "add", id, "--severity", "medium", "--description", "Stain",
            "--photo", profile.path("missing.jpg"),
        ])
        #expect(status == 4)
        #expect(refused.errorCode == "PERMISSION_PHOTO_DENIED")
        #expect(refused.errorMessage.hasPrefix("The issue was not flagged because its photo was refused: "))

        #expect(try profile.jqc(["settings", "storage-floor-mb", "100000000"]).status == 0)
        let photo = try profile.writeJPEG("stain.jpg")
        let low = try profile.document([
            "issue", "add", id, "--severity", "medium", "--description", "Stain", "--photo", photo,
        ])
        #expect(low.status == 5)
        #expect(low.value.errorCode == "STORAGE_LOW")

        #expect(try profile.document(["issues"]).value["issues"]?.arrayValue?.isEmpty == true)
        #expect(try profile.photoFolderContents().isEmpty)
    }

    @Test("photo add --issue takes an issue id prefix; an issue of no report here is not found (exit 3)")
    func photoForAnIssue() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let issueID = try #require(
            try profile.document(["issue", "add", id, "--severity", "low", "--description", "Bin full"])
                .value["local_id"]?.stringValue)
        let photo = try profile.writePNG("bin.png")

        let (status, added) = try profile.document(["photo", "add", id, "--issue", String(issueID.prefix(8)), photo])
        #expect(status == 0)
        #expect(added["photos"]?[0]?["issue_local_id"]?.stringValue == issueID)
        #expect(try profile.document(["issues"]).value["issues"]?[0]?["photo_count"]?.integerValue == 1)

        let other = try profile.startDraft()
        let wrong = try profile.jqc(["photo", "add", other, "--issue", String(issueID.prefix(8)), photo])
        #expect(wrong.status == 3)
        #expect(wrong.stderr.contains("has no issue '\(issueID.prefix(8))'"))
    }

    @Test("a completed (PENDING) report takes no new issues (exit 5)")
    func pendingReportRefusesIssues() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        #expect(try profile.jqc(["complete", id]).status == 0)

        let (status, refused) = try profile.document(["issue", "add", id, "--severity", "low", "--description", "Late"])
        #expect(status == 5)
        #expect(refused.errorCode == "STATE_NOT_ALLOWED")
        #expect(try profile.document(["issues"]).value["issues"]?.arrayValue?.isEmpty == true)
    }
}
