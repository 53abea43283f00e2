import Foundation
import Models
import Testing
import TestSupport

/// docs/administer.md followed literally: every line of its `sh` blocks
/// runs, in order, on an empty database, each in its own `bash` with the
/// page's two settings (`DB`, `SERVER`) filled in as a reader fills them
/// (this run's database and server), `jqc` and `jqc-server` on `PATH`, the
/// device's profile in a scratch home, `<id>` the id `jqc start` printed,
/// and the passwords a person types given on standard input. Heredocs run
/// as one line. Every line must exit 0.
@Suite("docs/administer.md, followed literally, takes an empty server to its first accepted report")
struct AdministerGuideTests {
    static let passwords = [
        "user add ada": "ada-admin-password\n", "user add ivy": "ivy-first-password\n",
        "jqc login": "ivy-first-password\n",
    ]

    /// The lines of the page's `sh` blocks, heredocs joined into one; the first block holds the settings.
    static func steps() throws -> (settings: [String], lines: [String]) {
        let page = try String(contentsOfFile: RepositoryFiles.path("docs/administer.md"), encoding: .utf8)
        var blocks: [[String]] = [], current: [String]?
        for line in page.components(separatedBy: "\n") {
            if current == nil, line == "```sh" { current = []; continue }
            if current != nil, line == "```" { blocks.append(current ?? []); current = nil; continue }
            current?.append(line)
        }
        guard let settings = blocks.first else { throw ReadmeError(message: "docs/administer.md has no sh block") }
        var lines: [String] = [], heredoc: [String]?
        for line in blocks.dropFirst().joined() {
            if var open = heredoc {
                open.append(line)
                if line == "EOF" { lines.append(open.joined(separator: "\n")); heredoc = nil } else { heredoc = open }
            } else if line.contains("<<'EOF'") {
                heredoc = [line]
            } else if !line.isEmpty && !line.hasPrefix("#") {
                lines.append(line)
            }
        }
        return (settings, lines)
    }

    /// Runs the page's lines against `database` and the server at `serverURL`.
    final class Reader {
        let folder = TemporaryDirectory(prefix: "administer")
        let settings: String
        var id = ""
        var outputs: [(line: String, outcome: LineOutcome)] = []

        init(settings: [String], database: String, serverURL: String) {
            self.settings = settings.map { line -> String in
                if line.hasPrefix("DB=") { return "DB='\(database)'" }
                if line.hasPrefix("SERVER=") { return "SERVER='\(serverURL)'" }
                return line
            }.joined(separator: "\n")
        }

        /// Runs one line; expects it to exit `expecting` (0 for every line of the page).
        @discardableResult
        func run(_ line: String, expecting: Int32 = 0) throws -> LineOutcome {
            let command = line.replacingOccurrences(of: "<id>", with: id)
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = Programs.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["HOME"] = folder.path("home")
            environment["XDG_DATA_HOME"] = folder.path("home/data")
            environment["XDG_CONFIG_HOME"] = folder.path("home/config")
            environment["JQC_HOME"] = nil
            let out = folder.path("out"), err = folder.path("err")
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            _ = FileManager.default.createFile(atPath: err, contents: nil)
            let typed = AdministerGuideTests.passwords.first { line.contains($0.key) }?.value ?? ""
            let process = try ChildProcess(
                "/bin/bash", ["-c", "set -euo pipefail\n\(settings)\n\(command)"], environment: environment,
                directory: folder.url.path, stdin: .text(typed), stdout: .file(out), stderr: .file(err))
            let outcome = LineOutcome(
                status: process.wait().status,
                stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
            outputs.append((line, outcome))
            #expect(
                outcome.status == expecting, "line `\(line.prefix(120))` exited \(outcome.status): \(outcome.stderr)")
            if line.hasPrefix("jqc start"), let printed = outcome.stdout.firstUUID { id = printed }
            return outcome
        }

        /// What the n-th line starting with `prefix` printed.
        func output(_ prefix: String, _ occurrence: Int = 0) -> String {
            let matches = outputs.filter { $0.line.hasPrefix(prefix) }
            return occurrence < matches.count ? matches[occurrence].outcome.stdout : ""
        }
    }

    /// Follows the page on `database` with its device signed in to `servers[0]`;
    /// checks what the page promises on every instance in `servers`.
    static func follow(database: String, servers: [ServerProcess]) async throws {
        let (settings, lines) = try steps()
        let reader = Reader(settings: settings, database: database, serverURL: servers[0].baseURL)
        #expect(lines.count >= 25, "the page's steps: \(lines.count) lines")
        let disabling = try #require(lines.firstIndex { $0.contains("user disable ivy") })
        for line in lines[..<disabling] { try reader.run(line) }

        // The device pulled what the admin made, and its report was accepted.
        #expect(reader.output("jqc assignments").contains("W-1"), "\(reader.output("jqc assignments"))")
        let report = try JSONValue.parse(reader.run("jqc show \(reader.id) --json").stdout)
        #expect(report["state"] == "SYNCED", "\(report)")
        #expect(report["server_id"]?.stringValue?.isEmpty == false)
        // The accepted report closed the assignment.
        let adminAssignments = reader.output("jqc-server admin --db \"$DB\" assignment list", 1)
        #expect(adminAssignments.contains("W-1") && adminAssignments.contains("done"), "\(adminAssignments)")
        let deviceAssignments = try JSONValue.parse(reader.run("jqc assignments --json").stdout)
        #expect(deviceAssignments["assignments"]?.arrayValue?.first { $0["id"] == "W-1" }?["status"] == "closed")
        // The retired site left the device at its next pull; the other stayed.
        let sites = reader.output("jqc facilities")
        #expect(!sites.contains("S-200") && sites.contains("S-100"), "\(sites)")
        #expect(reader.output("jqc-server admin --db \"$DB\" facility list").contains("S-200"))

        // Ivy holds sessions on every instance; disabling her ends them all at once.
        var sessions: [(ServerProcess, String)] = []
        for server in servers {
            let grant = try await HTTPTestClient().send(
                "POST", server.url("/auth/login"),
                json: ["username": "ivy", "password": "ivy-first-password"])
            sessions.append((server, try #require(grant.data["access_token"]?.stringValue)))
        }
        for line in lines[disabling...] { try reader.run(line) }
        for (server, token) in sessions {
            let me = try await HTTPTestClient().send("GET", server.url("/auth/me"), token: token)
            #expect(me.status == 401, "instance \(server.baseURL): \(me.status)")
        }
        // A disabled inspector's device is told to sign in again (exit 6).
        try reader.run("jqc sync", expecting: 6)

        // What every instance serves agrees: the admin sees the site gone from devices' lists and the work done.
        for server in servers {
            let grant = try await HTTPTestClient().send(
                "POST", server.url("/auth/login"),
                json: ["username": "ada", "password": "ada-admin-password"])
            let token = try #require(grant.data["access_token"]?.stringValue)
            let facilities = try await HTTPTestClient().send("GET", server.url("/facilities"), token: token)
            #expect(facilities.data["facilities"]?.arrayValue?.map { $0["id"] } == ["S-100"])
            let work = try await HTTPTestClient().send("GET", server.url("/admin/assignments"), token: token)
            #expect(work.data["assignments"]?.arrayValue?.first { $0["id"] == "W-1" }?["state"] == "done")
        }
    }

    @Test("on an empty SQLite database")
    func sqlite() async throws {
        let folder = TemporaryDirectory(prefix: "administer-db")
        let database = folder.path("server.db")
        let server = try ServerProcess([], database: database, sqlite: true)
        try await Self.follow(database: database, servers: [server])
    }

    @Test("on an empty PostgreSQL database served by two instances")
    func postgres() async throws {
        let database = try ServerDatabases.freshPostgres()
        let first = try ServerProcess([], database: database)
        let second = try ServerProcess([], database: database)
        try await Self.follow(database: database, servers: [first, second])
    }
}
