import FieldTypes
import Models

/// What a plugin says of itself in its answer to `describe`.
struct PluginDescription: Sendable, Hashable {
    /// The protocol version this program speaks.
    static let protocolVersion: Int64 = 1

    /// The type's name, which must match the executable's `jqc-field-NAME`.
    var name: String
    var answerable: Bool
    var scoreable: Bool
    var copiesOnReinspection: Bool
    /// The condition operators it offers (`answered` and `unanswered` always added).
    var operators: Set<LogicOperator>
    /// What its `compare_value` gives; from the optional `compares` key, or
    /// worked out from the operators when the plugin does not say.
    var compares: LogicKind?

    /// Reads a `describe` result; throws one line saying what is not the protocol.
    init(_ result: JSONValue) throws(PluginProtocolViolation) {
        guard case .object = result else {
            throw PluginProtocolViolation("its 'describe' result is \(result.kindDescription), not an object")
        }
        guard let version = result["protocol"]?.integerValue else {
            throw PluginProtocolViolation("its 'describe' result has no whole-number 'protocol'")
        }
        guard version == Self.protocolVersion else {
            throw PluginProtocolViolation(
                "it speaks protocol \(version); this program speaks protocol \(Self.protocolVersion)")
        }
        guard let name = result["name"]?.stringValue else {
            throw PluginProtocolViolation("its 'describe' result has no 'name' string")
        }
        func flag(_ key: String) throws(PluginProtocolViolation) -> Bool {
            guard let value = result[key]?.boolValue else {
                throw PluginProtocolViolation("its 'describe' result has no '\(key)' true or false")
            }
            return value
        }
        self.name = name
        answerable = try flag("answerable")
        scoreable = try flag("scoreable")
        copiesOnReinspection = try flag("copies_on_reinspection")
        guard let list = result["operators"]?.arrayValue else {
            throw PluginProtocolViolation("its 'describe' result has no 'operators' list")
        }
        var operators = LogicOperator.universal
        for item in list {
            guard let text = item.stringValue, let op = LogicOperator(rawValue: text) else {
                throw PluginProtocolViolation(
                    "it offers operator \(OneLine.quote(item.stringValue ?? item.canonicalString())), "
                        + "which is not one of \(LogicOperator.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            operators.insert(op)
        }
        self.operators = operators
        switch result["compares"] {
        case nil, .null?:
            let ordered: Set<LogicOperator> = [.lt, .le, .gt, .ge]
            if !operators.isDisjoint(with: ordered) {
                compares = .number
            } else if !operators.isDisjoint(with: [.eq, .ne, .in, .notIn]) {
                compares = .text
            } else {
                compares = nil
            }
        case .string("number")?: compares = .number
        case .string("string")?, .string("text")?: compares = .text
        case .string("bool")?: compares = .bool
        case let other?:
            throw PluginProtocolViolation(
                "its 'compares' is \(OneLine.quote(other.canonicalString())); use \"number\", \"string\" or \"bool\"")
        }
    }
}

/// One line saying how a plugin's answer is not the protocol.
struct PluginProtocolViolation: Error {
    let detail: String
    init(_ detail: String) { self.detail = detail }
}
