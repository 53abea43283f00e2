import Foundation

/// RFC 3339 UTC timestamps, as the server writes and stores them.
public enum Timestamp {
    /// The text of a moment.
    public static func string(_ date: Date) -> String { date.formatted(.iso8601) }
    /// The text of now.
    public static func now() -> String { string(Date()) }
    /// The moment a string written by `string` names.
    public static func date(_ text: String) -> Date? { try? Date(text, strategy: .iso8601) }
}
