import Foundation
import PostgreSQL
import Testing
import TestSupport

/// The client over a link that fails (`FaultyLink`, a loopback proxy in
/// front of a real cluster): a statement whose answer never comes fails
/// within its deadline instead of waiting as long as TCP does, and the
/// connection it was on, in the middle of a transaction, is never usable again.
@Suite("PostgreSQL client over a failing link", .serialized)
struct PostgresLinkDeadlineTests {
    @Test(
        "a black hole mid-transaction: the statement fails within its deadline as a connection error, and the connection is neither healthy nor reusable"
    )
    func blackHoleMidTransaction() throws {
        let cluster = try PostgresCluster()
        let link = try FaultyLink(to: cluster.port)
        let url = try PostgresURL(link.url(instead: cluster.url))
        let db = try PostgresConnection(url: url, connectTimeoutSeconds: 2, answerLimit: 2)
        try db.script("BEGIN")
        try db.query("SELECT $1::int AS one", [.integer(1)])
        #expect(db.isHealthy)
        #expect(!db.isReusable, "inside a transaction, a connection is not for the next request")

        link.set(.blackHole)
        let started = Date()
        var failure: PostgresError?
        do throws(PostgresError) {
            try db.query("SELECT pg_sleep(0)")
        } catch {
            failure = error
        }
        let waited = Date().timeIntervalSince(started)
        #expect(failure?.code == .connection, "\(String(describing: failure))")
        #expect(failure?.message.contains("did not answer within 2 seconds") == true, "\(String(describing: failure))")
        #expect(waited < 10, "failed after \(waited) s")
        #expect(!db.isHealthy && !db.isReusable)
        // Used again anyway, it fails at once rather than waiting again.
        let again = Date()
        #expect(throws: PostgresError.self) { try db.query("SELECT 1") }
        #expect(Date().timeIntervalSince(again) < 1)

        // A new connection while the hole lasts: bounded by connect_timeout.
        let connecting = Date()
        #expect(throws: PostgresError.self) {
            try PostgresConnection(url: url, connectTimeoutSeconds: 2, answerLimit: 2)
        }
        #expect(Date().timeIntervalSince(connecting) < 10)

        link.set(.pass)
        let healed = try PostgresConnection(url: url, connectTimeoutSeconds: 2, answerLimit: 2)
        #expect(try healed.query("SELECT 41 + 1 AS n").first?.int("n") == 42)
        #expect(healed.isReusable)
        link.stop()
    }

    @Test("every connection dropped: the statement fails at once as a connection error, never a statement error")
    func dropped() throws {
        let cluster = try PostgresCluster()
        let link = try FaultyLink(to: cluster.port)
        let db = try PostgresConnection(url: try PostgresURL(link.url(instead: cluster.url)), answerLimit: 5)
        try db.script("BEGIN")
        link.set(.drop)
        var failure: PostgresError?
        do throws(PostgresError) {
            try db.query("SELECT 1")
        } catch {
            failure = error
        }
        #expect(failure?.code == .connection, "\(String(describing: failure))")
        #expect(!db.isReusable)
        link.stop()
    }
}
