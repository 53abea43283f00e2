import Foundation
import SQLite
import Models

/// Driving a report through its lifecycle: the transition is decided by
/// `ReportLifecycle.apply`, and every effect it returns is carried out here
/// in the same transaction as the new state.
extension LocalStore {
    /// Applies a lifecycle event to a stored report and performs its effects
    /// (revision, queueing, adopting or restoring answers, deletion), all in
    /// one transaction; a refused event changes nothing (`.notAllowed`).
    ///
    /// `answers`, when given, replace the report's answers first; only events
    /// that save a revision accept them (an edit, completing, keeping mine
    /// merged per field). `score`, when given, scores the answers the event
    /// leaves (the server's, when it adopts them) and the score is stored in
    /// the same transaction, so no other process ever sees, or uploads, the
    /// new answers with the old score. `followUpRequired`, when given, is
    /// stored in the same transaction too (completing sets it), and so is
    /// clearing the follow-up request of `clearingFollowUpOf` (completing a
    /// re-inspection answers its parent's). For an event that removes the
    /// report, the value returned is the report as it was last stored.
    /// `derive`, when given, makes the answers the event leaves (the
    /// server's, when it adopts them) into the ones stored, before they are
    /// scored: the workspace withdraws signatures that no longer hold there.
    /// `templateVersion`, when given, is the template version the caller
    /// worked out `answers`, `score` and `derive` on: a report moved onto
    /// another version meanwhile is refused, nothing changed. `basedOn`, when
    /// given, is the answers the caller read and worked `answers` out from:
    /// a report whose stored answers are other ones now (another process
    /// saved one in between) is refused the same way, so that what it saved
    /// is never overwritten; the caller reads the report again and retries.
    @discardableResult
    public func apply(
        _ event: ReportEvent, to localID: UUID, answers: Answers? = nil,
        score: ((Answers) -> Double?)? = nil, followUpRequired: Bool? = nil,
        clearingFollowUpOf parent: UUID? = nil,
        derive: ((Answers) -> Answers)? = nil, templateVersion: Int? = nil,
        basedOn read: Answers? = nil
    ) throws(StorageError) -> Report {
        let edit: ((inout Report) -> Void)? =
            answers == nil && followUpRequired == nil
            ? nil
            : { report in
                if let answers { report.answers = answers }
                if let followUpRequired { report.followUpRequired = followUpRequired }
            }
        let change = LifecycleChange(
            edit: edit, score: score, derive: derive, templateVersion: templateVersion, basedOn: read)
        return try perform(event, on: localID, change) { db throws(StorageError) in
            if let parent {
                try db.run("UPDATE reports SET follow_up_required = 0 WHERE local_id = ?", [SQLValue(parent)])
            }
        }
    }

    /// Applies `event`, then the change's `edit` (only allowed when the event
    /// saves a revision), then the effects, then its `score` on the resulting
    /// answers; photo files of a removed report are deleted after the commit.
    /// `alongside` runs last, in the same transaction.
    func perform(
        _ event: ReportEvent, on localID: UUID, _ change: LifecycleChange = LifecycleChange(),
        alongside: (StoreDatabase) throws(StorageError) -> Void = { _ in }
    ) throws(StorageError) -> Report {
        var filesToRemove: [String] = []
        let result = try write { db throws(StorageError) -> Report in
            let (report, files) = try Self.perform(event, on: localID, change, reload: true, db)
            filesToRemove = files
            try alongside(db)
            return report
        }
        // After the commit: the rows are gone for good, so the files may go.
        // A file that cannot be deleted stays behind as an orphan; nothing is lost.
        for name in filesToRemove {
            try? photoFiles?.remove(name)
        }
        return result
    }

    /// Applies several lifecycle events in ONE transaction, in order: the
    /// sync engine records a whole batch's results at once, so a crash never
    /// leaves half a batch recorded. `retryAt`, when it names a report, also
    /// sets when its next upload attempt is due. Any refused event rolls the
    /// whole batch back. Returns each report's lifecycle as written after its
    /// event. Answers are neither parsed nor read back (a batch can be large
    /// and its events rarely touch them): the stored text is kept unless an
    /// effect replaces it.
    @discardableResult
    public func apply(
        _ events: [(localID: UUID, event: ReportEvent)],
        retryAt: [UUID: Date] = [:]
    ) throws(StorageError) -> [ReportLifecycle] {
        var filesToRemove: [String] = []
        let result = try write { db throws(StorageError) -> [ReportLifecycle] in
            // Every report's row in one query; a report named again is read again, after its first event.
            var rows = try Self.reportRows(events.map(\.localID), db)
            var lifecycles: [ReportLifecycle] = []
            for (localID, event) in events {
                var held: (row: Row, report: Report)?
                if let row = rows.removeValue(forKey: localID) {
                    held = (row, try ReportRows.report(from: row, readingAnswers: false))
                }
                let (report, files) = try Self.perform(event, on: localID, reload: false, held: held, db)
                filesToRemove += files
                if let date = retryAt[localID] {
                    try db.run(
                        "UPDATE reports SET next_attempt_at = ? WHERE local_id = ?",
                        [SQLValue(date), SQLValue(localID)])
                }
                lifecycles.append(report.lifecycle)
            }
            return lifecycles
        }
        for name in filesToRemove {
            try? photoFiles?.remove(name)
        }
        return result
    }

    /// The `reports` rows of `ids` by local id, read in one query (the ids
    /// bound as one JSON array: one statement text for any number of them).
    static func reportRows(_ ids: [UUID], _ db: StoreDatabase) throws(StorageError) -> [UUID: Row] {
        guard !ids.isEmpty else { return [:] }
        var rows: [UUID: Row] = [:]
        for row in try db.rows(
            "SELECT \(ReportRows.columns) FROM reports WHERE local_id IN (SELECT value FROM json_each(?))",
            [ReportRows.idList(ids)])
        {
            // A row whose id cannot be read is left out: the report is read again on its own, and refused as damaged.
            if let id = row["local_id"].uuidValue { rows[id] = row }
        }
        return rows
    }

    /// The transition and its effects, inside the caller's transaction; returns
    /// the stored report and the photo files to delete after the commit.
    /// Without `reload` or the change's `edit` or `basedOn`, the answers are
    /// not parsed: the returned report's answers are then empty unless an
    /// effect replaced them, and the stored text is written back as it was
    /// (and `score` is not asked).
    /// `held` is the report's row and the report read from it without its
    /// answers, when the caller read them in this transaction already.
    static func perform(
        _ event: ReportEvent, on localID: UUID, _ change: LifecycleChange = LifecycleChange(), reload: Bool,
        held: (row: Row, report: Report)? = nil, _ db: StoreDatabase
    ) throws(StorageError) -> (Report, [String]) {
        var filesToRemove: [String] = []
        let readingAnswers = reload || change.edit != nil || change.basedOn != nil
        let row: Row
        var report: Report
        if let held, !readingAnswers {
            (row, report) = held
        } else {
            guard
                let fetched = try db.firstRow(
                    "SELECT \(ReportRows.columns) FROM reports WHERE local_id = ?", [SQLValue(localID)])
            else {
                throw StorageError(
                    .notFound, "No report with local id '\(localID.uuidString)' on this device; 'jqc list' shows them.",
                    context: localID.uuidString)
            }
            row = fetched
            report = try ReportRows.report(from: row, readingAnswers: readingAnswers)
        }
        if let templateVersion = change.templateVersion, let now = report.templateVersion, now != templateVersion {
            throw StorageError(
                .notAllowed,
                "Report \(localID.uuidString.prefix(8).lowercased()) moved onto version \(now) of its template meanwhile; nothing was changed. Look at it again ('jqc show') and do it again.",
                context: "\(event.name) \(localID.uuidString)")
        }
        if let read = change.basedOn, read != report.answers {
            throw StorageError(
                .notAllowed,
                "Report \(localID.uuidString.prefix(8).lowercased()) was changed by another program meanwhile; nothing was changed. Look at it again ('jqc show') and do it again.",
                context: "\(event.name) \(localID.uuidString)")
        }
        var answersReplaced = false
        let effects: [ReportEffect]
        do throws(ModelsError) {
            effects = try report.apply(event)
        } catch {
            throw StorageError(.notAllowed, error.message, context: "\(event.name) \(localID.uuidString)")
        }
        report.updatedAtDevice = Date()
        if let edit = change.edit {
            guard effects.contains(.recordRevision) else {
                throw StorageError(
                    .notAllowed, "Answers cannot be changed when you \(event.name) a report; nothing was changed.",
                    context: "\(event.name) \(localID.uuidString)")
            }
            edit(&report)
        }
        if case .complete = event {
            report.completedAtDevice = report.updatedAtDevice
            // The note of a move onto a newer template version is kept until the report is completed.
            report.templateMove = nil
        }

        var revisionReason: RevisionReason?
        for effect in effects {
            switch effect {
            case .recordRevision:
                // Saved once every effect has run: adopting the server's
                // answers comes first, and the revision holds the result.
                revisionReason = Self.reason(for: event)
            case .enqueueUpload:
                // The queue is the PENDING reports in creation order; a
                // re-queued report is due at once.
                try db.run("UPDATE reports SET next_attempt_at = NULL WHERE local_id = ?", [SQLValue(localID)])
            case .adoptServerAnswers(let payload):
                try Self.adopt(payload, into: &report)
                answersReplaced = true
            case .adoptServerIssues(let issues):
                try Self.adopt(issues, into: localID, db)
            case .restoreSyncedAnswers:
                let synced = try Self.syncedAnswers(of: localID, db)
                report.answers = synced.answers
                // The synced answers were given to their own version of the template.
                if let version = synced.templateVersion { report.templateVersion = version }
                report.templateMove = nil
                answersReplaced = true
                revisionReason = .restoreSynced
            case .deleteWithChildren:
                filesToRemove = try Self.deleteReport(localID, db)
                return (report, filesToRemove)
            case .removeLocalCopy:
                let outstanding = try Self.outstandingPhotoCount(localID, db)
                guard outstanding == 0 else {
                    throw StorageError(
                        .notAllowed,
                        "This report still has \(outstanding) photo\(outstanding == 1 ? "" : "s") not uploaded; it is kept until every photo is uploaded.",
                        context: "\(event.name) \(localID.uuidString)")
                }
                filesToRemove = try Self.deleteReport(localID, db)
                return (report, filesToRemove)
            }
        }
        if let derive = change.derive, readingAnswers || answersReplaced {
            report.answers = derive(report.answers)
        }
        if let score = change.score, readingAnswers || answersReplaced {
            report.score = score(report.answers)
        }
        // Stored answers are already canonical JSON: unparsed, they are kept as they are.
        let answersText =
            readingAnswers || answersReplaced
            ? report.answers.json.canonicalString() : (row["answers"].stringValue ?? "{}")
        try Self.updateReport(report, answersText: answersText, previous: row, db)
        if let revisionReason {
            try Self.insertRevision(of: report, answersText: answersText, reason: revisionReason, db)
        }
        switch event {
        case .accepted(_, let revision, _, _), .merged(_, let revision, _, _, _, _):
            // The uploaded (or merged) answers are the newest revision (a PENDING
            // report cannot be edited); mark them as the server's revision.
            try db.run(
                """
                UPDATE report_revisions SET server_revision = ?
                WHERE report_local_id = ? AND seq = (SELECT max(seq) FROM report_revisions WHERE report_local_id = ?)
                """, [.integer(Int64(revision)), SQLValue(localID), SQLValue(localID)])
            // What came from the server's side, shown until another revision is accepted.
            var fields: String? = nil
            if case .merged(_, _, _, _, _, let merged) = event {
                fields = JSONValue.array(merged.map(JSONValue.string)).canonicalString()
            }
            if fields != nil || !row["merged_fields"].isNull {
                try db.run(
                    "UPDATE reports SET merged_fields = ? WHERE local_id = ?",
                    [fields.map(SQLValue.text) ?? .null, SQLValue(localID)])
            }
        default:
            break
        }
        return (reload ? try Self.requireReport(localID, db) : report, filesToRemove)
    }

    private static func reason(for event: ReportEvent) -> RevisionReason {
        switch event {
        case .complete: return .complete
        case .keepMine: return .keepMine
        case .takeServer: return .takeServer
        case .merged: return .merged
        case .discard: return .restoreSynced
        default: return .autosave
        }
    }

    /// Takes a merged revision's issues: each the device lacks is added, each it
    /// holds takes the merged severity and description. An issue only the
    /// device held stays (a merge never drops what the device recorded).
    private static func adopt(_ issues: [WireIssue], into localID: UUID, _ db: StoreDatabase) throws(StorageError) {
        for issue in issues {
            let known =
                try db.firstRow(
                    "SELECT local_id FROM issues WHERE local_id = ? AND report_local_id = ?",
                    [SQLValue(issue.localID), SQLValue(localID)]) != nil
            if known {
                try db.run(
                    "UPDATE issues SET severity = ?, description = ? WHERE local_id = ?",
                    [.text(issue.severity.rawValue), .text(issue.description), SQLValue(issue.localID)])
            } else {
                try db.run(
                    """
                    INSERT INTO issues (local_id, report_local_id, severity, description, creation_seq) VALUES (?, ?, ?, ?, ?)
                    """,
                    [
                        SQLValue(issue.localID), SQLValue(localID), .text(issue.severity.rawValue),
                        .text(issue.description),
                        .integer(try nextSequence("issue", db)),
                    ])
            }
        }
    }

    /// Takes the server's payload (`{"answers": {...}, "score"?, "follow_up_required"?}`).
    private static func adopt(_ payload: JSONValue, into report: inout Report) throws(StorageError) {
        guard let object = payload["answers"], let answers = Answers(json: object) else {
            throw StorageError(
                .notAllowed,
                "The server's revision has no 'answers' object, so it cannot be taken; keep yours or sync again. Nothing was changed.",
                context: payload.canonicalString())
        }
        report.answers = answers
        if let score = payload["score"] {
            report.score = score.numberValue
        }
        if let followUp = payload["follow_up_required"]?.boolValue {
            report.followUpRequired = followUp
        }
    }

    /// The answers of the newest revision the server holds (saved while
    /// SYNCED, or accepted by the server).
    private static func syncedAnswers(of localID: UUID, _ db: StoreDatabase) throws(StorageError) -> (
        answers: Answers, templateVersion: Int?
    ) {
        guard
            let row = try db.firstRow(
                """
                SELECT answers, template_version FROM report_revisions
                WHERE report_local_id = ? AND server_revision IS NOT NULL ORDER BY seq DESC LIMIT 1
                """, [SQLValue(localID)])
        else {
            throw StorageError(
                .notAllowed,
                "The synced answers of this report are not on this device, so the amendment cannot be discarded; nothing was changed.",
                context: localID.uuidString)
        }
        do {
            return (try ReportRows.answers(row["answers"]), row["template_version"].int64Value.map(Int.init))
        } catch {
            throw StorageError(
                .corruptStore,
                "A saved revision of report '\(localID.uuidString)' cannot be read; the store is damaged.",
                context: "report_revisions")
        }
    }

    /// Deletes a report with its revisions, issues and photo rows; returns the photo file names.
    private static func deleteReport(_ localID: UUID, _ db: StoreDatabase) throws(StorageError) -> [String] {
        let id = SQLValue(localID)
        let files = try db.rows("SELECT file_name FROM photos WHERE report_local_id = ?", [id]).compactMap {
            $0["file_name"].stringValue
        }
        try db.run("DELETE FROM photos WHERE report_local_id = ?", [id])
        try db.run("DELETE FROM issues WHERE report_local_id = ?", [id])
        try db.run("DELETE FROM report_revisions WHERE report_local_id = ?", [id])
        try db.run("DELETE FROM reports WHERE local_id = ?", [id])
        return files
    }
}
