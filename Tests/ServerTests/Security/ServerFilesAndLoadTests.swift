import Foundation
import Models
import Testing
import TestSupport

/// The server's files and its behaviour when its database or its workers are
/// saturated.
@Suite("Server files stay private and overload is told, not held", .serialized)
struct ServerFilesAndLoadTests {
    private func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int) ?? -1
    }

    @Test("the SQLite database, its -wal and -shm files are 0600 and the photo folder 0700, even when they were wider")
    func privateFiles() async throws {
        let server = try ServerProcess(["--demo"], sqlite: true) { db in
            _ = FileManager.default.createFile(atPath: db, contents: nil, attributes: [.posixPermissions: 0o644])
            try FileManager.default.createDirectory(
                atPath: db + ".photos", withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o755])
        }
        let me = try await Session.inspector(server)
        _ = try await me.syncOne(Reports.lobby())
        for suffix in ["", "-wal", "-shm"] {
            #expect(
                mode(server.databasePath + suffix) == 0o600,
                "server.db\(suffix) is \(String(mode(server.databasePath + suffix), radix: 8))")
        }
        #expect(mode(server.databasePath + ".photos") == 0o700)
        #expect(mode(server.databasePath + ".photos/incoming") == 0o700)
    }

    @Test("uploads left half-written by a killed server are swept at start-up")
    func sweepsIncoming() async throws {
        let directory = TemporaryDirectory(prefix: "jqc-sweep")
        let db = directory.path("server.db")
        let incoming = db + ".photos/incoming"
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let stale = incoming + "/upload-" + UUID().uuidString.lowercased()
        try Data(repeating: 1, count: 1_000_000).write(to: URL(fileURLWithPath: stale))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: stale)
        let server = try ServerProcess(["--demo"], database: db)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(server.stop() == 0)
    }

    @Test("a SQLite database another process holds locked is answered 503 with Retry-After within seconds, not 500")
    func busyDatabase() async throws {
        let server = try ServerProcess(["--demo"], sqlite: true)
        let me = try await Session.inspector(server)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [server.databasePath]
        let input = Pipe()
        holder.standardInput = input
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        defer {
            try? input.fileHandleForWriting.write(contentsOf: Data("ROLLBACK;\n.quit\n".utf8))
            holder.waitUntilExit()
        }
        try input.fileHandleForWriting.write(
            contentsOf: Data("BEGIN IMMEDIATE;\nINSERT INTO settings (key, value) VALUES ('held', 'x');\n".utf8))
        try await Task.sleep(for: .milliseconds(500))
        let started = Date()
        let response = try await me.sync([Reports.lobby()])
        let elapsed = Date().timeIntervalSince(started)
        #expect(response.status == 503, "\(response.status) \(String(decoding: response.body, as: UTF8.self))")
        #expect(Int(response.header("Retry-After") ?? "") ?? 0 > 0)
        // Well within a client's patience, though a loaded machine stretches the server's 3 s wait for the lock.
        #expect(elapsed < 20, "answered after \(elapsed) s")
    }

    @Test("300 concurrent syncs of 100 reports are each answered within 12 s: accepted, or 503 with Retry-After")
    func overloadAnswered() async throws {
        let server = try ServerProcess(["--demo"])
        let token = try Hostile.token(Hostile.login(server, "inspector", "inspector-pass"))
        let bodies = (0..<300).map { _ in
            RawHTTP.json(
                "POST", "/api/v1/reports/sync", Hostile.syncBody((0..<100).map { _ in Reports.lobby() }), token: token)
        }
        let answers = RawHTTP.concurrently(300) { index -> (RawResponse?, TimeInterval) in
            let started = Date()
            let response = Hostile.send(server, bodies[index], from: "127.0.5.\(1 + index % 100)", timeout: 60)
            return (response, Date().timeIntervalSince(started))
        }
        let slowest = answers.map(\.1).max() ?? 0
        #expect(slowest < 12, "a sync was held \(slowest) s")
        let accepted = answers.filter { $0.0?.status == 200 }.count
        #expect(accepted > 0)
        for (response, _) in answers where response?.status != 200 {
            #expect(response?.status == 503, "\(response?.status ?? 0) \(response?.error ?? "no answer")")
            #expect(Int(response?.headers["retry-after"] ?? "") ?? 0 > 0)
        }
    }
}
