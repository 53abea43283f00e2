import Foundation
import Models
import Testing
import TestSupport

/// The PostgreSQL store as operators meet it: URLs it cannot serve, databases
/// it must not touch, and two `jqc-server` processes on one database, where
/// every rule of the contract must hold across them.
@Suite(
    "PostgreSQL: bad databases are refused, and two instances on one database act as one server", .serialized,
    .timeLimit(.minutes(3)))
struct PostgresStoreTests {
    private func cluster() throws -> PostgresCluster { try ServerDatabases.sharedCluster() }

    /// Every table of a database with its row count: what "nothing written" compares.
    private func contents(_ url: String) throws -> String {
        let tables = try ServerDatabases.query(
            url,
            """
            SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'public'
            """)
        var lines = [tables]
        for table in tables.split(separator: ",") {
            lines.append("\(table)=\(try ServerDatabases.query(url, "SELECT COUNT(*) FROM \(table)"))")
        }
        return lines.joined(separator: "\n")
    }

    @Test(
        "a wrong password or a database that does not exist is refused in one line with exit 1, the password never echoed"
    )
    func unusableURLs() throws {
        let cluster = try cluster()
        let wrongPassword = cluster.url.replacingOccurrences(of: "jqc:jqc-test@", with: "jqc:not-the-pw@")
        for (url, message) in [
            (wrongPassword, "refused user 'jqc'"),
            (cluster.url(database: "no_such_db"), "has no database 'no_such_db'"),
        ] {
            let outcome = try Programs.run("jqc-server", ["--db", url, "--port", "0"])
            #expect(outcome.status == 1)
            #expect(outcome.stderr.hasPrefix("jqc-server: ") && outcome.stderr.contains(message), "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("not-the-pw") && !outcome.stderr.contains("jqc-test"))
        }
    }

    @Test(
        "a database written by a newer jqc-server is refused in one line with exit 1, by the server and by admin, and left as it was"
    )
    func newerSchema() throws {
        let url = try ServerDatabases.freshPostgres()
        let first = try ServerProcess(["--demo"], database: url)
        #expect(first.stop() == 0)
        try ServerDatabases.query(url, "INSERT INTO jqc_server_migrations (name) VALUES ('999-from-the-future')")
        let before = try contents(url)
        for arguments in [["--db", url, "--port", "0"], ["admin", "--db", url, "add-user", "ana"]] {
            let outcome = try Programs.run("jqc-server", arguments, stdin: "a-long-password\n")
            #expect(outcome.status == 1)
            #expect(
                outcome.stderr.contains("newer jqc-server") && outcome.stderr.contains("999-from-the-future"),
                "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        }
        #expect(try contents(url) == before)
    }

    @Test("a database holding another program's tables is refused in one line with exit 1 and left untouched")
    func foreignDatabase() throws {
        let url = try ServerDatabases.freshPostgres()
        try ServerDatabases.query(
            url, "CREATE TABLE notes (id serial PRIMARY KEY, body text); INSERT INTO notes (body) VALUES ('mine')")
        let before = try contents(url)
        let outcome = try Programs.run("jqc-server", ["--db", url, "--port", "0", "--demo"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("another program, not a jqc-server database"), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        #expect(try contents(url) == before)
    }

    @Test("a row lock held elsewhere is answered 503 with Retry-After within seconds, not held")
    func lockHeldElsewhere() async throws {
        let url = try ServerDatabases.freshPostgres()
        let server = try ServerProcess(["--demo"], database: url)
        let me = try await Session.inspector(server)
        let cluster = try cluster()
        let holder = try PsqlHolder(
            cluster: cluster, database: String(url.split(separator: "/").last ?? ""),
            sql: "BEGIN; LOCK TABLE reports IN ACCESS EXCLUSIVE MODE;")
        defer { holder.release() }
        let started = Date()
        let response = try await me.sync([Reports.lobby()])
        let elapsed = Date().timeIntervalSince(started)
        #expect(response.status == 503, "\(response.status) \(String(decoding: response.body, as: UTF8.self))")
        #expect(Int(response.header("Retry-After") ?? "") ?? 0 > 0)
        // Several times the 3 s lock wait, for a loaded machine; a held request would wait for the lock's holder.
        #expect(elapsed < 20, "answered after \(elapsed) s")
    }

    @Test("two instances started together on an empty database migrate once and seed the demo world once")
    func startTogether() async throws {
        let url = try ServerDatabases.freshPostgres()
        async let first = OwnThread.run { try ServerProcess(["--demo"], database: url) }
        async let second = OwnThread.run { try ServerProcess(["--demo"], database: url) }
        let servers = try await [first, second]
        // Each step of the schema ran once, whichever instance ran it.
        #expect(try ServerDatabases.query(url, "SELECT COUNT(*) FROM jqc_server_migrations") == "18")
        #expect(try ServerDatabases.query(url, "SELECT COUNT(*) FROM assignments") == "5")
        #expect(try ServerDatabases.query(url, "SELECT COUNT(*) FROM facilities") == "3")
        // A token from one instance works on the other: they share the signing key.
        let me = try await Session.inspector(servers[0])
        let other = Session(
            server: servers[1], accessToken: me.accessToken, refreshToken: me.refreshToken, userID: me.userID)
        #expect(try await other.get("/auth/me").status == 200)
    }

    @Test(
        "the same batches sent to two instances at the same moment become one record each, with the same server id and revision in both answers"
    )
    func sameBatchTwice() async throws {
        let (a, b, url) = try twoInstances()
        let onA = try await Session.inspector(a)
        let onB = Session(server: b, accessToken: onA.accessToken, refreshToken: onA.refreshToken, userID: onA.userID)
        var sent = 0
        for round in 0..<10 {
            let reports = (0..<20).map { _ in Reports.lobby(answers: ["glass": .integer(Int64(1 + round % 5))]) }
            sent += reports.count
            async let fromA = onA.sync(reports)
            async let fromB = onB.sync(reports)
            let (answerA, answerB) = try await (fromA, fromB)
            #expect(answerA.status == 200 && answerB.status == 200)
            let resultsA = answerA.data["results"]?.arrayValue ?? []
            let resultsB = answerB.data["results"]?.arrayValue ?? []
            #expect(resultsA.count == 20 && resultsB.count == 20)
            for (x, y) in zip(resultsA, resultsB) {
                #expect(x["status"] == "ACCEPTED" && y["status"] == "ACCEPTED", "\(x) \(y)")
                #expect(x["server_id"] == y["server_id"] && x["revision"] == y["revision"], "\(x) \(y)")
            }
        }
        #expect(try ServerDatabases.query(url, "SELECT COUNT(*) FROM reports") == String(sent))
        #expect(try ServerDatabases.query(url, "SELECT COUNT(*) FROM report_revisions") == String(sent))
    }

    @Test(
        "two edits of one revision sent to two instances at once: one is accepted as revision 2, the other is a conflict"
    )
    func racingEdits() async throws {
        let (a, b, url) = try twoInstances()
        let onA = try await Session.inspector(a)
        let onB = Session(server: b, accessToken: onA.accessToken, refreshToken: onA.refreshToken, userID: onA.userID)
        for _ in 0..<5 {
            let localID = UUID()
            let first = try await onA.syncOne(Reports.lobby(localID: localID))
            let serverID = try #require(first["server_id"]?.stringValue)
            async let fromA = onA.syncOne(
                Reports.lobby(localID: localID, serverID: serverID, baseRevision: 1, answers: ["glass": 1]))
            async let fromB = onB.syncOne(
                Reports.lobby(localID: localID, serverID: serverID, baseRevision: 1, answers: ["glass": 2]))
            let statuses = try await [fromA, fromB].compactMap { $0["status"]?.stringValue }.sorted()
            #expect(statuses == ["ACCEPTED", "CONFLICT"])
            #expect(
                try ServerDatabases.query(url, "SELECT current_revision FROM reports WHERE server_id = '\(serverID)'")
                    == "2")
        }
    }

    @Test(
        "two supervisors deciding on one revision at once on two instances: two events in a definite order, the review is the later; the pull from either instance agrees"
    )
    func racingDecisions() async throws {
        let (a, b, url) = try twoInstances()
        let inspector = try await Session.inspector(a)
        let onA = try await Session.supervisor(a)
        let onB = Session(server: b, accessToken: onA.accessToken, refreshToken: onA.refreshToken, userID: onA.userID)
        for _ in 0..<5 {
            let first = try await inspector.syncOne(Reports.lobby())
            let serverID = try #require(first["server_id"]?.stringValue)
            async let approve = onA.post("/reports/\(serverID)/review", ["decision": "approve", "revision": 1])
            async let reject = onB.post(
                "/reports/\(serverID)/review", ["decision": "reject", "revision": 1, "comment": "Wrong floor"])
            let answers = try await [approve, reject]
            #expect(answers.map(\.status) == [200, 200])
            let events = try await inspector.get("/reports/\(serverID)/events").data["events"]?.arrayValue ?? []
            #expect(events.count == 3)
            let last = try #require(events.last?["kind"]?.stringValue)
            #expect(Set(events.dropFirst().compactMap { $0["kind"]?.stringValue }) == ["approved", "rejected"])
            // The current review is the decision recorded last, whichever instance is asked.
            for server in [a, b] {
                let onServer = Session(
                    server: server, accessToken: inspector.accessToken, refreshToken: inspector.refreshToken,
                    userID: inspector.userID)
                let report = try await onServer.get("/reports/\(serverID)")
                #expect(report.data["report"]?["review"]?["state"]?.stringValue == last)
                let feed = try await onServer.get("/reviews?limit=100").data["reviews"]?.arrayValue ?? []
                #expect(feed.first { $0["server_id"]?.stringValue == serverID }?["state"]?.stringValue == last)
            }
        }
        #expect(
            try ServerDatabases.query(url, "SELECT COUNT(*) FROM report_events WHERE kind IN ('approved', 'rejected')")
                == "10")
    }

    @Test("one refresh token presented to two instances at once: exactly one gets a new pair")
    func refreshRace() async throws {
        let (a, b, _) = try twoInstances()
        let client = HTTPTestClient()
        for _ in 0..<5 {
            let session = try await Session.inspector(a)
            let body: JSONValue = ["refresh_token": .string(session.refreshToken)]
            async let fromA = client.send("POST", a.url("/auth/refresh"), json: body)
            async let fromB = client.send("POST", b.url("/auth/refresh"), json: body)
            let statuses = try await [fromA, fromB].map(\.status).sorted()
            #expect(statuses == [200, 401])
        }
    }

    @Test("one photo uploaded to two instances at once is stored once, and either instance serves its bytes")
    func photoRace() async throws {
        let (a, b, url) = try twoInstances()
        let onA = try await Session.inspector(a)
        let onB = Session(server: b, accessToken: onA.accessToken, refreshToken: onA.refreshToken, userID: onA.userID)
        let serverID = try #require(try await onA.syncOne(Reports.lobby())["server_id"]?.stringValue)
        let photo = PhotoContractTests.jpeg(2_500_000)
        let localID = UUID().uuidString.lowercased()
        let fields = [("local_id", localID), ("sha256", try PhotoContractTests.sha256(photo))]
        async let fromA = onA.client.upload(
            a.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: onA.accessToken)
        async let fromB = onB.client.upload(
            b.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: onA.accessToken)
        let statuses = try await [fromA, fromB].map(\.status).sorted()
        #expect(statuses == [200, 201])
        #expect(try ServerDatabases.query(url, "SELECT COUNT(*) FROM photos") == "1")
        #expect(try ServerDatabases.query(url, "SELECT COUNT(*) FROM photo_blobs") == "1")
        for session in [onA, onB] {
            let download = try await session.get("/reports/\(serverID)/photos/\(localID)")
            #expect(download.status == 200)
            #expect(download.body == photo)
        }
    }

    @Test("wrong passwords spread over two instances meet one limit: the eleventh try is 429 on either")
    func signInLimitShared() async throws {
        let (a, b, _) = try twoInstances()
        let client = HTTPTestClient()
        func attempt(_ server: ServerProcess, _ password: String) async throws -> TestResponse {
            try await client.send(
                "POST", server.url("/auth/login"), json: ["username": "inspector", "password": .string(password)])
        }
        for index in 0..<10 {
            let response = try await attempt(index % 2 == 0 ? a : b, "wrong-\(index)")
            #expect(response.status == 401, "try \(index + 1): \(response.status)")
        }
        for server in [a, b] {
            let refused = try await attempt(server, "wrong-again")
            #expect(refused.status == 429)
            #expect(Int(refused.header("Retry-After") ?? "") ?? 0 > 0)
        }
    }

    /// Two servers on one new database, the demo world seeded (sign-in
    /// failures counted over an hour, so slow checks on a loaded machine stay in one window).
    @Test(
        "updates of one action sent to two instances at once are ordered by the database: every version once, none lost; one update id sent to both is recorded once"
    )
    func actionUpdateRace() async throws {
        let (a, b, _) = try twoInstances()
        let onA = try await Session.supervisor(a)
        let onB = Session(server: b, accessToken: onA.accessToken, refreshToken: onA.refreshToken, userID: onA.userID)
        let made = try await onA.post(
            "/actions",
            ["id": .string(UUID().uuidString.lowercased()), "facility_id": "F-100", "title": "Buff the floor"])
        let id = try #require(made.data["action"]?["id"]?.stringValue)
        let twice = UUID().uuidString.lowercased()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<20 {
                let session = index % 2 == 0 ? onA : onB
                group.addTask {
                    try await session.post(
                        "/actions/\(id)/updates",
                        ["id": .string(UUID().uuidString.lowercased()), "comment": .string("note \(index)")]
                    ).status
                }
            }
            for session in [onA, onB] {
                group.addTask {
                    try await session.post("/actions/\(id)/updates", ["id": .string(twice), "comment": "once"]).status
                }
            }
            var all: [Int] = []
            for try await status in group { all.append(status) }
            return all
        }
        #expect(statuses.count == 22 && statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        let action = try await onB.get("/actions/\(id)").data["action"] ?? .null
        #expect(action["version"] == 22, "the action and 21 updates")
        let updates = action["updates"]?.arrayValue ?? []
        #expect(updates.map { $0["version"]?.integerValue ?? 0 } == (2...22).map(Int64.init))
        #expect(updates.filter { $0["comment"] == "once" }.count == 1)
    }

    private func twoInstances() throws -> (ServerProcess, ServerProcess, String) {
        let url = try ServerDatabases.freshPostgres()
        let first = try ServerProcess(["--demo", "--sign-in-window", "3600"], database: url)
        let second = try ServerProcess(["--sign-in-window", "3600"], database: url)
        return (first, second, url)
    }
}

/// A psql session that runs `sql` and keeps its transaction open until released.
final class PsqlHolder: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()

    init(cluster: PostgresCluster, database: String, sql: String) throws {
        process.executableURL = URL(fileURLWithPath: try PostgresCluster.binary("psql"))
        process.arguments = ["-h", "127.0.0.1", "-p", String(cluster.port), "-U", "jqc", "-d", database, "-q"]
        process.environment = ["PGPASSWORD": "jqc-test", "PATH": "/usr/bin:/bin"]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data((sql + "\n").utf8))
        // Until the lock is held, a request would not meet it. Only a lock on this
        // database's reports counts: other tests' servers migrating other databases
        // of the cluster hold such locks too.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let held = try ServerDatabases.query(
                cluster.url(database: database),
                """
                SELECT COUNT(*) FROM pg_locks WHERE locktype = 'relation' AND mode = 'AccessExclusiveLock' AND granted
                AND pid <> pg_backend_pid() AND relation = 'reports'::regclass
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """)
            if held != "0" { return }
            usleep(50_000)
        }
    }

    func release() {
        try? input.fileHandleForWriting.write(contentsOf: Data("ROLLBACK;\n\\q\n".utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
