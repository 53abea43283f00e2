#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every program does about its output at start and at exit.
public enum ProgramExit {
    /// The exit status of a program whose reader closed its output, as a
    /// shell reports a program that a closed pipe stopped (`git log | head`).
    public static let readerClosed: Int32 = 128 + SIGPIPE

    /// Ends the process at once with status 1 after one line on stderr,
    /// written straight to the descriptor: for a thread that finds the
    /// program cannot go on (a C library's fatal error, a stop past its
    /// bound), where no lock may be taken and no cleanup can be trusted.
    public static func immediately(_ line: String, code: Int32 = 1) -> Never {
        let text = line + "\n"
        _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        _exit(code)
    }

    /// Ends the process with `code` without running the C libraries' exit
    /// handlers (OpenSSL's, ICU's): for a server, whose stop leaves a thread
    /// that has not finished in time (a webhook attempt left to its lease)
    /// running, possibly inside one of those libraries as they would tear
    /// themselves down under it. Nothing waits for those handlers: every
    /// program here writes its output straight to the descriptor, and its
    /// data is committed before this is called.
    public static func end(_ code: Int32) -> Never {
        _exit(code)
    }

    /// Call first: a closed pipe then fails a write with `EPIPE` that the
    /// program handles, instead of killing it with `SIGPIPE`.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// The exit code once the program's work is done: `code` when standard
    /// output took everything; quietly `readerClosed` when its reader went
    /// away; otherwise the cause on standard error and 1 (or `code` when that
    /// already says the command failed).
    public static func code(_ code: Int32, program: String) -> Int32 {
        guard let failure = OutputChannel.standardOutput.failure else { return code }
        if failure.code == .closed { return readerClosed }
        OutputChannel.standardError.line("\(program): \(failure.message)")
        return code == 0 ? 1 : code
    }
}
