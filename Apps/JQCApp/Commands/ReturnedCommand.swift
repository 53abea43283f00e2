import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models

/// `jqc returned`: the reports a supervisor returned to this inspector for
/// changes (contract 1.1's review), with their comments; the home menu's
/// "Returned to me" shows the same.
enum ReturnedCommand {
    static let returned = Command(
        CommandSpec(
            "returned", summary: "reports a supervisor returned to you for changes, with their comments (offline)",
            discussion: """
                Returned reports arrive with 'jqc sync' (or jqc-agent). Change one with 'jqc amend ID' (or 'jqc run ID' once
                amended), then 'jqc complete ID'; the next sync sends the new revision back for review.
                """)
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let reports = try workspace.returnedReports()
        var lines: [String] = []
        if reports.isEmpty {
            lines = ["No reports are returned to you for changes."]
        } else {
            for report in reports {
                lines += ReviewNotes.lines(report, in: workspace, style: inv.context.style) + [""]
            }
            lines.append(
                "Change one with 'jqc amend ID', then 'jqc complete ID'; the next sync sends it back for review.")
        }
        return CommandOutput(
            lines: lines.map { OneLine.flatten($0, lineBreak: " ") },
            json: [
                "returned": .array(
                    reports.map { report in
                        [
                            "local_id": .string(report.localID.wireString),
                            "server_id": report.serverID.map { .string($0) } ?? .null,
                            "state": .string(report.state.rawValue),
                            "template_id": .string(report.templateID),
                            "facility_id": .string(report.facilityID),
                            "review": report.lifecycle.review.map(ReportPresenter.reviewJSON) ?? .null,
                        ]
                    })
            ])
    }
}

/// A returned report's review as lines for a person: who returned it, when,
/// the comment, and each field comment with its field's label. The text came
/// from the server: callers print every line through `OneLine`.
enum ReviewNotes {
    static func lines(_ report: Report, in workspace: Workspace, style: TerminalStyle) -> [String] {
        guard let review = report.lifecycle.review else { return [] }
        let template = try? workspace.template(for: report)
        let place = workspace.facilityName(report.facilityID) ?? report.facilityID
        var head =
            "\(workspace.short(report))  \(template?.name ?? report.templateID) at \(place)  \(review.state.phrase)"
        if let by = review.decidedBy { head += " by \(by.displayName.isEmpty ? by.id : by.displayName)" }
        if let at = review.decidedAt { head += " at \(at)" }
        head += " (revision \(review.revision)\(report.state == .draft ? ", being amended" : ""))"
        var lines = [head]
        if let comment = review.comment, !comment.isEmpty { lines.append("  Comment: \(comment)") }
        for comment in review.fieldComments {
            let label = template?.schema.field(FieldID(comment.fieldID))?.displayName
            lines.append("  [\(comment.fieldID)]\(label.map { " \($0)" } ?? ""): \(comment.comment)")
        }
        return lines
    }
}
