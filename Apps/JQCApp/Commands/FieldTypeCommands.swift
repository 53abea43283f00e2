import ArgumentParsing
import ExternalFieldTypes
import FieldTypes
import Foundation
import JQCCore
import Models
import SiteFieldTypes

/// `field-types` (every type and where it comes from) and `field-types check PATH`.
enum FieldTypeCommands {
    static var all: [Command] { [list, check] }

    static let list = Command(
        CommandSpec(
            "field-types",
            summary:
                "every field type this jqc knows and where it comes from: built-in, a package, or an external executable",
            discussion:
                "External types are executables named jqc-field-NAME found in $JQC_FIELD_TYPES_PATH, then in the "
                + "profile's field-types folder; listing them does not start them.")
    ) { (inv) throws(AppError) -> CommandOutput in
        let registry = inv.context.registry
        let rows = registry.names.map { name in (name, origin(of: name, in: registry)) }
        let lines = TextTable.render(["NAME", "ORIGIN"], rows.map { [$0.0, $0.1.text] }, maxColumn: 200)
        return CommandOutput(
            lines: lines,
            json: [
                "field_types": .array(
                    rows.map { name, origin in
                        var entry: [String: JSONValue] = ["name": .string(name), "origin": .string(origin.kind)]
                        if let package = origin.package { entry["package"] = .string(package) }
                        if let path = origin.path { entry["path"] = .string(path) }
                        return .object(entry)
                    })
            ], showsStatusLine: false)
    }

    static let executable = Argument("PATH", help: "the executable, named jqc-field-NAME")

    static let check = Command(
        CommandSpec(
            "field-types check",
            summary: "run the field-type conformance kit against an external field type; exit 4 listing every failure",
            positionals: [executable.spec],
            discussion:
                "The plugin is started as jqc starts it (same time limit, JQC_FIELD_TYPE_TIMEOUT) and must answer "
                + "'samples' with the examples the kit needs. Exit 0 when conformant, 4 when something failed, 3 when PATH does not exist."
        )
    ) { (inv) throws(AppError) -> CommandOutput in
        let path = try inv[Self.executable]
        guard FileManager.default.fileExists(atPath: path) else {
            throw AppError.notFound("'\(path)' does not exist; give the path of a jqc-field-NAME executable.")
        }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        // What the plugin does wrong is listed below; the line a program would warn with is not needed twice.
        var settings = FieldTypeSetup.settings(environment: inv.context.environment, program: JQCCommandLine.program)
        settings.warn = { _ in }
        let outcome = ExternalFieldTypeCheck.run(path: absolute, settings: settings)
        let shown = outcome.name.map { "field type '\($0)'" } ?? "'\(path)'"
        guard outcome.isConformant else {
            throw AppError.validation(
                "\(shown) (\(absolute)) fails \(outcome.failures.count) conformance check\(outcome.failures.count == 1 ? "" : "s").",
                problems: outcome.failures.map(\.description), code: .fieldTypeNonconformant)
        }
        return CommandOutput(
            lines: ["\(shown) (\(absolute)) passes every conformance check."],
            json: [
                "ok": true, "name": outcome.name.map(JSONValue.string) ?? .null, "path": .string(absolute),
                "failures": [],
            ],
            showsStatusLine: false)
    }

    /// Where a type comes from, for the listing.
    struct Origin {
        /// `built-in`, `package` or `external`.
        var kind: String
        var package: String?
        var path: String?

        var text: String {
            switch kind {
            case "package": return "package \(package ?? "")"
            case "external": return path ?? "external"
            default: return kind
            }
        }
    }

    static func origin(of name: String, in registry: FieldTypeRegistry) -> Origin {
        if let external = registry.type(named: name) as? ExternalFieldType {
            return Origin(kind: "external", path: external.executablePath)
        }
        if BuiltInFieldTypes.all.contains(where: { $0.name == name }) { return Origin(kind: "built-in") }
        if SiteFieldTypes.all.contains(where: { $0.name == name }) {
            return Origin(kind: "package", package: "SiteFieldTypes")
        }
        return Origin(kind: "package")
    }
}
