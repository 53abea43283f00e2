/// Why a schedule could not be made: a code a program can match and one
/// line an administrator can act on.
///
/// The codes are `RULE_INVALID` (the rule is not a recurrence rule),
/// `RULE_UNSUPPORTED` (a valid rule outside the subset the product offers),
/// `WINDOW_INVALID`, `ZONE_UNKNOWN`, `DATE_INVALID` and `NEVER_OCCURS`
/// (the schedule would never fall due).
public struct ScheduleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem, one of the codes listed above.
    public let code: String
    /// One line saying what is wrong, quoting the offending value.
    public let message: String

    /// Makes an error from its code and its line.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The line an administrator reads.
    public var description: String { message }
}

extension ScheduleError {
    static func ruleInvalid(_ message: String) -> ScheduleError {
        ScheduleError(code: "RULE_INVALID", message: message)
    }

    static func ruleUnsupported(_ message: String) -> ScheduleError {
        ScheduleError(code: "RULE_UNSUPPORTED", message: message)
    }

    static func windowInvalid(_ message: String) -> ScheduleError {
        ScheduleError(code: "WINDOW_INVALID", message: message)
    }

    static func zoneUnknown(_ message: String) -> ScheduleError {
        ScheduleError(code: "ZONE_UNKNOWN", message: message)
    }

    static func dateInvalid(_ message: String) -> ScheduleError {
        ScheduleError(code: "DATE_INVALID", message: message)
    }

    static func neverOccurs(_ message: String) -> ScheduleError {
        ScheduleError(code: "NEVER_OCCURS", message: message)
    }
}
