import FieldTypes
import Models

/// A condition of `visible_when` or `required_when`, read from its JSON tree.
///
/// Parsing never fails: a part of the wrong shape becomes `.malformed` with a
/// message, an operator this build does not know becomes `.unknownOperator`,
/// so a template from a newer server is kept and shown, never refused at run time.
public indirect enum Condition: Sendable, Hashable {
    /// `true` or `false`.
    case constant(Bool)
    /// `{"all": [...]}`: every one holds (an empty list holds).
    case all([Condition])
    /// `{"any": [...]}`: at least one holds (an empty list does not).
    case any([Condition])
    /// `{"not": condition}`.
    case not(Condition)
    /// `{"field": ID, "op": OP, "value": JSON}`; `value` is nil for operators that take none.
    case test(FieldID, LogicOperator, JSONValue?)
    /// A leaf whose operator this build does not know.
    case unknownOperator(FieldID, String)
    /// A part of the wrong shape, with what is wrong.
    case malformed(String)

    /// Reads a condition tree.
    public init(json: JSONValue) {
        switch json {
        case .bool(let b): self = .constant(b)
        case .object(let object):
            if object.count == 1, let list = object["all"] ?? object["any"] {
                guard let items = list.arrayValue else {
                    self = .malformed(
                        "'\(object["all"] != nil ? "all" : "any")' must be a list of conditions, not \(list.kindDescription)"
                    )
                    return
                }
                let children = items.map(Condition.init(json:))
                self = object["all"] != nil ? .all(children) : .any(children)
            } else if object.count == 1, let inner = object["not"] {
                self = .not(Condition(json: inner))
            } else if let rawID = object["field"] {
                self = Self.leaf(object, rawID: rawID)
            } else {
                let keys = object.keys.sorted().map { "\(quoted($0))" }.joined(separator: ", ")
                self = .malformed(
                    "an object with \(keys.isEmpty ? "no keys" : keys) is not a condition; use true, false, {\"all\": [...]}, {\"any\": [...]}, {\"not\": ...} or {\"field\": ID, \"op\": ...}"
                )
            }
        default:
            self = .malformed(
                "\(json.kindDescription) is not a condition; use true, false or an object such as {\"field\": ID, \"op\": \"answered\"}"
            )
        }
    }

    private static func leaf(_ object: [String: JSONValue], rawID: JSONValue) -> Condition {
        guard let id = FieldID(json: rawID) else {
            return .malformed("'field' must be a field id (an integer or a string), not \(rawID.kindDescription)")
        }
        guard let opJSON = object["op"] else {
            return .malformed(
                "the condition on field \(quoted(id)) has no 'op'; add one, such as \"answered\" or \"eq\"")
        }
        guard let opName = opJSON.stringValue else {
            return .malformed("'op' must be a string, not \(opJSON.kindDescription)")
        }
        guard let op = LogicOperator(rawValue: opName) else { return .unknownOperator(id, opName) }
        let extra = Set(object.keys).subtracting(["field", "op", "value"])
        if !extra.isEmpty {
            return .malformed(
                "the condition on field \(quoted(id)) has unknown key\(extra.count == 1 ? "" : "s") \(extra.sorted().map { "\(quoted($0))" }.joined(separator: ", ")); remove \(extra.count == 1 ? "it" : "them")"
            )
        }
        if op.needsValue {
            guard let value = object["value"] else {
                return .malformed("\(quoted(opName)) on field \(quoted(id)) needs a 'value'; add one")
            }
            if op.takesList, value.arrayValue == nil {
                return .malformed(
                    "\(quoted(opName)) on field \(quoted(id)) needs a list as its 'value', not \(value.kindDescription); write [\(shown(value))]"
                )
            }
            return .test(id, op, value)
        }
        if object["value"] != nil {
            return .malformed("\(quoted(opName)) on field \(quoted(id)) takes no 'value'; remove it")
        }
        return .test(id, op, nil)
    }

    /// The direct sub-conditions.
    var children: [Condition] {
        switch self {
        case .all(let list), .any(let list): return list
        case .not(let inner): return [inner]
        default: return []
        }
    }

    /// Every field the condition reads, in order of appearance.
    public var fieldReferences: [FieldID] {
        switch self {
        case .test(let id, _, _), .unknownOperator(let id, _): return [id]
        default: return children.flatMap(\.fieldReferences)
        }
    }

    /// Levels of nesting (a leaf is 1).
    public var depth: Int { 1 + (children.map(\.depth).max() ?? 0) }
    /// Nodes in the tree.
    public var nodeCount: Int { 1 + children.reduce(0) { $0 + $1.nodeCount } }

    /// Every malformed part's message.
    var malformations: [String] {
        if case .malformed(let message) = self { return [message] }
        return children.flatMap(\.malformations)
    }

    /// Every unknown operator's name.
    var unknownOperators: [String] {
        if case .unknownOperator(_, let name) = self { return [name] }
        return children.flatMap(\.unknownOperators)
    }

    /// The condition in one line, as messages quote it: `field '20' eq "pass"`.
    public var summary: String {
        switch self {
        case .constant(let b): return b ? "true" : "false"
        case .all(let list):
            return list.isEmpty ? "all of nothing" : "(" + list.map(\.summary).joined(separator: " and ") + ")"
        case .any(let list):
            return list.isEmpty ? "any of nothing" : "(" + list.map(\.summary).joined(separator: " or ") + ")"
        case .not(let inner): return "not \(inner.summary)"
        case .test(let id, let op, let value):
            return "field \(quoted(id)) \(op.rawValue)" + (value.map { " \(shown($0))" } ?? "")
        case .unknownOperator(let id, let name): return "field \(quoted(id)) \(name)"
        case .malformed: return "a malformed condition"
        }
    }
}
