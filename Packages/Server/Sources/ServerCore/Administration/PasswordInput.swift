import Foundation
import ProgramOutput

/// A password for `jqc-server admin`: asked without echo at a terminal,
/// else the first line of standard input (scripts pipe it in).
enum PasswordInput {
    static func read(for username: String) -> String {
        guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) ?? "" }
        OutputChannel.standardError.write(
            "Password for \(username) (at least \(Administration.shortestPassword) characters): ")
        var saved = termios()
        let canHide = tcgetattr(STDIN_FILENO, &saved) == 0
        if canHide {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        let line = readLine(strippingNewline: true) ?? ""
        if canHide { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        OutputChannel.standardError.write("\n")
        return line
    }
}
