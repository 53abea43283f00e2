/// An operator of a form-logic condition leaf (`{"field": ID, "op": ...}`).
///
/// Every field can be tested with `answered` and `unanswered`; the others are
/// offered by field types through `FieldType.logicOperators`.
public enum LogicOperator: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The field has an answer (`"N/A"` counts).
    case answered
    /// The field has no answer, or is hidden.
    case unanswered
    /// The type scores the answer as a pass (the judgement a critical field gets).
    case passed
    /// The type scores the answer as a fail.
    case failed
    /// Equal to the value.
    case eq
    /// Not equal to the value (false when unanswered).
    case ne
    /// Less than the value.
    case lt
    /// Less than or equal to the value.
    case le
    /// Greater than the value.
    case gt
    /// Greater than or equal to the value.
    case ge
    /// One of the listed values.
    case `in`
    /// None of the listed values (false when unanswered).
    case notIn = "not_in"
    /// A multiple choice has the option ticked.
    case contains

    /// Operators every field supports, whatever its type.
    public static let universal: Set<LogicOperator> = [.answered, .unanswered]
    /// Operators that need a `"value"` key.
    public var needsValue: Bool {
        switch self {
        case .answered, .unanswered, .passed, .failed: return false
        default: return true
        }
    }
    /// Operators whose `"value"` is a list.
    public var takesList: Bool { self == .in || self == .notIn }

    /// Orders operators by their place in the spec's list, for stable messages.
    public static func < (a: LogicOperator, b: LogicOperator) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
