import Foundation
import Models
import Testing
import TestSupport

/// The supervisor's work in the console (both stores): the queue, a
/// report's page with what people typed escaped and photos only for those
/// who may see them, and decisions that reach the inspector.
@Suite("Console review")
struct ConsoleReviewTests {
    static let script = "<script>alert(1)</script>"
    static let breakout = "\"><img src=x onerror=alert(2)>"

    /// A lobby report of `session` with an issue and a photo of that issue; its server id and the photo's local id.
    static func reportWithPhoto(_ session: Session, notes: String = script + " " + breakout) async throws -> (
        String, String, Data
    ) {
        let issueID = UUID().uuidString.lowercased()
        let report = Reports.lobby(answers: ["notes": .string(notes)])
            .setting(
                "issues",
                [["local_id": .string(issueID), "severity": "high", "description": .string("Tap leaks " + breakout)]])
        let result = try await session.syncOne(report)
        let serverID = try #require(result["server_id"]?.stringValue)
        let photo = PhotoContractTests.jpeg(9_000)
        let photoID = UUID().uuidString.lowercased()
        let uploaded = try await session.client.upload(
            session.server.url("/reports/\(serverID)/photos"),
            fields: [
                ("local_id", photoID), ("issue_local_id", issueID),
                ("sha256", try PhotoContractTests.sha256(photo)),
            ],
            file: photo, token: session.accessToken)
        try #require(uploaded.status == 201, "upload: \(uploaded.status)")
        return (serverID, photoID, photo)
    }

    @Test(
        "the queue opens on what awaits review, filters by state, inspector and day, counts each state; an inspector sees only their own"
    )
    func queue() async throws {
        let server = try Shared.running()
        let inspector = try await Session.inspector(server)
        let other = try await Session.other(server)
        let supervisor = try await Session.supervisor(server)
        let mine = try await ReviewContractTests.accepted(inspector)
        let theirs = try await ReviewContractTests.accepted(other)
        // Decisions are made on the other inspector's reports only: the demo inspector's reviews feed is paged by another suite.
        #expect(
            try await supervisor.post("/reports/\(theirs)/review", ["decision": "approve", "revision": 1]).status == 200
        )

        let browser = ConsoleClient(server)
        try browser.signIn("supervisor", "supervisor-pass")
        // Newest first: the shared server holds the demo inspector's reports of every suite, more than a page of them.
        let awaiting = try browser.get("/console/queue?inspector=\(inspector.userID)&sort=newest")
        #expect(awaiting.status == 200)
        #expect(awaiting.text.contains("data-server-id=\"\(mine)\""))
        #expect(!awaiting.text.contains("data-server-id=\"\(theirs)\""))
        #expect(awaiting.text.contains("<li data-state=\"awaiting_review\" class=\"current\">"))
        let approved = try browser.get("/console/queue?state=approved&inspector=\(other.userID)")
        #expect(approved.text.contains("data-server-id=\"\(theirs)\""))
        #expect(!approved.text.contains("data-server-id=\"\(mine)\""))
        // Counts per state of the inspector's reports, whatever state is shown.
        let count = try #require(Self.count("approved", in: approved.text))
        #expect(count >= 1)
        let everything = try browser.get("/console/queue?state=&inspector=\(other.userID)")
        #expect(everything.text.contains("data-server-id=\"\(theirs)\""))
        #expect(try browser.get("/console/queue?state=&to=2001-01-01").text.contains("No reports match."))
        #expect(try browser.get("/console/queue?state=maybe").status == 400)
        #expect(try browser.get("/console/queue?page=0").status == 400)

        // The other inspector's queue is their own reports, and offers no inspector filter.
        let own = ConsoleClient(server)
        try own.signIn("other", "other-pass")
        let theirQueue = try own.get("/console/queue?state=&inspector=\(inspector.userID)")
        #expect(theirQueue.text.contains("data-server-id=\"\(theirs)\""))
        #expect(!theirQueue.text.contains("data-server-id=\"\(mine)\""))
        #expect(!theirQueue.text.contains("name=\"inspector\""))
    }

    @Test(
        "a report's page shows what people typed as text, its photos to those who may see the report and to nobody else"
    )
    func reportPage() async throws {
        let server = try Shared.running()
        let inspector = try await Session.inspector(server)
        let (serverID, photoID, photo) = try await Self.reportWithPhoto(inspector)

        let supervisor = ConsoleClient(server)
        try supervisor.signIn("supervisor", "supervisor-pass")
        let page = try supervisor.get("/console/reports/\(serverID)")
        #expect(page.status == 200)
        #expect(
            page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt; &quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect(page.text.contains("Tap leaks &quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect(!page.text.contains(Self.script) && !page.text.contains("<img src=x"))
        let photoPath = "/console/reports/\(serverID)/photos/\(photoID)"
        #expect(page.text.contains("<img class=\"photo-thumb\" src=\"\(photoPath)\""))
        #expect(page.text.contains("<form id=\"decision\""))
        #expect(page.text.contains("name=\"field_comment:glass\""))
        let bytes = try supervisor.get(photoPath)
        #expect(bytes.status == 200)
        #expect(bytes.headers["content-type"] == "image/jpeg")
        #expect(bytes.headers["cache-control"]?.hasPrefix("private") == true)
        // Opened alone, a photo is sandboxed, and may be styled only by the browser's own viewer.
        #expect(
            bytes.headers["content-security-policy"]
                == "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox")
        #expect(bytes.body == photo)
        let printable = try supervisor.get("/console/reports/\(serverID)/print")
        #expect(printable.status == 200)
        #expect(!printable.text.contains("<form") && !printable.text.contains("<nav>"))

        // Its inspector sees it without the decision form.
        let owner = ConsoleClient(server)
        try owner.signIn("inspector", "inspector-pass")
        let ownPage = try owner.get("/console/reports/\(serverID)")
        #expect(ownPage.status == 200)
        #expect(!ownPage.text.contains("<form id=\"decision\""))
        #expect(try owner.get(photoPath).body == photo)

        // Another inspector finds neither the report nor its photo, as if they did not exist.
        let stranger = ConsoleClient(server)
        try stranger.signIn("other", "other-pass")
        #expect(try stranger.get("/console/reports/\(serverID)").status == 404)
        let refused = try stranger.get(photoPath)
        #expect(refused.status == 404)
        #expect(refused.body != photo)
        // Nobody signed in gets the photo.
        let anonymous = try ConsoleClient(server).get(photoPath)
        #expect(anonymous.status == 303)
        #expect(anonymous.body.isEmpty)
    }

    @Test(
        "returning from the console needs the form's token, reaches the inspector's feed with a field's comment; a stale revision is refused with what changed"
    )
    func decisions() async throws {
        let server = try Shared.running()
        // The other inspector: the demo inspector's reviews feed is paged by another suite while this runs.
        let inspector = try await Session.other(server)
        let localID = UUID()
        let serverID = try await ReviewContractTests.accepted(inspector, localID: localID)
        let browser = ConsoleClient(server)
        try browser.signIn("supervisor", "supervisor-pass")
        let path = "/console/reports/\(serverID)/review"

        let forged = try browser.post(path, [("decision", "return"), ("revision", "1"), ("comment", "forged")])
        #expect(forged.status == 403)
        #expect(
            try await inspector.get("/reports/\(serverID)").data["report"]?["review"]?["state"] == "awaiting_review")

        let token = try browser.csrf()
        let unexplained = try browser.post(
            path, [("csrf", token), ("decision", "return"), ("revision", "1"), ("comment", " ")])
        #expect(unexplained.status == 400)
        #expect(unexplained.text.contains("say why"))

        let returned = try browser.post(
            path,
            [
                ("csrf", token), ("decision", "return"), ("revision", "1"), ("comment", "Redo the glass"),
                ("field_comment:glass", "Streaks on the left door"), ("field_comment:notes", ""),
            ])
        #expect(returned.status == 303)
        #expect(returned.headers["location"] == "/console/reports/\(serverID)?notice=returned")
        let shown = try browser.get("/console/reports/\(serverID)?notice=returned")
        #expect(shown.text.contains("<p id=\"notice\">Returned to the inspector"))
        #expect(shown.text.contains("<span id=\"review-state\"><span class=\"state returned\">"))
        #expect(shown.text.contains("<p class=\"field-comment\">Streaks on the left door</p>"))

        let feed = try await inspector.get("/reviews").data["reviews"]?.arrayValue ?? []
        let review = try #require(feed.first { $0["server_id"]?.stringValue == serverID })
        #expect(review["state"] == "returned")
        #expect(review["comment"] == "Redo the glass")
        #expect(review["field_comments"] == [["field_id": "glass", "comment": "Streaks on the left door"]])

        // The inspector amends; a decision on the revision the supervisor saw is refused, showing what changed.
        let amended = try await inspector.syncOne(
            Reports.lobby(localID: localID, serverID: serverID, baseRevision: 1, answers: ["glass": 2]))
        #expect(amended["revision"] == 2)
        let stale = try browser.post(path, [("csrf", token), ("decision", "approve"), ("revision", "1")])
        #expect(stale.status == 409)
        #expect(stale.text.contains("<section id=\"stale\""))
        #expect(stale.text.contains("Glass and doors"))
        #expect(
            try await inspector.get("/reports/\(serverID)").data["report"]?["review"]?["state"] == "awaiting_review")
        let approved = try browser.post(path, [("csrf", token), ("decision", "approve"), ("revision", "2")])
        #expect(approved.headers["location"] == "/console/reports/\(serverID)?notice=approved")
        let events = try browser.get("/console/reports/\(serverID)").text
        #expect(events.contains("Sam Supervisor</strong> returned for changes revision 1"))
        #expect(events.contains("Sam Supervisor</strong> approved revision 2"))
    }

    /// The count shown for a state in the queue's counts.
    static func count(_ state: String, in html: String) -> Int? {
        guard let start = html.range(of: "data-state=\"\(state)\"") else { return nil }
        let rest = html[start.upperBound...]
        guard let span = rest.range(of: "<span class=\"count\">") else { return nil }
        return Int(rest[span.upperBound...].prefix { $0.isNumber })
    }
}
