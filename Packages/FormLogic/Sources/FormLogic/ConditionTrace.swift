import FieldTypes
import Models

/// A condition evaluated node by node, for `jqc explain`: each leaf with the
/// value it read and whether it held.
public struct ConditionTrace: Sendable, Hashable {
    /// `true`, `false`, `all`, `any`, `not`, `field`, `unknown` or `malformed`.
    public var kind: String
    /// Whether this node held.
    public var result: Bool
    /// For a leaf: the field read.
    public var fieldID: FieldID?
    /// For a leaf: the operator as written.
    public var op: String?
    /// For a leaf: the value compared with, when the operator takes one.
    public var value: JSONValue?
    /// For a leaf: the answer read; nil when unanswered.
    public var read: JSONValue?
    /// For a leaf: true when the field read is hidden (it reads as unanswered).
    public var readHidden: Bool
    /// For a malformed node: what is wrong.
    public var note: String?
    /// The sub-conditions of `all`, `any` and `not`.
    public var children: [ConditionTrace]

    /// The node's own line: `field '22' le 2: read 1 -> true`.
    public var line: String {
        let verdict = result ? "holds" : "does not hold"
        switch kind {
        case "field":
            let read = readHidden ? "field is hidden" : (self.read.map { "read \(shown($0))" } ?? "unanswered")
            return
                "field \(OneLine.quote(fieldID?.rawValue ?? "?")) \(plain(op ?? "?"))\(value.map { " " + shown($0) } ?? ""): \(read) -> \(verdict)"
        case "unknown":
            return
                "field \(OneLine.quote(fieldID?.rawValue ?? "?")) \(plain(op ?? "?")): operator unknown to this jqc -> \(verdict)"
        case "malformed": return "malformed (\(note ?? "")) -> \(verdict)"
        default: return "\(kind) -> \(verdict)"
        }
    }

    /// The tree as indented lines.
    public func lines(indent: String = "") -> [String] {
        [indent + line] + children.flatMap { $0.lines(indent: indent + "  ") }
    }

    /// The tree as JSON.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["kind": .string(kind), "result": .bool(result)]
        if let fieldID { object["field"] = .string(fieldID.rawValue) }
        if let op { object["op"] = .string(op) }
        if let value { object["value"] = value }
        if kind == "field" {
            object["read"] = read ?? .null
            object["read_hidden"] = .bool(readHidden)
        }
        if let note { object["note"] = .string(note) }
        if !children.isEmpty { object["children"] = .array(children.map(\.json)) }
        return .object(object)
    }
}

/// Why one field is shown, hidden, required or computed.
public struct FieldExplanation: Sendable {
    /// The field explained.
    public var fieldID: FieldID
    /// Whether it is shown.
    public var visible: Bool
    /// Whether it is shown and must be answered.
    public var required: Bool
    /// The heading covering the field and its condition, when it has one.
    public var section: (id: FieldID, trace: ConditionTrace)?
    /// The field's own `visible_when`, traced.
    public var visibleWhen: ConditionTrace?
    /// The field's `required_when`, traced.
    public var requiredWhen: ConditionTrace?
    /// Conditions inside `calculate` (`if`), traced.
    public var calculateConditions: [ConditionTrace]
    /// True when the field has `calculate`.
    public var calculated: Bool
    /// The field's answer as the logic sees it (a calculated field's value).
    public var value: JSONValue?
    /// Why this build cannot evaluate the field's logic, or nil.
    public var unsupported: String?
    /// Why a calculated field has no value now (an operand unanswered, a
    /// division by zero), or nil when it has one.
    public var noValueReason: String? = nil
}

extension FormLogic {
    /// Traces `condition` in `state`.
    public func trace(_ condition: Condition, in state: FormState) -> ConditionTrace {
        var node = ConditionTrace(kind: "", result: holds(condition, in: state), readHidden: false, children: [])
        switch condition {
        case .constant(let b): node.kind = b ? "true" : "false"
        case .all(let list): node.kind = "all"; node.children = list.map { trace($0, in: state) }
        case .any(let list): node.kind = "any"; node.children = list.map { trace($0, in: state) }
        case .not(let inner): node.kind = "not"; node.children = [trace(inner, in: state)]
        case .test(let id, let op, let value):
            node.kind = "field"
            node.fieldID = id
            node.op = op.rawValue
            node.value = value
            node.read = test(id, op, value, in: state).read
            node.readHidden = positions[id].map { !state.visible[$0] } ?? false
        case .unknownOperator(let id, let name):
            node.kind = "unknown"; node.fieldID = id; node.op = name
        case .malformed(let message):
            node.kind = "malformed"; node.note = message
        }
        return node
    }

    /// Everything the logic says about one field for `answers`; nil for an id the form does not have.
    public func explain(_ id: FieldID, answers: Answers) -> FieldExplanation? {
        guard let i = positions[id] else { return nil }
        let state = evaluate(answers)
        let rule = rules[i]
        let section = sections[i].flatMap { s in
            rules[s].visibleWhen.map { (schema.fields[s].id, trace($0, in: state)) }
        }
        return FieldExplanation(
            fieldID: id, visible: state.visible[i], required: state.required[i], section: section,
            visibleWhen: rule.visibleWhen.map { trace($0, in: state) },
            requiredWhen: rule.requiredWhen.map { trace($0, in: state) },
            calculateConditions: (rule.calculate?.conditions ?? []).map { trace($0, in: state) },
            calculated: rule.calculate != nil, value: state.values[i], unsupported: rule.unsupported,
            noValueReason: state.values[i] == nil ? rule.calculate.flatMap { noValueReason($0, in: state) } : nil)
    }

    /// Why `expression` has no value in `state`: the first cause met, read
    /// as the evaluator reads it; nil when it has a value.
    public func noValueReason(_ expression: Expression, in state: FormState) -> String? {
        guard calculate(expression, in: state) == nil else { return nil }
        switch expression {
        case .literal:
            return "the calculation gives null"
        case .field(let id):
            guard let j = positions[id] else { return "field '\(id)' is not in the form" }
            if !state.visible[j] { return "field '\(id)' is hidden by condition" }
            if state.values[j] == nil { return "field '\(id)' is not answered" }
            return "field '\(id)' has no value a calculation can use (N/A, or options)"
        case .arithmetic(let op, let operands):
            for operand in operands {
                guard let value = calculate(operand, in: state) else { return noValueReason(operand, in: state) }
                guard case .number = value else {
                    return "\(Self.describe(operand)) is not a number ('\(op.rawValue)' needs numbers)"
                }
            }
            if op == .div, operands.count == 2, case .number(let divisor)? = calculate(operands[1], in: state),
                divisor == 0
            {
                return "division by zero in the calculation: \(Self.describe(operands[1])) is 0"
            }
            return "the result of '\(op.rawValue)' is not a finite number"
        case .round(let inner, _):
            return noValueReason(inner, in: state) ?? "the rounded value is not a finite number"
        case .coalesce:
            return "every operand of 'coalesce' is null"
        case .countAnswered:
            return nil
        case .choose(let condition, let then, let otherwise):
            return noValueReason(holds(condition, in: state) ? then : otherwise, in: state)
        case .malformed(let problem):
            return problem
        }
    }

    /// An operand as a sentence names it.
    private static func describe(_ expression: Expression) -> String {
        if case .field(let id) = expression { return "field '\(id)'" }
        return "the divisor"
    }
}
