import Foundation
import Models
import Testing
import TestSupport

/// F11 and E-13/AC-14: `jqc history` and `jqc rollup` against a real
/// `jqc-server --demo` on loopback, online and offline. Offline is a server
/// that was started and then stopped: its port has nobody listening.
@Suite("History and team roll-up against the reference server")
struct HistoryRollupTests {
    /// A demo profile signed in to `baseURL` as `username`.
    func signedIn(to baseURL: String, as username: String = "inspector") throws -> DemoProfile {
        try DemoProfile.signedIn(to: baseURL, as: username)
    }

    /// A completed (PENDING) Washroom QC report.
    func pendingReport(_ profile: DemoProfile) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let complete = try profile.jqc(["complete", id])
        try #require(complete.status == 0, "complete: \(complete.stderr)")
        return id
    }

    /// Syncs and requires success.
    func sync(_ profile: DemoProfile) throws {
        let sync = try profile.jqc(["sync"])
        try #require(sync.status == 0, "sync: \(sync.stdout)\(sync.stderr)")
    }

    @Test("history lists the two synced reports, pages with --limit/--offset, and checks its options")
    func historyOnline() throws {
        // A server of its own: the history total must count only this test's reports.
        let server = try ServerProcess(["--demo"])
        let profile = try signedIn(to: server.baseURL)
        let first = try pendingReport(profile)
        let second = try pendingReport(profile)
        try sync(profile)
        let serverIDs = try Set([first, second].map { try #require(profile.show($0)["server_id"]?.stringValue) })

        let all = try profile.document(["history"])
        #expect(all.status == 0)
        #expect(all.value["total"] == 2)
        let items = try #require(all.value["items"]?.arrayValue)
        #expect(Set(items.compactMap { $0["server_id"]?.stringValue }) == serverIDs)
        #expect(Set(items.compactMap { $0["local_id"]?.stringValue }) == Set([first, second]))
        #expect(
            items.allSatisfy {
                $0["template_id"] == "101" && $0["facility_id"] == "F-100"
                    && $0["inspector"]?["display_name"]?.stringValue != nil
            })

        let page = try profile.document(["history", "--limit", "1", "--offset", "1"])
        #expect(page.status == 0)
        #expect(page.value["total"] == 2)
        #expect(page.value["items"]?.arrayValue?.count == 1)
        let pageID = try #require(page.value["items"]?[0]?["server_id"]?.stringValue)
        #expect(serverIDs.contains(pageID))
        #expect(pageID != items.first?["server_id"]?.stringValue, "offset 1 skips the first")

        let listed = try profile.jqc(["history"])
        for id in serverIDs {
            #expect(
                listed.stdout.contains(" \(id)\n"), "the whole server id, as show and export need it: \(listed.stdout)")
        }

        let human = try profile.jqc(["history", "--limit", "1"])
        #expect(human.status == 0)
        #expect(human.stdout.contains("Washroom"), "the cached template's name: \(human.stdout)")
        #expect(human.stdout.contains("1-1 of 2, next page: --offset 1"), "\(human.stdout)")
        let last = try profile.jqc(["history", "--limit", "1", "--offset", "1"])
        #expect(last.stdout.contains("2-2 of 2") && !last.stdout.contains("next page"), "\(last.stdout)")

        for bad in [["--limit", "0"], ["--limit", "101"], ["--limit", "ten"], ["--offset", "x"]] {
            let outcome = try profile.jqc(["history"] + bad)
            #expect(outcome.status == 2, "\(bad): \(outcome.stderr)")
        }
    }

    @Test("history offline exits 75 with one clear line and changes nothing; signed out it exits 6")
    func historyOffline() throws {
        let gone = try ServerProcess(["--demo"])
        let profile = try signedIn(to: gone.baseURL)
        _ = gone.stop()
        let id = try pendingReport(profile)

        let offline = try profile.jqc(["history"])
        #expect(offline.status == 75)
        #expect(offline.stderr == "jqc: History needs a connection; try again when online.\n")
        let json = try profile.document(["history"])
        #expect(json.status == 75)
        #expect(json.value["error"]?["code"] == "HISTORY_REQUIRES_NETWORK")
        #expect(try profile.show(id)["state"] == "PENDING")

        let signedOut = try DemoProfile()
        let outcome = try signedOut.jqc(["history"])
        #expect(outcome.status == 6)
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }

    @Test("rollup as supervisor shows the inspector's line; offline it shows the saved copy labelled cached")
    func rollupCached() throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try signedIn(to: server.baseURL)
        _ = try pendingReport(inspector)
        try sync(inspector)
        let inspectorName = try #require(try inspector.document(["whoami"]).value["user"]?["display_name"]?.stringValue)

        let supervisor = try signedIn(to: server.baseURL, as: "supervisor")
        let human = try supervisor.jqc(["rollup"])
        #expect(human.status == 0)
        #expect(human.stdout.contains(inspectorName) && !human.stdout.contains("cached"), "\(human.stdout)")
        // The last online fetch is the copy kept for offline use.
        let online = try supervisor.document(["rollup"])
        #expect(online.status == 0)
        #expect(online.value["cached"] == false)
        #expect(online.value["cached_at"] == nil)
        #expect(online.value["generated_at"]?.stringValue?.isEmpty == false)
        let line = try #require(
            online.value["inspectors"]?.arrayValue?.first { $0["display_name"]?.stringValue == inspectorName })
        #expect(line["completed"] == 1)
        #expect(line["pending_follow_up"]?.integerValue != nil)

        _ = server.stop()
        let cached = try supervisor.jqc(["rollup"])
        #expect(cached.status == 0, "\(cached.stderr)")
        #expect(cached.stdout.contains("cached from ") && cached.stdout.contains(", offline"), "\(cached.stdout)")
        #expect(cached.stdout.contains(inspectorName))
        let cachedJSON = try supervisor.document(["rollup"])
        #expect(cachedJSON.status == 0)
        #expect(cachedJSON.value["cached"] == true)
        #expect(cachedJSON.value["cached_at"]?.stringValue?.isEmpty == false)
        #expect(cachedJSON.value["inspectors"] == online.value["inspectors"])
        #expect(cachedJSON.value["generated_at"] == online.value["generated_at"])
    }

    @Test(
        "E-13/AC-14: rollup offline with no saved copy is ROLLUP_REQUIRES_NETWORK (75); status, list and drafts still work"
    )
    func rollupOfflineNoCache() throws {
        let gone = try ServerProcess(["--demo"])
        let supervisor = try signedIn(to: gone.baseURL, as: "supervisor")
        _ = gone.stop()

        let human = try supervisor.jqc(["rollup"])
        #expect(human.status == 75)
        #expect(human.stderr == "jqc: Team view needs a connection.\n")
        let json = try supervisor.document(["rollup"])
        #expect(json.status == 75)
        #expect(json.value["error"]?["code"] == "ROLLUP_REQUIRES_NETWORK")

        #expect(try supervisor.jqc(["status"]).status == 0)
        #expect(try supervisor.jqc(["list"]).status == 0)
        #expect(try supervisor.jqc(["whoami"]).status == 0)
        let id = try pendingReport(supervisor)
        #expect(try supervisor.show(id)["state"] == "PENDING")
        let listed = try supervisor.jqc(["list"])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains(String(id.prefix(8))), "\(listed.stdout)")
    }

    @Test("rollup as an inspector is refused (5) in one line, and saves nothing")
    func rollupInspector() throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try signedIn(to: server.baseURL)
        let refused = try inspector.jqc(["rollup"])
        #expect(refused.status == 5)
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(refused.stderr.contains("supervisors"), "\(refused.stderr)")
        #expect(try inspector.document(["rollup"]).value["error"]?["code"] == "ROLLUP_FORBIDDEN")
        _ = server.stop()
        // Nothing was saved for the offline view either.
        #expect(try inspector.document(["rollup"]).value["error"]?["code"] == "ROLLUP_REQUIRES_NETWORK")
    }
}
