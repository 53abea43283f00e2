import Foundation
import Models
import Testing
import TestSupport

/// The server the administration rules' suites share: the demo world and
/// one admin, `ada`, who adds whatever else a test needs under a name of its own.
enum AdminRules {
    static let server: Result<ServerProcess, any Error> = Result {
        try ServerProcess(["--demo"] + ServerProcess.manyClients) { db in
            let added = try Programs.run(
                "jqc-server", ["admin", "add-user", "ada", "--db", db, "--role", "admin", "--display-name", "Ada"],
                stdin: "ada-admin-password\n")
            guard added.status == 0 else { throw ServerLaunchError(message: "add-user failed: \(added.stderr)") }
        }
    }

    /// `ada`, signed in.
    static func admin(_ server: ServerProcess) async throws -> Session {
        try await Session.login(server, "ada", "ada-admin-password")
    }

    /// A name no other test uses: `prefix` and six letters of a UUID.
    static func unique(_ prefix: String) -> String {
        prefix + UUID().uuidString.prefix(6).lowercased()
    }

    /// Adds a user through the management API and returns their id.
    static func addUser(
        _ admin: Session, _ username: String, role: String = "inspector", password: String = "a-long-password-1"
    ) async throws -> String {
        let added = try await admin.post(
            "/admin/users", ["username": .string(username), "password": .string(password), "role": .string(role)])
        try #require(added.status == 201, "add \(username): \(added.status) \(added.message)")
        return try #require(added.data["user"]?["id"]?.stringValue)
    }

    /// The user of that id as the management API lists them.
    static func user(_ admin: Session, id: String) async throws -> JSONValue? {
        try await admin.get("/admin/users").data["users"]?.arrayValue?.first { $0["id"]?.stringValue == id }
    }
}
