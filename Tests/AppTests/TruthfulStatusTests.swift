import Foundation
import Models
import Testing
import TestSupport

/// What `status` and `sync` say must be true: online after a sign-in, "not
/// signed in" before one, the last sync a cycle that reached the server, the
/// counts of what really happened, the reason when offline, the version
/// gate even with nothing to send, and a person's `jqc sync` not made to
/// wait out the agent's backoff.
@Suite("status and sync tell the truth")
struct TruthfulStatusTests {
    private func pendingReport(_ profile: DemoProfile) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        try #require(try profile.jqc(["complete", id]).status == 0)
        return id
    }

    @Test("right after login status is online and signed in; a profile never signed in says so and sync exits 6")
    func signInStates() throws {
        let server = try ServerProcess(["--demo"])
        let fresh = try DemoProfile()
        let before = try fresh.document(["status"]).value
        #expect(before["signed_in"] == false)
        #expect(try fresh.jqc(["status"]).stdout.contains("not signed in"))
        _ = try pendingReport(fresh)
        let refused = try fresh.jqc(["sync"])
        #expect(refused.status == 6, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("Sign in"), "\(refused.stderr)")
        #expect(try fresh.agent(["run", "--once"]).status == 6)

        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let after = try profile.document(["status"]).value
        #expect(after["online"] == true && after["signed_in"] == true, "\(after)")
    }

    @Test("Last sync is the last cycle that reached the server: a failed attempt leaves it where it was")
    func lastSyncOnlyOnSuccess() throws {
        let server = try ServerProcess(["--demo"])
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        #expect(try profile.jqc(["sync"]).status == 0)
        let first = try #require(try profile.document(["status"]).value["last_sync_at"]?.stringValue)
        _ = server.stop()
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try profile.jqc(["sync"]).status == 75)
        let status = try profile.document(["status"]).value
        #expect(status["last_sync_at"]?.stringValue == first)
        #expect(status["online"] == false)
    }

    @Test("three reports without photos: sync says three accepted and three SYNCED, in words and in --json")
    func countsTellWhatHappened() throws {
        let server = try ServerProcess(["--demo"])
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        for _ in 0..<3 { _ = try pendingReport(profile) }
        let human = try profile.jqc(["sync"])
        #expect(human.status == 0)
        #expect(human.stdout.contains("3 accepted by the server, 3 now SYNCED"), "\(human.stdout)")
        _ = try pendingReport(profile)
        let document = try profile.document(["sync"]).value
        #expect(document["accepted"] == 1 && document["synced"] == 1, "\(document)")
    }

    @Test("offline, the human output of sync says why, not only that it waits")
    func offlineSaysWhy() throws {
        let gone = try ServerProcess(["--demo"])
        let profile = try DemoProfile.signedIn(to: gone.baseURL)
        _ = gone.stop()
        _ = try pendingReport(profile)
        let outcome = try profile.jqc(["sync"])
        #expect(outcome.status == 75)
        // One line on stderr: why, then that it waits; nothing on stdout.
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "\(outcome.stderr)")
        let line = try #require(lines.first)
        #expect(
            line.hasPrefix("SYNC_OFFLINE: ") && line.hasSuffix("Waiting for network. 1 report pending."),
            "\(outcome.stderr)")
        #expect(
            line.count > "SYNC_OFFLINE: ".count + 5 + "Waiting for network. 1 report pending.".count,
            "the why is there: \(line)")
        #expect(outcome.stdout.isEmpty, "\(outcome.stdout)")
    }

    @Test("a server demanding a newer app, nothing pending: sync says an update is needed and start is refused")
    func versionGateWithNothingPending() throws {
        let server = try ServerProcess(["--demo", "--min-app-version", "9.0.0"])
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let synced = try profile.jqc(["sync"])
        #expect(synced.stderr.contains("UPDATE_REQUIRED"), "\(synced.stdout) \(synced.stderr)")
        #expect(!synced.stdout.contains("UPDATE_REQUIRED") && synced.stdout.contains("Reports: "), "\(synced.stdout)")
        #expect(try profile.document(["status"]).value["app_version_supported"] == false)
        let start = try profile.jqc(["start", "--template", "lobby-walk", "--facility", "F-100"])
        #expect(start.status == 5, "\(start.stderr)")
    }

    @Test("a person's jqc sync sends at once what the agent leaves waiting out its backoff")
    func foregroundIgnoresBackoff() throws {
        let healthy = try ServerProcess(["--demo"])
        // A server that asks to be left alone for an hour: the report's next attempt is at least that far off.
        let busy = CannedHTTPServer.response(
            status: 503, contentType: "application/json",
            #"{"ok": false, "error": "down for maintenance", "code": "UNAVAILABLE"}"#,
            headers: [("Retry-After", "3600")])
        let failing = try CannedHTTPServer(Array(repeating: busy, count: 8))
        defer { failing.stop() }
        let profile = try DemoProfile.signedIn(to: healthy.baseURL)
        try profile.route(to: failing.baseURL)
        let id = try pendingReport(profile)
        #expect(try profile.jqc(["sync"]).status == 75)
        #expect(try profile.show(id)["attempt_count"] == 1)

        try profile.route(to: healthy.baseURL)
        #expect(try profile.agent(["run", "--once"]).status == 0)
        #expect(try profile.show(id)["state"] == "PENDING", "the agent waits out the backoff")
        #expect(try profile.jqc(["sync"]).status == 0)
        #expect(try profile.show(id)["state"] == "SYNCED", "a person asking now is not made to wait")
    }
}
