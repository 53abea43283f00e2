import ArgumentParsing
import FieldTypes
import FormLogic
import JQCCore
import Models

/// `jqc explain LOCAL_ID FIELD_ID`: why a field is shown, hidden, required or computed.
enum ExplainCommand {
    static let report = Argument("LOCAL_ID", help: "the report's id or a unique prefix of it")
    static let field = Argument("FIELD_ID", help: "the field to explain")

    static let explain = Command(
        CommandSpec(
            "explain",
            summary:
                "why a field is shown, hidden, required or calculated: its conditions as a tree with each leaf's value",
            positionals: [report.spec, field.spec],
            discussion:
                "Each condition is printed as a tree: every leaf with the answer it read and whether it held.\nExample:\n  jqc explain 6f1c 12"
        )
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let report = try workspace.report(try inv[Self.report])
        let template = try workspace.template(for: report)
        let field = try workspace.field(try inv[Self.field], of: template)
        let logic = workspace.logic(template)
        guard let explanation = logic.explain(field.id, answers: report.answers) else {
            throw AppError.notFound("Template '\(template.name)' has no field '\(field.id)'.")
        }
        let display = { (value: JSONValue?) in workspace.registry.display(field, value, style: inv.context.style) }
        let state = logic.evaluate(report.answers)
        return CommandOutput(
            lines: lines(explanation, field: field, reason: logic.hiddenReason(field.id, in: state), display: display),
            json: json(explanation, field: field, report: workspace.short(report), hiddenBy: state.hiddenBy(field.id)))
    }

    static func lines(_ e: FieldExplanation, field: FieldDefinition, reason: String?, display: (JSONValue?) -> String)
        -> [String]
    {
        var out: [String] = []
        let shown = e.visible ? "shown" : "hidden by condition"
        let required = e.required ? ", required" : (e.visible ? ", not required" : "")
        // The field's id, label and type came from the template: through OneLine. The condition
        // lines and the reason quote what they read through it already; `display` keeps its colours.
        out.append(
            "Field '\(oneLine(field.id.rawValue))' (\(flatLine(field.displayName))), \(oneLine(field.type)): \(shown)\(required)"
        )
        if let reason { out.append("  \(flatLine(reason))") }
        if let unsupported = e.unsupported {
            out.append("  Unsupported here: \(flatLine(unsupported)); its conditions are not evaluated.")
        }
        if let section = e.section {
            out.append("Section '\(oneLine(section.id.rawValue))' is shown when:")
            out += section.trace.lines(indent: "  ")
        }
        if let visible = e.visibleWhen {
            out.append("Shown when (visible_when):")
            out += visible.lines(indent: "  ")
        } else if e.section == nil {
            out.append("No visible_when: always shown.")
        }
        if field.required {
            out.append("Required: always while shown ('required': true).")
        } else if let requiredWhen = e.requiredWhen {
            out.append("Required when (required_when):")
            out += requiredWhen.lines(indent: "  ")
        }
        if e.calculated {
            out.append(
                "Calculated (calculate): now \(display(e.value))" + (e.noValueReason.map { ": \(flatLine($0))" } ?? ""))
            for condition in e.calculateConditions {
                out.append("  if:")
                out += condition.lines(indent: "    ")
            }
        }
        return out
    }

    static func json(_ e: FieldExplanation, field: FieldDefinition, report: String, hiddenBy: FieldID?) -> JSONValue {
        [
            "local_id": .string(report),
            "field_id": .string(field.id.rawValue),
            "label": .string(field.label),
            "type": .string(field.type),
            "visible": .bool(e.visible),
            "hidden_by": hiddenBy.map { .string($0.rawValue) } ?? .null,
            "required": .bool(e.required),
            "calculated": .bool(e.calculated),
            "value": e.value ?? .null,
            "section": e.section.map { ["field_id": .string($0.id.rawValue), "condition": $0.trace.json] } ?? .null,
            "visible_when": e.visibleWhen?.json ?? .null,
            "required_when": e.requiredWhen?.json ?? .null,
            "calculate_conditions": .array(e.calculateConditions.map(\.json)),
            "unsupported": e.unsupported.map { .string($0) } ?? .null,
            "no_value_reason": e.noValueReason.map { .string($0) } ?? .null,
        ]
    }
}
