import FieldTypes
import Models

/// A `calculate` expression, read from its JSON tree. Like `Condition`,
/// parsing never fails: a part of the wrong shape becomes `.malformed`.
public indirect enum Expression: Sendable, Hashable {
    /// A number, string, boolean or null.
    case literal(JSONValue)
    /// `{"field": ID}`: the answer; null when unanswered, hidden or N/A.
    case field(FieldID)
    /// `add`, `sub`, `mul`, `div`, `min`, `max` over the operands.
    case arithmetic(Arithmetic, [Expression])
    /// `{"round": [expression, digits]}`, half away from zero.
    case round(Expression, Int)
    /// `{"coalesce": [...]}`: the first operand that is not null.
    case coalesce([Expression])
    /// `{"count_answered": [ID, ...]}`.
    case countAnswered([FieldID])
    /// `{"if": [condition, then, else]}`.
    case choose(Condition, Expression, Expression)
    /// A part of the wrong shape, with what is wrong.
    case malformed(String)

    /// The arithmetic operations.
    public enum Arithmetic: String, Sendable, Hashable, CaseIterable {
        case add, sub, mul, div, min, max
    }

    /// Reads an expression tree.
    public init(json: JSONValue) {
        switch json {
        case .null, .bool, .integer, .double, .string: self = .literal(json)
        case .array: self = .malformed("a list is not an expression; wrap it in an operation such as {\"add\": [...]}")
        case .object(let object):
            guard object.count == 1, let (key, value) = object.first else {
                self = .malformed(
                    "an expression object has exactly one key (such as 'field' or 'add'), not \(object.count)")
                return
            }
            self = Self.operation(key, value)
        }
    }

    private static func operation(_ key: String, _ value: JSONValue) -> Expression {
        if key == "field" {
            guard let id = FieldID(json: value) else {
                return .malformed("'field' must be a field id, not \(value.kindDescription)")
            }
            return .field(id)
        }
        if key == "count_answered" {
            guard let items = value.arrayValue else {
                return .malformed("'count_answered' needs a list of field ids, not \(value.kindDescription)")
            }
            let ids = items.compactMap(FieldID.init(json:))
            guard ids.count == items.count else {
                return .malformed("'count_answered' needs a list of field ids (integers or strings)")
            }
            return .countAnswered(ids)
        }
        guard let operands = value.arrayValue else {
            return .malformed("\(quoted(key)) needs a list of operands, not \(value.kindDescription)")
        }
        if let arithmetic = Arithmetic(rawValue: key) {
            if arithmetic == .div, operands.count != 2 {
                return .malformed("'div' needs exactly 2 operands, not \(operands.count)")
            }
            return .arithmetic(arithmetic, operands.map(Expression.init(json:)))
        }
        switch key {
        case "round":
            guard operands.count == 2, let digits = operands[1].integerValue, (0...10).contains(digits) else {
                return .malformed("'round' needs [expression, digits] with digits a whole number from 0 to 10")
            }
            return .round(Expression(json: operands[0]), Int(digits))
        case "coalesce":
            return .coalesce(operands.map(Expression.init(json:)))
        case "if":
            guard operands.count == 3 else {
                return .malformed("'if' needs [condition, then, else], not \(operands.count) items")
            }
            return .choose(Condition(json: operands[0]), Expression(json: operands[1]), Expression(json: operands[2]))
        default:
            return .malformed(
                "\(quoted(key)) is not an operation; use field, add, sub, mul, div, min, max, round, coalesce, count_answered or if"
            )
        }
    }

    /// The direct sub-expressions.
    var children: [Expression] {
        switch self {
        case .arithmetic(_, let list), .coalesce(let list): return list
        case .round(let inner, _): return [inner]
        case .choose(_, let a, let b): return [a, b]
        default: return []
        }
    }

    /// The condition of an `if`, when this is one.
    var condition: Condition? {
        if case .choose(let c, _, _) = self { return c }
        return nil
    }

    /// Every field read, by `field`, `count_answered` and `if` conditions.
    public var fieldReferences: [FieldID] {
        switch self {
        case .field(let id): return [id]
        case .countAnswered(let ids): return ids
        default: return (condition?.fieldReferences ?? []) + children.flatMap(\.fieldReferences)
        }
    }

    /// Levels of nesting, conditions of `if` included.
    public var depth: Int { 1 + max(children.map(\.depth).max() ?? 0, condition?.depth ?? 0) }
    /// Nodes in the tree, conditions of `if` included.
    public var nodeCount: Int { 1 + children.reduce(0) { $0 + $1.nodeCount } + (condition?.nodeCount ?? 0) }

    /// Every malformed part's message, conditions of `if` included.
    var malformations: [String] {
        if case .malformed(let message) = self { return [message] }
        return (condition?.malformations ?? []) + children.flatMap(\.malformations)
    }

    /// Every unknown operator in conditions of `if`.
    var unknownOperators: [String] {
        (condition?.unknownOperators ?? []) + children.flatMap(\.unknownOperators)
    }

    /// Every condition of an `if` anywhere in the tree.
    var conditions: [Condition] {
        (condition.map { [$0] } ?? []) + children.flatMap(\.conditions)
    }
}
