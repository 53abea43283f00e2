import FieldTypes
import Models

/// The whole lint of a template file, the same on the device (`jqc
/// templates lint`) and on the server (`jqc-server admin publish-template`).
public enum TemplateLint {
    /// The `{"templates": [...]}` document a template file means: that
    /// document, the same inside an `{"ok", "data"}` envelope, or one
    /// template object (a `form_schema` and no `templates`) as a list of one.
    /// Lint, import and publish all read a file through this.
    public static func listed(_ document: JSONValue) -> JSONValue {
        let unwrapped = document["ok"] != nil ? (document["data"] ?? .null) : document
        guard unwrapped["templates"] == nil, unwrapped["form_schema"] != nil else { return unwrapped }
        return ["templates": .array([unwrapped])]
    }

    /// Every problem of every template in a document (see `listed`: one
    /// template, or a `{"templates": [...]}` list), for `jqc templates lint`: decoding problems (duplicate ids, wrong-typed
    /// keys), the registry's lint (unknown types, bad options, the grid,
    /// critical or required where they cannot apply) and the form logic's
    /// (references, operators, kinds, cycles, sizes) together, so one run
    /// lists them all. Each line names the template and the field.
    /// With `reportingUnavailable` false, a registered field type whose program is unavailable right now is not counted.
    public static func problems(
        _ document: JSONValue, source: String, registry: FieldTypeRegistry,
        reportingUnavailable: Bool = true
    ) -> (templates: [String], problems: [String]) {
        guard let list = listed(document)["templates"]?.arrayValue else {
            return (
                [],
                [
                    "'\(source)' holds neither a template nor a \"templates\" list; expected one template object "
                        + "or {\"templates\": [...]} as GET /templates returns."
                ]
            )
        }
        var names: [String] = [], problems: [String] = []
        for (index, object) in list.enumerated() {
            let id = object["id"].flatMap(FieldID.init(json:))?.rawValue
            let name = id.map { "template '\($0)'" } ?? "template #\(index + 1)"
            var found: [SchemaProblem] = []
            if case .failure(let errors) = Template.decode(object) { found += errors.problems }
            // Every field that decodes is linted, even when the template as a whole did not decode.
            var fields: [FieldDefinition] = [], decodedPositions: [Int] = []
            for (offset, item) in (object["form_schema"]?["fields"]?.arrayValue ?? []).enumerated() {
                guard let field = try? FieldDefinition.decode(item, index: offset).get() else { continue }
                fields.append(field)
                decodedPositions.append(offset)
            }
            for problem in registry.lint(FormSchema(fields: fields), reportingUnavailable: reportingUnavailable) {
                var located = problem
                located.fieldIndex = problem.fieldIndex.map { decodedPositions[$0] }
                found.append(located)
            }
            // Form logic: every problem, and operators this jqc does not know.
            let logic = FormLogic(schema: FormSchema(fields: fields), registry: registry)
            for problem in logic.problems + logic.warnings {
                var located = problem.schemaProblem
                located.fieldIndex = fields.firstIndex { $0.id == problem.fieldID }.map { decodedPositions[$0] }
                found.append(located)
            }
            let ordered = found.enumerated().sorted { a, b in
                let (ia, ib) = (a.element.fieldIndex ?? -1, b.element.fieldIndex ?? -1)
                return ia != ib ? ia < ib : a.offset < b.offset
            }
            problems += ordered.map { "\(name): \($0.element)" }
            if let id { names.append(id) }
        }
        for id in Set(names) where names.filter({ $0 == id }).count > 1 {
            problems.append("template '\(id)' appears more than once; give each template its own id")
        }
        return (names, problems)
    }
}
