import Models

/// Defaults for how a field type takes part in form logic: a type declares
/// the kind of value it compares (`logicKind`) and gets the operators of that
/// kind, `passed`/`failed` when it is scored, and readings by kind. A type
/// overrides any of them when its answers read differently (a checkbox's
/// old `"true"` strings).
extension FieldType {
    /// No comparable value: only `answered`/`unanswered` (and `passed`/`failed` when scored).
    public var logicKind: LogicKind? { nil }

    /// `answered`/`unanswered`, the operators of `logicKind`, and `passed`/`failed` for scored types.
    public var logicOperators: Set<LogicOperator> {
        var operators = LogicOperator.universal.union(logicKind?.defaultOperators ?? [])
        if isScoreable { operators.formUnion([.passed, .failed]) }
        return operators
    }

    /// The answer read as `logicKind`; nil when blank, `"N/A"` or of another kind.
    public func logicValue(of answer: JSONValue, for field: FieldDefinition) -> LogicValue? {
        guard !isBlank(answer), !NotApplicable.isAnswer(answer) else { return nil }
        return logicKind?.read(answer)
    }

    /// A condition's `"value"` read as `logicKind`; nil when it is of another kind.
    public func logicOperand(_ literal: JSONValue, for field: FieldDefinition) -> LogicValue? {
        logicKind?.read(literal)
    }

    /// Not calculable unless the type says so.
    public var holdsCalculation: Bool { false }

    /// Only section headings group the fields after them.
    public var startsSection: Bool { false }
}
