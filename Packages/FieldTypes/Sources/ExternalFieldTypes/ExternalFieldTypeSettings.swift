import Foundation

/// How a program runs its external field types: how long an answer may take,
/// how long an answer line may be, and where the one warning per failed
/// plugin goes (the program's stderr or log, never its stdout).
public struct ExternalFieldTypeSettings: Sendable {
    /// The time limit a plugin has for each answer, `describe` included.
    public var timeout: TimeInterval
    /// The longest answer line accepted, in bytes; a longer one is a failure.
    public var maxAnswerBytes: Int
    /// Receives one line when a plugin fails or is ignored.
    public var warn: @Sendable (String) -> Void

    /// Two seconds per answer.
    public static let defaultTimeout: TimeInterval = 2
    /// One MiB per answer line.
    public static let defaultMaxAnswerBytes = 1 << 20
    /// The environment variable holding the time limit in seconds (`0.5`, `10`).
    public static let timeoutVariable = "JQC_FIELD_TYPE_TIMEOUT"
    /// The shortest and longest time limits accepted, in seconds.
    public static let timeoutRange: ClosedRange<TimeInterval> = 0.05...600

    /// Settings with the defaults unless told otherwise.
    public init(
        timeout: TimeInterval = ExternalFieldTypeSettings.defaultTimeout,
        maxAnswerBytes: Int = ExternalFieldTypeSettings.defaultMaxAnswerBytes,
        warn: @escaping @Sendable (String) -> Void
    ) {
        self.timeout = timeout
        self.maxAnswerBytes = maxAnswerBytes
        self.warn = warn
    }

    /// Reads a time limit in seconds, such as `"2"` or `"0.5"`; `source` names
    /// where it came from (`--field-type-timeout`) in the error.
    public static func timeout(_ text: String, source: String) throws(ExternalFieldTypesError) -> TimeInterval {
        guard let seconds = TimeInterval(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
            timeoutRange.contains(seconds)
        else {
            throw ExternalFieldTypesError(
                .badSetting,
                "\(source) '\(text)' is not a number of seconds from "
                    + "\(describe(timeoutRange.lowerBound)) to \(describe(timeoutRange.upperBound))")
        }
        return seconds
    }

    /// The time limit `JQC_FIELD_TYPE_TIMEOUT` sets, nil when unset; fails on a value that is not a usable number.
    public static func timeout(environment: [String: String]) throws(ExternalFieldTypesError) -> TimeInterval? {
        guard let text = environment[timeoutVariable], !text.isEmpty else { return nil }
        return try timeout(text, source: timeoutVariable)
    }

    /// `2 s`, `0.5 s`.
    static func describe(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
