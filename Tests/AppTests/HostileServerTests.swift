import Foundation
import Models
import Testing
import TestSupport

/// `jqc sync` against answers a JQC server never gives (an HTML error page
/// from a proxy, truncated JSON), and AC-13 retention against the real server.
///
/// The hostile answers come from a `CannedHTTPServer`. The profile first signs
/// in to the real demo server, then its saved session is pointed at the canned
/// one by rewriting `server_url` in `credentials.json`: that file is the
/// user's own (CredentialStore's documented format), and editing it is what a
/// proxy or a moved server looks like from the device.
@Suite("Sync against a hostile server; retention")
struct HostileServerTests {
    static let demo: Result<ServerProcess, any Error> = Result { try ServerProcess(["--demo"]) }

    /// A demo profile signed in to the shared demo server as the inspector.
    func signedIn() throws -> DemoProfile { try DemoProfile.signedIn(to: try Self.demo.get().baseURL) }

    /// A completed (PENDING) Washroom QC report.
    func pendingReport(_ profile: DemoProfile) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        try #require(try profile.jqc(["complete", id]).status == 0)
        return id
    }

    /// Points the saved session at `baseURL`, keeping the tokens and the file's 0600 mode.
    func pointSession(of profile: DemoProfile, at baseURL: String) throws {
        let path = profile.directory.path("credentials.json")
        var saved = try #require(try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: path))).objectValue)
        saved["server_url"] = .string(baseURL)
        try JSONEncoder().encode(JSONValue.object(saved)).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }

    /// Runs `jqc sync` against one canned answer (repeated for every request) and returns the outcome.
    func syncAgainst(_ answer: Data, _ profile: DemoProfile) throws -> (
        human: ProcessOutcome, json: (status: Int32, value: JSONValue)
    ) {
        let canned = try CannedHTTPServer([answer])
        defer { canned.stop() }
        try pointSession(of: profile, at: canned.baseURL)
        let human = try profile.jqc(["sync"])
        let json = try profile.document(["sync"])
        #expect(!canned.requests.isEmpty, "the canned server was asked")
        return (human, json)
    }

    /// What a person sees: stdout and stderr together, with no crash or stack trace.
    func expectClean(_ outcome: ProcessOutcome) {
        let text = outcome.stdout + outcome.stderr
        #expect(
            !text.contains("Fatal error") && !text.contains("Stack dump") && !text.contains("<html")
                && !text.contains("0x"),
            "no crash, no HTML echoed: \(text)")
    }

    @Test(
        "a 502 HTML page from a proxy: sync exits 75 in one clear line; the PENDING report and its answers are intact")
    func htmlErrorPage() throws {
        let profile = try signedIn()
        let id = try pendingReport(profile)
        let before = try profile.show(id)
        let page = CannedHTTPServer.response(
            status: 502, contentType: "text/html",
            "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>")
        let (human, json) = try syncAgainst(page, profile)
        #expect(human.status == 75, "\(human.stdout)\(human.stderr)")
        expectClean(human)
        #expect(human.stderr.split(separator: "\n").count <= 1, "\(human.stderr)")
        #expect(
            human.stderr.contains("HTTP 502") && human.stderr.contains("Waiting for network. 1 report pending."),
            "\(human.stderr)")
        #expect(human.stdout.isEmpty, "\(human.stdout)")
        // The second run (a person asking again: the report is sent at once, backoff or not) meets the same page: 75, not 0,
        // and the document says why.
        #expect(json.status == 75)
        #expect(json.value["error"]?["code"] == "SYNC_OFFLINE", "\(json.value)")
        #expect(json.value.canonicalString().contains("502"), "\(json.value)")

        let after = try profile.show(id)
        #expect(after["state"] == "PENDING")
        #expect(after["answers"] == before["answers"])
        #expect(after["server_id"] == before["server_id"])
    }

    /// A 200 whose body is not the JQC API is not transient (the client's
    /// `INVALID_RESPONSE`): the server answered, wrongly, so waiting will not
    /// help. `jqc sync` exits 1 with that one line; the report stays PENDING and
    /// is retried with backoff (the attempt is counted).
    @Test("a 200 with truncated JSON: sync exits 1 with INVALID_RESPONSE in one line; the queue is intact")
    func truncatedJSON() throws {
        let profile = try signedIn()
        let id = try pendingReport(profile)
        let before = try profile.show(id)
        let garbage = CannedHTTPServer.response(
            status: 200, contentType: "application/json", "{\"data\": {\"facilities\": [{\"id\": \"F-1")
        let (human, json) = try syncAgainst(garbage, profile)
        #expect(human.status == 1, "\(human.stdout)\(human.stderr)")
        expectClean(human)
        #expect((human.stdout + human.stderr).contains("INVALID_RESPONSE"), "\(human.stdout)\(human.stderr)")
        #expect(json.status == 1)
        #expect(json.value["error"]?["code"] == "INVALID_RESPONSE", "\(json.value)")

        let after = try profile.show(id)
        #expect(after["state"] == "PENDING")
        #expect(after["answers"] == before["answers"])
        #expect(after["last_error"]?["code"] == "INVALID_RESPONSE", "the attempt is recorded for the retry policy")
    }

    @Test(
        "AC-13: retention 0 days; a SYNCED report with an UPLOADED photo stays while it awaits review, and once its approval has arrived is removed with its file at the next sync; the server keeps it"
    )
    func retention() async throws {
        let server = try Self.demo.get()
        let profile = try signedIn()
        #expect(try profile.jqc(["settings", "retention-days", "0"]).status == 0)
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        #expect(
            try profile.jqc(["photo", "add", id, "--field", "14", try profile.writeJPEG("kept.jpg", seed: 11)]).status
                == 0)
        #expect(try profile.jqc(["complete", id]).status == 0)
        let photoFiles = try profile.photoFolderContents()
        #expect(!photoFiles.isEmpty)

        let first = try profile.jqc(["sync"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let synced = try profile.show(id)
        #expect(synced["state"] == "SYNCED")
        #expect(synced["photos"]?.arrayValue?.allSatisfy { $0["upload_state"] == "UPLOADED" } == true)
        let serverID = try #require(synced["server_id"]?.stringValue)

        // Awaiting a supervisor's review (contract 1.1), it stays on the device whatever the window.
        let waiting = try profile.document(["sync"])
        #expect(waiting.status == 0 && waiting.value["expired"] == 0, "\(waiting.value)")
        #expect(try profile.show(id)["review_state"] == "awaiting_review")
        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        #expect(try supervisor.jqc(["review", "approve", serverID]).status == 0)
        // The window counts from when the decision reached this device: the sync that brings it keeps the report.
        let decided = try profile.document(["sync"])
        #expect(decided.status == 0 && decided.value["expired"] == 0, "\(decided.value)")
        #expect(try profile.show(id)["review_state"] == "approved")

        let second = try profile.document(["sync"])
        #expect(second.status == 0)
        #expect(second.value["expired"] == 1, "\(second.value)")
        #expect(try profile.jqc(["show", id]).status == 3)
        #expect(Set(try profile.photoFolderContents()).isDisjoint(with: photoFiles), "the photo file is gone")

        // The server copy is untouched: the report and its photo are still there.
        let path = profile.directory.path("credentials.json")
        let token = try #require(
            try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: path)))["access_token"]?.stringValue)
        let response = try await HTTPTestClient().send("GET", server.url("/reports/\(serverID)"), token: token)
        #expect(response.status == 200)
        #expect(response.data["report"]?["local_id"]?.stringValue == id)
        #expect(response.data["report"]?["photos"]?.arrayValue?.count == 1)
    }
}
