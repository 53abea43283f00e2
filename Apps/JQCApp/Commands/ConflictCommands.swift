import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models

/// conflicts, diff, resolve: a person decides every conflict (BR-06).
enum ConflictCommands {
    static var all: [Command] { [conflicts, diff, resolve] }

    static let conflicts = Command(
        CommandSpec("conflicts", summary: "reports in CONFLICT: the server holds a newer revision")
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let list = try workspace.conflicts()
        let rows = list.map { r in
            [
                workspace.short(r), r.templateID, r.facilityID, r.lifecycle.baseRevision.map(String.init) ?? "-",
                r.lifecycle.conflict.map { String($0.revision) } ?? "-",
            ]
        }
        let lines =
            list.isEmpty
            ? ["No conflicts."]
            : TextTable.render(["ID", "TEMPLATE", "FACILITY", "MINE ON", "SERVER AT"], rows)
                + [
                    "See both sides with 'jqc diff ID'; decide with 'jqc resolve ID --keep-mine | --take-server | --pick FIELD=mine|server'."
                ]
        return CommandOutput(
            lines: lines,
            json: [
                "conflicts": .array(
                    list.map { r in
                        [
                            "local_id": .string(r.localID.wireString), "template_id": .string(r.templateID),
                            "facility_id": .string(r.facilityID), "server_id": r.serverID.map { .string($0) } ?? .null,
                            "base_revision": r.lifecycle.baseRevision.map { .integer(Int64($0)) } ?? .null,
                            "server_revision": r.lifecycle.conflict.map { .integer(Int64($0.revision)) } ?? .null,
                        ]
                    })
            ])
    }

    static let report = Argument("LOCAL_ID", help: "the report in CONFLICT")
    static let keepMine = Flag("keep-mine", help: "upload this device's answers on top of the server's revision")
    static let takeServer = Flag(
        "take-server", help: "take the server's revision; this device's answers stay in its history")
    static let pick = Option(
        repeating: "pick", "FIELD_ID=mine|server", help: "choose a side for one field; repeat for each differing field",
        as: Conversion<FieldPick>.checked(
            { pick in
                let parts = pick.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let side = ConflictSide(rawValue: parts[1].lowercased()) else { return nil }
                return FieldPick(fieldID: parts[0], side: side)
            }, otherwise: { word, label in "'\(label) \(word)' must be FIELD_ID=mine or FIELD_ID=server." }))

    /// One `--pick`: a field and the side chosen for it.
    struct FieldPick: Sendable {
        let fieldID: String
        let side: ConflictSide
    }

    static let diff = Command(
        CommandSpec(
            "diff", summary: "a conflicting report: this device's answers and the server's, field by field",
            positionals: [report.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let report = try workspace.report(try inv[Self.report])
        let fields = try workspace.conflictFields(report)
        let lines = ConflictPresenter(workspace: workspace, style: inv.context.style).diffLines(report, fields: fields)
        return CommandOutput(
            lines: lines,
            json: [
                "local_id": .string(report.localID.wireString),
                "base_revision": report.lifecycle.baseRevision.map { .integer(Int64($0)) } ?? .null,
                "server_revision": report.lifecycle.conflict.map { .integer(Int64($0.revision)) } ?? .null,
                "fields": .array(
                    fields.map { f in
                        [
                            "field_id": .string(f.field.id.rawValue), "label": .string(f.field.label),
                            "type": .string(f.field.type),
                            "mine": f.mine ?? .null, "server": f.server ?? .null, "differs": .bool(f.differs),
                            "merged": f.settled.map { .string($0.rawValue) } ?? .null,
                        ]
                    }),
            ])
    }

    static let resolve = Command(
        CommandSpec(
            "resolve", summary: "decide a conflict: keep mine, take the server's, or choose per field",
            positionals: [report.spec],
            options: [keepMine.spec, takeServer.spec, pick.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        let modes = [inv[Self.keepMine], inv[Self.takeServer], inv.isGiven(Self.pick)].filter { $0 }.count
        guard modes == 1 else {
            throw AppError.usage("Give exactly one of --keep-mine, --take-server or --pick FIELD_ID=mine|server.")
        }
        let workspace = try inv.workspace()
        let report = try workspace.report(try inv[Self.report])
        let resolved: Report
        if inv[Self.keepMine] {
            resolved = try workspace.resolveKeepingMine(report)
        } else if inv[Self.takeServer] {
            resolved = try workspace.resolveTakingServer(report)
        } else {
            var choices: [String: ConflictSide] = [:]
            for pick in try inv[Self.pick] { choices[pick.fieldID] = pick.side }
            resolved = try workspace.resolve(report, picks: choices)
        }
        let line = ConflictPresenter(workspace: workspace, style: inv.context.style).resolvedLine(resolved)
        let withdrawn = try workspace.withdrawnSignatures(resolving: report, resolved: resolved)
        return CommandOutput(
            lines: [line]
                + withdrawn.map { ReportPresenter.withdrawnSignatureLine($0, report: workspace.short(resolved)) },
            json: [
                "local_id": .string(resolved.localID.wireString), "state": .string(resolved.state.rawValue),
                "base_revision": resolved.lifecycle.baseRevision.map { .integer(Int64($0)) } ?? .null,
                "answers": resolved.answers.json,
                "signatures_withdrawn": .array(withdrawn.map { .string($0.id.rawValue) }),
            ])
    }
}
