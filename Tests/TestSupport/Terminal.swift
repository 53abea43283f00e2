import Foundation

/// A real terminal for tests: a tmux session of a given size on a private
/// server socket, with keys typed into it and its screen read back.
public final class Terminal: @unchecked Sendable {
    // Immutable after init; tmux itself serialises the commands sent to it.
    private let socket: String

    /// Starts `command` (run by `sh -c`) in an 80x24 terminal.
    public init(_ command: String, width: Int = 80, height: Int = 24, environment: [String: String] = [:]) throws {
        socket = "jqc-test-\(UUID().uuidString.prefix(8))"
        let exports = "unset NO_COLOR; " + environment.map { "export \($0.key)='\($0.value)'; " }.joined()
        // The tmux server forked here must not inherit a pipe we read to its end.
        _ = try tmux(
            [
                "new-session", "-d", "-s", "main", "-x", String(width), "-y", String(height),
                "sh -c \"\(exports)exec \(command)\"",
            ],
            readOutput: false)
    }

    /// Types text followed by Enter.
    public func type(_ line: String) throws {
        _ = try tmux(["send-keys", "-t", "main", "-l", line])
        _ = try tmux(["send-keys", "-t", "main", "Enter"])
    }

    /// Types text without pressing Enter.
    public func keys(_ text: String) throws {
        _ = try tmux(["send-keys", "-t", "main", "-l", text])
    }

    /// Presses one key by tmux's name for it (`C-c` for Ctrl-C), without Enter.
    public func press(_ key: String) throws {
        _ = try tmux(["send-keys", "-t", "main", key])
    }

    /// The screen as text; with `escapes`, colour and style sequences included.
    public func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", "main"] + (escapes ? ["-e"] : []))
    }

    /// Waits until the screen shows `text`; throws with the screen if it never does.
    @discardableResult
    public func waitFor(_ text: String, seconds: Double = 20) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = (try? screen()) ?? last
            if last.contains(text) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TerminalError(message: "the terminal never showed '\(text)'; it shows:\n\(last)")
    }

    /// Answers the form runner's fields in order, from field `first` of
    /// `total`: waits for each "Field N of TOTAL" prompt, then types its answer.
    public func answerFields(_ answers: [String], from first: Int = 1, of total: Int) throws {
        for (offset, answer) in answers.enumerated() {
            try waitFor("Field \(first + offset) of \(total)")
            try type(answer)
        }
    }

    /// The process id of the program running in the terminal.
    public func programID() throws -> Int32 {
        let text = try tmux(["list-panes", "-t", "main", "-F", "#{pane_pid}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        guard let pid = Int32(text) else { throw TerminalError(message: "no program in the terminal") }
        return pid
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// Runs one tmux command through the C library's `popen`, which waits for
    /// and reaps the tmux client itself (the server it forks lives on detached).
    @discardableResult
    private func tmux(_ arguments: [String], readOutput: Bool = true) throws -> String {
        let quoted = (["tmux", "-L", socket] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let command = quoted.joined(separator: " ") + (readOutput ? " 2>/dev/null" : " >/dev/null 2>&1")
        guard let pipe = popen(command, "r") else {
            throw TerminalError(message: "could not run tmux")
        }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            output.append(contentsOf: buffer[0..<count])
        }
        pclose(pipe)
        return String(decoding: output, as: UTF8.self)
    }
}

/// A terminal test could not see what it waited for.
public struct TerminalError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
