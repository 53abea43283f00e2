import Foundation
import Models
import Testing
import TestSupport

/// Output that cannot be written: a reader that closes the pipe early, a log
/// or an output on a full disk, a sign-in file that cannot be read. Each ends
/// the way a cron job or a shell pipeline expects — quietly, or with one line
/// naming the cause — and never as a trap, a hang or a wrong diagnosis.
@Suite("Output faults")
struct OutputFaultTests {
    static let demo: Result<ServerProcess, any Error> = Result { try ServerProcess(["--demo"]) }

    /// Runs `jqc ARGUMENTS` with its standard output going to `output` and
    /// its standard error collected; returns the exit status and the error text.
    func jqc(_ profile: DemoProfile, _ arguments: [String], stdout output: FileHandle) throws -> (
        status: Int32, stderr: String
    ) {
        try program("jqc", ["--home", profile.home] + arguments, stdout: output)
    }

    /// Runs a built program with its standard output going to `output`.
    func program(_ name: String, _ arguments: [String], stdout output: FileHandle) throws -> (
        status: Int32, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Programs.path(name))
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = try errors.fileHandleForReading.readToEnd() ?? Data()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "\(name) \(arguments.joined(separator: " ")) died of a signal")
        return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }

    /// A pipe whose reader has already gone: every write to it fails with EPIPE.
    func closedPipe() throws -> Pipe {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        return pipe
    }

    @Test("jqc list | head -1 and jqc show X | head end quietly, with the first lines printed")
    func readerClosesEarly() throws {
        let profile = try DemoProfile()
        var ids: [String] = []
        for _ in 0..<3 { ids.append(try profile.startDraft()) }
        let expected = try profile.jqc(["list"])
        try #require(expected.status == 0)
        let bash = try Programs.runShell("'\(Programs.path("jqc"))' --home '\(profile.home)' list | head -1")
        #expect(bash.stderr.isEmpty, "\(bash.stderr)")
        #expect(bash.stdout == String(expected.stdout.split(separator: "\n")[0]) + "\n")
        let shown = try Programs.runShell("'\(Programs.path("jqc"))' --home '\(profile.home)' show \(ids[0]) | head -2")
        #expect(shown.stderr.isEmpty, "\(shown.stderr)")
        #expect(shown.stdout.split(separator: "\n").count == 2)

        // When the reader is gone before the first line, the exit status says so, as a shell reports `git log | head`.
        for arguments in [
            ["list"], ["show", ids[0]], ["show", ids[0], "--json"], ["export", ids[0], "--format", "html"],
        ] {
            let pipe = try closedPipe()
            let outcome = try jqc(profile, arguments, stdout: pipe.fileHandleForWriting)
            #expect(outcome.status == 141, "jqc \(arguments.joined(separator: " "))")
            #expect(outcome.stderr.isEmpty, "jqc \(arguments.joined(separator: " ")): \(outcome.stderr)")
        }
    }

    @Test("a command whose output lands on a full disk exits 1 naming the cause; what it saved stays saved")
    func outputOnFullDisk() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        for arguments in [["show", id], ["list", "--json"], ["export", id, "--format", "csv"]] {
            let outcome = try jqc(profile, arguments, stdout: full)
            #expect(outcome.status == 1, "jqc \(arguments.joined(separator: " "))")
            #expect(
                outcome.stderr
                    == "jqc: Cannot write standard output: the disk is full (No space left on device); free some space and try again.\n"
            )
        }
        let answered = try jqc(profile, ["answer", id, "15", "typed on a full terminal log"], stdout: full)
        #expect(answered.status == 1)
        #expect(try profile.show(id)["answers"]?["15"] == "typed on a full terminal log")
    }

    @Test("a server that cannot print where it listens stops with exit 1 and says why")
    func serverAddressUnwritable() throws {
        let folder = TemporaryDirectory(prefix: "jqc-server-full")
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let outcome = try program(
            "jqc-server", ["--db", folder.path("server.sqlite"), "--host", "127.0.0.1", "--port", "0"],
            stdout: full)
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains(
                "jqc-server: cannot write the address to standard output (No space left on device); stopping"),
            "\(outcome.stderr)")
    }

    @Test("the agent with its log file on a full disk keeps syncing, exits 0 and counts the lines it dropped")
    func agentLogOnFullDisk() throws {
        let server = try Self.demo.get()
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        try #require(try profile.jqc(["complete", id]).status == 0)
        let disk = try SmallDisk(megabytes: 1)
        let log = disk.path("agent.log")
        try Data().write(to: URL(fileURLWithPath: log))
        try disk.fill()
        let metrics = profile.path("jqc.prom")
        let outcome = try profile.agent(["run", "--once", "--log-file", log, "--metrics-file", metrics])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try profile.show(id)["state"] == "SYNCED")
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(text.contains("jqc_reports_pending 0\n"))
        #expect(text.contains("jqc_agent_log_lines_dropped_total 2\n"), "\(text)")

        // Space comes back: the next cycle's lines are written again.
        disk.makeRoom()
        let next = try profile.agent(["run", "--once", "--log-file", log])
        #expect(next.status == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map {
            try JSONValue.parse(String($0))
        }
        #expect(lines.map { $0["event"]?.stringValue } == ["cycle_started", "cycle_finished"])
    }

    @Test("a sign-in file that cannot be read is an I/O error (exit 1), not 'sign in' (exit 6)")
    func unreadableCredentials() throws {
        let server = try Self.demo.get()
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let file = profile.home + "/credentials.json"
        try #require(FileManager.default.fileExists(atPath: file), "the profile keeps its sign-in at \(file)")
        // A folder where the file should be: opening works, reading fails (EISDIR), even for root.
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        for arguments in [["whoami"], ["sync"], ["history"]] {
            let outcome = try profile.jqc(arguments)
            #expect(outcome.status == 1, "jqc \(arguments[0]): \(outcome.stderr)")
            #expect(
                outcome.stderr
                    == "jqc: Cannot read the sign-in at '\(file)' (Is a directory); check the disk and the file's permissions. Nothing on this device was lost.\n"
            )
        }
        let agent = try profile.agent(["run", "--once"])
        #expect(agent.status == 1)
        #expect(agent.stderr.contains("Cannot read the sign-in"))
        #expect(!agent.stderr.contains("Sign in"))
    }
}
