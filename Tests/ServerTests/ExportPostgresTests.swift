import Foundation
import Models
import Testing
import TestSupport

/// An export on PostgreSQL holds one pooled connection in a read-only
/// transaction while it streams: what happens to it when the client goes
/// away, and when the database fails under it. Always on PostgreSQL (the
/// run's cluster, or one started for it).
@Suite(
    "Exports on PostgreSQL: a client that leaves ends the transaction; a failure cuts the stream short", .serialized,
    .timeLimit(.minutes(3)))
struct ExportPostgresTests {
    /// Reports enough that the export cannot fit in the socket buffers: the server must wait for the client.
    static let reports = 30_000

    /// A server on a fresh database holding `reports` reports, written straight into its tables.
    static func seededServer() throws -> ServerProcess {
        let url = try ServerDatabases.freshPostgres()
        let server = try ServerProcess(["--demo"], database: url)
        try ServerDatabases.query(
            url,
            """
            INSERT INTO reports (server_id, local_id, owner_id, template_id, facility_id, area_id, current_revision, score,
                                 follow_up_required, accepted_at, review_state, reviewed_revision, review_change)
            SELECT 'R-seed-' || g, md5('seed' || g)::uuid::text, (SELECT id FROM users WHERE username = 'inspector'), 'lobby-walk',
                   'F-100', 'A-102', 1, 0.9, false, '2026-12-01T00:00:00Z', 'awaiting_review', 1, g
            FROM generate_series(1, \(reports)) g;
            INSERT INTO report_revisions (server_id, revision, payload, issues, source, author_id, created_at)
            SELECT 'R-seed-' || g, 1,
                   '{"answers":{"entrance":"pass","glass":4,"notes":"a seeded report, number ' || g || '"},"follow_up_required":false,"score":0.9}',
                   '[]', 'device', (SELECT id FROM users WHERE username = 'inspector'), '2026-12-01T00:00:00Z'
            FROM generate_series(1, \(reports)) g;
            UPDATE counters SET value = \(reports) WHERE name = 'reviews';
            """)
        return server
    }

    /// The states of the server's other connections to its database (`idle`, `idle in transaction`, `active`).
    static func states(_ server: ServerProcess) throws -> [String] {
        try ServerDatabases.query(
            server.databasePath,
            """
            SELECT COALESCE(state, '') FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            """
        ).split(separator: "\n").map(String.init)
    }

    /// Waits (a bounded number of looks) until `condition` holds; whether it did.
    static func eventually(_ condition: () throws -> Bool) throws -> Bool {
        for _ in 0..<200 {
            if try condition() { return true }
            usleep(100_000)
        }
        return false
    }

    /// Opens an export on a raw connection and reads the first bytes of the answer, then stops reading.
    static func startExport(_ server: ServerProcess, token: String) throws -> RawConnection {
        let port = try #require(URL(string: server.baseURL)?.port)
        let connection = try RawConnection(port: UInt16(port))
        #expect(
            connection.send(
                "GET /api/v1/exports/reports HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"))
        #expect(connection.readable(within: 30))
        var head = [UInt8](repeating: 0, count: 512)
        let count = recv(connection.fd, &head, head.count, 0)
        #expect(String(decoding: head.prefix(max(0, count)), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        return connection
    }

    @Test("a client that disconnects mid-export leaves no open transaction: the connection goes back to the pool idle")
    func disconnectEndsTheTransaction() async throws {
        let server = try Self.seededServer()
        let supervisor = try await Session.supervisor(server)
        do {
            let connection = try Self.startExport(server, token: supervisor.accessToken)
            // The client reads no more: the export waits for it, holding its snapshot.
            #expect(
                try Self.eventually { try Self.states(server).contains("idle in transaction") },
                "the export's transaction is open while it streams: \((try? Self.states(server)) ?? [])")
            shutdown(connection.fd, Int32(SHUT_RDWR))
        }
        #expect(
            try Self.eventually {
                let states = try Self.states(server)
                return !states.contains("idle in transaction") && !states.contains("active")
            }, "no transaction is left once the client is gone: \((try? Self.states(server)) ?? [])")
        // The server goes on serving exports (the connection was given back, not lost).
        let after = try await ExportContractTests.export(supervisor, "facility_id=F-200")
        #expect(after.end["count"] == 0)
        #expect(server.stderr.contains("request /api/v1/exports/reports ended early"))
    }

    @Test("a database failure mid-export cuts the stream short: no terminating chunk, no end line")
    func failureCutsTheStreamShort() async throws {
        let server = try Self.seededServer()
        let supervisor = try await Session.supervisor(server)
        let connection = try Self.startExport(server, token: supervisor.accessToken)
        #expect(try Self.eventually { try Self.states(server).contains("idle in transaction") })
        // The export's own connection (the one in a transaction, idle or fetching) is killed under it,
        // as a failing database would.
        try ServerDatabases.query(
            server.databasePath,
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL
            """)
        var body = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while connection.readable(within: 30) {
            let count = recv(connection.fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            body.append(contentsOf: buffer.prefix(count))
        }
        let text = String(decoding: body, as: UTF8.self)
        #expect(body.count > 100_000, "the client read on until the server closed the connection")
        #expect(!text.hasSuffix("0\r\n\r\n"), "a stream cut short never ends as a complete one")
        #expect(!text.contains("\"end\":true"))
        #expect(server.stderr.contains("an export was cut short"))
        // The next export works on a healthy connection and is whole.
        let whole = try await ExportContractTests.export(supervisor, "facility_id=F-100&review_state=approved")
        #expect(whole.end["count"] == 0)
    }
}
