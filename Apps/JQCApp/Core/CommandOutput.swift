import Models

/// What a command produced, in both forms: lines for a person and one JSON
/// document for `--json`. The dispatcher prints the one asked for.
public struct CommandOutput: Sendable {
    /// Human output, one string per line.
    public var lines: [String]
    /// The `--json` document.
    public var json: JSONValue
    /// Whether the persistent status line follows the human output (PRODUCT.md F15).
    public var showsStatusLine: Bool

    public init(lines: [String], json: JSONValue, showsStatusLine: Bool = true) {
        self.lines = lines
        self.json = json
        self.showsStatusLine = showsStatusLine
    }
}
