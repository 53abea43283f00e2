import Foundation
import SQLite
@_spi(StoreRestoring) import Models

/// Reading reports and revisions back from rows; anything unreadable is
/// reported as a damaged store rather than guessed.
enum ReportRows {
    /// The `reports` columns, in the order `report(from:)` reads them.
    static let columns = """
        local_id, server_id, assignment_id, template_id, facility_id, area_id, state, answers, schema_version,
        base_revision, accepted_revision, updated_at_device, completed_at_device, attempt_count,
        last_error_code, last_error_message, conflict_server_revision, conflict_server_payload, score,
        parent_local_id, parent_server_id, follow_up_required, creation_seq,
        review_state, review_revision, review_decided_by_id, review_decided_by_name, review_decided_at,
        review_comment, review_field_comments, conflict_fields, merged_fields, template_version, template_move, template_version_kept
        """

    /// Report ids as one JSON array of their stored text, bound to `json_each(?)`.
    static func idList(_ ids: [UUID]) -> SQLValue {
        .text("[" + ids.map { "\"\(SQLValue($0).stringValue ?? "")\"" }.joined(separator: ",") + "]")
    }

    /// The report in `row`. Without `readingAnswers` its answers are left
    /// empty, unparsed: for writers that keep the stored text as it is.
    static func report(from row: Row, readingAnswers: Bool = true) throws(StorageError) -> Report {
        let id = row["local_id"].stringValue ?? "?"
        func damaged(_ column: String) -> StorageError {
            StorageError(
                .corruptStore,
                "The report '\(id)' in the store cannot be read (column \(column)); the store is damaged.",
                context: "reports.\(column)")
        }
        guard let localID = row["local_id"].uuidValue else { throw damaged("local_id") }
        guard let state = ReportState(rawValue: row["state"].stringValue ?? "") else { throw damaged("state") }
        guard let templateID = row["template_id"].stringValue, let facilityID = row["facility_id"].stringValue else {
            throw damaged("template_id")
        }
        let answers: Answers
        if readingAnswers {
            guard let read = try? Self.answers(row["answers"]) else { throw damaged("answers") }
            answers = read
        } else {
            guard row["answers"].stringValue != nil else { throw damaged("answers") }
            answers = Answers()
        }
        var lastError: ReportError?
        if let code = row["last_error_code"].stringValue {
            lastError = ReportError(code: code, message: row["last_error_message"].stringValue ?? "")
        }
        var conflict: ServerRevision?
        if let revision = row["conflict_server_revision"].int64Value {
            guard let text = row["conflict_server_payload"].stringValue, let payload = try? JSONValue.parse(text) else {
                throw damaged("conflict_server_payload")
            }
            conflict = ServerRevision(revision: Int(revision), payload: payload, fields: names(row["conflict_fields"]))
        }
        let lifecycle = ReportLifecycle(
            restoring: state, serverID: row["server_id"].stringValue,
            baseRevision: row["base_revision"].int64Value.map(Int.init),
            acceptedRevision: row["accepted_revision"].int64Value.map(Int.init),
            attemptCount: Int(row["attempt_count"].int64Value ?? 0), lastError: lastError, conflict: conflict,
            review: try review(from: row, damaged: damaged))
        var move: TemplateMove?
        if let text = row["template_move"].stringValue {
            guard let json = try? JSONValue.parse(text), let read = TemplateMove(json: json) else {
                throw damaged("template_move")
            }
            move = read
        }
        var report = Report(
            restoring: localID, lifecycle: lifecycle, assignmentID: row["assignment_id"].stringValue,
            templateID: templateID, facilityID: facilityID, areaID: row["area_id"].stringValue, answers: answers,
            schemaVersion: Int(row["schema_version"].int64Value ?? Int64(Report.currentSchemaVersion)),
            updatedAtDevice: date(row["updated_at_device"]) ?? Date(timeIntervalSince1970: 0),
            completedAtDevice: date(row["completed_at_device"]), score: row["score"].doubleValue,
            parentLocalID: row["parent_local_id"].uuidValue,
            parentServerID: row["parent_server_id"].stringValue,
            followUpRequired: (row["follow_up_required"].int64Value ?? 0) != 0,
            creationSequence: row["creation_seq"].int64Value ?? 0)
        report.mergedFields = names(row["merged_fields"]) ?? []
        report.templateVersion = row["template_version"].int64Value.map(Int.init)
        report.templateMove = move
        report.keepsTemplateVersion = (row["template_version_kept"].int64Value ?? 0) != 0
        return report
    }

    /// A stored list of field names (JSON), nil when none is stored or it cannot be read.
    static func names(_ value: SQLValue) -> [String]? {
        if value.stringValue == "[]" { return [] }
        guard let text = value.stringValue, let parsed = try? JSONValue.parse(text), let items = parsed.arrayValue
        else { return nil }
        return items.compactMap(\.stringValue)
    }

    /// The stored review of a report's row, or nil when none arrived.
    static func review(from row: Row, damaged: (String) -> StorageError) throws(StorageError) -> ReportReview? {
        guard let text = row["review_state"].stringValue else { return nil }
        guard let state = ReviewState(rawValue: text) else { throw damaged("review_state") }
        guard let revision = row["review_revision"].int64Value else { throw damaged("review_revision") }
        var decidedBy: WirePerson?
        if let id = row["review_decided_by_id"].stringValue {
            decidedBy = WirePerson(id: id, displayName: row["review_decided_by_name"].stringValue ?? "")
        }
        var comments: [FieldComment] = []
        // Most reviews have no field comments: "[]" needs no parser.
        if let stored = row["review_field_comments"].stringValue, stored != "[]" {
            guard case .array(let items)? = try? JSONValue.parse(stored) else { throw damaged("review_field_comments") }
            for item in items {
                guard let field = item["field_id"]?.stringValue, let comment = item["comment"]?.stringValue else {
                    throw damaged("review_field_comments")
                }
                comments.append(FieldComment(fieldID: field, comment: comment))
            }
        }
        return ReportReview(
            state: state, revision: Int(revision), decidedBy: decidedBy,
            decidedAt: row["review_decided_at"].stringValue, comment: row["review_comment"].stringValue,
            fieldComments: comments)
    }

    /// The review's columns, in the order of `columns` (`review_state` ... `review_field_comments`).
    static func reviewValues(_ review: ReportReview?) -> [SQLValue] {
        guard let review else { return Array(repeating: .null, count: 7) }
        let comments =
            review.fieldComments.isEmpty
            ? "[]"
            : JSONValue.array(
                review.fieldComments.map { ["field_id": .string($0.fieldID), "comment": .string($0.comment)] }
            ).canonicalString()
        return [
            .text(review.state.rawValue), .integer(Int64(review.revision)), SQLValue(review.decidedBy?.id),
            SQLValue(review.decidedBy?.displayName), SQLValue(review.decidedAt), SQLValue(review.comment),
            .text(comments),
        ]
    }

    static func revision(from row: Row) throws(StorageError) -> ReportRevision {
        let id = row["report_local_id"].stringValue ?? "?"
        let damaged = StorageError(
            .corruptStore, "A saved revision of report '\(id)' cannot be read; the store is damaged.",
            context: "report_revisions")
        guard let localID = UUID(uuidString: id),
            let sequence = row["seq"].int64Value,
            let state = ReportState(rawValue: row["state"].stringValue ?? ""),
            let reason = RevisionReason(rawValue: row["reason"].stringValue ?? ""),
            let answers = try? answers(row["answers"])
        else { throw damaged }
        var setAside: [SetAsideAnswer] = []
        if let text = row["set_aside"].stringValue {
            guard case .array(let items)? = try? JSONValue.parse(text) else { throw damaged }
            setAside = items.compactMap(SetAsideAnswer.init(json:))
            guard setAside.count == items.count else { throw damaged }
        }
        return ReportRevision(
            reportLocalID: localID, sequence: sequence, answers: answers, state: state,
            serverRevision: row["server_revision"].int64Value.map(Int.init),
            savedAtDevice: date(row["saved_at_device"]) ?? Date(timeIntervalSince1970: 0),
            reason: reason, templateVersion: row["template_version"].int64Value.map(Int.init),
            setAside: setAside)
    }

    /// Answers as stored: the canonical JSON of the `answers` object.
    static func answers(_ value: SQLValue) throws -> Answers {
        guard let text = value.stringValue, let answers = Answers(json: try JSONValue.parse(text)) else {
            throw StorageError(.corruptStore, "answers are not a JSON object")
        }
        return answers
    }

    static func date(_ value: SQLValue) -> Date? {
        value.doubleValue.map { Date(timeIntervalSince1970: $0) }
    }
}
