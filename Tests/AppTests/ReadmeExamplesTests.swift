import Foundation
import Imaging
import Models
import Testing
import TestSupport

/// README's shell examples run as written on the demo data: the inspection
/// with no server, the demo server, syncing to it, and deciding a conflict.
/// Each line runs in its own `bash` in a scratch folder where `Tools/` and
/// `.build/debug` are the repository's, with only what a reader fills in
/// filled in: `<id>` is the id `jqc start` printed, `photo.jpg` is a photo
/// in that folder, `<logic-id>` the id `jqc start --template washroom-logic`
/// printed, the interactive `jqc run` gets its answers on standard
/// input, `/tmp/...` paths move into the scratch folder, and the server
/// listens where `--port 0` puts it rather than on 8080. `swift build` is
/// already done; the cron, systemd and install examples are not shell steps.
@Suite("README's examples run as written on the demo data")
struct ReadmeExamplesTests {
    /// The lines of the `sh` code blocks of the README section titled `heading`.
    static func blocks(under heading: String) throws -> [[String]] {
        let readme = try String(contentsOfFile: RepositoryFiles.path("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "## \(heading)") else {
            throw ReadmeError(message: "README has no section '\(heading)'")
        }
        var blocks: [[String]] = []
        var current: [String]?
        for line in lines[(start + 1)...] {
            if line.hasPrefix("## ") { break }
            if current == nil, line == "```sh" { current = []; continue }
            if current != nil, line == "```" { blocks.append(current ?? []); current = nil; continue }
            current?.append(line)
        }
        return blocks
    }

    /// Runs README lines one by one; `define` is the line defining the `jqc` function.
    final class Reader {
        let folder = TemporaryDirectory(prefix: "readme")
        var define = ""
        var id = ""
        var logicID = ""
        var serverURL = "http://127.0.0.1:8080"
        var stdinFor: [String: String] = [:]
        var outputs: [(line: String, outcome: LineOutcome)] = []

        init() throws {
            let fm = FileManager.default
            try fm.createSymbolicLink(atPath: folder.path("Tools"), withDestinationPath: RepositoryFiles.path("Tools"))
            try fm.createDirectory(atPath: folder.path(".build"), withIntermediateDirectories: true)
            try fm.createSymbolicLink(
                atPath: folder.path(".build/debug"), withDestinationPath: Programs.productsDirectory.path)
        }

        /// A README line with what a reader fills in filled in.
        func filled(_ line: String) -> String {
            line.replacingOccurrences(of: "<id>", with: id).replacingOccurrences(of: "<logic-id>", with: logicID)
                .replacingOccurrences(of: "/tmp/", with: folder.path("tmp-"))
                .replacingOccurrences(of: "http://127.0.0.1:8080", with: serverURL)
        }

        /// Runs one line; fails the test when it does not exit 0.
        @discardableResult
        func run(_ line: String) throws -> LineOutcome {
            let command = filled(line)
            let out = folder.path("out"), err = folder.path("err")
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            _ = FileManager.default.createFile(atPath: err, contents: nil)
            let process = try ChildProcess(
                "/bin/bash", ["-c", "set -o pipefail\n\(filled(define))\n\(command)"],
                environment: ProcessInfo.processInfo.environment, directory: folder.url.path,
                stdin: .text(stdinFor.first { line.hasPrefix($0.key) }?.value ?? ""), stdout: .file(out),
                stderr: .file(err))
            let outcome = LineOutcome(
                status: process.wait().status,
                stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
            outputs.append((line, outcome))
            #expect(outcome.status == 0, "README line `\(line)` exited \(outcome.status): \(outcome.stderr)")
            return outcome
        }

        /// Runs every line of a block but comments, blank lines and `swift build`.
        func run(block: [String]) throws {
            for line in block where !line.isEmpty && !line.hasPrefix("#") && line != "swift build" {
                if line.hasPrefix("jqc() {") { define = line; continue }
                let outcome = try run(line)
                if line.hasPrefix("jqc start --template washroom-logic"), let printed = outcome.stdout.firstUUID {
                    logicID = printed
                } else if line.hasPrefix("jqc start"), let printed = outcome.stdout.firstUUID {
                    id = printed
                }
            }
        }
    }

    @Test("an inspection with no server, the demo server, a sync and a conflict decided, each line exiting 0")
    func examplesRun() throws {
        let inspection = try #require(try Self.blocks(under: "An inspection with no server").first)
        let syncing = try Self.blocks(under: "Syncing")
        let serverBlock = try #require(try Self.blocks(under: "The server").first)
        try #require(syncing.count == 2, "Syncing has a block to sign in and sync, and one to decide a conflict")

        let reader = try Reader()
        try SyntheticImage.writeJPEG(
            width: 320, height: 240, pattern: .texture(seed: 7), quality: 90,
            to: URL(fileURLWithPath: reader.folder.path("photo.jpg")))
        // The runner reads answers as a person types them: the required fields, then the signature last.
        reader.stdinFor["jqc run"] = "4\n4\npass\n\nGood\n/jump 18\nAna Lopez\n/q\n"
        try reader.run(block: inspection)
        #expect(!reader.id.isEmpty, "jqc start printed no report id")
        let shown = try #require(reader.outputs.first { $0.line.hasPrefix("jqc show") }?.outcome.stdout)
        #expect(shown.contains("PENDING") && shown.contains("signed by Ana Lopez"), "\(shown)")
        #expect(FileManager.default.fileExists(atPath: reader.folder.path("report.html")))
        // `jqc list | head -1` (run with pipefail, as every line is) exits 0: a short list fits in the pipe.
        let heading = try #require(reader.outputs.first { $0.line.hasPrefix("jqc list | head -1") }?.outcome)
        #expect(heading.stdout.split(separator: "\n").count == 1 && heading.stdout.hasPrefix("ID"), "\(heading.stdout)")
        #expect(heading.stderr.isEmpty, "\(heading.stderr)")
        // The explained field is one with conditions, each shown with the answer it read.
        #expect(
            !reader.logicID.isEmpty && reader.logicID != reader.id, "README starts a report of the conditional template"
        )
        let explained = try #require(reader.outputs.first { $0.line.hasPrefix("jqc explain") }?.outcome.stdout)
        #expect(explained.contains("Shown when") && explained.contains("Required when"), "\(explained)")
        #expect(explained.contains("read \"Poor\" -> holds"), "\(explained)")
        let overview = try #require(
            reader.outputs.last { $0.line.hasPrefix("jqc ") && $0.line.dropFirst(4).hasPrefix(" ") })
        #expect(
            overview.outcome.stdout.contains("start"),
            "off a terminal, jqc alone prints the commands: \(overview.outcome.stdout)")

        // The server line as written, but on a free port: '--port 0' is what README says picks one.
        let serverLine = try #require(serverBlock.first { $0.contains("jqc-server --db /tmp/") })
        var words = serverLine.split(separator: " ").map(String.init).dropFirst()
        let database = try #require(words.firstIndex(of: "--db").map { words[$0 + 1] })
        if let port = words.firstIndex(of: "--port") { words.removeSubrange(port...(port + 1)) }
        if let db = words.firstIndex(of: "--db") { words.removeSubrange(db...(db + 1)) }
        let server = try ServerProcess(Array(words), database: reader.filled(database), sqlite: true)
        reader.serverURL = server.baseURL

        try reader.run(block: syncing[0])
        #expect(try reader.run("jqc show <id> --json").stdout.contains("\"SYNCED\""))

        // Someone changes the report on the server after this device amended it: the next sync exits 7.
        let serverID = try #require(
            try JSONValue.parse(reader.run("jqc show <id> --json").stdout)["server_id"]?.stringValue)
        try reader.run("jqc amend <id>")
        try reader.run("jqc answer <id> 15 Sam")
        try reader.run("jqc answer <id> 18 'Ana Lopez'")
        try reader.run("jqc complete <id>")
        #expect(
            try Programs.run(
                "jqc-server", ["admin", "--db", reader.filled(database), "edit-report", serverID, "--answer", "2=1"]
            ).status == 0)
        reader.stdinFor = [:]
        let sync = try ChildProcess(
            Programs.path("jqc"), ["--home", reader.folder.path("tmp-jqc-demo"), "sync"],
            environment: ProcessInfo.processInfo.environment)
        #expect(sync.wait() == ChildExit(status: 7, signalled: false))

        try reader.run(block: syncing[1])
        #expect(reader.outputs.contains { $0.line.hasPrefix("jqc diff") && $0.outcome.stdout.contains("differ") })
        try reader.run("jqc sync")
        #expect(try reader.run("jqc show <id> --json").stdout.contains("\"SYNCED\""))
    }
}

/// What one README line printed and returned.
struct LineOutcome {
    var status: Int32
    var stdout: String
    var stderr: String
}

struct ReadmeError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension String {
    /// The first UUID in the text, lowercased.
    var firstUUID: String? {
        let pattern = try? NSRegularExpression(
            pattern: "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
        guard let match = pattern?.firstMatch(in: self, range: NSRange(startIndex..., in: self)),
            let range = Range(match.range, in: self)
        else { return nil }
        return self[range].lowercased()
    }
}
