import CEditLine
import CTerminalSignals
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
///
/// libedit's own signal handlers are off: they read its state through a
/// pointer it clears when a line is read, and a signal is handled on another
/// thread than the reading one (the main thread, while the command runs on
/// a worker), so a hangup that ends the read could crash the program. The
/// handlers of `CTerminalSignals` do what matters instead: the terminal's
/// modes put back before a signal ends or stops the program mid-line.
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
            jqc_editline_without_signal_handlers()
            _ = rl_initialize()
            jqc_handle_terminal_signals()
        }
    }

    /// The next line without its newline, after showing `prompt`; nil when
    /// input has ended (Ctrl-D on an empty line, or the end of a pipe).
    public func readLine(prompt: String) -> String? {
        guard isEditing else {
            writePrompt(prompt)
            return Swift.readLine(strippingNewline: true)
        }
        jqc_line_editing_begins()
        let read = prompt.withCString { CEditLine.readline($0) }
        jqc_line_editing_ends()
        guard let raw = read else { return nil }
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
