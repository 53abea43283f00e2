import FieldTypes
import Foundation
import Models

/// Evaluation: conditions, expressions and the form state.
extension FormLogic {
    /// The state of the form for `answers`: every field evaluated in dependency order.
    public func evaluate(_ answers: Answers) -> FormState {
        let n = schema.fields.count
        var state = FormState(
            ids: schema.fields.map(\.id), positions: positions,
            visible: Array(repeating: true, count: n), required: Array(repeating: false, count: n),
            values: Array(repeating: nil, count: n), hiddenBy: Array(repeating: nil, count: n),
            strays: answers.values.filter { positions[$0.key] == nil })
        for i in order { evaluateShape(i, answers: answers, into: &state) }
        for i in 0..<n { evaluateRequired(i, into: &state) }
        return state
    }

    /// The state after the answer of `changed` became what `answers` holds:
    /// only the fields that read it, directly or through others, are evaluated again.
    public func updating(_ state: FormState, answers: Answers, changed: FieldID) -> FormState {
        guard let start = positions[changed] else {
            var next = state
            next.strays[changed] = answers[changed]
            return next
        }
        var dirty = Array(repeating: false, count: schema.fields.count)
        var stack = [start]
        dirty[start] = true
        while let i = stack.popLast() {
            for j in dependents[i] where !dirty[j] {
                dirty[j] = true
                stack.append(j)
            }
        }
        var next = state
        for i in order where dirty[i] { evaluateShape(i, answers: answers, into: &next) }
        for i in dirty.indices where dirty[i] { evaluateRequired(i, into: &next) }
        return next
    }

    /// The answers with every calculation applied (hidden fields' answers kept).
    public func applyingCalculations(to answers: Answers) -> Answers { evaluate(answers).answers }

    /// Visibility and value of one field; what it reads is already evaluated.
    private func evaluateShape(_ i: Int, answers: Answers, into state: inout FormState) {
        let rule = rules[i]
        var visible = true
        var hiddenBy: Int?
        if let section = sections[i], !state.visible[section] {
            visible = false
            hiddenBy = section
        } else if rule.unsupported == nil, let condition = rule.visibleWhen, !holds(condition, in: state) {
            visible = false
            hiddenBy = i
        }
        state.visible[i] = visible
        state.hiddenBy[i] = hiddenBy
        if rule.unsupported == nil, let expression = rule.calculate {
            state.values[i] = calculatedAnswer(calculate(expression, in: state), field: i)
        } else {
            state.values[i] = answers[schema.fields[i].id]
        }
    }

    private func evaluateRequired(_ i: Int, into state: inout FormState) {
        guard state.visible[i], answerable[i] else { state.required[i] = false; return }
        if schema.fields[i].required { state.required[i] = true; return }
        let rule = rules[i]
        state.required[i] = rule.unsupported == nil && rule.requiredWhen.map { holds($0, in: state) } == true
    }

    // MARK: Conditions

    /// Whether `condition` holds in `state`.
    func holds(_ condition: Condition, in state: FormState) -> Bool {
        switch condition {
        case .constant(let b): return b
        case .all(let list): return list.allSatisfy { holds($0, in: state) }
        case .any(let list): return list.contains { holds($0, in: state) }
        case .not(let inner): return !holds(inner, in: state)
        case .test(let id, let op, let value): return test(id, op, value, in: state).result
        case .unknownOperator, .malformed: return false
        }
    }

    /// A leaf's outcome and the value it read (nil: unanswered or hidden).
    func test(_ id: FieldID, _ op: LogicOperator, _ literal: JSONValue?, in state: FormState) -> (
        result: Bool, read: JSONValue?
    ) {
        guard let j = positions[id], answerable[j] else { return (op == .unanswered, nil) }
        let type = types[j], field = schema.fields[j]
        let answer = state.visible[j] ? state.values[j].flatMap { type.isBlank($0) ? nil : $0 } : nil
        guard let answer else { return (op == .unanswered, nil) }
        guard operators[j].contains(op) else { return (false, answer) }
        switch op {
        case .answered: return (true, answer)
        case .unanswered: return (false, answer)
        case .passed, .failed:
            guard case .scored(_, let passed) = type.score(answer, for: field) else { return (false, answer) }
            return (passed == (op == .passed), answer)
        default: break
        }
        guard let value = type.logicValue(of: answer, for: field), let literal else { return (false, answer) }
        switch op {
        case .in, .notIn:
            let candidates = (literal.arrayValue ?? []).compactMap { type.logicOperand($0, for: field) }
            let found = candidates.contains { value.matches($0) }
            return (op == .in ? found : !found, answer)
        case .contains:
            guard case .options(let chosen) = value, case .options(let wanted)? = type.logicOperand(literal, for: field)
            else { return (false, answer) }
            return (wanted.allSatisfy(chosen.contains), answer)
        default:
            guard let operand = type.logicOperand(literal, for: field), operand.kind == value.kind else {
                return (false, answer)
            }
            switch op {
            case .eq: return (value.matches(operand), answer)
            case .ne: return (!value.matches(operand), answer)
            default:
                guard let order = value.compare(operand) else { return (false, answer) }
                switch op {
                case .lt: return (order == .less, answer)
                case .le: return (order != .greater, answer)
                case .gt: return (order == .greater, answer)
                default: return (order != .less, answer)
                }
            }
        }
    }

    // MARK: Expressions

    /// The value of an expression: a number, string, boolean, or nil for null.
    func calculate(_ expression: Expression, in state: FormState) -> LogicValue? {
        switch expression {
        case .literal(let json):
            switch json {
            case .string(let s): return .text(s)
            case .bool(let b): return .bool(b)
            default: return json.numberValue.flatMap { $0.isFinite ? .number($0) : nil }
            }
        case .field(let id):
            guard let j = positions[id], state.visible[j], let answer = state.values[j] else { return nil }
            switch types[j].logicValue(of: answer, for: schema.fields[j]) {
            case .date(let day)?: return .text(day)
            case .options?, nil: return nil
            case let value?: return value
            }
        case .arithmetic(let op, let operands):
            var numbers: [Double] = []
            for operand in operands {
                guard case .number(let n)? = calculate(operand, in: state) else { return nil }
                numbers.append(n)
            }
            let result: Double?
            switch op {
            case .add: result = numbers.reduce(0, +)
            case .mul: result = numbers.reduce(1, *)
            case .sub: result = numbers.first.map { first in numbers.dropFirst().reduce(first, -) } ?? 0
            case .div: result = numbers.count == 2 && numbers[1] != 0 ? numbers[0] / numbers[1] : nil
            case .min: result = numbers.min()
            case .max: result = numbers.max()
            }
            return result.flatMap { $0.isFinite ? .number($0) : nil }
        case .round(let inner, let digits):
            guard case .number(let n)? = calculate(inner, in: state) else { return nil }
            return Self.round(n, digits: digits).map { .number($0) }
        case .coalesce(let operands):
            for operand in operands { if let value = calculate(operand, in: state) { return value } }
            return nil
        case .countAnswered(let ids):
            return .number(Double(ids.filter { test($0, .answered, nil, in: state).result }.count))
        case .choose(let condition, let then, let otherwise):
            return calculate(holds(condition, in: state) ? then : otherwise, in: state)
        case .malformed:
            return nil
        }
    }

    /// `value` rounded half away from zero to `digits` decimals, on the decimal
    /// the number is written as (`2.675` to 2 digits is `2.68`, although the
    /// nearest double is a little below it); nil when not finite.
    static func round(_ value: Double, digits: Int) -> Double? {
        guard value.isFinite else { return nil }
        if var decimal = Decimal(string: "\(value)", locale: Locale(identifier: "en_US_POSIX")) {
            var rounded = Decimal()
            NSDecimalRound(&rounded, &decimal, digits, .plain)
            let result = NSDecimalNumber(decimal: rounded).doubleValue
            if result.isFinite { return result }
        }
        let scale = pow(10.0, Double(digits))
        let result = (value * scale).rounded(.toNearestOrAwayFromZero) / scale
        return result.isFinite ? result : nil
    }

    /// A computed value as the field's answer: the JSON of its kind when the
    /// field's type accepts it, else none (the field stays unanswered).
    func calculatedAnswer(_ value: LogicValue?, field i: Int) -> JSONValue? {
        let json: JSONValue
        switch value {
        case nil, .options?, .date?: return nil
        case .number(let n)?: json = JSONValue.double(n).integerValue.map { .integer($0) } ?? .double(n)
        case .text(let s)?: json = .string(s)
        case .bool(let b)?: json = .bool(b)
        }
        let type = types[i]
        guard type.holdsCalculation, type.validate(json, for: schema.fields[i]) == nil, !type.isBlank(json) else {
            return nil
        }
        return json
    }
}
