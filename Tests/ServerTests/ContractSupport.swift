import Foundation
import Models
import Testing
import TestSupport

/// The server most contract suites share: the demo world, a second
/// inspector for ownership tests, a minimum app version above the tests'
/// own (0.1.0), and a small photo limit so 413 is cheap to reach.
enum Shared {
    static let minimumVersion = "0.2.0"
    static let photoLimit = 65_536

    static let server: Result<ServerProcess, any Error> = Result {
        // Sign-in failures counted over an hour: the hostile suites' guesses (each from an address of
        // its own) must meet the limit however slowly a loaded machine checks passwords.
        try ServerProcess(
            [
                "--demo", "--min-app-version", minimumVersion, "--max-photo-bytes", String(photoLimit),
                "--sign-in-window", "3600",
            ] + ServerProcess.manyClients
        ) { db in
            let added = try Programs.run(
                "jqc-server",
                [
                    "admin", "add-user", "other", "--db", db, "--role", "inspector",
                    "--display-name", "Otto Other",
                ], stdin: "other-pass\n")
            guard added.status == 0 else { throw ServerLaunchError(message: "add-user failed: \(added.stderr)") }
            // An inspector whose reports only the reviews feed's paging test touches.
            let pager = try Programs.run(
                "jqc-server",
                [
                    "admin", "add-user", "pager", "--db", db, "--role", "inspector",
                    "--display-name", "Pat Pager",
                ], stdin: "pager-password\n")
            guard pager.status == 0 else { throw ServerLaunchError(message: "add-user failed: \(pager.stderr)") }
        }
    }

    static func running() throws -> ServerProcess { try server.get() }
}

/// A signed-in user of a running server.
struct Session {
    let server: ServerProcess
    let accessToken: String
    let refreshToken: String
    let userID: String
    let client = HTTPTestClient()

    /// Signs in as a client of the contract does: a 503 with `Retry-After`
    /// (the server busy, as on a loaded machine), or a 429 that asks for a
    /// few seconds, is waited out and tried again, a few times.
    static func login(_ server: ServerProcess, _ username: String, _ password: String) async throws -> Session {
        var response = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": .string(username), "password": .string(password)])
        // A short 429 (another suite's failed sign-ins from this address, a second ago) is waited out as well.
        for _ in 0..<4
        where response.status == 503
            || (response.status == 429 && (Double(response.header("Retry-After") ?? "") ?? 99) <= 5)
        {
            let wait = min(Double(response.header("Retry-After") ?? "") ?? 1, 5)
            try await Task.sleep(for: .seconds(wait))
            response = try await HTTPTestClient().send(
                "POST", server.url("/auth/login"),
                json: ["username": .string(username), "password": .string(password)])
        }
        try #require(
            response.status == 200,
            "login of \(username): \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        return Session(
            server: server, accessToken: try #require(response.data["access_token"]?.stringValue),
            refreshToken: try #require(response.data["refresh_token"]?.stringValue),
            userID: try #require(response.data["user"]?["id"]?.stringValue))
    }

    static func inspector(_ server: ServerProcess) async throws -> Session {
        try await login(server, "inspector", "inspector-pass")
    }
    static func supervisor(_ server: ServerProcess) async throws -> Session {
        try await login(server, "supervisor", "supervisor-pass")
    }
    static func other(_ server: ServerProcess) async throws -> Session {
        try await login(server, "other", "other-pass")
    }

    func get(_ path: String) async throws -> TestResponse {
        try await client.send("GET", server.url(path), token: accessToken)
    }

    func post(_ path: String, _ json: JSONValue) async throws -> TestResponse {
        try await client.send("POST", server.url(path), json: json, token: accessToken)
    }

    func patch(_ path: String, _ json: JSONValue) async throws -> TestResponse {
        try await client.send("PATCH", server.url(path), json: json, token: accessToken)
    }

    /// `POST /reports/sync` with these reports; returns the response.
    func sync(_ reports: [JSONValue], appVersion: String = "0.1.0", schemaVersion: Int64 = 1) async throws
        -> TestResponse
    {
        try await post(
            "/reports/sync",
            [
                "device_id": .string(UUID().uuidString.lowercased()), "app_version": .string(appVersion),
                "schema_version": .integer(schemaVersion), "reports": .array(reports),
            ])
    }

    /// Syncs one report and returns its one result.
    func syncOne(_ report: JSONValue) async throws -> JSONValue {
        let response = try await sync([report])
        try #require(
            response.status == 200, "sync: \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        return try #require(response.data["results"]?.arrayValue?.first)
    }
}

/// Reports for the demo world's "Lobby walkthrough" template.
enum Reports {
    /// A valid lobby report; `answers` replace the defaults.
    static func lobby(
        localID: UUID = UUID(), serverID: String? = nil, baseRevision: Int? = nil,
        answers: [String: JSONValue] = [:], followUp: Bool = false,
        parentServerID: String? = nil
    ) -> JSONValue {
        var all: [String: JSONValue] = ["entrance": "pass", "glass": 4, "notes": "fine"]
        for (key, value) in answers { all[key] = value }
        var report: [String: JSONValue] = [
            "local_id": .string(localID.uuidString.lowercased()),
            "template_id": "lobby-walk", "facility_id": "F-100", "area_id": "A-102",
            "payload": ["answers": .object(all), "score": 0.9, "follow_up_required": .bool(followUp)],
            "issues": [],
        ]
        if let serverID { report["server_id"] = .string(serverID) }
        if let baseRevision { report["base_revision"] = .integer(Int64(baseRevision)) }
        if let parentServerID { report["parent_server_id"] = .string(parentServerID) }
        return .object(report)
    }
}

extension JSONValue {
    /// A copy with one member set (objects only).
    func setting(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }
}
