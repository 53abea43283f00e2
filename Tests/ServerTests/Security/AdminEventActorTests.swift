import Foundation
import Models
import Testing
import TestSupport

/// The admin event log names who made each change by what cannot be
/// changed: a user's user name (beside the display name they had), or the
/// command line as a kind of its own that no display name can imitate.
@Suite("Security trial: the admin event log's actors")
struct AdminEventActorTests {
    @Test("an admin renamed 'root (jqc-server admin)' is shown by user name, never as the command line")
    func adminEventActorUsername() async throws {
        let server = try ServerProcess(["--demo"]) { db in
            let added = try Programs.run(
                "jqc-server", ["admin", "add-user", "mallory", "--db", db, "--role", "admin"],
                stdin: "mallory-admin-password\n")
            guard added.status == 0 else { throw ServerLaunchError(message: "add-user failed: \(added.stderr)") }
        }
        let mallory = try await Session.login(server, "mallory", "mallory-admin-password")
        let renamed = try await mallory.patch(
            "/admin/users/\(mallory.userID)", ["display_name": "root (jqc-server admin)"])
        #expect(renamed.status == 200)
        #expect(try await mallory.post("/admin/facilities", ["id": "F-777", "name": "Spoofed"]).status == 201)

        let events = try await mallory.get("/admin/events?limit=1000").data["events"]?.arrayValue ?? []
        let byMallory = try #require(events.first { $0["subject"] == "F-777" })
        #expect(byMallory["actor"]?["kind"] == "user", "\(byMallory)")
        #expect(byMallory["actor"]?["username"] == "mallory", "\(byMallory)")
        #expect(byMallory["actor"]?["name"] == "root (jqc-server admin)")
        let byCommandLine = try #require(events.first { $0["kind"] == "user.added" })
        #expect(byCommandLine["actor"]?["kind"] == "command_line", "\(byCommandLine)")

        let text = try Programs.run("jqc-server", ["admin", "events", "--db", server.databasePath])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let spoofLine = try #require(lines.first { $0.contains("F-777") })
        let cliLine = try #require(lines.first { $0.contains("user.added") })
        #expect(spoofLine.contains("mallory"), "\(spoofLine)")
        #expect(spoofLine.contains("user"), "\(spoofLine)")
        #expect(cliLine.contains("command line"), "\(cliLine)")
        #expect(!spoofLine.contains("command line"), "\(spoofLine)")

        let console = ConsoleClient(server)
        try console.signIn("mallory", "mallory-admin-password")
        let page = try console.get("/console/admin")
        #expect(page.status == 200)
        let item = try #require(page.text.components(separatedBy: "<li>").first { $0.contains("F-777") })
        #expect(item.contains("mallory"), "\(item)")
        #expect(!item.contains("command line"), "\(item)")
        let cliItem = try #require(page.text.components(separatedBy: "<li>").first { $0.contains("user.added") })
        #expect(cliItem.contains("command line"), "\(cliItem)")
    }
}
