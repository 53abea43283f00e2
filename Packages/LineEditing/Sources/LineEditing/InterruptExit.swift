import CTerminalSignals

/// Ctrl-C while a person is answering: one line on standard error, then exit
/// 130 at once, from the signal handler itself. What was saved is in the
/// store already; the line being typed is not an answer yet. Until the value
/// is released; then Ctrl-C ends the program as usual.
public final class InterruptExit {
    /// Says `message` and exits 130 on the next SIGINT.
    public init(_ message: String) {
        jqc_exit_on_interrupt(message)
    }

    deinit {
        jqc_default_interrupt()
    }
}
