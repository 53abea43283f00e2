import Foundation
import Models
import Testing
import TestSupport

/// There is always an enabled admin: the rule is checked in the very
/// transaction that demotes or disables one (both stores).
@Suite("Security trial: the last enabled admin stays", .serialized)
struct LastAdminTests {
    /// A server with exactly two admins, `ann` and `bob`.
    static let server: Result<ServerProcess, any Error> = Result {
        try ServerProcess(["--demo"] + ServerProcess.manyClients) { db in
            for name in ["ann", "bob"] {
                let added = try Programs.run(
                    "jqc-server", ["admin", "add-user", name, "--db", db, "--role", "admin"],
                    stdin: "\(name)-admin-password\n")
                guard added.status == 0 else { throw ServerLaunchError(message: "add-user failed: \(added.stderr)") }
            }
        }
    }

    @Test("two admins demoting or disabling each other at once always leave an enabled admin")
    func mutualDemotions() async throws {
        let server = try Self.server.get()
        for trial in 0..<6 {
            let ann = try await Session.login(server, "ann", "ann-admin-password")
            let bob = try await Session.login(server, "bob", "bob-admin-password")
            let change: JSONValue = trial.isMultiple(of: 2) ? ["role": "inspector"] : ["disabled": true]
            async let first = ann.patch("/admin/users/\(bob.userID)", change)
            async let second = bob.patch("/admin/users/\(ann.userID)", change)
            let statuses = [try await first.status, try await second.status]
            let users = try Self.admin(server, ["users", "--json"])
            let listed = try JSONValue.parse(users.stdout)["users"]?.arrayValue ?? []
            let admins = listed.filter { $0["role"] == "admin" && $0["disabled_at"] == .null }
            #expect(admins.count >= 1, "trial \(trial): \(statuses), no enabled admin left")
            #expect(statuses.contains(200) || admins.count == 2, "trial \(trial): \(statuses)")
            for name in ["ann", "bob"] {
                #expect(try Self.admin(server, ["edit-user", name, "--role", "admin"]).status == 0)
                #expect(try Self.admin(server, ["disable-user", name, "--enable"]).status == 0)
            }
        }
    }

    @Test("the command line cannot demote or disable the only enabled admin either (exit 7)")
    func commandLine() async throws {
        let server = try Self.server.get()
        #expect(try Self.admin(server, ["disable-user", "bob"]).status == 0)
        let refused = try Self.admin(server, ["edit-user", "ann", "--role", "supervisor"])
        #expect(refused.status == 7, "\(refused.stderr)")
        #expect(refused.stderr.contains("admin"), "\(refused.stderr)")
        #expect(try Self.admin(server, ["disable-user", "ann"]).status == 7)
        #expect(try Self.admin(server, ["disable-user", "bob", "--enable"]).status == 0)
    }

    static func admin(_ server: ServerProcess, _ arguments: [String]) throws -> ProcessOutcome {
        try Programs.run("jqc-server", ["admin", "--db", server.databasePath] + arguments)
    }
}
