import CEditLine
import Foundation

/// Reads lines a person types. At a terminal (standard input and output both
/// terminals) it edits the line with libedit: arrow keys, Home and End,
/// Ctrl-A/E/K/U/W, Up/Down through the lines typed earlier in this run,
/// and Tab completing file names (a photo's path).
/// Anywhere else (a pipe, a file, a test) it reads plain lines, writing the
/// prompt through `writePrompt` so the transcript keeps it.
///
/// libedit keeps its state in globals, so one process has one editing reader,
/// used from one thread at a time (the interactive command's).
public final class LineReader: @unchecked Sendable {
    /// Whether lines are edited with libedit.
    public let isEditing: Bool
    private let writePrompt: (String) -> Void
    private var lastLine: String?

    /// A reader that edits lines when `terminal` is true (by default: when
    /// standard input and output are both terminals).
    public init(
        terminal: Bool = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1,
        writePrompt: @escaping (String) -> Void
    ) {
        isEditing = terminal
        self.writePrompt = writePrompt
        if terminal {
            // libedit reads and draws multibyte characters (an accented name, the ellipsis of a
            // continued line) by the locale's character type; without this it is plain ASCII.
            _ = setlocale(LC_CTYPE, "")
            _ = rl_initialize()
        }
    }

    /// The next line without its newline, after showing `prompt`; nil when
    /// input has ended (Ctrl-D on an empty line, or the end of a pipe).
    public func readLine(prompt: String) -> String? {
        guard isEditing else {
            writePrompt(prompt)
            return Swift.readLine(strippingNewline: true)
        }
        guard let raw = prompt.withCString({ CEditLine.readline($0) }) else { return nil }
        defer { free(raw) }
        let line = String(decoding: UnsafeRawBufferPointer(start: raw, count: strlen(raw)), as: UTF8.self)
        // History holds what was typed, once per run of equal lines, and never a blank line.
        if !line.trimmingCharacters(in: .whitespaces).isEmpty, line != lastLine {
            _ = line.withCString { add_history($0) }
            lastLine = line
        }
        return line
    }
}
