import Models

/// The value a condition compares for an answer, as the field's type reads it:
/// a rating's number, a pass/fail keyword, a checkbox's tick, a date.
public enum LogicValue: Sendable, Hashable {
    /// A number; `4` and `4.0` are equal.
    case number(Double)
    /// A string, compared exactly.
    case text(String)
    /// True or false.
    case bool(Bool)
    /// A calendar date as `YYYY-MM-DD`, ordered as dates.
    case date(String)
    /// The chosen options of a multiple choice, for `contains`.
    case options([String])

    /// The kind of the value.
    public var kind: LogicKind {
        switch self {
        case .number: return .number
        case .text: return .text
        case .bool: return .bool
        case .date: return .date
        case .options: return .options
        }
    }

    /// How two values of the same kind order; nil when they cannot be ordered
    /// (different kinds, booleans, option lists).
    public func compare(_ other: LogicValue) -> ComparisonResult? {
        switch (self, other) {
        case (.number(let a), .number(let b)): return a < b ? .less : (a == b ? .equal : .greater)
        case (.date(let a), .date(let b)), (.text(let a), .text(let b)):
            return a < b ? .less : (a == b ? .equal : .greater)
        default: return nil
        }
    }

    /// Equality as conditions see it: same kind and same value.
    public func matches(_ other: LogicValue) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)): return a == b
        case (.text(let a), .text(let b)), (.date(let a), .date(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.options(let a), .options(let b)): return Set(a) == Set(b)
        default: return false
        }
    }

    /// The order of two values.
    public enum ComparisonResult: Sendable {
        /// The first is smaller.
        case less
        /// Both are the same.
        case equal
        /// The first is larger.
        case greater
    }

    /// The value as JSON, for `jqc explain`.
    public var json: JSONValue {
        switch self {
        case .number(let n): return JSONValue.double(n).integerValue.map { .integer($0) } ?? .double(n)
        case .text(let s), .date(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .options(let list): return .array(list.map { .string($0) })
        }
    }
}

/// What kind of value a field type compares in conditions.
public enum LogicKind: String, Sendable, Hashable {
    /// Numbers (`rating`, `number`, `temperature`).
    case number
    /// Strings compared exactly (`text`, `radio`, the `pass_fail` keyword).
    case text
    /// True or false (`checkbox`).
    case bool
    /// Calendar dates (`date`).
    case date
    /// Ticked options (`checkbox_group`), for `contains`.
    case options

    /// The kind with its article, for messages ("a number").
    public var described: String {
        switch self {
        case .number: return "a number"
        case .text: return "a string"
        case .bool: return "true or false"
        case .date: return "a date (\"YYYY-MM-DD\")"
        case .options: return "an option's text"
        }
    }

    /// The comparison operators a type of this kind offers by default.
    public var defaultOperators: Set<LogicOperator> {
        switch self {
        case .number, .date: return [.eq, .ne, .lt, .le, .gt, .ge, .in, .notIn]
        case .text: return [.eq, .ne, .in, .notIn]
        case .bool: return [.eq, .ne]
        case .options: return [.contains]
        }
    }

    /// Reads JSON as a value of this kind; nil when it is of another kind.
    /// For `options`, a single string is read as one option (the operand of `contains`).
    public func read(_ json: JSONValue) -> LogicValue? {
        switch (self, json) {
        case (.number, _): return json.numberValue.flatMap { $0.isFinite ? .number($0) : nil }
        case (.text, .string(let s)): return .text(s)
        case (.bool, .bool(let b)): return .bool(b)
        case (.date, .string(let s)): return RFC3339.isDay(s) ? .date(s) : nil
        case (.options, .string(let s)): return .options([s])
        case (.options, .array(let items)):
            let strings = items.compactMap(\.stringValue)
            return strings.count == items.count ? .options(strings) : nil
        default: return nil
        }
    }
}
