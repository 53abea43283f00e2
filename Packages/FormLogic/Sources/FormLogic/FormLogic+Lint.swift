import FieldTypes
import Models

/// The checks `jqc templates lint` and `templates import` run: every logic
/// problem of the form, each with its field and a fix.
extension FormLogic {
    /// The largest nesting a condition or expression may have.
    public static let maximumDepth = 32
    /// The most nodes a condition or expression may have.
    public static let maximumNodes = 256

    /// Every logic problem, in form order, cycles last. Unknown operators are
    /// not here: see `warnings`.
    public var problems: [FormLogicError] {
        var found: [FormLogicError] = []
        for (i, field) in schema.fields.enumerated() {
            found += problems(of: i, field)
        }
        for cycle in cyclic {
            let names = cycle.map { "\(quoted(schema.fields[$0].id))" }.joined(separator: ", ")
            let message =
                cycle.count == 1
                ? "its visibility or calculation depends on itself; remove the reference to field \(quoted(schema.fields[cycle[0]].id)) from its own logic"
                : "fields \(names) form a cycle: the visibility or calculation of each depends on the others; remove one of the references"
            found.append(FormLogicError(.cycle, field: schema.fields[cycle[0]].id, message))
        }
        return found
    }

    /// Operators this build does not know: such a template is imported with
    /// these warnings and the fields are shown as unsupported.
    public var warnings: [FormLogicError] {
        schema.fields.indices.flatMap { i -> [FormLogicError] in
            let rule = rules[i]
            let names =
                (rule.visibleWhen?.unknownOperators ?? []) + (rule.requiredWhen?.unknownOperators ?? [])
                + (rule.calculate?.unknownOperators ?? [])
            return names.map {
                FormLogicError(
                    .unknownOperator, field: schema.fields[i].id,
                    "operator \(quoted($0)) is not known to this version of jqc; the field will show as unsupported (update jqc, or use one of \(LogicOperator.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
        }
    }

    private func problems(of i: Int, _ field: FieldDefinition) -> [FormLogicError] {
        var found: [FormLogicError] = []
        func report(_ code: FormLogicError.Code, _ message: String) {
            found.append(FormLogicError(code, field: field.id, message))
        }
        let rule = rules[i]
        for (key, condition) in [("visible_when", rule.visibleWhen), ("required_when", rule.requiredWhen)] {
            guard let condition else { continue }
            for message in condition.malformations { report(.malformed, "\(quoted(key)): \(message)") }
            checkSize(key, depth: condition.depth, nodes: condition.nodeCount, report)
            checkLeaves(key, condition, report)
        }
        if let expression = rule.calculate {
            for message in expression.malformations { report(.malformed, "'calculate': \(message)") }
            checkSize("calculate", depth: expression.depth, nodes: expression.nodeCount, report)
            for condition in expression.conditions { checkLeaves("calculate", condition, report) }
            for id in expression.fieldReferences { checkReference("calculate", id, report) }
            checkKinds(expression, report)
            let type = types[i]
            if !type.holdsCalculation {
                let holders = registry.names.filter { registry.type(named: $0)?.holdsCalculation == true }.joined(
                    separator: ", ")
                report(
                    .notCalculable,
                    "'calculate' cannot be used on a \(plain(field.type)) field, which cannot hold a calculated answer; remove 'calculate' or use one of: \(holders)"
                )
            } else if let kind = staticKind(expression), let wanted = type.logicKind, !Self.fits(kind, wanted) {
                report(
                    .notCalculable,
                    "'calculate' gives \(kind.described), but a \(plain(field.type)) field holds \(wanted.described); change the expression or the field's type"
                )
            }
        }
        if rule.requiredWhen != nil, !types[i].isAnswerable {
            report(
                .displayOnlyField, "'required_when' on a \(plain(field.type)) field, which takes no answer; remove it")
        }
        return found
    }

    private func checkSize(_ key: String, depth: Int, nodes: Int, _ report: (FormLogicError.Code, String) -> Void) {
        if depth > Self.maximumDepth {
            report(
                .tooLarge,
                "\(quoted(key)) is nested \(depth) levels deep, more than \(Self.maximumDepth); flatten it with 'all'/'any' lists"
            )
        }
        if nodes > Self.maximumNodes {
            report(
                .tooLarge,
                "\(quoted(key)) has \(nodes) nodes, more than \(Self.maximumNodes); split it across fields or simplify it"
            )
        }
    }

    private func checkReference(_ key: String, _ id: FieldID, _ report: (FormLogicError.Code, String) -> Void) {
        guard let j = positions[id] else {
            report(
                .unknownField,
                "\(quoted(key)) refers to field \(quoted(id)), which is not in this form; use the id of a field of the form"
            )
            return
        }
        if !types[j].isAnswerable {
            report(
                .displayOnlyField,
                "\(quoted(key)) refers to field \(quoted(id)), a \(plain(schema.fields[j].type)) that takes no answer; refer to a field that is answered"
            )
        }
    }

    private func checkLeaves(_ key: String, _ condition: Condition, _ report: (FormLogicError.Code, String) -> Void) {
        switch condition {
        case .test(let id, let op, let literal):
            checkReference(key, id, report)
            guard let j = positions[id], types[j].isAnswerable else { return }
            let type = types[j], target = schema.fields[j]
            guard type.logicOperators.contains(op) else {
                let offered = type.logicOperators.sorted().map(\.rawValue).joined(separator: ", ")
                report(
                    .unsupportedOperator,
                    "\(quoted(key)) uses '\(op.rawValue)' on field \(quoted(id)), a \(plain(target.type)) field, which supports only \(offered); use one of those"
                )
                return
            }
            guard let literal else { return }
            let items = op.takesList ? (literal.arrayValue ?? []) : [literal]
            for item in items where type.logicOperand(item, for: target) == nil {
                let wanted = type.logicKind?.described ?? "a value it can compare"
                report(
                    .wrongKind,
                    "\(quoted(key)) compares field \(quoted(id)) (\(plain(target.type))) with \(shown(item)), but that field compares \(wanted); change the value"
                )
            }
        case .all(let list), .any(let list):
            for child in list { checkLeaves(key, child, report) }
        case .not(let inner):
            checkLeaves(key, inner, report)
        case .constant, .unknownOperator, .malformed:
            break
        }
    }

    /// The kind an expression gives when it can be told without answers.
    func staticKind(_ expression: Expression) -> LogicKind? {
        switch expression {
        case .literal(let json):
            switch json {
            case .string: return .text
            case .bool: return .bool
            case .integer, .double: return .number
            default: return nil
            }
        case .field(let id):
            guard let j = positions[id] else { return nil }
            return types[j].logicKind == .date ? .text : types[j].logicKind
        case .arithmetic, .round, .countAnswered: return .number
        case .coalesce(let list): return list.lazy.compactMap(staticKind).first
        case .choose(_, let a, let b): return staticKind(a) ?? staticKind(b)
        case .malformed: return nil
        }
    }

    private func checkKinds(_ expression: Expression, _ report: (FormLogicError.Code, String) -> Void) {
        switch expression {
        case .arithmetic(let op, let operands):
            for operand in operands {
                if let kind = staticKind(operand), kind != .number {
                    report(
                        .wrongKind,
                        "'calculate': '\(op.rawValue)' needs numbers, but one operand gives \(kind.described); use a number or a number field"
                    )
                }
            }
        case .round(let inner, _):
            if let kind = staticKind(inner), kind != .number {
                report(.wrongKind, "'calculate': 'round' needs a number, but its operand gives \(kind.described)")
            }
        default: break
        }
        for child in expression.children { checkKinds(child, report) }
    }

    /// Whether a value of kind `given` can be stored in a field comparing `wanted`.
    static func fits(_ given: LogicKind, _ wanted: LogicKind) -> Bool {
        given == wanted || (given == .text && wanted == .date)
    }
}
