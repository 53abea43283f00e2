import Foundation
import Models
import Testing
import TestSupport

/// Contract 1.1's review as a supervisor meets it: `jqc review list`,
/// `show`, `approve`, `return` and `reject` against a real `jqc-server
/// --demo` on loopback, with the demo inspector's reports synced first.
/// Offline is a server that was started and then stopped.
@Suite("Supervisors review reports with jqc review")
struct ReviewCommandTests {
    /// A Washroom QC report completed and synced by `inspector`; its server id.
    func syncedReport(_ inspector: DemoProfile) throws -> String {
        let id = try inspector.startDraft()
        try inspector.answerRequired(id)
        let complete = try inspector.jqc(["complete", id])
        try #require(complete.status == 0, "complete: \(complete.stderr)")
        let sync = try inspector.jqc(["sync"])
        try #require(sync.status == 0, "sync: \(sync.stdout)\(sync.stderr)")
        return try #require(try inspector.show(id)["server_id"]?.stringValue)
    }

    /// The `review show --json` document's events as (kind, actor's name, revision).
    func events(_ profile: DemoProfile, _ serverID: String) throws -> [(String, String, Int64)] {
        let shown = try profile.document(["review", "show", serverID])
        try #require(shown.status == 0, "review show: \(shown.value)")
        return (shown.value["events"]?.arrayValue ?? []).map {
            (
                $0["kind"]?.stringValue ?? "", $0["actor"]?["display_name"]?.stringValue ?? "",
                $0["revision"]?.integerValue ?? 0
            )
        }
    }

    func displayName(_ profile: DemoProfile) throws -> String {
        try #require(try profile.document(["whoami"]).value["user"]?["display_name"]?.stringValue)
    }

    @Test(
        "a supervisor lists the awaiting reports, returns one with a comment on the photo field, and its events read accepted then returned"
    )
    func returnWithFieldComment() throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let first = try syncedReport(inspector)
        let second = try syncedReport(inspector)
        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        let (inspectorName, supervisorName) = (try displayName(inspector), try displayName(supervisor))

        let queue = try supervisor.document(["review", "list"])
        #expect(queue.status == 0)
        let items = try #require(queue.value["items"]?.arrayValue)
        #expect(Set(items.compactMap { $0["server_id"]?.stringValue }) == [first, second])
        #expect(items.allSatisfy { $0["review_state"] == "awaiting_review" && $0["revision"] == 1 }, "\(items)")
        let table = try supervisor.jqc(["review", "list"])
        #expect(table.status == 0)
        let row = try #require(
            table.stdout.split(separator: "\n").first { $0.hasPrefix(first) },
            "the whole server id starts its row: \(table.stdout)")
        #expect(
            row.contains("Washroom QC") && row.contains("Harbourview Office Tower") && row.contains(inspectorName),
            "\(row)")
        #expect(row.contains("awaiting review") && table.stdout.contains("2 awaiting review."), "\(table.stdout)")

        // A field the template does not have is refused before anything is sent.
        let unknown = try supervisor.jqc(["review", "return", first, "--field", "99=Where is this?"])
        #expect(unknown.status == 4)
        #expect(
            unknown.stderr.contains("has no field '99'") && unknown.stderr.contains("Nothing was sent"),
            "\(unknown.stderr)")

        let returned = try supervisor.jqc([
            "review", "return", first, "--comment", "Photos too dark",
            "--field", "14=Retake the evidence photos in daylight",
        ])
        #expect(returned.status == 0, "\(returned.stderr)")
        #expect(
            returned.stdout.contains("Returned revision 1 of report \(first)") && returned.stdout.contains("next sync"),
            "\(returned.stdout)")

        let shown = try supervisor.document(["review", "show", first])
        #expect(shown.status == 0)
        let review = try #require(shown.value["review"])
        #expect(review["state"] == "returned" && review["revision"] == 1 && review["comment"] == "Photos too dark")
        #expect(review["decided_by"]?["display_name"]?.stringValue == supervisorName)
        #expect(review["field_comments"] == [["field_id": "14", "comment": "Retake the evidence photos in daylight"]])
        #expect(
            shown.value["source"] == "server" && shown.value["server_id"]?.stringValue == first
                && shown.value["answers"]?["6"] == "Good")
        let kinds = try events(supervisor, first)
        #expect(kinds.map(\.0) == ["accepted", "returned"], "\(kinds)")
        #expect(kinds.map(\.1) == [inspectorName, supervisorName] && kinds.map(\.2) == [1, 1])

        let human = try supervisor.jqc(["review", "show", first])
        #expect(human.status == 0)
        #expect(
            human.stdout.contains("[6] Odour: Good") && human.stdout.contains("Score: "),
            "the report as 'show' presents it: \(human.stdout)")
        #expect(human.stdout.contains("Review: returned (revision 1) by \(supervisorName)"), "\(human.stdout)")
        #expect(human.stdout.contains("[14] Evidence photos: Retake the evidence photos in daylight"))
        let eventLines = human.stdout.split(separator: "\n").filter { $0.contains(" revision 1 by ") }
        #expect(
            eventLines.count == 2 && eventLines[0].contains("accepted revision 1 by \(inspectorName)")
                && eventLines[1].contains("returned revision 1 by \(supervisorName)"), "\(eventLines)")

        // The queue moves on: the returned report under --state returned, the other still awaiting.
        let awaiting = try supervisor.document(["review", "list"]).value["items"]?.arrayValue?.compactMap {
            $0["server_id"]?.stringValue
        }
        #expect(awaiting == [second])
        let back = try supervisor.document(["review", "list", "--state", "returned"]).value["items"]?.arrayValue ?? []
        #expect(
            back.compactMap { $0["server_id"]?.stringValue } == [first] && back.first?["review_state"] == "returned")
        // The inspector reads their own report's events too.
        #expect(try events(inspector, first).map(\.0) == ["accepted", "returned"])
        _ = server.stop()
    }

    @Test(
        "approving a revision that is no longer current is exit 7, names the current revision and shows what changed; nothing is recorded"
    )
    func staleRevision() throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let id = try syncedReport(inspector)
        let edit = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "edit-report", id, "--answer", "6=\"Poor\""])
        try #require(edit.status == 0, "edit-report: \(edit.stderr)")
        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")

        let stale = try supervisor.jqc(["review", "approve", id, "--revision", "1"])
        #expect(stale.status == 7, "\(stale.stdout)\(stale.stderr)")
        let lines = stale.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.contains("revision 2 is current") == true
                && lines.first?.contains("nothing was recorded") == true, "\(stale.stdout)")
        let odour = try #require(lines.first { $0.hasPrefix("6 ") }, "the changed field listed: \(stale.stdout)")
        #expect(odour.contains("Odour") && odour.contains("Good") && odour.contains("Poor"))

        let json = try supervisor.document(["review", "approve", id, "--revision", "1"])
        #expect(json.status == 7)
        #expect(json.value["error"]?["code"] == "REVISION_STALE")
        #expect(json.value["decided_revision"] == 1 && json.value["current_revision"] == 2)
        #expect(json.value["review"]?["revision"] == 2 && json.value["review"]?["state"] == "awaiting_review")
        let changes = try #require(json.value["changes"]?.arrayValue)
        #expect(changes.first == ["field_id": "6", "label": "Odour", "before": "Good", "after": "Poor"])
        // The inspector's signature is kept, marked as covering the revision she signed.
        #expect(
            changes.dropFirst().map { $0["field_id"] } == ["18"] && changes.last?["after"]?["covers_revision"] == 1,
            "\(changes)")
        #expect(
            try events(supervisor, id).map(\.0) == ["accepted", "edited"], "nothing recorded for the stale decision")

        // Without --revision the current one is fetched first, and the decision holds.
        let approved = try supervisor.document(["review", "approve", id, "--comment", "Fine now"])
        #expect(approved.status == 0)
        #expect(approved.value["review"]?["state"] == "approved" && approved.value["review"]?["revision"] == 2)
        #expect(try events(supervisor, id).last.map { [$0.0, String($0.2)] } == ["approved", "2"])
        _ = server.stop()
    }

    @Test("an inspector's review approve is refused in one line (5) and records nothing")
    func inspectorRefused() throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let id = try syncedReport(inspector)

        let refused = try inspector.jqc(["review", "approve", id])
        #expect(refused.status == 5)
        #expect(
            refused.stderr.contains("Only supervisors and admins may decide")
                && refused.stderr.split(separator: "\n").count == 1,
            "\(refused.stderr)")
        #expect(
            refused.stderr.contains("; you are signed in as an inspector. Nothing was recorded."),
            "said once: \(refused.stderr)")
        let json = try inspector.document(["review", "reject", id, "--comment", "mine"])
        #expect(json.status == 5 && json.value["error"]?["code"] == "REVIEW_FORBIDDEN")
        #expect(try events(inspector, id).map(\.0) == ["accepted"])
        _ = server.stop()
    }

    @Test("offline every review command says so in one line and exits 75; signed out it exits 6")
    func offline() throws {
        let gone = try ServerProcess(["--demo"])
        let supervisor = try DemoProfile.signedIn(to: gone.baseURL, as: "supervisor")
        _ = gone.stop()
        for words in [
            ["list"], ["show", "R-1"], ["approve", "R-1"], ["return", "R-1", "--comment", "x"],
            ["reject", "R-1", "--field", "2=x"],
        ] {
            let outcome = try supervisor.jqc(["review"] + words)
            #expect(outcome.status == 75, "\(words): \(outcome.stderr)")
            #expect(
                outcome.stderr == "jqc: Reviewing needs a connection to the server; try again when online.\n",
                "\(outcome.stderr)")
            let json = try supervisor.document(["review"] + words)
            #expect(json.status == 75 && json.value["error"]?["code"] == "REVIEW_REQUIRES_NETWORK")
        }
        let signedOut = try DemoProfile()
        let outcome = try signedOut.jqc(["review", "list"])
        #expect(outcome.status == 6 && outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
    }

    @Test(
        "a decision without its comment, a malformed --field, --revision or --state is a usage error (2) before any request",
        arguments: [
            ["return", "R-1"], ["reject", "R-1"], ["return", "R-1", "--field", "14"],
            ["return", "R-1", "--field", "=text"],
            ["return", "R-1", "--field", "14="], ["reject", "R-1", "--comment", "  "],
            ["approve", "R-1", "--revision", "0"],
            ["approve", "R-1", "--revision", "two"], ["list", "--state", "done"], ["list", "--limit", "101"],
            ["approve", " "],
        ])
    func usageErrors(_ words: [String]) throws {
        // A server that is gone: any request would end in 75, so a 2 was decided before one.
        let gone = try ServerProcess(["--demo"])
        let supervisor = try DemoProfile.signedIn(to: gone.baseURL, as: "supervisor")
        _ = gone.stop()
        let outcome = try supervisor.jqc(["review"] + words)
        #expect(outcome.status == 2, "\(words): \(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1 && outcome.stdout.isEmpty, "\(outcome.stderr)")
    }

    @Test(
        "against a server of contract 1.0 (no reviews): list notes it, show says so, and a decision is refused before anything is posted"
    )
    func contractOneServer() throws {
        let demo = try ServerProcess(["--demo"])
        let supervisor = try DemoProfile.signedIn(to: demo.baseURL, as: "supervisor")
        _ = demo.stop()
        let localID = "6f1c2d3e-0000-4000-8000-000000000001"
        let report = """
            {"ok": true, "data": {"report": {"local_id": "\(localID)", "server_id": "R-OLD", "template_id": "101",
             "facility_id": "F-100", "payload": {"answers": {"6": "Good"}, "score": 0.9, "follow_up_required": false},
             "issues": [], "revision": 1, "completed_at": "2026-03-02T10:00:00Z", "photos": []}}}
            """
        let reportAnswer = CannedHTTPServer.response(status: 200, contentType: "application/json", report)
        let old = try CannedHTTPServer([reportAnswer])
        defer { old.stop() }
        try supervisor.route(to: old.baseURL)

        let refused = try supervisor.jqc(["review", "approve", "R-OLD"])
        #expect(refused.status == 5, "\(refused.stdout)\(refused.stderr)")
        #expect(
            refused.stderr.contains("older than contract 1.1") && refused.stderr.split(separator: "\n").count == 1,
            "\(refused.stderr)")
        #expect(
            try supervisor.document(["review", "return", "R-OLD", "--comment", "x"]).value["error"]?["code"]
                == "REVIEW_UNSUPPORTED")
        #expect(
            old.requests.allSatisfy { $0.hasPrefix("GET /api/v1/reports/R-OLD ") }, "nothing posted: \(old.requests)")

        let shown = try supervisor.jqc(["review", "show", "R-OLD"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(
            shown.stdout.contains("[6] Odour: Good") && shown.stdout.contains("Review: this server keeps no reviews"),
            "\(shown.stdout)")
        #expect(old.requests.allSatisfy { !$0.contains("/events") }, "a 1.0 server is not asked for events")

        let items = """
            {"ok": true, "data": {"items": [{"server_id": "R-OLD", "local_id": "\(localID)", "template_id": "101", "facility_id": "F-100",
             "score": 0.9, "follow_up_required": false, "completed_at": "2026-03-02T10:00:00Z",
             "inspector": {"id": "U-1", "display_name": "Old Inspector"}}], "total": 1}}
            """
        let oldList = try CannedHTTPServer([
            CannedHTTPServer.response(status: 200, contentType: "application/json", items)
        ])
        defer { oldList.stop() }
        try supervisor.route(to: oldList.baseURL)
        let listed = try supervisor.jqc(["review", "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let row = try #require(listed.stdout.split(separator: "\n").first { $0.hasPrefix("R-OLD") }, "\(listed.stdout)")
        #expect(row.contains("Old Inspector") && row.hasSuffix("-"), "no revision or review state: \(row)")
        #expect(listed.stdout.contains("This server keeps no reviews"), "\(listed.stdout)")
        #expect(oldList.requests.first?.contains("review_state=awaiting_review") == true, "\(oldList.requests)")
    }
}
