import Foundation
import Models
import Testing
import TestSupport

/// What the security suites share: one request from a chosen loopback
/// address, sign-in over a raw socket, the demo report body.
enum Hostile {
    /// Sends one request from `source` and reads its response.
    static func send(
        _ server: ServerProcess, _ request: Data, from source: String = "127.0.0.1",
        timeout: TimeInterval = 30
    ) -> RawResponse? {
        guard let connection = try? RawConnection(port: RawHTTP.port(of: server), from: source) else { return nil }
        return connection.exchange(request, timeout: timeout)
    }

    /// `POST /auth/login` from `source`.
    static func login(
        _ server: ServerProcess, _ username: String, _ password: String, from source: String = "127.0.0.1",
        timeout: TimeInterval = 30
    ) -> RawResponse? {
        send(
            server,
            RawHTTP.json("POST", "/api/v1/auth/login", ["username": .string(username), "password": .string(password)]),
            from: source, timeout: timeout)
    }

    /// A sync body of `reports`.
    static func syncBody(_ reports: [JSONValue]) -> JSONValue {
        [
            "device_id": .string(UUID().uuidString.lowercased()), "app_version": "0.1.0", "schema_version": 1,
            "reports": .array(reports),
        ]
    }

    /// The access token of a successful sign-in, or a test failure.
    static func token(_ response: RawResponse?) throws -> String {
        let response = try #require(response)
        try #require(response.status == 200, "sign-in: \(response.status) \(response.error)")
        return try #require(response.json["data"]?["access_token"]?.stringValue)
    }

    /// The server's stderr lines that contain `text`.
    static func stderrLines(_ server: ServerProcess, containing text: String) -> [Substring] {
        server.stderr.split(separator: "\n").filter { $0.contains(text) }
    }
}
