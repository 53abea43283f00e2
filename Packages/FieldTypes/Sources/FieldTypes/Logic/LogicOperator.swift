/// An operator of a form-logic condition leaf (`{"field": ID, "op": ...}`).
///
/// Every field can be tested with `answered` and `unanswered`; the others are
/// offered by field types through `FieldType.logicOperators`.
public enum LogicOperator: String, Sendable, Hashable, CaseIterable, Comparable {
    case answered, unanswered, passed, failed
    case eq, ne, lt, le, gt, ge
    case `in`, notIn = "not_in", contains

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
