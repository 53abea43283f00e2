import FieldTypes
import Foundation
import Models
import Storage
import Testing
import TestSupport
@testable import JQCApp
import JQCCore

/// Contract 1.1's review loop as an inspector meets it, through the real
/// programs: a report returned by a supervisor comes back with the next
/// `jqc sync` (or `jqc-agent run --once`), shows its comments at their
/// fields, is amended, completed and synced, and the server then holds the
/// new revision awaiting review. A server without the review routes syncs
/// exactly as before.
@Suite("The inspector's side of the review loop")
struct ReviewLoopTests {
    /// A Washroom QC report completed on `profile`; its local id.
    func completedReport(_ profile: DemoProfile) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let complete = try profile.jqc(["complete", id])
        try #require(complete.status == 0, "complete: \(complete.stderr)")
        return id
    }

    /// The `list --json` row of a report.
    func listed(_ profile: DemoProfile, _ id: String) throws -> JSONValue? {
        try profile.document(["list"]).value["reports"]?.arrayValue?.first { $0["local_id"]?.stringValue == id }
    }

    /// The home menu on `profile` with these lines as input, then end of input; everything it wrote.
    func menu(_ lines: [String], profile: DemoProfile) async throws -> [String] {
        try await ScriptedMenu.run(lines, profile: profile).output
    }

    static let hostile = "Too dark to see the floor \u{1B}[2J<script>alert(1)</script>"

    @Test(
        "returned with a comment on the photo field: sync says so; list, status, show, export and the menu show it; amended, completed and synced, the server holds revision 2 awaiting review"
    )
    func returnedAmendedAndSentBack() async throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        let id = try completedReport(inspector)
        let short = String(id.prefix(8))
        #expect(try inspector.jqc(["sync"]).status == 0)
        #expect(
            try listed(inspector, id)?["review_state"] == "awaiting_review",
            "the server's review feed says so once SYNCED")
        let serverID = try #require(try inspector.show(id)["server_id"]?.stringValue)

        let decision = try supervisor.jqc([
            "review", "return", serverID, "--comment", "Retake the washroom photo.",
            "--field", "14=\(Self.hostile)",
        ])
        try #require(decision.status == 0, "review return: \(decision.stderr)")
        let fromServer = try supervisor.document(["show", serverID]).value
        #expect(
            fromServer["source"] == "server" && fromServer["review_state"] == "returned",
            "read from the server with its review")

        // The inspector's next sync brings it back and says so.
        let sync = try inspector.jqc(["sync"])
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        #expect(
            sync.stdout.contains("REPORT_RETURNED \(short): a supervisor returned it for changes"), "\(sync.stdout)")
        let row = try #require(try inspector.jqc(["list"]).stdout.split(separator: "\n").first { $0.hasPrefix(short) })
        #expect(row.contains("SYNCED") && row.contains("returned"), "\(row)")
        #expect(try listed(inspector, id)?["review_state"] == "returned")
        #expect(try inspector.document(["status"]).value["returned"] == 1)
        #expect(try inspector.jqc(["status"]).stdout.contains("Returned:        1 for changes"))

        // show: the decision, who, when, the comment, and the field comment under field 14, through the sanitiser.
        let shown = try inspector.jqc(["show", id])
        #expect(shown.status == 0)
        #expect(!shown.stdout.contains("\u{1B}"), "no escape from the server reaches the terminal")
        #expect(
            shown.stdout.contains("Review:    returned for changes (revision 1) by Sam Supervisor at "),
            "\(shown.stdout)")
        #expect(shown.stdout.contains("Comment:   Retake the washroom photo."))
        let lines = shown.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let photoLine = try #require(lines.firstIndex { $0.contains("[14] Evidence photos") })
        #expect(
            lines[photoLine + 1].contains("supervisor: Too dark to see the floor [2J<script>alert(1)</script>"),
            "\(lines[photoLine + 1])")
        let document = try inspector.show(id)
        #expect(document["review_state"] == "returned")
        #expect(document["review"]?["revision"] == 1)
        #expect(document["review"]?["decided_by"]?["display_name"] == "Sam Supervisor")
        #expect(document["review"]?["comment"] == "Retake the washroom photo.")
        #expect(document["review"]?["field_comments"] == [["field_id": "14", "comment": .string(Self.hostile)]])

        // The HTML export shows them, escaped.
        let page = inspector.path("report.html")
        #expect(try inspector.jqc(["export", id, "--format", "html", "-o", page]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("returned for changes</strong> (revision 1) by Sam Supervisor"))
        #expect(html.contains("Retake the washroom photo."))
        #expect(html.contains("Too dark to see the floor") && html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("<script>"))

        let returned = try inspector.jqc(["returned"])
        #expect(
            returned.stdout.contains(
                "\(short)  Washroom QC at Harbourview Office Tower  returned for changes by Sam Supervisor"))
        #expect(returned.stdout.contains("[14] Evidence photos: Too dark to see the floor"))

        // The home menu: Returned to me, the report, r amends it and opens the runner, which shows the comment at field 14.
        let output = try await menu(["10", "1", "r", "/jump 14", "/q", "q"], profile: inspector)
        #expect(output.contains { $0.hasPrefix(" 10) Returned to me (1)") }, "\(output)")
        #expect(
            output.contains {
                $0.contains(short) && $0.contains("Sam Supervisor") && $0.contains("Retake the washroom photo.")
            })
        #expect(output.contains("  Supervisor: Too dark to see the floor [2J<script>alert(1)</script>"), "\(output)")
        #expect(
            output.last?.hasSuffix(" · 1 returned for changes") == true,
            "the status line counts it: \(output.last ?? "")")
        #expect(try inspector.show(id)["state"] == "DRAFT")
        #expect(try inspector.document(["status"]).value["returned"] == 1, "still waiting for the inspector's changes")

        // The inspector retakes the photo, signs again, completes and syncs: revision 2 goes back for review.
        #expect(
            try inspector.jqc(["photo", "add", id, "--field", "14", try inspector.writeJPEG("floor.jpg")]).status == 0)
        try inspector.sign(id)
        #expect(try inspector.jqc(["complete", id]).status == 0)
        #expect(try inspector.document(["status"]).value["returned"] == 0)
        let again = try inspector.jqc(["sync"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        let after = try inspector.show(id)
        #expect(after["state"] == "SYNCED" && after["base_revision"] == 2)
        #expect(after["review_state"] == "awaiting_review")
        #expect(after["review"]?["field_comments"] == [], "the comments were on revision 1")
        let queue = try supervisor.document(["review", "list"]).value["items"]?.arrayValue ?? []
        let item = try #require(queue.first { $0["server_id"]?.stringValue == serverID }, "\(queue)")
        #expect(item["revision"] == 2 && item["review_state"] == "awaiting_review")

        // The supervisor approves revision 2; the report's events tell the whole story, with who did each thing.
        let approved = try supervisor.jqc(["review", "approve", serverID])
        #expect(approved.status == 0, "\(approved.stdout)\(approved.stderr)")
        let story = try supervisor.document(["review", "show", serverID]).value
        let events = story["events"]?.arrayValue ?? []
        #expect(
            events.compactMap { $0["kind"]?.stringValue } == ["accepted", "returned", "amended", "approved"], "\(story)"
        )
        #expect(
            events.compactMap { $0["actor"]?["display_name"]?.stringValue }
                == ["Ivy Inspector", "Sam Supervisor", "Ivy Inspector", "Sam Supervisor"])
        #expect(events.compactMap { $0["revision"]?.integerValue } == [1, 1, 2, 2])
        // And the inspector's next sync brings the approval home.
        #expect(try inspector.jqc(["sync"]).status == 0)
        #expect(try inspector.show(id)["review_state"] == "approved")
    }

    @Test(
        "jqc-agent brings a returned report back: its log says report_returned with both ids and no comment, its metrics count it; jqc amend prints the comments"
    )
    func agentBringsItBack() throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        let id = try completedReport(inspector)
        let log = inspector.path("agent.log"), metrics = inspector.path("agent.prom")
        #expect(try inspector.agent(["run", "--once", "--log-file", log, "--metrics-file", metrics]).status == 0)
        let serverID = try #require(try inspector.show(id)["server_id"]?.stringValue)
        #expect(try String(contentsOfFile: metrics, encoding: .utf8).contains("\njqc_reports_returned 0\n"))

        let comment = "The mirror is not in the photo; take one that shows it."
        #expect(try supervisor.jqc(["review", "return", serverID, "--comment", comment]).status == 0)
        #expect(try inspector.agent(["run", "--once", "--log-file", log, "--metrics-file", metrics]).status == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map {
            try JSONValue.parse(Data($0.utf8))
        }
        let back = lines.filter { $0["event"] == "report_returned" }
        #expect(back.count == 1, "\(lines)")
        #expect(back.first?["local_id"]?.stringValue == id && back.first?["server_id"]?.stringValue == serverID)
        #expect(
            !(try String(contentsOfFile: log, encoding: .utf8)).contains("mirror"),
            "a supervisor's words stay out of the log")
        #expect(try String(contentsOfFile: metrics, encoding: .utf8).contains("\njqc_reports_returned 1\n"))
        #expect(try listed(inspector, id)?["review_state"] == "returned")

        let amend = try inspector.jqc(["amend", id])
        #expect(amend.status == 0)
        #expect(
            amend.stdout.contains("is a DRAFT again") && amend.stdout.contains("Comment: \(comment)"), "\(amend.stdout)"
        )
    }

    @Test(
        "a reviews cursor the server refuses (a server restored from a backup, say) is dropped and the feed pulled again from its start in the same sync"
    )
    func refusedCursor() throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        let id = try completedReport(inspector)
        #expect(try inspector.jqc(["sync"]).status == 0)
        let serverID = try #require(try inspector.show(id)["server_id"]?.stringValue)
        #expect(try supervisor.jqc(["review", "return", serverID, "--field", "14=Retake it."]).status == 0)
        do {
            let store = try LocalStore.open(at: inspector.storePath)
            try store.setMeta(MetaKey.reviewsCursor, "a-cursor-of-another-generation")
        }
        let sync = try inspector.jqc(["sync", "--json"])
        #expect(sync.status == 0 && sync.stderr.isEmpty, "\(sync.stdout)\(sync.stderr)")
        let summary = try JSONValue.parse(Data(sync.stdout.utf8))
        #expect(summary["error"] == .null && summary["reviews_error"] == nil, "\(summary)")
        #expect(summary["returned"] == [["local_id": .string(id), "server_id": .string(serverID)]])
        #expect(try listed(inspector, id)?["review_state"] == "returned")
        #expect(
            try LocalStore.open(at: inspector.storePath).meta(MetaKey.reviewsCursor) != "a-cursor-of-another-generation"
        )
    }

    @Test(
        "a device against a server without the review routes syncs exactly as before: no error, no warning, exit 0, nothing about reviews"
    )
    func serverWithoutReviews() throws {
        let profile = try DemoProfile()
        let id = try completedReport(profile)
        func ok(_ data: String) -> Data {
            CannedHTTPServer.response(status: 200, contentType: "application/json", "{\"ok\": true, \"data\": \(data)}")
        }
        let notFound = CannedHTTPServer.response(
            status: 404, contentType: "application/json",
            "{\"ok\": false, \"error\": \"Not found.\", \"code\": \"NOT_FOUND\"}")
        let reference = [
            ok("{\"facilities\": []}"), ok("{\"templates\": []}"), ok("{\"assignments\": [], \"cursor\": \"A1\"}"),
        ]
        // A contract-1.0 server, in the order a cycle asks: sign-in, the reference data, the batch, then /reviews (404).
        let first = try CannedHTTPServer(
            [
                ok(
                    "{\"access_token\": \"t1\", \"refresh_token\": \"r1\", \"expires_in\": 3600, \"user\": {\"id\": \"U-1\", \"username\": \"inspector\", \"role\": \"inspector\", \"display_name\": \"Ivy Inspector\"}}"
                )
            ] + reference + [
                ok(
                    "{\"results\": [{\"local_id\": \"\(id)\", \"status\": \"ACCEPTED\", \"server_id\": \"R-1\", \"revision\": 1}], \"min_supported_app_version\": \"0.0.1\", \"server_schema_version\": 1}"
                ),
                notFound,
            ])
        defer { first.stop() }
        let login = try profile.jqc(
            ["login", "--server", first.baseURL, "--username", "inspector", "--password-stdin"], stdin: "pw\n")
        try #require(login.status == 0, "login: \(login.stderr)")
        let sync = try profile.jqc(["sync", "--json"])
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        #expect(sync.stderr.isEmpty, "no warning: \(sync.stderr)")
        let summary = try JSONValue.parse(Data(sync.stdout.utf8))
        #expect(
            summary["outcome"] == "done" && summary["error"] == .null && summary["accepted"] == 1
                && summary["synced"] == 1)
        #expect(summary["reviews"] == .null && summary["returned"] == [] && summary["reviews_error"] == nil)
        #expect(
            first.requests.last?.hasPrefix("GET /api/v1/reviews?limit=100 ") == true, "\(first.requests.last ?? "")")
        #expect(try profile.show(id)["state"] == "SYNCED")
        #expect(try profile.show(id)["review_state"] == .null, "a server without reviews: no review state at all")
        #expect(try listed(profile, id)?["review_state"] == .null)
        #expect(try profile.document(["status"]).value["returned"] == 0)

        // The next cycle, as a person reads it: nothing about reviews.
        let second = try CannedHTTPServer(
            reference + [
                ok("{\"results\": [], \"min_supported_app_version\": \"0.0.1\", \"server_schema_version\": 1}"),
                notFound,
            ])
        defer { second.stop() }
        try profile.route(to: second.baseURL)
        let human = try profile.jqc(["sync"])
        #expect(human.status == 0 && human.stderr.isEmpty, "\(human.stdout)\(human.stderr)")
        #expect(!human.stdout.lowercased().contains("review") && !human.stdout.contains("RETURNED"), "\(human.stdout)")
        let row = try #require(
            try profile.jqc(["list"]).stdout.split(separator: "\n").first { $0.hasPrefix(String(id.prefix(8))) })
        #expect(row.split(separator: " ").last == "-", "no review in the REVIEW column: \(row)")
    }
}
