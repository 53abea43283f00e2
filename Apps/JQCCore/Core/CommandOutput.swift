import ArgumentParsing
import Models

/// What a command produced, in both forms: lines for a person and one JSON
/// document for `--json`. The dispatcher prints the one asked for.
public struct CommandOutput: Sendable {
    /// Human output, one string per line.
    public var lines: [String]
    /// The `--json` document; `.null` when the command wrote its own output.
    public var json: JSONValue
    /// Whether the persistent status line follows the human output.
    public var showsStatusLine: Bool
    /// The exit code: 0, or a code of docs/commands.md for an outcome that is not an error
    /// but a script must tell apart (75 "waiting for network", 7 "conflict needs a person").
    public var exitCode: ExitCode
    /// Errors and notices for a person (why a sync waits, a conflict to resolve): on
    /// stderr after the human output, never on stdout; `--json` carries them in its document.
    public var diagnostics: [String]

    public init(
        lines: [String], json: JSONValue, showsStatusLine: Bool = true, exitCode: ExitCode = .ok,
        diagnostics: [String] = []
    ) {
        self.lines = lines
        self.diagnostics = diagnostics
        self.json = json
        self.showsStatusLine = showsStatusLine
        self.exitCode = exitCode
    }
}
