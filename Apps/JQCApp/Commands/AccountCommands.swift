import ArgumentParsing
import Foundation
import JQCCore
import Models
import ProgramOutput

/// login, logout, whoami (F1). Tokens are never printed, logged or put in `--json`.
enum AccountCommands {
    static var all: [Command] { [login, logout, whoami] }

    static let server = Option("server", "URL", help: "the server, https://HOST or http://127.0.0.1:PORT")
    static let username = Option("username", "NAME", help: "your user name")
    static let passwordStdin = Flag(
        "password-stdin", help: "read the password from the first line of standard input (scripts)")
    static let caFile = Option(
        "cacert", "FILE", help: "trust the certificate authorities in FILE instead of the system's")

    static let login = Command(
        CommandSpec(
            "login", summary: "sign in to a server; the password is asked without echo",
            options: [server.spec, username.spec, passwordStdin.spec, caFile.spec],
            discussion:
                "Examples:\n  jqc login --server https://qc.example.com --username dana\n  printf '%s\\n' \"$PW\" | jqc login --server URL --username dana --password-stdin"
        )
    ) { (inv) async throws(AppError) -> CommandOutput in
        guard let server = try inv[Self.server], !server.isEmpty else {
            throw AppError.usage("Give the server: 'jqc login --server URL --username NAME'.")
        }
        guard let username = try inv[Self.username], !username.isEmpty else {
            throw AppError.usage("Give your user name: 'jqc login --server URL --username NAME'.")
        }
        let password: String
        if inv[Self.passwordStdin] {
            password = readLine(strippingNewline: true) ?? ""
        } else if inv.context.stdinIsTerminal {
            password = PasswordPrompt.read("Password for \(username): ")
        } else {
            throw AppError.usage("Standard input is not a terminal: pass the password with --password-stdin.")
        }
        guard !password.isEmpty else {
            throw AppError.usage("No password was given; nothing was changed.")
        }
        let service = SyncService(context: inv.context, caFile: try inv[Self.caFile])
        let user = try await service.login(serverURL: server, username: username, password: password)
        // The display name came from the server: `identity` shows it through `oneLine`.
        return CommandOutput(
            lines: ["Signed in to \(oneLine(server)) as \(user.identity)."],
            json: ["user": userJSON(user), "server": .string(server)], showsStatusLine: false)
    }

    static let logout = Command(
        CommandSpec(
            "logout",
            summary: "sign out: revoke the session on the server (best effort) and forget it here; reports stay")
    ) { (inv) async throws(AppError) -> CommandOutput in
        let (signedIn, told) = try await SyncService(context: inv.context).logout()
        let line =
            !signedIn
            ? "Not signed in; nothing to do."
            : told
                ? "Signed out. Reports on this device are kept."
                : "Signed out on this device (the server could not be told). Reports on this device are kept."
        return CommandOutput(
            lines: [line], json: ["signed_out": .bool(signedIn), "server_notified": .bool(told)],
            showsStatusLine: false)
    }

    static let whoami = Command(
        CommandSpec(
            "whoami", summary: "who is signed in (cached; works offline)")
    ) { (inv) throws(AppError) -> CommandOutput in
        guard let saved = try inv.context.credentials.load() else {
            throw AppError(
                code: .authRequired, "Not signed in. Sign in with 'jqc login --server URL --username NAME'.",
                exitCode: ExitCode.authRequired)
        }
        let user = saved.user
        return CommandOutput(
            lines: ["\(user.identity) on \(oneLine(saved.serverURL))"],
            json: ["user": userJSON(user), "server": .string(saved.serverURL)], showsStatusLine: false)
    }

    static func userJSON(_ user: WireUser) -> JSONValue {
        [
            "id": .string(user.id), "username": .string(user.username), "role": .string(user.role.rawValue),
            "display_name": .string(user.displayName),
        ]
    }
}

/// Reads a password from the terminal with echo off (termios), restoring the terminal after.
enum PasswordPrompt {
    static func read(_ prompt: String) -> String {
        OutputChannel.standardError.write(prompt)
        var saved = termios()
        let canSilence = tcgetattr(STDIN_FILENO, &saved) == 0
        if canSilence {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        let line = readLine(strippingNewline: true) ?? ""
        if canSilence { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        OutputChannel.standardError.write("\n")
        return line
    }
}
