import Foundation
import FieldTypes
import FormLogic
import Models
import Storage

/// What moving one report onto the newest version of its template would do
/// (`jqc migrate --dry-run`) or did.
public struct MigrationPlan: Sendable {
    /// The report, as it is now.
    public var report: Report
    /// The version it is on, when known here.
    public var from: Template?
    /// The newest version here.
    public var to: Template
    /// The answers it would have, and what would be set aside.
    public var planned: PlannedMove
    /// False when the report is on the newest version already: nothing would change.
    public var movesAnything: Bool
}

/// Template versions: the version a report was answered against, and moving
/// drafts onto the newest one field by field (kept, read anew by a retyped
/// field, or set aside, never lost), all drafts of a template in one transaction.
extension Workspace {
    /// The version of a template a report's answers were given to; the
    /// newest version here when that one is unknown.
    public func template(id: String, version: Int?) throws(AppError) -> Template {
        if let version,
            let template = try storage({ () throws(StorageError) in try store.template(id: id, version: version) })
        {
            return template
        }
        return try template(id: id)
    }

    /// Every answer a template change set aside from `report`, kept for good in its history.
    public func setAsideAnswers(of report: Report) throws(AppError) -> [SetAsideAnswer] {
        try storage { () throws(StorageError) in try store.setAsideAnswers(of: report.localID) }
    }

    /// Moves every DRAFT on an older version of its template (of `templateIDs`,
    /// or of any template) onto the newest version here, one transaction per
    /// template; drafts kept on their version stay. PENDING reports never move.
    @discardableResult
    public func moveDraftsToNewestVersions(of templateIDs: [String]? = nil) throws(AppError) -> [DraftsMoved] {
        let behind = try storage { () throws(StorageError) in try store.templatesWithDraftsBehind() }
        var moved: [DraftsMoved] = []
        for id in behind where templateIDs?.contains(id) ?? true {
            let reports = try storage { () throws(StorageError) in
                try store.moveReports(ofTemplate: id, plan: plannedMove)
            }
            guard let last = reports.last else { continue }
            let template = try template(id: id)
            moved.append(
                DraftsMoved(
                    templateID: id, templateName: template.name, version: last.move.toVersion,
                    reports: reports.map { DraftsMoved.Moved(localID: $0.report.localID, move: $0.move) }))
        }
        return moved
    }

    /// What moving `report` onto the newest version of its template would do; changes nothing.
    public func migrationPlan(_ report: Report) throws(AppError) -> MigrationPlan {
        let newest = try template(id: report.templateID)
        var from: Template?
        if let version = report.templateVersion {
            from = try storage { () throws(StorageError) in try store.template(id: report.templateID, version: version)
            }
        }
        let behind = report.templateVersion.map { $0 < newest.version } ?? true
        let planned =
            behind
            ? plannedMove(report, from: from, to: newest)
            : PlannedMove(
                answers: report.answers, score: report.score,
                move: TemplateMove(
                    fromVersion: report.templateVersion, toVersion: newest.version, setAside: [], newRequired: []))
        return MigrationPlan(report: report, from: from, to: newest, planned: planned, movesAnything: behind)
    }

    /// Moves one editable report (a DRAFT, or a REJECTED one the server no
    /// longer takes on its version) onto the newest version now, kept on its
    /// version or not. Nil when it is on the newest version already.
    public func migrate(_ report: Report) throws(AppError) -> TemplateMove? {
        guard report.lifecycle.isEditable else {
            throw AppError.blocked(
                .stateNotAllowed,
                "Report \(short(report)) is \(report.state.rawValue); only drafts (and rejected reports) move onto a new template version. Completed reports upload on the version they were answered on."
            )
        }
        let moved = try storage { () throws(StorageError) in
            try store.moveReports(ofTemplate: report.templateID, only: report.localID, plan: plannedMove)
        }
        return moved.first?.move
    }

    /// Leaves a draft on the version it is on when newer ones arrive, until
    /// `jqc migrate` moves it (the server must still accept that version).
    /// A draft a move just took, unchanged since, is first put back on the
    /// version it came from with the answers it had there (`putBack` true).
    public func keepVersion(_ report: Report) throws(AppError) -> (report: Report, putBack: Bool) {
        guard report.lifecycle.isEditable else {
            throw AppError.blocked(
                .stateNotAllowed,
                "Report \(short(report)) is \(report.state.rawValue); only drafts (and rejected reports) can be kept on their template version."
            )
        }
        let registry = self.registry
        let back = try storage { () throws(StorageError) -> Report? in
            try store.putBackOnPreviousVersion(report.localID) { answers, template in
                Self.score(answers, logic: FormLogic(schema: template.schema, registry: registry), registry: registry)
                    .ratio
            }
        }
        if let back { return (back, true) }
        if let move = report.templateMove {
            throw AppError.blocked(
                .stateNotAllowed,
                "Report \(short(report)) was changed after it moved to v\(move.toVersion), so it stays there; what the move set aside is in 'jqc show \(short(report)) --history'."
            )
        }
        return (try storage { () throws(StorageError) in try store.keepTemplateVersion(report.localID, true) }, false)
    }

    /// The move of `report` from `old` to `new`: the mapping, then the new
    /// version's calculations, then signatures that no longer hold withdrawn,
    /// then the score. A kept answer the new version calculates differently,
    /// and a withdrawn signature, are set aside too: nothing a person gave is dropped.
    func plannedMove(_ report: Report, from old: Template?, to new: Template) -> PlannedMove {
        let mapping = registry.mapAnswers(report.answers, from: old?.schema, to: new.schema, at: now())
        let logic = self.logic(new)
        var setAside = mapping.setAside
        var answers = logic.calculatedFields.isEmpty ? mapping.kept : logic.applyingCalculations(to: mapping.kept)
        let oldLogic = old.map(self.logic)
        for id in mapping.kept.answeredIDs where answers[id] != mapping.kept[id] && oldLogic?.isCalculated(id) != true {
            if let answer = mapping.kept[id] {
                setAside.append(
                    SetAsideAnswer(
                        fieldID: id, answer: answer, reason: "field \(id.rawValue) is now calculated from other answers"
                    ))
            }
        }
        let signed = answers
        var moved = report
        moved.templateVersion = new.version
        answers = withdrawingStaleSignatures(answers, of: moved, template: new, logic: logic, except: nil)
        for id in signed.answeredIDs where answers[id] == nil {
            if let answer = signed[id] {
                setAside.append(
                    SetAsideAnswer(
                        fieldID: id, answer: answer,
                        reason:
                            "field \(id.rawValue): the signature no longer holds for the answers on version \(new.version); sign again"
                    ))
            }
        }
        let score = Self.score(answers, logic: logic, registry: registry).ratio
        let move = TemplateMove(
            fromVersion: old?.version ?? report.templateVersion, toVersion: new.version, setAside: setAside,
            newRequired: mapping.newRequired.filter { answers[$0] == nil })
        return PlannedMove(answers: answers, score: score, move: move)
    }
}

extension DraftsMoved {
    /// One line for a person: "2 drafts moved to 'Washroom QC' v4; 1 answer
    /// set aside: field 7 was removed". The template's name, field ids and
    /// the reasons (which quote answers) came from outside: each goes through
    /// the one sanitiser as it is put in the line.
    public var message: String {
        let count = reports.count
        var line = "\(count) draft\(count == 1 ? "" : "s") moved to '\(flatLine(templateName))' v\(version)"
        let aside = setAside
        if !aside.isEmpty {
            var reasons: [String] = []
            var times: [String: Int] = [:]
            for item in aside {
                if times[item.answer.reason] == nil { reasons.append(item.answer.reason) }
                times[item.answer.reason, default: 0] += 1
            }
            let listed = reasons.map { reason in
                times[reason, default: 1] > 1
                    ? "\(flatLine(reason)) (\(times[reason, default: 1]) drafts)" : flatLine(reason)
            }
            line += "; \(aside.count) answer\(aside.count == 1 ? "" : "s") set aside: " + listed.joined(separator: "; ")
        }
        let required = Set(reports.flatMap(\.move.newRequired))
        if !required.isEmpty {
            line +=
                "; new required field\(required.count == 1 ? "" : "s") to answer: "
                + required.sorted().map { oneLine($0.rawValue) }.joined(separator: ", ")
        }
        return line + "."
    }
}
