import Foundation

/// A `postgres://USER[:PASSWORD]@HOST[:PORT]/DB` (or `postgresql://`) URL,
/// checked before any connection is tried, with a form safe to print.
public struct PostgresURL: Sendable, Equatable {
    /// The URL as given, handed to libpq as it is.
    public let text: String
    /// The host, for messages.
    public let host: String
    /// The port (5432 when not given).
    public let port: Int
    /// The database name.
    public let database: String
    /// The user name.
    public let user: String

    /// True for a string that asks for PostgreSQL rather than a SQLite file.
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// Parses `text`; the error says what is missing, without the password.
    public init(_ given: String) throws(PostgresError) {
        // The scheme is case-insensitive; libpq reads only the lowercase spelling.
        let text = Self.isPostgres(given) ? given.prefix { $0 != ":" }.lowercased() + given.drop { $0 != ":" } : given
        guard Self.isPostgres(text), let components = URLComponents(string: text) else {
            throw PostgresError(
                .usage,
                "'\(Self.redact(text))' is not a PostgreSQL URL; write postgres://USER[:PASSWORD]@HOST[:PORT]/DB")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresError(
                .usage,
                "the PostgreSQL URL '\(Self.redact(text))' names no host; write postgres://USER[:PASSWORD]@HOST[:PORT]/DB"
            )
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresError(.usage, "the PostgreSQL URL '\(Self.redact(text))' names no database; end it with /DB")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresError(
                .usage, "the PostgreSQL URL '\(Self.redact(text))' names no user; write postgres://USER@HOST/DB")
        }
        self.text = text
        self.host = host
        self.port = components.port ?? 5432
        self.database = database.removingPercentEncoding ?? database
        self.user = user.removingPercentEncoding ?? user
    }

    /// `user@host:port/database`: where, without the password.
    public var shown: String { "\(user)@\(host):\(port)/\(database)" }

    /// `text` with any password between `:` and `@` replaced by `***`.
    public static func redact(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@") else {
            return text
        }
        let credentials = text[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }
}
