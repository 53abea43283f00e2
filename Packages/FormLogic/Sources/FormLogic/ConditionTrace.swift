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
            return "field \(OneLine.quote(fieldID?.rawValue ?? "?")) \(plain(op ?? "?"))\(value.map { " " + shown($0) } ?? ""): \(read) -> \(verdict)"
        case "unknown": return "field \(OneLine.quote(fieldID?.rawValue ?? "?")) \(plain(op ?? "?")): operator unknown to this jqc -> \(verdict)"
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
        let section = sections[i].flatMap { s in rules[s].visibleWhen.map { (schema.fields[s].id, trace($0, in: state)) } }
        return FieldExplanation(fieldID: id, visible: state.visible[i], required: state.required[i], section: section,
                                visibleWhen: rule.visibleWhen.map { trace($0, in: state) },
                                requiredWhen: rule.requiredWhen.map { trace($0, in: state) },
                                calculateConditions: (rule.calculate?.conditions ?? []).map { trace($0, in: state) },
                                calculated: rule.calculate != nil, value: state.values[i], unsupported: rule.unsupported)
    }
}
