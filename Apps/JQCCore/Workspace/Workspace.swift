import Foundation
import FieldTypes
import FormLogic
import Models
import Scoring
import Storage

/// The one seam between the programs (commands, the home menu, the form
/// runner) and the store: intent-named operations that check the rules,
/// change the store in one transaction each, and report errors as `AppError`.
/// Its store is internal to JQCCore, so the programs cannot reach it past these methods.
public final class Workspace {
    /// The device's store.
    let store: LocalStore
    public let registry: FieldTypeRegistry
    public let settings: Settings
    /// The device clock, for diagnostic timestamps only.
    public let now: @Sendable () -> Date

    init(store: LocalStore, registry: FieldTypeRegistry, settings: Settings, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.registry = registry
        self.settings = settings
        self.now = now
    }

    /// Runs a store call, turning its error into the app's.
    func storage<T>(_ body: () throws(StorageError) -> T) throws(AppError) -> T {
        do { return try body() } catch { throw AppError(storage: error) }
    }

    /// Finds a report by its full local id or a unique prefix of it (at least 4 characters), as people type them.
    public func report(_ reference: String) throws(AppError) -> Report {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        if let id = UUID(uuidString: trimmed),
            let report = try storage({ () throws(StorageError) in try store.report(id) })
        {
            return report
        }
        guard trimmed.count >= 4, trimmed.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw AppError.notFound("No report '\(reference)' on this device. See 'jqc list' for the reports here.")
        }
        let all = try storage { () throws(StorageError) in try store.reports() }
        let matches = all.filter { $0.localID.uuidString.lowercased().hasPrefix(trimmed.lowercased()) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw AppError.notFound("No report '\(reference)' on this device. See 'jqc list' for the reports here.")
        default: throw AppError.usage("'\(reference)' matches \(matches.count) reports; type more of the id.")
        }
    }

    /// The template a report was started from, at the version its answers
    /// were given to (a draft kept on an older version is answered against it).
    public func template(for report: Report) throws(AppError) -> Template {
        try template(id: report.templateID, version: report.templateVersion)
    }

    /// A cached template by id.
    public func template(id: String) throws(AppError) -> Template {
        guard let template = try storage({ () throws(StorageError) in try store.template(id: id) }) else {
            throw AppError.notFound(
                "Template '\(id)' is not on this device. Import it with 'jqc templates import FILE' or sync.")
        }
        return template
    }

    /// A report's field, by id.
    public func field(_ id: String, of template: Template) throws(AppError) -> FieldDefinition {
        guard let field = template.schema.field(FieldID(id)) else {
            let ids = template.schema.fields.filter { registry.resolve($0).isAnswerable }.map(\.id.rawValue)
            throw AppError.notFound(
                "Template '\(template.name)' has no field '\(id)'. Its fields: \(ids.joined(separator: ", ")).")
        }
        return field
    }

    /// The form logic of a template (conditions and calculations), compiled.
    public func logic(_ template: Template) -> FormLogic {
        FormLogic(schema: template.schema, registry: registry)
    }

    /// The score of a report's answers with its per-field breakdown; fields
    /// hidden by a condition are marked and left out.
    public func score(_ report: Report, template: Template) -> ScoreReport {
        Self.score(report.answers, logic: logic(template), registry: registry, passThreshold: template.passThreshold)
    }

    /// The score of answers under a template's logic: calculations applied, hidden fields left out.
    public static func score(
        _ answers: Answers, logic: FormLogic, registry: FieldTypeRegistry, passThreshold: Double? = nil
    ) -> ScoreReport {
        let state = logic.evaluate(answers)
        return Scorer.score(
            schema: logic.schema, answers: state.answers, hidden: Set(state.hiddenFields),
            passThreshold: passThreshold, judge: registry.score)
    }

    /// The stored score (the ratio) of any answers to `template`, for the
    /// store to compute inside the transaction that saves them.
    func scorer(_ template: Template) -> (Answers) -> Double? {
        let registry = self.registry
        let logic = self.logic(template)
        return { answers in Self.score(answers, logic: logic, registry: registry).ratio }
    }
}
