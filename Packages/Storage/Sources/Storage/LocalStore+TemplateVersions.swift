import Foundation
import SQLite
import Models

/// Template versions: every version the device has seen, and moving reports
/// onto the newest one.
extension LocalStore {
    /// A version of a template the device has seen, or nil.
    public func template(id: String, version: Int) throws(StorageError) -> Template? {
        try read { db throws(StorageError) -> Template? in try Self.templateVersion(id, version, db) }
    }

    /// The ids of templates with drafts on an older version than the newest
    /// one here (drafts kept on their version left out), by id.
    public func templatesWithDraftsBehind() throws(StorageError) -> [String] {
        try read { db throws(StorageError) -> [String] in
            try db.rows(
                """
                SELECT DISTINCT r.template_id AS id FROM reports r JOIN templates t ON t.id = r.template_id
                WHERE r.state = 'DRAFT' AND r.template_version_kept = 0
                    AND (r.template_version IS NULL OR r.template_version < t.version)
                ORDER BY r.template_id
                """
            ).compactMap { $0["id"].stringValue }
        }
    }

    /// Moves reports of a template onto its newest version here, ALL in ONE
    /// transaction: every DRAFT on an older version (those kept on their
    /// version left out), or only the report `only` (any editable one on an
    /// older version, kept or not). `plan` makes each report's new answers
    /// from the report as read in the transaction, the version it was on
    /// (nil when unknown here) and the newest. Each moved report gets a
    /// revision (`template-move`) holding the answers set aside, its note,
    /// and is no longer kept on its version. A kill leaves every report
    /// wholly on one version or the other. Returns the moved reports, in
    /// creation order.
    @discardableResult
    public func moveReports(
        ofTemplate templateID: String, only: UUID? = nil,
        plan: (Report, Template?, Template) -> PlannedMove
    ) throws(StorageError) -> [(report: Report, move: TemplateMove)] {
        try write { db throws(StorageError) -> [(report: Report, move: TemplateMove)] in
            guard
                let row = try db.firstRow(
                    "SELECT id, name, version, form_schema, pass_threshold FROM templates WHERE id = ?",
                    [.text(templateID)])
            else {
                return []
            }
            let newest = try Self.template(from: row)
            let rows: [Row]
            if let only {
                rows = try db.rows(
                    "SELECT \(ReportRows.columns) FROM reports WHERE local_id = ? AND template_id = ?",
                    [SQLValue(only), .text(templateID)])
            } else {
                rows = try db.rows(
                    """
                    SELECT \(ReportRows.columns) FROM reports
                    WHERE template_id = ? AND state = 'DRAFT' AND template_version_kept = 0
                        AND (template_version IS NULL OR template_version < ?)
                    ORDER BY creation_seq
                    """, [.text(templateID), .integer(Int64(newest.version))])
            }
            var moved: [(report: Report, move: TemplateMove)] = []
            for row in rows {
                var report = try ReportRows.report(from: row)
                if let version = report.templateVersion, version >= newest.version { continue }
                do throws(ModelsError) {
                    _ = try report.apply(.autosave)
                } catch {
                    throw StorageError(.notAllowed, error.message, context: "move \(report.localID.uuidString)")
                }
                var from: Template?
                if let version = report.templateVersion { from = try Self.templateVersion(templateID, version, db) }
                let planned = plan(report, from, newest)
                report.answers = planned.answers
                report.score = planned.score
                report.templateVersion = newest.version
                report.templateMove = planned.move
                report.keepsTemplateVersion = false
                report.updatedAtDevice = Date()
                let text = planned.answers.json.canonicalString()
                try Self.updateReport(report, answersText: text, db)
                try Self.insertRevision(
                    of: report, answersText: text, reason: .templateMove, setAside: planned.move.setAside, db)
                // The runner resumes at a field the new version still has, or from the start.
                if let field = try db.scalar(
                    "SELECT resume_field_id FROM reports WHERE local_id = ?", [SQLValue(report.localID)]
                ).stringValue,
                    newest.schema.field(FieldID(field)) == nil
                {
                    try db.run(
                        "UPDATE reports SET resume_field_id = NULL WHERE local_id = ?", [SQLValue(report.localID)])
                }
                moved.append((report: report, move: planned.move))
            }
            return moved
        }
    }

    /// Every answer a move onto a newer template version set aside from a
    /// report, oldest move first (only the revisions that hold some are read).
    public func setAsideAnswers(of localID: UUID) throws(StorageError) -> [SetAsideAnswer] {
        try read { db throws(StorageError) -> [SetAsideAnswer] in
            try db.rows(
                """
                SELECT report_local_id, seq, answers, state, server_revision, saved_at_device, reason, template_version, set_aside
                FROM report_revisions WHERE report_local_id = ? AND set_aside IS NOT NULL ORDER BY seq
                """, [SQLValue(localID)]
            )
            .map { (row: Row) throws(StorageError) -> ReportRevision in try ReportRows.revision(from: row) }
            .flatMap(\.setAside)
        }
    }

    /// Leaves a report on its template version when newer ones arrive
    /// (`keep` true), or lets it move again; returns the report as stored.
    @discardableResult
    public func keepTemplateVersion(_ localID: UUID, _ keep: Bool) throws(StorageError) -> Report {
        try write { db throws(StorageError) -> Report in
            _ = try Self.requireReport(localID, db)
            try db.run(
                "UPDATE reports SET template_version_kept = ? WHERE local_id = ?", [SQLValue(keep), SQLValue(localID)])
            return try Self.requireReport(localID, db)
        }
    }

    /// Puts a draft that a move took onto a newer template version, and that
    /// has not changed since, back on the version it was on, with the answers
    /// it had then (scored by `score` against that version), and keeps it
    /// there; in one transaction, with a `template-kept` revision. Nil when
    /// the report's last change is not a move (nothing to put back); refused
    /// when the version it came from is no longer on this device.
    public func putBackOnPreviousVersion(
        _ localID: UUID,
        score: (Answers, Template) -> Double?
    ) throws(StorageError) -> Report? {
        try write { db throws(StorageError) -> Report? in
            var report = try Self.requireReport(localID, db)
            let revisions = try db.rows(
                """
                SELECT report_local_id, seq, answers, state, server_revision, saved_at_device, reason, template_version, set_aside
                FROM report_revisions WHERE report_local_id = ? ORDER BY seq DESC LIMIT 2
                """, [SQLValue(localID)]
            ).map { (row: Row) throws(StorageError) -> ReportRevision in try ReportRows.revision(from: row) }
            guard let move = report.templateMove, revisions.count == 2, revisions[0].reason == .templateMove,
                revisions[0].templateVersion == report.templateVersion, let from = move.fromVersion
            else { return nil }
            guard let old = try Self.templateVersion(report.templateID, from, db) else {
                throw StorageError(
                    .notAllowed,
                    "Version \(from) of the template is no longer on this device, so the report cannot go back to it; nothing was changed.",
                    context: "keep \(localID.uuidString)")
            }
            do throws(ModelsError) {
                _ = try report.apply(.autosave)
            } catch {
                throw StorageError(.notAllowed, error.message, context: "keep \(localID.uuidString)")
            }
            report.answers = revisions[1].answers
            report.score = score(report.answers, old)
            report.templateVersion = from
            report.templateMove = nil
            report.keepsTemplateVersion = true
            report.updatedAtDevice = Date()
            let text = report.answers.json.canonicalString()
            try Self.updateReport(report, answersText: text, db)
            try Self.insertRevision(of: report, answersText: text, reason: .templateKept, db)
            return report
        }
    }

    static func templateVersion(_ id: String, _ version: Int, _ db: StoreDatabase) throws(StorageError) -> Template? {
        guard
            let row = try db.firstRow(
                """
                SELECT template_id AS id, name, version, form_schema, pass_threshold FROM template_versions WHERE template_id = ? AND version = ?
                """, [.text(id), .integer(Int64(version))])
        else { return nil }
        return try template(from: row)
    }
}
