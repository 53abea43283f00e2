import FieldTypes
import Foundation
import JQCCore
import Models
import Sync

/// What the review commands print: a review, a report's events, a decision
/// recorded, and what changed between two revisions. Every line holds text
/// from the server, so each passes through `OneLine` before it is shown.
struct ReviewPresenter {
    let workspace: Workspace
    let style: TerminalStyle
    /// The report's template when this device has it, for field labels and answers as a person reads them.
    let template: Template?

    /// One field whose answer differs between two revisions.
    struct Change {
        var fieldID: String
        var label: String
        var before: JSONValue?
        var after: JSONValue?
        var shownBefore: String
        var shownAfter: String

        var json: JSONValue {
            ["field_id": .string(fieldID), "label": .string(label), "before": before ?? .null, "after": after ?? .null]
        }
    }

    /// The review of the current revision, and the comments on fields under it.
    func reviewLines(_ review: WireReview?, serverID: String) -> [String] {
        guard let review else { return ["Review: this server keeps no reviews (it is older than contract 1.1)."] }
        var lines: [String]
        if review.state == .awaitingReview {
            lines = [
                "Review: awaiting review (revision \(review.revision)). Decide with 'jqc review approve|return|reject \(serverID)'."
            ]
        } else {
            let by = review.decidedBy.map { " by \(person($0))" } ?? ""
            let at = review.decidedAt.map { " at \($0)" } ?? ""
            lines = ["Review: \(ReviewCommands.label(review.state)) (revision \(review.revision))\(by)\(at)."]
        }
        if let comment = review.comment, !comment.isEmpty { lines.append("  Comment: \(comment)") }
        lines += review.fieldComments.map { "  \(fieldName($0.fieldID)): \($0.comment)" }
        return lines.map(flat)
    }

    /// The report's events, oldest first, each with its comments.
    func eventLines(_ events: [WireReportEvent]?) -> [String] {
        guard let events else { return ["Events: this server keeps none (it is older than contract 1.1)."] }
        guard !events.isEmpty else { return ["Events: none yet."] }
        var lines = ["Events, oldest first (server time):"]
        for event in events {
            lines.append("  \(event.at)  \(event.kind) revision \(event.revision) by \(person(event.actor))")
            if let comment = event.comment, !comment.isEmpty { lines.append("      Comment: \(comment)") }
            lines += (event.fieldComments ?? []).map { "      \(fieldName($0.fieldID)): \($0.comment)" }
        }
        return lines.map(flat)
    }

    /// What a recorded decision says.
    func decidedLine(_ review: WireReview, decision: ReviewDecision, report: ReviewedServerReport) -> String {
        let fetched = report.fetched.report
        let what =
            "\(workspace.templateName(fetched.templateID) ?? fetched.templateID) at \(workspace.facilityName(fetched.facilityID) ?? fetched.facilityID)"
        let comments =
            (review.comment.map { _ in ["a comment"] } ?? [])
            + (review.fieldComments.isEmpty
                ? [] : ["\(review.fieldComments.count) field comment\(review.fieldComments.count == 1 ? "" : "s")"])
        let with = comments.isEmpty ? "" : " with \(comments.joined(separator: " and "))"
        let verb =
            switch decision {
            case .approve: "Approved"
            case .return: "Returned"
            case .reject: "Rejected"
            }
        let followUp =
            decision == .return
            ? " The inspector sees it at their next sync and can amend the report."
            : " The inspector sees it at their next sync."
        return flat("\(verb) revision \(review.revision) of report \(review.serverID) (\(what))\(with).\(followUp)")
    }

    /// The fields whose answers differ from `before` to `after`, in the template's order, then any others by id;
    /// the follow-up flag counts as a field named `follow_up_required`.
    func changes(from before: Report, to after: Report) -> [Change] {
        var changes: [Change] = []
        var seen = Set<FieldID>()
        for field in template?.schema.fields ?? [] where workspace.registry.resolve(field).isAnswerable {
            seen.insert(field.id)
            let (old, new) = (before.answers[field.id], after.answers[field.id])
            guard old != new else { continue }
            changes.append(
                Change(
                    fieldID: field.id.rawValue, label: field.displayName, before: old, after: new,
                    shownBefore: workspace.registry.display(field, old, style: style),
                    shownAfter: workspace.registry.display(field, new, style: style)))
        }
        let others = Set(before.answers.answeredIDs + after.answers.answeredIDs).subtracting(seen).sorted()
        for id in others {
            let (old, new) = (before.answers[id], after.answers[id])
            guard old != new else { continue }
            changes.append(
                Change(
                    fieldID: id.rawValue, label: "field \(id.rawValue)", before: old, after: new,
                    shownBefore: old?.canonicalString() ?? "-", shownAfter: new?.canonicalString() ?? "-"))
        }
        if before.followUpRequired != after.followUpRequired {
            changes.append(
                Change(
                    fieldID: "follow_up_required", label: "Follow-up required",
                    before: .bool(before.followUpRequired), after: .bool(after.followUpRequired),
                    shownBefore: before.followUpRequired ? "yes" : "no",
                    shownAfter: after.followUpRequired ? "yes" : "no"))
        }
        return changes
    }

    /// The changes as a table under a line naming both revisions.
    func changeLines(_ changes: [Change], from old: Int, to new: Int) -> [String] {
        guard !changes.isEmpty else {
            return ["Revision \(new) has the same answers as revision \(old) (its issues or photos may differ)."]
        }
        let rows = changes.map { [$0.fieldID, $0.label, $0.shownBefore, $0.shownAfter].map(flat) }
        return [
            "What changed from revision \(old) to revision \(new) (\(changes.count) field\(changes.count == 1 ? "" : "s")):"
        ]
            + TextTable.render(["FIELD", "LABEL", "REVISION \(old)", "REVISION \(new)"], rows, maxColumn: 28)
    }

    /// A field as a person knows it: `[14] Photos`, or its id when the template is not here.
    func fieldName(_ id: String) -> String {
        guard let field = template?.schema.field(FieldID(id)) else { return "[\(id)]" }
        return "[\(id)] \(field.displayName)"
    }

    /// A person's name, or their id when the server sends none.
    func person(_ person: WirePerson) -> String {
        person.displayName.isEmpty ? person.id : person.displayName
    }

    /// One line for the terminal.
    func flat(_ text: String) -> String { OneLine.flatten(text, lineBreak: " ") }
}
