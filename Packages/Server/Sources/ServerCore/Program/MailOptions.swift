import ArgumentParsing
import Foundation
import Networking
import ServerStore

#if canImport(Glibc)
    import Glibc
#endif

/// The mail options of `serve`, which `admin mail test` takes too: the relay,
/// its account, whom mail comes from, and the console's address its links use.
enum MailOptions {
    private static let defaults = MailSettings()

    static let smtpURL = Option(
        "smtp-url", "URL",
        help:
            "the mail relay: smtps://HOST[:PORT], or smtp://HOST[:PORT] with STARTTLS required (plain SMTP only to loopback); mail is off without it"
    )
    static let smtpUser = Option("smtp-user", "USER", help: "the relay account's user name")
    static let smtpPasswordFile = Option(
        "smtp-password-file", "FILE", help: "a file (mode 0600) holding the relay account's password")
    static let smtpCAFile = Option(
        "smtp-ca-file", "FILE", help: "certificates (PEM) the relay's TLS certificate is checked against")
    static let mailFrom = Option(
        "mail-from", "ADDRESS", help: "the address mail comes from, such as qc@example.org (needed with --smtp-url)")
    static let publicURL = Option(
        "public-url", "URL",
        help: "the console's address as people reach it, such as https://qc.example.org; every message links to it")
    static let mailSenders = Option(
        "mail-senders", "N", default: defaults.senders,
        help: "messages this instance hands to the relay at once; 0 leaves them to other instances",
        as: .whole(in: 0...16))

    static let smtpTimeout = Option(
        "smtp-timeout", "SECONDS", default: Int(defaults.timeout),
        help: "seconds one message may take to hand to the relay, connecting included", as: .whole(in: 1...600))
    static let mailFirstRetry = Option(
        "mail-first-retry-ms", "N", default: Int(defaults.firstDelay * 1000),
        help: "milliseconds before a deferred message's second attempt; each later wait doubles, up to an hour",
        as: .whole(in: 10...86_400_000))
    static let mailAttempts = Option(
        "mail-attempts", "N", default: defaults.attempts,
        help: "attempts before a deferred message is failed and kept for 'admin mail retry'", as: .whole(in: 1...100))

    /// The options of `serve` (`admin mail test` takes the relay's, the address and the link).
    static let all: [OptionSpec] = [
        smtpURL.spec, smtpUser.spec, smtpPasswordFile.spec, smtpCAFile.spec, smtpTimeout.spec, mailFrom.spec,
        publicURL.spec, mailSenders.spec, mailFirstRetry.spec, mailAttempts.spec,
    ]

    /// The options `admin mail test` takes.
    static let test: [OptionSpec] = [
        smtpURL.spec, smtpUser.spec, smtpPasswordFile.spec, smtpCAFile.spec, smtpTimeout.spec, mailFrom.spec,
        publicURL.spec,
    ]

    /// Reads the mail options: off without `--smtp-url`; with it, `--mail-from` and `--public-url` are needed.
    static func settings(_ parsed: ParsedArguments) throws(UsageError) -> MailSettings {
        var settings = MailSettings()
        settings.senders = try parsed[mailSenders]
        settings.timeout = TimeInterval(try parsed[smtpTimeout])
        settings.firstDelay = TimeInterval(try parsed[mailFirstRetry]) / 1000
        settings.attempts = try parsed[mailAttempts]
        // The lease outlasts a send, so a message being sent is never taken by another instance.
        settings.lease = max(settings.lease, settings.timeout * 2 + 30)
        guard let url = try parsed[smtpURL] else {
            for option in [smtpUser, smtpPasswordFile, smtpCAFile, mailFrom] where parsed.isGiven(option) {
                throw UsageError("--\(option.spec.long) needs --smtp-url, the relay mail is sent through.")
            }
            return settings
        }
        guard let from = try parsed[mailFrom] else {
            throw UsageError("--smtp-url needs --mail-from, the address mail comes from, such as qc@example.org.")
        }
        do throws(ServerError) {
            settings.from = MailAddress(name: "JanitorialQC", address: try MailAddress.validated(from))
        } catch {
            throw UsageError("--mail-from: \(error.message)")
        }
        guard let link = try parsed[publicURL] else {
            throw UsageError(
                "--smtp-url needs --public-url, the console's address as people reach it (messages link to it).")
        }
        settings.publicURL = try checkedPublicURL(link)
        let password = try parsed[smtpPasswordFile].map { path throws(UsageError) in try readPassword(path) }
        let user = try parsed[smtpUser]
        if password != nil && user == nil {
            throw UsageError("--smtp-password-file needs --smtp-user, the account the password is for.")
        }
        let authorities = try parsed[smtpCAFile]
        do throws(NetworkingError) {
            settings.relay = try SMTPRelay(
                url: url, user: user, password: password, caCertificatePath: authorities,
                connectTimeout: min(settings.timeout, 10), totalTimeout: settings.timeout)
        } catch {
            throw UsageError("--smtp-url: \(error.message)")
        }
        return settings
    }

    /// The console's address: http or https, a host, no query; without its trailing slash.
    static func checkedPublicURL(_ text: String) throws(UsageError) -> String {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw UsageError(
                "--public-url '\(text)' is not an http or https address without a query, such as https://qc.example.org."
            )
        }
        return trimmed
    }

    /// The password in `path`: the file must be this user's alone (mode 0600 or stricter); its text without the last line end.
    static func readPassword(_ path: String) throws(UsageError) -> String {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw UsageError("--smtp-password-file '\(path)' cannot be read: \(String(cString: strerror(errno))).")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw UsageError(
                "--smtp-password-file '\(path)' may be read by others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it."
            )
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 4096,
            var text = String(data: data, encoding: .utf8)
        else {
            throw UsageError("--smtp-password-file '\(path)' is not a short UTF-8 text file.")
        }
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        guard !text.isEmpty else { throw UsageError("--smtp-password-file '\(path)' is empty.") }
        return text
    }
}
