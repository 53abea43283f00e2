import Foundation
import SQLite
import Models

/// Reports: creating, reading, autosaving answers, and the fields the app
/// sets beside the lifecycle (score, resume point, follow-up, retry time).
extension LocalStore {
    /// Starts a report as a DRAFT: allocates its creation sequence and saves
    /// its first revision, in one transaction.
    @discardableResult
    public func createReport(
        localID: UUID = UUID(), templateID: String, templateVersion: Int? = nil, facilityID: String,
        areaID: String? = nil,
        assignmentID: String? = nil, parentLocalID: UUID? = nil, parentServerID: String? = nil,
        followUpRequired: Bool = false, answers: Answers = Answers()
    ) throws(StorageError) -> Report {
        try write { db throws(StorageError) -> Report in
            if try Self.loadReport(localID, db) != nil {
                throw StorageError(
                    .notAllowed, "A report with local id '\(localID.uuidString)' already exists on this device.",
                    context: "createReport")
            }
            let sequence = try Self.nextSequence("report", db)
            try db.run(
                """
                INSERT INTO reports (local_id, assignment_id, template_id, facility_id, area_id, state, answers,
                    schema_version, updated_at_device, parent_local_id, parent_server_id, follow_up_required, creation_seq,
                    template_version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    SQLValue(localID), SQLValue(assignmentID), .text(templateID), .text(facilityID), SQLValue(areaID),
                    .text(ReportState.draft.rawValue), .text(answers.json.canonicalString()),
                    .integer(Int64(Report.currentSchemaVersion)), SQLValue(Date()), SQLValue(parentLocalID),
                    SQLValue(parentServerID), SQLValue(followUpRequired), .integer(sequence), SQLValue(templateVersion),
                ])
            let report = try Self.requireReport(localID, db)
            try Self.insertRevision(of: report, answersText: answers.json.canonicalString(), reason: .created, db)
            return report
        }
    }

    /// The report with this local id, or nil.
    public func report(_ localID: UUID) throws(StorageError) -> Report? {
        try read { db throws(StorageError) in try Self.loadReport(localID, db) }
    }

    /// Reports on this device, newest first (by creation order, never the
    /// clock); only those in `state` when given.
    public func reports(state: ReportState? = nil) throws(StorageError) -> [Report] {
        try read { db throws(StorageError) -> [Report] in
            let rows =
                if let state {
                    try db.rows(
                        "SELECT \(ReportRows.columns) FROM reports WHERE state = ? ORDER BY creation_seq DESC",
                        [.text(state.rawValue)])
                } else {
                    try db.rows("SELECT \(ReportRows.columns) FROM reports ORDER BY creation_seq DESC")
                }
            return try rows.map { (row: Row) throws(StorageError) -> Report in try ReportRows.report(from: row) }
        }
    }

    /// PENDING reports in upload order: the order they were created on this
    /// device (BR-04), whatever the device clock says (BR-07).
    public func pendingReports(limit: Int = Int(Int32.max)) throws(StorageError) -> [Report] {
        try read { db throws(StorageError) -> [Report] in
            try db.rows(
                "SELECT \(ReportRows.columns) FROM reports WHERE state = ? ORDER BY creation_seq ASC LIMIT ?",
                [.text(ReportState.pending.rawValue), .integer(Int64(max(0, limit)))]
            )
            .map { (row: Row) throws(StorageError) -> Report in try ReportRows.report(from: row) }
        }
    }

    /// The PENDING reports in upload order (BR-04), as the sync queue needs
    /// them: one query, answers never read.
    public func pendingQueue() throws(StorageError) -> [QueuedReport] {
        try read { db throws(StorageError) -> [QueuedReport] in
            try db.rows(
                """
                SELECT r.local_id, r.server_id, r.accepted_revision, r.attempt_count, r.next_attempt_at, r.parent_local_id,
                    (SELECT count(*) FROM photos p WHERE p.report_local_id = r.local_id AND p.upload_state <> ?) AS outstanding
                FROM reports r WHERE r.state = ? ORDER BY r.creation_seq ASC
                """, [.text(PhotoUploadState.uploaded.rawValue), .text(ReportState.pending.rawValue)]
            )
            .map { (row: Row) throws(StorageError) -> QueuedReport in
                guard let localID = row["local_id"].uuidValue else {
                    throw StorageError(
                        .corruptStore,
                        "A pending report in the store cannot be read (column local_id); the store is damaged.",
                        context: "reports.local_id")
                }
                return QueuedReport(
                    localID: localID, serverID: row["server_id"].stringValue,
                    acceptedRevision: row["accepted_revision"].int64Value.map(Int.init),
                    attemptCount: Int(row["attempt_count"].int64Value ?? 0),
                    nextAttemptAt: ReportRows.date(row["next_attempt_at"]),
                    parentLocalID: row["parent_local_id"].uuidValue,
                    outstandingPhotos: Int(row["outstanding"].int64Value ?? 0))
            }
        }
    }

    /// Saves one answer (nil or JSON null clears it) as an autosave: the
    /// lifecycle must allow editing, and the new answers are kept as a
    /// revision, with their score when `score` is given, all in one transaction.
    /// `derive`, when given, turns the answers read in the transaction into
    /// the answers to store (calculated answers recomputed), so what another
    /// process saved in between is never overwritten with a stale value.
    /// `templateVersion`, when given, is the template version the answer was
    /// read for: a report moved onto another version meanwhile is refused.
    @discardableResult
    public func saveAnswer(
        _ localID: UUID, field: FieldID, value: JSONValue?,
        derive: ((Answers) -> Answers)? = nil,
        score: ((Answers) -> Double?)? = nil, templateVersion: Int? = nil
    ) throws(StorageError) -> Report {
        try perform(
            .autosave, on: localID,
            LifecycleChange(
                edit: { report in
                    report.answers[field] = (value?.isNull ?? true) ? nil : value
                    if let derive { report.answers = derive(report.answers) }
                }, score: score, templateVersion: templateVersion))
    }

    /// Every saved revision of a report's answers, oldest first.
    public func revisions(of localID: UUID) throws(StorageError) -> [ReportRevision] {
        try read { db throws(StorageError) -> [ReportRevision] in
            try db.rows(
                """
                SELECT report_local_id, seq, answers, state, server_revision, saved_at_device, reason, template_version, set_aside
                FROM report_revisions WHERE report_local_id = ? ORDER BY seq
                """, [SQLValue(localID)]
            )
            .map { (row: Row) throws(StorageError) -> ReportRevision in try ReportRows.revision(from: row) }
        }
    }

    /// Marks whether the inspector asked for a re-inspection.
    @discardableResult
    public func setFollowUpRequired(_ localID: UUID, _ required: Bool) throws(StorageError) -> Report {
        try updateColumn(localID, "UPDATE reports SET follow_up_required = ? WHERE local_id = ?", SQLValue(required))
    }

    /// Remembers the field where the interactive runner stopped (nil: start over).
    public func setResumeField(_ localID: UUID, _ field: FieldID?) throws(StorageError) {
        try updateColumn(
            localID, "UPDATE reports SET resume_field_id = ? WHERE local_id = ?", SQLValue(field?.rawValue))
    }

    /// The field where the interactive runner stopped, if any.
    public func resumeField(of localID: UUID) throws(StorageError) -> FieldID? {
        try read { db throws(StorageError) -> FieldID? in
            _ = try Self.requireReport(localID, db)
            return try db.scalar("SELECT resume_field_id FROM reports WHERE local_id = ?", [SQLValue(localID)])
                .stringValue.map { FieldID($0) }
        }
    }

    /// Sets when the next upload attempt is due, after a failure (nil: as soon as possible).
    public func setNextAttempt(_ localID: UUID, at date: Date?) throws(StorageError) {
        try updateColumn(localID, "UPDATE reports SET next_attempt_at = ? WHERE local_id = ?", SQLValue(date))
    }

    /// When the next upload attempt is due, or nil for as soon as possible.
    public func nextAttempt(of localID: UUID) throws(StorageError) -> Date? {
        try read { db throws(StorageError) -> Date? in
            guard
                let row = try db.firstRow("SELECT next_attempt_at FROM reports WHERE local_id = ?", [SQLValue(localID)])
            else {
                throw StorageError(
                    .notFound, "No report with local id '\(localID.uuidString)' on this device; 'jqc list' shows them.",
                    context: localID.uuidString)
            }
            return ReportRows.date(row["next_attempt_at"])
        }
    }

    /// How many reports are in each state, counted by the store without loading them.
    public func reportCounts() throws(StorageError) -> [ReportState: Int] {
        try read { db throws(StorageError) -> [ReportState: Int] in
            var counts: [ReportState: Int] = [:]
            for row in try db.rows("SELECT state, count(*) AS n FROM reports GROUP BY state") {
                if let state = row["state"].stringValue.flatMap(ReportState.init(rawValue:)) {
                    counts[state] = Int(row["n"].int64Value ?? 0)
                }
            }
            return counts
        }
    }

    /// Every SYNCED report's id and the device time it last changed (when it
    /// became SYNCED, or when its review's decision arrived), without loading
    /// answers: retention looks at thousands. Reports a review holds (returned
    /// for changes, or awaiting a decision) are left out: they stay.
    public func syncedReportTimes() throws(StorageError) -> [(localID: UUID, syncedAt: Date)] {
        try read { db throws(StorageError) -> [(localID: UUID, syncedAt: Date)] in
            try db.rows(
                """
                SELECT local_id, updated_at_device FROM reports WHERE state = 'SYNCED'
                    AND (review_state IS NULL OR review_state NOT IN ('returned', 'awaiting_review'))
                ORDER BY creation_seq
                """
            ).compactMap { row in
                guard let text = row["local_id"].stringValue, let id = UUID(uuidString: text),
                    let date = ReportRows.date(row["updated_at_device"])
                else { return nil }
                return (localID: id, syncedAt: date)
            }
        }
    }

    /// How many PENDING reports have failed at least `attempts` times in a row.
    public func pendingCount(failedAtLeast attempts: Int) throws(StorageError) -> Int {
        try read { db throws(StorageError) -> Int in
            Int(
                try db.scalar(
                    "SELECT count(*) FROM reports WHERE state = 'PENDING' AND attempt_count >= ?",
                    [.integer(Int64(attempts))]
                ).int64Value ?? 0)
        }
    }

    @discardableResult
    private func updateColumn(_ localID: UUID, _ sql: String, _ value: SQLValue) throws(StorageError) -> Report {
        try write { db throws(StorageError) -> Report in
            _ = try Self.requireReport(localID, db)
            try db.run(sql, [value, SQLValue(localID)])
            return try Self.requireReport(localID, db)
        }
    }

    // MARK: - Inside a transaction

    static func loadReport(_ localID: UUID, _ db: StoreDatabase) throws(StorageError) -> Report? {
        guard
            let row = try db.firstRow(
                "SELECT \(ReportRows.columns) FROM reports WHERE local_id = ?", [SQLValue(localID)])
        else {
            return nil
        }
        return try ReportRows.report(from: row)
    }

    static func requireReport(_ localID: UUID, _ db: StoreDatabase) throws(StorageError) -> Report {
        guard let report = try loadReport(localID, db) else {
            throw StorageError(
                .notFound, "No report with local id '\(localID.uuidString)' on this device; 'jqc list' shows them.",
                context: localID.uuidString)
        }
        return report
    }

    /// Writes every mutable column of a report, its whole lifecycle included.
    /// Writes the report's row. With `previous`, the row as read in this
    /// transaction, only the columns whose value changed are written: a
    /// lifecycle step usually moves a few columns, and leaves the answers and
    /// the constrained columns it did not touch as they are.
    static func updateReport(_ report: Report, answersText: String, previous: Row? = nil, _ db: StoreDatabase)
        throws(StorageError)
    {
        let lifecycle = report.lifecycle
        let values: [SQLValue] =
            [
                SQLValue(lifecycle.serverID), SQLValue(report.assignmentID), SQLValue(report.areaID),
                .text(lifecycle.state.rawValue), .text(answersText),
                .integer(Int64(report.schemaVersion)), SQLValue(lifecycle.baseRevision),
                SQLValue(lifecycle.acceptedRevision), SQLValue(report.updatedAtDevice),
                SQLValue(report.completedAtDevice), .integer(Int64(lifecycle.attemptCount)),
                SQLValue(lifecycle.lastError?.code), SQLValue(lifecycle.lastError?.message),
                SQLValue(lifecycle.conflict?.revision), SQLValue(lifecycle.conflict?.payload.canonicalString()),
                SQLValue(report.score), SQLValue(report.parentServerID), SQLValue(report.followUpRequired),
            ]
            + ReportRows.reviewValues(lifecycle.review)
            + [
                SQLValue(
                    lifecycle.conflict?.fields.map { JSONValue.array($0.map(JSONValue.string)).canonicalString() }),
                SQLValue(report.templateVersion), SQLValue(report.templateMove?.json.canonicalString()),
                SQLValue(report.keepsTemplateVersion),
            ]
        var columns: [String] = []
        var changed: [SQLValue] = []
        for (column, value) in zip(updatedColumns, values) where previous.map({ $0[column] != value }) ?? true {
            columns.append(column)
            changed.append(value)
        }
        guard !columns.isEmpty else { return }
        try db.run(
            "UPDATE reports SET " + columns.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE local_id = ?",
            changed + [SQLValue(report.localID)])
    }

    /// The columns `updateReport` writes, in the order of its values.
    private static let updatedColumns = [
        "server_id", "assignment_id", "area_id", "state", "answers", "schema_version",
        "base_revision", "accepted_revision", "updated_at_device", "completed_at_device",
        "attempt_count", "last_error_code", "last_error_message", "conflict_server_revision",
        "conflict_server_payload", "score", "parent_server_id", "follow_up_required",
        "review_state", "review_revision", "review_decided_by_id", "review_decided_by_name",
        "review_decided_at", "review_comment", "review_field_comments", "conflict_fields",
        "template_version", "template_move", "template_version_kept",
    ]

    /// Keeps the report's current answers as its next revision. A SYNCED
    /// report's answers are the server's `base_revision`, and are marked so.
    static func insertRevision(
        of report: Report, answersText: String, reason: RevisionReason,
        setAside: [SetAsideAnswer] = [], _ db: StoreDatabase
    ) throws(StorageError) {
        let next =
            (try db.scalar(
                "SELECT max(seq) FROM report_revisions WHERE report_local_id = ?",
                [SQLValue(report.localID)]
            ).int64Value ?? 0) + 1
        let serverRevision = report.state == .synced ? report.lifecycle.baseRevision : nil
        try db.run(
            """
            INSERT INTO report_revisions (report_local_id, seq, answers, state, server_revision, saved_at_device, reason,
                template_version, set_aside)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                SQLValue(report.localID), .integer(next), .text(answersText),
                .text(report.state.rawValue), SQLValue(serverRevision), SQLValue(Date()), .text(reason.rawValue),
                SQLValue(report.templateVersion),
                setAside.isEmpty ? .null : .text(JSONValue.array(setAside.map(\.json)).canonicalString()),
            ])
    }
}
