import Foundation
import Models
import Testing
import SQLite
import Synchronization
import TestSupport

@Suite("The server process: faults, shutdown, command line")
struct ServerProcessTests {
    @Test("--fault-rate 1 answers every request 503 with Retry-After")
    func faultRate() async throws {
        let server = try ServerProcess(["--demo", "--fault-rate", "1", "--seed", "7"])
        let response = try await HTTPTestClient().send("GET", server.url("/facilities"))
        #expect(response.status == 503)
        #expect(Int(response.header("Retry-After") ?? "") ?? 0 >= 1)
        #expect(response.json["ok"] == false)
        #expect(server.stop() == 0)
    }

    @Test("--fault-drop 1 closes every connection without a response")
    func faultDrop() async throws {
        let server = try ServerProcess(["--demo", "--fault-drop", "1"])
        await #expect(throws: (any Error).self) {
            _ = try await HTTPTestClient().send(
                "POST", server.url("/auth/login"), json: ["username": "inspector", "password": "x"])
        }
        #expect(server.stop() == 0)
    }

    @Test("--fault-after-accept 1 stores the batch, drops the answer, and the retry is recognised")
    func faultAfterAccept() async throws {
        let server = try ServerProcess(["--demo", "--fault-after-accept", "1"])
        let me = try await Session.inspector(server)
        let report = Reports.lobby()
        await #expect(throws: (any Error).self) { _ = try await me.sync([report]) }
        let history = try await me.get("/inspections")
        #expect(history.data["total"] == 1)
        let serverID = history.data["items"]?.arrayValue?.first?["server_id"]
        let stored = try await me.get("/reports/\(serverID?.stringValue ?? "")")
        #expect(stored.data["report"]?["local_id"] == report["local_id"])
        #expect(server.stop() == 0)
    }

    @Test("SIGTERM stops the server with exit 0, and its data is there on the next start")
    func cleanShutdown() async throws {
        let first = try ServerProcess(["--demo"])
        let me = try await Session.inspector(first)
        let result = try await me.syncOne(Reports.lobby())
        #expect(first.stop() == 0)
        #expect(first.stderr.contains("stopping"))

        let second = try ServerProcess([], database: first.databasePath)
        let again = try await Session.inspector(second)
        let serverID = result["server_id"]?.stringValue ?? ""
        #expect(try await again.get("/reports/\(serverID)").status == 200)
        #expect(second.stop() == 0)
    }

    @Test(
        "SIGTERM just after an answer whose worker is still inside libmicrohttpd: the server waits for it, then stops with exit 0"
    )
    func stopAfterSlowHandOver() async throws {
        // The preload holds the first worker inside MHD_resume_connection until the test lets it go, and the
        // exit for 5 s: without the wait, the worker signals an event thread the stopped daemon has closed (and freed).
        let folder = TemporaryDirectory()
        let library = folder.path("slow_resume.so")
        let built = try Subprocess.run(
            "/usr/bin/cc",
            ["-shared", "-fPIC", "-o", library, Fixtures.url("preload/slow_resume.c").path, "-ldl"])
        try #require(built.status == 0, "\(built.stderr)")
        let release = folder.path("release")
        let server = try ServerProcess(
            ["--demo"],
            environment: ["LD_PRELOAD": library, "JQC_SLOW_RESUME_UNTIL": release, "JQC_SLOW_EXIT_MS": "5000"])
        let port = RawHTTP.port(of: server)
        try #require(port != 0)
        let answered = Arrival()
        let login = Task {
            defer { answered.done.store(true, ordering: .releasing) }
            return try await HTTPTestClient().send(
                "POST", server.url("/auth/login"), json: ["username": "inspector", "password": "inspector-pass"])
        }
        // The sign-in is the server's first request, so the worker held is its worker.
        for _ in 0..<3000 where !server.stderr.contains("slow_resume: waiting") {
            try await Task.sleep(for: .milliseconds(20))
        }
        // New connections wake every event thread, and the one holding the sign-in sends its answer.
        for _ in 0..<100 where !answered.done.load(ordering: .acquiring) {
            _ = try RawConnection(port: port).exchange(RawHTTP.request("GET", "/api/v1/auth/me"), timeout: 5)
        }
        #expect(try await login.value.status == 200)
        #expect(server.stderr.contains("slow_resume: waiting") && !server.stderr.contains("slow_resume: signalled"))

        // Told to stop while the worker is still held; let go once a server without the wait has freed the daemon.
        kill(server.pid, SIGTERM)
        try await Task.sleep(for: .seconds(1))
        #expect(FileManager.default.createFile(atPath: release, contents: Data()))
        #expect(server.stop() == 0)
        let said = server.stderr
        #expect(said.contains("slow_resume: signalled"), "\(said)")
        #expect(!said.contains("found its channel closed"), "\(said)")
        #expect(!said.contains("Failed to signal resume"), "\(said)")
    }

    @Test(
        "bad command lines are usage errors with exit 2",
        arguments: [
            ["--port", "99999", "--db", "/tmp/x.db"],
            ["--fault-rate", "2", "--db", "/tmp/x.db"],
            ["--port", "0"],
            ["admin", "--db", "/tmp/x.db", "edit-report", "R1"],
            ["admin", "--db", "/tmp/x.db", "edit-report", "R1", "--answer", "glass=not json"],
        ])
    func usageErrors(_ arguments: [String]) throws {
        let outcome = try Programs.run("jqc-server", arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("jqc-server: "))
    }

    @Test(
        "a PostgreSQL URL that cannot be served is refused in one line with exit 1, the password never echoed",
        arguments: [
            (
                ["--db", "postgres://jqc:s3cret-pw@127.0.0.1:1/jqc", "--port", "0"],
                "cannot connect to PostgreSQL at 127.0.0.1:1"
            ),
            (
                ["serve", "--db", "postgresql://jqc:s3cret-pw@host.invalid/jqc"],
                "cannot connect to PostgreSQL at host.invalid:5432"
            ),
            (["admin", "--db", "POSTGRES://jqc:s3cret-pw@127.0.0.1", "add-user", "ana"], "names no database"),
            (["--db", "postgres://127.0.0.1/jqc"], "names no user"),
        ])
    func unservablePostgresURL(_ arguments: [String], _ message: String) throws {
        let outcome = try Programs.run("jqc-server", arguments, stdin: "a-long-password\n")
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("jqc-server: ") && outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("s3cret-pw") && !outcome.stdout.contains("s3cret-pw"))
    }

    @Test(
        "a SQLite file of another program is refused in one line with exit 1, by the server and by admin, and left byte-identical"
    )
    func foreignDatabase() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("notes.sqlite")
        do {
            let db = try Database(path: path)
            try db.execute(
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('mine')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // An address it cannot listen on: were the file not refused, the server would still stop, not serve.
        for arguments in [["--db", path, "--host", "not-an-address"], ["admin", "--db", path, "add-user", "ana"]] {
            let outcome = try Programs.run("jqc-server", arguments, stdin: "a-long-password\n")
            #expect(outcome.status == 1, "\(arguments): \(outcome.stderr)")
            #expect(
                outcome.stderr.hasPrefix(
                    "jqc-server: '\(path)' is a SQLite database of another program, not a jqc-server database"))
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a database written by a newer jqc-server is refused in one line with exit 1 and left as it was")
    func newerDatabase() throws {
        let server = try ServerProcess(["--demo"], sqlite: true)
        let path = server.databasePath
        #expect(server.stop() == 0)
        do {
            let db = try Database(path: path)
            try db.run(
                "INSERT INTO server_migrations (name, applied_at) VALUES (?, ?)",
                [.text("999-from-the-future"), .text("2030-01-01T00:00:00Z")])
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let outcome = try Programs.run("jqc-server", ["--db", path, "--host", "not-an-address"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("newer jqc-server") && outcome.stderr.contains("999-from-the-future"),
            "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("admin finds its command among its options as jqc does: --db before or after it, a group's words apart")
    func adminCommandWords() throws {
        let dir = TemporaryDirectory()
        let db = dir.path("s.db")
        for arguments in [
            ["admin", "--db", db, "facilities", "--json"],
            ["admin", "facilities", "--db=\(db)", "--json"],
            ["admin", "--json", "--db", db, "webhook", "list"],
            ["admin", "webhook", "--db", db, "--json", "list"],
        ] {
            let outcome = try Programs.run("jqc-server", arguments)
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("{\""), "\(arguments): \(outcome.stdout)")
        }
        let near = try Programs.run("jqc-server", ["admin", "--db", db, "facilitis"])
        #expect(near.status == 2)
        #expect(
            near.stderr
                == "jqc-server: 'admin' has no command 'facilitis'; did you mean facility or facilities? See 'jqc-server admin --help'.\n"
        )
        let far = try Programs.run("jqc-server", ["admin", "--db", db, "bogus"])
        #expect(far.status == 2)
        #expect(far.stderr == "jqc-server: 'admin' has no command 'bogus'. See 'jqc-server admin --help'.\n")
        let none = try Programs.run("jqc-server", ["admin", "--db", db])
        #expect(none.status == 2 && none.stdout.contains("\nCommands:\n  facility add "), "\(none.stdout)")
        let asked = try Programs.run("jqc-server", ["admin", "-h"])
        #expect(asked.status == 0 && asked.stdout == none.stdout)
    }

    @Test("--help lists the options and exits 0")
    func help() throws {
        let outcome = try Programs.run("jqc-server", ["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("--fault-after-accept"))
    }

    @Test("admin edit-report of an unknown report exits 3")
    func editUnknown() throws {
        let dir = TemporaryDirectory()
        let outcome = try Programs.run(
            "jqc-server", ["admin", "--db", dir.path("s.db"), "edit-report", "R404", "--answer", "a=1"])
        #expect(outcome.status == 3)
    }

    @Test("admin import-templates counts in English: 'imported 1 template', 'imported 2 templates'")
    func importTemplatesCount() throws {
        let dir = TemporaryDirectory()
        func template(_ id: String) -> String {
            #"{"id": "\#(id)", "name": "T \#(id)", "version": 1, "form_schema": {"fields": [{"id": 1, "type": "rating", "label": "Floors"}]}}"#
        }
        for (file, ids, expected) in [
            ("one.json", ["one"], "imported 1 template\n"), ("two.json", ["two", "three"], "imported 2 templates\n"),
        ] {
            try Data(#"{"templates": [\#(ids.map(template).joined(separator: ", "))]}"#.utf8).write(
                to: dir.url.appendingPathComponent(file))
            let outcome = try Programs.run(
                "jqc-server", ["admin", "--db", dir.path("s.db"), "import-templates", dir.path(file)])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout == expected, "\(outcome.stdout)")
        }
    }
}

/// Whether an answer has arrived, set by the task awaiting it.
private final class Arrival: Sendable {
    let done = Atomic(false)
}
