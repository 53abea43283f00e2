import Foundation
import Models
import Testing
import TestSupport

/// A password of only spaces is no password (both stores).
@Suite("Security trial: a password of only whitespace")
struct BlankPasswordTests {
    @Test("ten spaces are refused when a user is added and when a password is set, over HTTP and the command line")
    func whitespacePasswords() async throws {
        let server = try AdminRules.server.get()
        let admin = try await AdminRules.admin(server)
        let blank = String(repeating: " ", count: 10)
        let added = try await admin.post(
            "/admin/users", ["username": .string(AdminRules.unique("blank")), "password": .string(blank)])
        #expect(added.status == 400, "\(added.status)")
        let name = AdminRules.unique("blank")
        let id = try await AdminRules.addUser(admin, name)
        let set = try await admin.patch("/admin/users/\(id)", ["password": .string(blank + "\t  ")])
        #expect(set.status == 400, "\(set.status)")
        let cli = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "set-password", name], stdin: blank + "\n")
        #expect(cli.status == 4, "\(cli.status) \(cli.stderr)")
        _ = try await Session.login(server, name, "a-long-password-1")
    }
}
