import Foundation
import Models
import Testing
import TestSupport

/// Adding a user never changes one who exists (both stores).
@Suite("Security trial: adding an existing user is refused")
struct ExistingUserTests {
    @Test(
        "jqc-server admin add-user of an existing name exits 7 naming 'user update' and 'user set-password'; nothing changes"
    )
    func commandLine() async throws {
        let server = try AdminRules.server.get()
        let admin = try await AdminRules.admin(server)
        let name = AdminRules.unique("kept")
        let id = try await AdminRules.addUser(admin, name)
        let again = try Programs.run(
            "jqc-server",
            ["admin", "--db", server.databasePath, "add-user", name, "--role", "admin", "--display-name", "Reset"],
            stdin: "a-new-long-password\n")
        #expect(again.status == 7, "\(again.status) \(again.stderr)")
        #expect(again.stderr.contains("user update") && again.stderr.contains("user set-password"), "\(again.stderr)")
        let user = try #require(try await AdminRules.user(admin, id: id))
        #expect(user["role"] == "inspector")
        #expect(user["display_name"]?.stringValue == name)
        _ = try await Session.login(server, name, "a-long-password-1")
    }

    @Test("the management API and the console answer 409 naming the commands to use")
    func apiAndConsole() async throws {
        let server = try AdminRules.server.get()
        let admin = try await AdminRules.admin(server)
        let name = AdminRules.unique("kept")
        _ = try await AdminRules.addUser(admin, name)
        let again = try await admin.post(
            "/admin/users", ["username": .string(name), "password": "a-new-long-password", "role": "admin"])
        #expect(again.status == 409)
        #expect(again.message.contains("user update") && again.message.contains("user set-password"))
        let console = ConsoleClient(server)
        #expect(try console.signIn("ada", "ada-admin-password").status == 303)
        let page = try console.post(
            "/console/admin/user-add",
            [
                ("csrf", try console.csrf()), ("username", name), ("password", "a-new-long-password"),
                ("role", "admin"),
            ])
        #expect(page.status == 409)
        _ = try await Session.login(server, name, "a-long-password-1")
    }
}
