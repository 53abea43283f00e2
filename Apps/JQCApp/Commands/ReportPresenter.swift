import Foundation
import FieldTypes
import FormLogic
import JQCCore
import Models
import Scoring

/// Turns a report into what `show`, `list` and the exports print.
///
/// Names, labels, ids, comments and issue texts came from templates, the
/// server and people: each is shown through `OneLine` (`flatLine`, ids
/// `oneLine`) where it is put into a line, so the answers' own colours stay.
struct ReportPresenter {
    let workspace: Workspace
    let style: TerminalStyle

    /// Says that a signature no longer holds and how to sign again.
    static func withdrawnSignatureLine(_ field: FieldDefinition, report: String) -> String {
        let id = oneLine(field.id.rawValue)
        return
            "Signature '\(id)' (\(flatLine(field.displayName))) withdrawn: the answers changed after signing. Sign again last: jqc answer \(report) \(id) NAME"
    }

    /// The `show --json` document (the fields docs/commands.md lists).
    func json(_ report: Report, template: Template?, photos: [Photo], issues: [Issue], score: ScoreReport?) -> JSONValue
    {
        let hidden = template.map { hiddenFields(report, template: $0) } ?? []
        var object: [String: JSONValue] = [
            "local_id": .string(id(report.localID)),
            "server_id": report.serverID.map { .string($0) } ?? .null,
            "state": .string(report.state.rawValue),
            "template_id": .string(report.templateID),
            "template_name": template.map { .string($0.name) } ?? .null,
            "facility_id": .string(report.facilityID),
            "area_id": report.areaID.map { .string($0) } ?? .null,
            "assignment_id": report.assignmentID.map { .string($0) } ?? .null,
            "answers": Self.answersKeepingHidden(
                report.answers,
                hidden: hidden.filter { id in
                    template?.schema.field(id).map { workspace.registry.resolve($0).isAnswerable } ?? false
                }),
            "hidden_fields": .array(hidden.map { .string($0.rawValue) }),
            "score": report.score.map { .double($0) } ?? .null,
            "base_revision": report.lifecycle.baseRevision.map { .integer(Int64($0)) } ?? .null,
            "attempt_count": .integer(Int64(report.lifecycle.attemptCount)),
            "last_error": report.lifecycle.lastError.map { ["code": .string($0.code), "message": .string($0.message)] }
                ?? .null,
            "photos": .array(photos.map(photoJSON)),
            "issues": .array(issues.map { issueJSON($0, photos: photos) }),
            // The corrective actions its issues became, as far as the last sync brought them.
            "actions": ActionPresenter.ofReport(report.serverID, in: workspace).json,
            "parent_local_id": report.parentLocalID.map { .string(id($0)) } ?? .null,
            "parent_server_id": report.parentServerID.map { .string($0) } ?? .null,
            "follow_up_required": .bool(report.followUpRequired),
            "merged_fields": .array(report.mergedFields.map(JSONValue.string)),
            "schema_version": .integer(Int64(report.schemaVersion)),
            "updated_at_device": .string(Self.timestamp(report.updatedAtDevice)),
            "completed_at_device": report.completedAtDevice.map { .string(Self.timestamp($0)) } ?? .null,
        ]
        if let score {
            object["score_breakdown"] = breakdownJSON(score)
            object["passed"] = score.passed.map(JSONValue.bool) ?? .null
            object["deficiencies"] = .array(score.deficiencies.map { .string($0.rawValue) })
        }
        if let conflict = report.lifecycle.conflict {
            object["conflict"] = [
                "server_revision": .integer(Int64(conflict.revision)), "server_payload": conflict.payload,
            ]
        }
        object["template_version"] = report.templateVersion.map { .integer(Int64($0)) } ?? .null
        object["template_version_kept"] = .bool(report.keepsTemplateVersion)
        object["template_move"] = report.templateMove.map(\.json) ?? .null
        object["set_aside"] = .array(setAside(report).map(\.json))
        object["review_state"] = reviewState(report).map { .string($0.rawValue) } ?? .null
        object["review"] = report.lifecycle.review.map(Self.reviewJSON) ?? .null
        return .object(object)
    }

    /// Every answer a move onto a newer template version set aside, oldest
    /// move first (the revision history keeps them for good).
    func setAside(_ report: Report) -> [SetAsideAnswer] {
        (try? workspace.setAsideAnswers(of: report)) ?? []
    }

    /// What `show` says of the report's template version: the move it went
    /// through (until it is completed), kept on an older version, or a newer
    /// version waiting to take it. Template text through the one sanitiser.
    func versionLines(_ report: Report, template: Template) -> [String] {
        var lines: [String] = []
        let short = workspace.short(report)
        if let move = report.templateMove {
            var line =
                "Moved:     from \(move.fromVersion.map { "v\($0)" } ?? "an unknown version") to v\(move.toVersion)"
            if move.setAside.isEmpty {
                line += "; every answer kept"
            } else {
                line +=
                    "; \(counted(move.setAside.count, "answer")) set aside: "
                    + move.setAside.map { flatLine($0.reason) }.joined(separator: "; ")
                    + " (see 'jqc show \(short) --history')"
            }
            if !move.newRequired.isEmpty {
                line += "; new required: " + move.newRequired.map { oneLine($0.rawValue) }.joined(separator: ", ")
            }
            lines.append(line + ".")
        }
        guard report.lifecycle.isEditable, let newest = try? workspace.template(id: report.templateID),
            newest.version > template.version
        else { return lines }
        if report.keepsTemplateVersion {
            lines.append(
                "Kept on version \(template.version) (v\(newest.version) is here); 'jqc migrate \(short)' moves it.")
        } else {
            lines.append(
                "Version \(newest.version) is here: the draft moves at the next sync, or now with 'jqc migrate \(short)'."
            )
        }
        return lines
    }

    /// The review state the report reads as (nil before the server reviewed it, and from a server without reviews).
    func reviewState(_ report: Report) -> ReviewState? {
        Workspace.reviewState(
            of: report.state, stored: report.lifecycle.review?.state,
            serverHasReviews: (try? workspace.serverHasReviews()) ?? false)
    }

    /// A review as `show --json` carries it.
    static func reviewJSON(_ review: ReportReview) -> JSONValue {
        [
            "state": .string(review.state.rawValue),
            "revision": .integer(Int64(review.revision)),
            "decided_by": review.decidedBy.map { ["id": .string($0.id), "display_name": .string($0.displayName)] }
                ?? .null,
            "decided_at": review.decidedAt.map { .string($0) } ?? .null,
            "comment": review.comment.map { .string($0) } ?? .null,
            "field_comments": .array(
                review.fieldComments.map { ["field_id": .string($0.fieldID), "comment": .string($0.comment)] }),
        ]
    }

    /// The review as `show` prints it: the decision, who and when, and the comment on the whole report.
    /// Field comments are printed beside their fields. Server text, each through `OneLine`.
    func reviewLines(_ report: Report) -> [String] {
        guard let state = reviewState(report) else { return [] }
        let review = report.lifecycle.review
        var decision = "Review:    \(state.phrase)"
        if let review {
            decision += " (revision \(review.revision))"
            if let by = review.decidedBy {
                decision += " by \(by.displayName.isEmpty ? oneLine(by.id) : flatLine(by.displayName))"
            }
            if let at = review.decidedAt { decision += " at \(flatLine(at))" }
        }
        var lines = [decision]
        if let comment = review?.comment, !comment.isEmpty { lines.append("Comment:   \(flatLine(comment))") }
        if report.lifecycle.awaitsChanges {
            lines.append(
                report.state == .draft
                    ? "Change what the comments ask, then 'jqc complete \(workspace.short(report))' to send it back for review."
                    : "Amend it with 'jqc amend \(workspace.short(report))', change what the comments ask, then complete it."
            )
        }
        return lines
    }

    /// The supervisor's comments on one field, each as a line to print under it.
    func fieldCommentLines(_ report: Report, field: FieldID) -> [String] {
        (report.lifecycle.review?.comments(on: field) ?? []).map { "      \(arrow) supervisor: \(flatLine($0))" }
    }

    private var arrow: String { style.pick("\u{21B3}", "->") }

    func photoJSON(_ photo: Photo) -> JSONValue {
        [
            "local_id": .string(id(photo.localID)),
            "field_id": photo.fieldID.map { .string($0.rawValue) } ?? .null,
            "issue_local_id": photo.issueLocalID.map { .string(id($0)) } ?? .null,
            "upload_state": .string(photo.uploadState.rawValue),
            "byte_size": .integer(photo.byteSize),
            "original_byte_size": .integer(photo.originalByteSize),
            "sha256": .string(photo.sha256),
        ]
    }

    func issueJSON(_ issue: Issue, photos: [Photo]) -> JSONValue {
        [
            "local_id": .string(id(issue.localID)),
            "report_local_id": .string(id(issue.reportLocalID)),
            "severity": .string(issue.severity.rawValue),
            "description": .string(issue.description),
            "photo_local_ids": .array(
                photos.filter { $0.issueLocalID == issue.localID }.map { .string(id($0.localID)) }),
        ]
    }

    func breakdownJSON(_ score: ScoreReport) -> JSONValue {
        [
            "ratio": score.ratio.map { .double($0) } ?? .null,
            "earned": .double(score.earned),
            "possible": .double(score.possible),
            "verdict": .string(score.verdict.rawValue),
            "critical_failures": .array(score.criticalFailures.map { .string($0.rawValue) }),
            "pass_threshold": score.passThreshold.map(JSONValue.double) ?? .null,
            "passed": score.passed.map(JSONValue.bool) ?? .null,
            "deficiencies": .array(score.deficiencies.map { .string($0.rawValue) }),
            "fields": .array(
                score.fields.filter { $0.outcome != .notScoreable }.map { field in
                    [
                        "field_id": .string(field.fieldID.rawValue),
                        "label": .string(field.label),
                        "type": .string(field.type),
                        "weight": .double(field.weight),
                        "critical": .bool(field.critical),
                        "deficient": .bool(field.deficient),
                        "outcome": .string(Self.outcomeName(field)),
                        "hidden": .bool(field.hidden),
                        "earned": .double(field.earned),
                        "possible": .double(field.possible),
                    ]
                }),
        ]
    }

    /// The human view of a report: header, every field with its answer, score breakdown, photos, issues.
    func lines(_ report: Report, template: Template, photos: [Photo], issues: [Issue], score: ScoreReport) -> [String] {
        var lines: [String] = []
        lines.append("Report \(id(report.localID))  \(report.state.rawValue)")
        lines.append("Template:  \(flatLine(template.name)) (\(oneLine(template.id)), version \(template.version))")
        lines += versionLines(report, template: template)
        lines.append(
            "Facility:  \(facilityName(report.facilityID))\(report.areaID.map { ", area \(areaName($0, facility: report.facilityID))" } ?? "")"
        )
        if let assignment = report.assignmentID { lines.append("Assignment: \(oneLine(assignment))") }
        if let server = report.serverID {
            lines.append(
                "Server id: \(oneLine(server)) (revision \(report.lifecycle.baseRevision.map(String.init) ?? "?"))")
        }
        if let parent = report.parentLocalID { lines.append("Re-inspection of \(id(parent))") }
        if report.followUpRequired { lines.append("Follow-up required") }
        if !report.mergedFields.isEmpty {
            lines.append(
                "Merged with the server's changes: \(MergedFieldNames.phrase(report.mergedFields)) (marked 'from the server')"
            )
        }
        if let error = report.lifecycle.lastError {
            lines.append("Last error: \(flatLine(error.message)) [\(oneLine(error.code))]")
        }
        lines += reviewLines(report)
        lines.append("")
        let logic = workspace.logic(template)
        let state = logic.evaluate(report.answers)
        for field in template.schema.fields {
            let type = workspace.registry.resolve(field)
            if !type.isAnswerable {
                let text = type.startsSection ? "== \(flatLine(field.label)) ==" : "   \(flatLine(field.label))"
                lines.append(text + (state.isVisible(field.id) ? "" : "  (hidden by condition)"))
                continue
            }
            let mark = state.isRequired(field.id) ? "*" : " "
            guard state.isVisible(field.id) else {
                lines.append("\(mark) \(Self.name(field)): \(Self.hiddenText)")
                lines += fieldCommentLines(report, field: field.id)
                continue
            }
            let shown = type.display(report.answers[field.id], for: field, style: style)
            let calculated =
                (logic.isCalculated(field.id) ? "  (calculated)" : "")
                + (report.mergedFields.contains(field.id.rawValue) ? "  (from the server)" : "")
            let unsupported = logic.unsupportedReason(field.id).map { "  (unsupported here: \(flatLine($0)))" } ?? ""
            // `shown` is the type's display (already one line, maybe coloured): kept as it is.
            let privacy = field.isPrivate ? "  (not shown to the client)" : ""
            lines.append("\(mark) \(Self.name(field)): \(shown)\(calculated)\(unsupported)\(privacy)")
            lines += fieldCommentLines(report, field: field.id)
        }
        // Comments on fields this template does not show (another version's, say) are not lost.
        let shownFields = Set(template.schema.fields.map(\.id))
        for comment in report.lifecycle.review?.fieldComments ?? []
        where !shownFields.contains(FieldID(comment.fieldID)) {
            lines.append("  [\(oneLine(comment.fieldID))] \(arrow) supervisor: \(flatLine(comment.comment))")
        }
        lines.append("")
        lines.append("Score: \(scoreText(score))")
        for field in score.fields where field.outcome != .notScoreable {
            let part: String
            switch field.outcome {
            case .scored where !field.hidden: part = "\(Self.number(field.earned))/\(Self.number(field.possible))"
            default: part = Self.outcomeName(field).replacingOccurrences(of: "_", with: " ")
            }
            let extras = [
                field.weight != 1 ? "weight \(Self.number(field.weight))" : nil, field.critical ? "critical" : nil,
                field.deficient ? style.paint("deficient", .bad) : nil,
            ].compactMap { $0 }
            lines.append(
                "  [\(oneLine(field.fieldID.rawValue))] \(flatLine(field.label.isEmpty ? field.type : field.label)): \(part)\(extras.isEmpty ? "" : " (" + extras.joined(separator: ", ") + ")")"
            )
        }
        lines += deficiencyLines(score, report: report, template: template)
        if !photos.isEmpty {
            lines.append("")
            let total = photos.reduce(Int64(0)) { $0 + $1.byteSize }
            lines.append("Photos: \(photos.count), \(Self.bytes(total))")
            for photo in photos {
                let target =
                    photo.fieldID.map { "field \(oneLine($0.rawValue))" } ?? photo.issueLocalID.map {
                        "issue \(String(id($0).prefix(8)))"
                    } ?? "report"
                lines.append(
                    "  \(String(id(photo.localID).prefix(8)))  \(target)  \(Self.bytes(photo.byteSize))  \(photo.uploadState.rawValue)"
                )
            }
        }
        if !issues.isEmpty {
            lines.append("")
            lines.append("Issues: \(issues.count)")
            for issue in issues {
                let count = photos.filter { $0.issueLocalID == issue.localID }.count
                lines.append(
                    "  \(String(id(issue.localID).prefix(8)))  \(issue.severity.rawValue.uppercased())  \(flatLine(issue.description))\(count > 0 ? "  (\(count) photo\(count == 1 ? "" : "s"))" : "")"
                )
            }
        }
        return lines
    }

    /// The score in words: the percentage and points, whether it passes
    /// the template's threshold (when it has one), a critical failure, and
    /// how many answers are deficiencies.
    func scoreText(_ score: ScoreReport) -> String {
        var text: String
        switch score.verdict {
        case .notScored: text = "not scored (nothing scoreable answered)"
        case .scored: text = "\(score.percentText) (\(Self.number(score.earned)) of \(Self.number(score.possible)))"
        case .failedCritical:
            text =
                "\(score.percentText) (\(Self.number(score.earned)) of \(Self.number(score.possible))), FAILED: critical field\(score.criticalFailures.count == 1 ? "" : "s") \(score.criticalFailures.map { oneLine($0.rawValue) }.joined(separator: ", ")) failed"
        }
        if let passed = score.passed, let threshold = score.passThreshold {
            let needs = "needs \(Self.percent(threshold))"
            text +=
                passed
                ? ", " + style.paint("passed", .good) + " (\(needs))"
                : ", " + style.paint("failed", .bad) + " (\(needs))"
        }
        let count = score.deficiencies.count
        if count > 0 { text += ", \(count) deficienc\(count == 1 ? "y" : "ies")" }
        return text
    }

    /// A threshold as a percentage: `80%`, `87.5%`.
    static func percent(_ share: Double) -> String {
        let value = (share * 1000).rounded() / 10
        return value == value.rounded() ? "\(Int(value))%" : "\(value)%"
    }

    /// The deficient answers, each with its field and answer, for `show`.
    func deficiencyLines(_ score: ScoreReport, report: Report, template: Template) -> [String] {
        guard !score.deficiencies.isEmpty else { return [] }
        var lines = ["", "Deficiencies: \(score.deficiencies.count)"]
        for id in score.deficiencies {
            guard let field = template.schema.field(id) else { continue }
            let shown = workspace.registry.display(field, report.answers[id], style: style)
            lines.append("  \(Self.name(field)): \(shown)\(field.critical ? " (critical)" : "")")
        }
        return lines
    }

    /// A facility's name and id as `show` prints them, each through `OneLine`.
    func facilityName(_ facilityID: String) -> String {
        workspace.facilityName(facilityID).map { "\(flatLine($0)) (\(oneLine(facilityID)))" } ?? oneLine(facilityID)
    }

    /// An area's name and id as `show` prints them, each through `OneLine`.
    func areaName(_ areaID: String, facility: String) -> String {
        workspace.areaName(areaID, facilityID: facility).map { "\(flatLine($0)) (\(oneLine(areaID)))" }
            ?? oneLine(areaID)
    }

    /// A field as a line names it: `[id] label`, both from the template, through `OneLine`.
    static func name(_ field: FieldDefinition) -> String {
        "[\(oneLine(field.id.rawValue))] \(flatLine(field.displayName))"
    }

    func id(_ uuid: UUID) -> String { uuid.uuidString.lowercased() }

    /// What `show`, the exports and the breakdown say for a field a condition hides.
    static let hiddenText = "hidden by condition"

    /// The fields of a report hidden by a condition, in form order.
    func hiddenFields(_ report: Report, template: Template) -> [FieldID] {
        workspace.logic(template).evaluate(report.answers).hiddenFields
    }

    /// The answers with a key (value null) for every hidden field that has
    /// none, so a document's keys stay the same whichever branch was taken.
    static func answersKeepingHidden(_ answers: Answers, hidden: [FieldID]) -> JSONValue {
        guard case .object(var members) = answers.json else { return answers.json }
        for id in hidden where members[id.rawValue] == nil { members[id.rawValue] = .null }
        return .object(members)
    }

    /// A field's outcome in the breakdown: `hidden_by_condition` for a hidden field.
    static func outcomeName(_ contribution: FieldContribution) -> String {
        contribution.hidden ? "hidden_by_condition" : outcomeName(contribution.outcome)
    }

    static func outcomeName(_ outcome: FieldScore) -> String {
        switch outcome {
        case .notScoreable: return "not_scoreable"
        case .unanswered: return "unanswered"
        case .notApplicable: return "not_applicable"
        case .unreadable: return "unreadable"
        case .scored(_, let passed): return passed ? "passed" : "failed"
        }
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(format: "%.2f", value)
    }

    static func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / (1024 * 1024))
    }

    static func timestamp(_ date: Date) -> String {
        RFC3339.string(date)
    }
}
