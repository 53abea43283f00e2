/// How much the server logs (`--log-level`): a line is written when its
/// level is at or above the one chosen, `error` being the highest.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case error, warn, info, debug

    /// The level named `error`, `warn`, `info` or `debug`; nil for anything else.
    public init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }

    /// The name written in each line's `level`.
    public var name: String {
        switch self {
        case .error: "error"
        case .warn: "warn"
        case .info: "info"
        case .debug: "debug"
        }
    }

    /// Ordered from the most to the least severe.
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}
