import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models

/// `migrate`: move a draft onto the newest version of its template now, show
/// what that would do, or leave it on its version.
enum MigrateCommand {
    static let report = Argument("LOCAL_ID", help: "the report's id or a unique prefix of it")
    static let dryRun = Flag(
        "dry-run", help: "show what the move would keep, set aside and leave to answer; change nothing")
    static let keepVersion = Flag(
        "keep-version",
        help:
            "leave the draft on its version when newer ones arrive, until 'jqc migrate LOCAL_ID' moves it (the server must still accept that version); a draft a move just took, unchanged since, goes back to the version it came from with its answers"
    )

    static let migrate = Command(
        CommandSpec(
            "migrate",
            summary:
                "move a draft onto the newest version of its template now, show what that would do (--dry-run), or leave it on its version (--keep-version)",
            positionals: [report.spec],
            options: [dryRun.spec, keepVersion.spec],
            discussion: """
                Drafts move by themselves when a sync or 'jqc templates import' brings a newer version of their template:
                an answer to the same field whose new type reads it is kept; an answer to a removed field, or one the new
                type refuses, is set aside in the report's history ('jqc show LOCAL_ID --history'), never lost; new
                required fields are left to answer. Completed (PENDING) reports never move: they upload as completed.
                Exit codes: 0 done (or nothing to move); 2 both --dry-run and --keep-version; 3 no such report;
                5 the report is not a draft (or a rejected report), or --keep-version on a draft changed since it moved.
                """)
    ) { (inv) throws(AppError) -> CommandOutput in
        let dryRun = inv[Self.dryRun], keep = inv[Self.keepVersion]
        guard !(dryRun && keep) else { throw AppError.usage("Give --dry-run or --keep-version, not both.") }
        let workspace = try inv.workspace()
        let report = try workspace.report(try inv[Self.report])
        let short = workspace.short(report)
        if keep {
            let (kept, putBack) = try workspace.keepVersion(report)
            let template = try workspace.template(for: kept)
            let version = kept.templateVersion ?? template.version
            let back =
                putBack
                ? "is back on \(flatLine(template.name)) v\(version) with the answers it had there, and stays there"
                : "stays on \(flatLine(template.name)) v\(version)"
            return CommandOutput(
                lines: [
                    "Report \(short) \(back) when newer versions arrive; 'jqc migrate \(short)' moves it. The server must still accept v\(version)."
                ],
                json: [
                    "local_id": .string(kept.localID.wireString), "kept": true, "put_back": .bool(putBack),
                    "dry_run": false,
                    "moved": false, "template_version": .integer(Int64(version)),
                ])
        }
        guard report.lifecycle.isEditable else {
            throw AppError.blocked(
                .stateNotAllowed,
                "Report \(short) is \(report.state.rawValue); only drafts (and rejected reports) move onto a new template version. Completed reports upload on the version they were answered on."
            )
        }
        let plan = try workspace.migrationPlan(report)
        let name = flatLine(plan.to.name)
        guard plan.movesAnything else {
            return CommandOutput(
                lines: ["Report \(short) is on the newest version of \(name) (v\(plan.to.version)); nothing to move."],
                json: planJSON(plan, dryRun: dryRun, moved: false))
        }
        if dryRun {
            return CommandOutput(
                lines: [
                    "Report \(short) would move from \(name) \(versionText(plan.planned.move.fromVersion)) to v\(plan.to.version):"
                ]
                    + planLines(plan) + ["Nothing was changed; 'jqc migrate \(short)' moves it."],
                json: planJSON(plan, dryRun: true, moved: false))
        }
        guard let move = try workspace.migrate(report) else {
            return CommandOutput(
                lines: ["Report \(short) is on the newest version of \(name); nothing to move."],
                json: planJSON(plan, dryRun: false, moved: false))
        }
        let after = try workspace.report(report.localID.uuidString)
        var done = plan
        done.planned = PlannedMove(answers: after.answers, score: after.score, move: move)
        return CommandOutput(
            lines: ["Report \(short) moved from \(name) \(versionText(move.fromVersion)) to v\(move.toVersion):"]
                + planLines(done)
                + (move.setAside.isEmpty ? [] : ["The answers set aside are kept: 'jqc show \(short) --history'."]),
            json: planJSON(done, dryRun: false, moved: true))
    }

    static func versionText(_ version: Int?) -> String {
        version.map { "v\($0)" } ?? "an unknown version"
    }

    /// What a move keeps, sets aside and leaves to answer, a line each.
    static func planLines(_ plan: MigrationPlan) -> [String] {
        let move = plan.planned.move
        var lines = ["  \(counted(plan.planned.answers.answeredIDs.count, "answer")) on the new version"]
        for item in move.setAside {
            lines.append("  set aside: \(flatLine(item.reason))")
        }
        if !move.newRequired.isEmpty {
            let names = move.newRequired.map { id in
                plan.to.schema.field(id).map(ReportPresenter.name) ?? "[\(oneLine(id.rawValue))]"
            }
            lines.append("  new required, to answer: \(names.joined(separator: ", "))")
        }
        return lines
    }

    /// `migrate --json`.
    static func planJSON(_ plan: MigrationPlan, dryRun: Bool, moved: Bool) -> JSONValue {
        let move = plan.planned.move
        return [
            "local_id": .string(plan.report.localID.wireString),
            "dry_run": .bool(dryRun),
            "kept": false,
            "moved": .bool(moved),
            "template_id": .string(plan.to.id),
            "from_version": move.fromVersion.map { .integer(Int64($0)) } ?? .null,
            "to_version": .integer(Int64(move.toVersion)),
            "answers": plan.planned.answers.json,
            "set_aside": .array(move.setAside.map(\.json)),
            "new_required": .array(move.newRequired.map { .string($0.rawValue) }),
        ]
    }
}
