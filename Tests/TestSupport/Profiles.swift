import Foundation

/// A temporary jqc profile with the demo world imported through the real `jqc` binary.
public final class DemoProfile: @unchecked Sendable {
    // Immutable after init.
    public let directory = TemporaryDirectory(prefix: "jqc-profile")

    /// The profile folder, for `--home`.
    public var home: String { directory.url.path }

    public init() throws {
        for (command, file) in [("templates", "templates.json"), ("facilities", "facilities.json"), ("assignments", "assignments.json")] {
            let outcome = try Programs.run("jqc", ["--home", home, command, "import", DemoFiles.path(file)])
            guard outcome.status == 0 else {
                throw TerminalError(message: "importing \(file) failed: \(outcome.stderr)")
            }
        }
    }

    /// Runs `jqc` on this profile.
    public func jqc(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> ProcessOutcome {
        try Programs.run("jqc", ["--home", home] + arguments, environment: environment, stdin: stdin)
    }

    /// Runs `jqc ... --json` and parses stdout.
    public func json(_ arguments: [String]) throws -> [String: Any] {
        let outcome = try jqc(arguments + ["--json"])
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
        return object as? [String: Any] ?? [:]
    }

    /// Starts a report and returns its local id.
    public func start(_ arguments: [String]) throws -> String {
        let result = try json(["start"] + arguments)
        guard let id = result["local_id"] as? String else {
            throw TerminalError(message: "start \(arguments) gave no local_id: \(result)")
        }
        return id
    }
}
