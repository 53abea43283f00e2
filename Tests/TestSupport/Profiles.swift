import Foundation
import Imaging
import Models

/// A temporary jqc profile with the demo world imported through the real `jqc` binary.
public final class DemoProfile: @unchecked Sendable {
    // Immutable after init.
    /// The profile's temporary folder (the profile is on `disk` instead when there is one).
    public let directory = TemporaryDirectory(prefix: "jqc-profile")
    /// A folder beside the profile for source files (photos to import, exports).
    public let files = TemporaryDirectory(prefix: "jqc-files")

    /// The profile folder, for `--home`.
    public let home: String
    /// The small disk the profile lives on, when it was made on one.
    public let disk: SmallDisk?

    /// A profile in a temporary folder, or at the root of `disk` (a small file
    /// system that a test can fill), with the demo world imported.
    public init(on disk: SmallDisk? = nil) throws {
        self.disk = disk
        home = disk?.path ?? directory.url.path
        for (command, file) in [
            ("templates", "templates.json"), ("facilities", "facilities.json"), ("assignments", "assignments.json"),
        ] {
            let outcome = try Programs.run("jqc", ["--home", home, command, "import", DemoFiles.path(file)])
            guard outcome.status == 0 else {
                throw TerminalError(message: "importing \(file) failed: \(outcome.stderr)")
            }
        }
    }

    /// A demo profile signed in to the server at `baseURL` as one of its demo
    /// accounts (whose password is the name followed by `-pass`).
    public static func signedIn(to baseURL: String, as username: String = "inspector") throws -> DemoProfile {
        let profile = try DemoProfile()
        let login = try profile.jqc(
            ["login", "--server", baseURL, "--username", username, "--password-stdin"],
            stdin: "\(username)-pass\n")
        guard login.status == 0 else { throw TerminalError(message: "login as \(username): \(login.stderr)") }
        return profile
    }

    /// Sends this device's next syncs to `baseURL`, keeping its session: what
    /// a load balancer in front of several server instances does.
    public func route(to baseURL: String) throws {
        let credentials = directory.path("credentials.json")
        let text = try Data(contentsOf: URL(fileURLWithPath: credentials))
        guard var saved = try JSONValue.parse(text).objectValue else {
            throw TerminalError(message: "credentials.json is not an object")
        }
        saved["server_url"] = .string(baseURL)
        try JSONValue.object(saved).canonicalData().write(to: URL(fileURLWithPath: credentials))
    }

    /// Runs `jqc` on this profile; with a `clock`, jqc reads that clock instead of the real one.
    public func jqc(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        clock: DeviceClock? = nil
    ) throws -> ProcessOutcome {
        try Programs.run("jqc", ["--home", home] + arguments, environment: environment, stdin: stdin, clock: clock)
    }

    /// Runs `jqc-agent` on this profile.
    public func agent(_ arguments: [String], clock: DeviceClock? = nil) throws -> ProcessOutcome {
        try Programs.run("jqc-agent", ["--home", home] + arguments, clock: clock)
    }

    /// Runs `jqc ... --json` and parses stdout.
    public func json(_ arguments: [String]) throws -> [String: Any] {
        let outcome = try jqc(arguments + ["--json"])
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
        return object as? [String: Any] ?? [:]
    }

    /// Runs `jqc ... --json` and parses its one JSON document, with the exit status.
    public func document(_ arguments: [String], clock: DeviceClock? = nil) throws -> (status: Int32, value: JSONValue) {
        let outcome = try jqc(arguments + ["--json"], clock: clock)
        return (outcome.status, try JSONValue.parse(Data(outcome.stdout.utf8)))
    }

    /// The profile's app-private photo folder.
    public var photosFolder: String { (home as NSString).appendingPathComponent("photos") }

    /// The profile's store file.
    public var storePath: String { (home as NSString).appendingPathComponent("jqc.sqlite") }

    /// A path in the test's temporary folder beside the profile.
    public func path(_ name: String) -> String { files.path(name) }

    /// Starts a Washroom QC draft (template 101 at F-100) and returns its local id.
    public func startDraft(clock: DeviceClock? = nil) throws -> String {
        try start(["--template", "101", "--facility", "F-100"], clock: clock)
    }

    /// Answers every required field of template 101, so the report can be
    /// completed: the signature (field 18) last, as an inspector signs.
    public func answerRequired(_ id: String, clock: DeviceClock? = nil) throws {
        for (field, value) in [("2", "4"), ("3", "4"), ("4", "pass"), ("6", "Good")] {
            let outcome = try jqc(["answer", id, field, value], clock: clock)
            guard outcome.status == 0 else {
                throw TerminalError(message: "answering field \(field): \(outcome.stderr)")
            }
        }
        try sign(id, clock: clock)
    }

    /// Signs template 101's report (field 18) as it stands now: after an
    /// answer changed, the earlier signature was withdrawn.
    public func sign(_ id: String, clock: DeviceClock? = nil) throws {
        let outcome = try jqc(["answer", id, "18", "Dana Inspector"], clock: clock)
        guard outcome.status == 0 else { throw TerminalError(message: "signing: \(outcome.stderr)") }
    }

    /// The `show --json` document of a report.
    public func show(_ id: String) throws -> JSONValue {
        try document(["show", id]).value
    }

    /// The names of the files in the photo folder, sorted.
    public func photoFolderContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: photosFolder).sorted()
    }

    /// Writes a noisy JPEG that compresses like a photograph.
    @discardableResult
    public func writeJPEG(_ name: String, width: Int = 320, height: Int = 240, seed: UInt32 = 1) throws -> String {
        let path = self.path(name)
        try SyntheticImage.writeJPEG(
            width: width, height: height, pattern: .texture(seed: seed), quality: 95, to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes a PNG of pure noise: imported at quality 100 it stays large (about 2.5 bytes a pixel).
    @discardableResult
    public func writeNoisePNG(_ name: String, width: Int, height: Int, seed: UInt32 = 3) throws -> String {
        let path = self.path(name)
        try SyntheticImage.writePNG(
            width: width, height: height, pattern: .noise(seed: seed), to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes a noisy PNG.
    @discardableResult
    public func writePNG(_ name: String, width: Int = 320, height: Int = 240, seed: UInt32 = 2) throws -> String {
        let path = self.path(name)
        try SyntheticImage.writePNG(
            width: width, height: height, pattern: .texture(seed: seed), to: URL(fileURLWithPath: path))
        return path
    }

    /// Starts a report and returns its local id.
    public func start(_ arguments: [String], clock: DeviceClock? = nil) throws -> String {
        let (_, result) = try document(["start"] + arguments, clock: clock)
        guard let id = result["local_id"]?.stringValue else {
            throw TerminalError(message: "start \(arguments) gave no local_id: \(result)")
        }
        return id
    }
}
