import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models

/// start, show, list, answer, complete, delete, reinspect, explain.
enum ReportCommands {
    static var all: [Command] { [start, show, list, answer, complete, delete, reinspect, ExplainCommand.explain] }

    /// A report named by its id, a unique prefix of it, or (for `show`) a server id.
    static let report = Argument("LOCAL_ID", help: "the report")

    static let assignment = Option("assignment", "ID", help: "the assignment to answer")
    static let template = Option("template", "ID", help: "the template to use")
    static let facility = Option("facility", "ID", help: "the facility inspected")
    static let area = Option("area", "ID", help: "the area inspected (optional)")

    static let noAssignment = Flag(
        "no-assignment", help: "start from the template without taking an open assignment that matches")

    static let start = Command(
        CommandSpec(
            "start", summary: "start a new inspection (a DRAFT) from an assignment, or from a template at a facility",
            options: [assignment.spec, template.spec, facility.spec, area.spec, noAssignment.spec],
            discussion:
                "From a template, the one open assignment it fulfils (same template, facility and area; overdue, due today or undated) is taken and named; when several match, a terminal is asked which, and otherwise they are listed (exit 2). --no-assignment takes none.\n"
                + "Examples:\n  jqc start --assignment AS-1\n  jqc start --template 101 --facility F-100 --area A-101")
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let report: Report
        var taken: String?
        if let assignment = try inv[Self.assignment] {
            if inv.isGiven(Self.template) || inv.isGiven(Self.facility) || inv[Self.noAssignment] {
                throw AppError.usage(
                    "Give either --assignment, or --template with --facility (and perhaps --no-assignment); not both.")
            }
            report = try workspace.start(assignmentID: assignment)
        } else {
            guard let template = try inv[Self.template], let facility = try inv[Self.facility] else {
                throw AppError.usage("'start' needs --assignment ID, or --template ID with --facility ID.")
            }
            let area = try inv[Self.area]
            taken =
                inv[Self.noAssignment]
                ? nil : try AssignmentPick.pick(inv, workspace, template: template, facility: facility, area: area)
            if let taken {
                report = try workspace.start(assignmentID: taken)
            } else {
                report = try workspace.start(templateID: template, facilityID: facility, areaID: area)
            }
        }
        let id = report.localID.uuidString.lowercased()
        let template = try workspace.template(for: report)
        let purpose = taken.map { " for assignment \(flatLine($0))" } ?? ""
        return CommandOutput(
            lines: [
                "Started \(flatLine(template.name)) as draft \(id)\(purpose).",
                "Answer it with 'jqc run \(id)' or 'jqc answer \(id) FIELD_ID VALUE'.",
            ],
            json: [
                "local_id": .string(id), "state": .string(report.state.rawValue),
                "assignment_id": report.assignmentID.map(JSONValue.string) ?? .null,
            ])
    }

    static let shownReport = Argument(
        "LOCAL_ID", help: "the report's id or a unique prefix of it, or a server id")
    static let photosFolder = Option(
        "photos", "DIR",
        help: "also save the report's photos into DIR as <photo id>.jpg (DIR is made, 0700, if missing)")
    static let history = Flag(
        "history",
        help:
            "every revision of the report's answers kept on this device: number, when, what saved it, the answers that changed"
    )

    static let show = Command(
        CommandSpec(
            "show", summary: "show a report: answers, score and its breakdown, photos, issues, state",
            positionals: [shownReport.spec],
            options: [photosFolder.spec, history.spec],
            discussion: """
                A server id (R-...) of a report this device does not hold is read from the server when a profile is
                signed in (a supervisor reads anyone's, an inspector their own): online only, shown as a local report
                is, and never kept on this device. '--json' then adds "source": "server".
                Exit codes: 0 shown; 3 no such report on this device or on the server; 75 offline
                (SERVER_REPORT_REQUIRES_NETWORK); 6 sign in again.
                """)
    ) { (inv) async throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let folder = try inv[Self.photosFolder]
        let id = try inv[Self.shownReport]
        if inv[Self.history] {
            guard folder == nil else { throw AppError.usage("Give --history or --photos DIR, not both.") }
            return try RevisionsPresenter(workspace: workspace, style: inv.context.style).output(
                workspace.report(id))
        }
        switch try await ReportLookup.find(id, in: workspace, context: inv.context) {
        case .local(let report):
            var output = try shown(report, in: workspace, style: inv.context.style)
            guard let folder else { return output }
            let saved = try ReportLookup.copyPhotos(try workspace.photos(of: report), in: workspace, to: folder)
            output.lines += ["", "Saved \(saved.count) photo\(saved.count == 1 ? "" : "s") to \(folder)."]
            if var json = output.json.objectValue {
                json["photos_saved"] = .array(saved.map { .string($0) })
                output.json = .object(json)
            }
            return output
        case .server(let fetched):
            let service = SyncService(context: inv.context)
            var saved: [String]?
            if let folder { saved = try await service.savePhotos(of: fetched, to: folder) }
            return ReportLookup.shown(
                fetched, in: workspace, style: inv.context.style, savedPhotos: saved, photoFolder: folder)
        }
    }

    /// What `show` prints for a report; the menu's report screen shows the same.
    static func shown(_ report: Report, in workspace: Workspace, style: TerminalStyle) throws(AppError) -> CommandOutput
    {
        let template = try? workspace.template(for: report)
        let photos = try workspace.photos(of: report)
        let issues = try workspace.issues(of: report)
        let presenter = ReportPresenter(workspace: workspace, style: style)
        let score = template.map { workspace.score(report, template: $0) }
        let json = presenter.json(report, template: template, photos: photos, issues: issues, score: score)
        let actions = ActionPresenter.ofReport(report.serverID, in: workspace)
        // Names, labels, ids and texts came from templates, the server and people: the presenter shows
        // each through OneLine as it builds a line, so the answers' colours are kept.
        guard let template, let score else {
            let review =
                presenter.reviewLines(report)
                + (report.lifecycle.review?.fieldComments ?? []).map {
                    "  [\(oneLine($0.fieldID))] supervisor: \(flatLine($0.comment))"
                }
            return CommandOutput(
                lines: [
                    "Report \(report.localID.uuidString.lowercased())  \(report.state.rawValue)",
                    "Its template '\(oneLine(report.templateID))' is not on this device; answers are kept as they are.",
                    flatLine(report.answers.json.canonicalString()),
                ] + review + actions.lines,
                json: json)
        }
        return CommandOutput(
            lines: presenter.lines(report, template: template, photos: photos, issues: issues, score: score)
                + actions.lines, json: json)
    }

    static let state = Option(
        "state", "STATE", values: ReportState.allCases.map(\.rawValue), help: "only reports in this state",
        as: .checked(
            { ReportState(rawValue: $0.uppercased()) },
            otherwise: { word, _ in "'\(word)' is not a report state; use DRAFT, PENDING, SYNCED, CONFLICT or REJECTED."
            }
        ))
    static let limit = Option(
        "limit", "N", default: 30, help: "at most N reports",
        as: .checked(
            { Int($0).flatMap { $0 >= 1 ? $0 : nil } },
            otherwise: { word, label in "'\(label) \(word)' must be a whole number from 1." }))
    static let everyReport = Flag("all", help: "every report, however many (streamed: memory stays flat)")

    static let list = Command(
        CommandSpec(
            "list", summary: "local reports, newest first: the newest 30, or --limit N, or --all",
            options: [state.spec, limit.spec, everyReport.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        let state = try inv[Self.state]
        if inv.isGiven(Self.limit), inv[Self.everyReport] {
            throw AppError.usage("give --limit N or --all, not both.")
        }
        let limit: Int? = inv[Self.everyReport] ? nil : try inv[Self.limit]
        let workspace = try inv.workspace()
        let total = try workspace.reportCount(state: state)
        let writer = ListingWriter(json: inv.context.json, serverHasReviews: try workspace.serverHasReviews())
        try workspace.forEachListing(state: state, limit: limit) { writer.add($0) }
        writer.finish(total: total, state: state)
        return CommandOutput(lines: [], json: .null)
    }

    static let field = Argument("FIELD_ID", help: "the field")
    static let typedValue = Argument(optional: "VALUE", help: "the answer as typed")
    static let valueJSON = Option(
        "value-json", "JSON", help: "set the contract's JSON encoding instead of typed input")
    static let clear = Flag("clear", help: "unset the answer")
    static let addRow = Flag("add-row", help: "append VALUE as one more row of a table field")

    static let answer = Command(
        CommandSpec(
            "answer", summary: "set one answer, typed as a person types it; saved at once",
            positionals: [report.spec, field.spec, typedValue.spec],
            options: [valueJSON.spec, clear.spec, addRow.spec],
            discussion: """
                Typed values: a rating '4'; pass/fail 'pass', 'fail', 'n/a'; a checkbox 'yes'/'no'; an option's text or
                number for radio and select; comma-separated options for a checkbox group; 'YYYY-MM-DD' for a date; the
                signer's name for a signature; 'Col=value;Col=value' for a table row (repeat with --add-row).
                """)
    ) { (inv) throws(AppError) -> CommandOutput in
        let value = try inv[Self.typedValue]
        let json = try inv[Self.valueJSON]
        let modes = [value != nil, json != nil, inv[Self.clear]].filter { $0 }.count
        guard modes == 1 else {
            throw AppError.usage(
                modes == 0
                    ? "'answer' needs VALUE, --value-json JSON or --clear."
                    : "Give only one of VALUE, --value-json JSON and --clear.")
        }
        let input: AnswerInput
        if inv[Self.clear] {
            input = .clear
        } else if let json {
            input = .json(json)
        } else if inv[Self.addRow] {
            input = .addRow(value ?? "")
        } else {
            input = .typed(value ?? "")
        }
        let workspace = try inv.workspace()
        let report = try workspace.report(try inv[Self.report])
        let fieldID = try inv[Self.field]
        let saved = try workspace.answer(report, fieldID: fieldID, input: input)
        let template = try workspace.template(for: saved)
        let field = try workspace.field(fieldID, of: template)
        let shown = workspace.registry.display(field, saved.answers[field.id], style: inv.context.style)
        let withdrawn = try workspace.withdrawnSignatures(before: report, after: saved)
        return CommandOutput(
            lines: [
                "\(flatLine(field.displayName)): \(shown)",
                "Saved. Score so far: \(ReportPresenter(workspace: workspace, style: inv.context.style).scoreText(workspace.score(saved, template: template)))",
            ]
                + withdrawn.map { ReportPresenter.withdrawnSignatureLine($0, report: workspace.short(saved)) },
            json: [
                "local_id": .string(saved.localID.uuidString.lowercased()), "field_id": .string(field.id.rawValue),
                "answer": saved.answers[field.id] ?? .null, "score": saved.score.map { .double($0) } ?? .null,
                "state": .string(saved.state.rawValue),
                "signatures_withdrawn": .array(withdrawn.map { .string($0.id.rawValue) }),
            ])
    }

    static let followUp = Flag("follow-up", help: "ask for a re-inspection of this report")

    static let complete = Command(
        CommandSpec(
            "complete", summary: "mark a DRAFT or REJECTED report complete (PENDING); no network needed",
            positionals: [report.spec],
            options: [followUp.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let report = try workspace.report(try inv[Self.report])
        return try completed(
            try workspace.complete(report, followUp: inv[Self.followUp]), in: workspace,
            style: inv.context.style)
    }

    /// What `complete` prints once a report is completed; the menu says the same.
    static func completed(_ completed: Report, in workspace: Workspace, style: TerminalStyle) throws(AppError)
        -> CommandOutput
    {
        let template = try workspace.template(for: completed)
        let score = workspace.score(completed, template: template)
        let presenter = ReportPresenter(workspace: workspace, style: style)
        var lines = [
            "Completed \(workspace.short(completed)): score \(presenter.scoreText(score)).",
            "It is PENDING and will upload at the next sync.",
        ]
        if completed.followUpRequired {
            lines.append("Follow-up required: start it with 'jqc reinspect \(workspace.short(completed))'.")
        }
        return CommandOutput(
            lines: lines,
            json: [
                "local_id": .string(completed.localID.uuidString.lowercased()),
                "state": .string(completed.state.rawValue),
                "score": score.ratio.map { .double($0) } ?? .null,
                "follow_up_required": .bool(completed.followUpRequired),
                "score_breakdown": presenter.breakdownJSON(score),
                "passed": score.passed.map(JSONValue.bool) ?? .null,
                "deficiencies": .array(score.deficiencies.map { .string($0.rawValue) }),
            ])
    }

    static let draft = Argument("LOCAL_ID", help: "the draft")
    static let yes = Flag("yes", short: "y", help: "do not ask; required when no one is at a terminal to answer")

    static let delete = Command(
        CommandSpec(
            "delete",
            summary: "delete a draft with its photos and issues (an amended draft returns to its synced answers)",
            positionals: [draft.spec],
            options: [yes.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let report = try workspace.report(try inv[Self.draft])
        if !inv[Self.yes] {
            guard inv.context.stdinIsTerminal, !inv.context.json else {
                throw AppError.usage(
                    "'delete' asks before it deletes; add --yes to delete \(workspace.short(report)) without asking.")
            }
            let (photos, issues) = try workspace.attachmentCounts(of: report)
            standardOutput.write(
                "Delete draft \(workspace.short(report)) with \(photos) photo\(photos == 1 ? "" : "s") and \(issues) issue\(issues == 1 ? "" : "s")? [y/N] "
            )
            let answer = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            guard answer == "y" || answer == "yes" else {
                return CommandOutput(
                    lines: ["Kept \(workspace.short(report)); nothing was deleted."],
                    json: ["local_id": .string(report.localID.uuidString.lowercased()), "deleted": false],
                    exitCode: ExitCode.failure)
            }
        }
        return deleted(report, leaving: try workspace.delete(report), in: workspace)
    }

    /// What `delete` prints: the draft gone, or an amendment discarded (`after`).
    static func deleted(_ report: Report, leaving after: Report?, in workspace: Workspace) -> CommandOutput {
        let id = report.localID.uuidString.lowercased()
        if let after {
            return CommandOutput(
                lines: [
                    "Discarded the amendment of \(workspace.short(report)); it is \(after.state.rawValue) with its synced answers."
                ],
                json: ["local_id": .string(id), "deleted": false, "state": .string(after.state.rawValue)])
        }
        return CommandOutput(
            lines: ["Deleted draft \(workspace.short(report)) with its photos and issues."],
            json: ["local_id": .string(id), "deleted": true])
    }

    static let parent = Argument("LOCAL_ID", help: "the completed parent report")

    static let reinspect = Command(
        CommandSpec(
            "reinspect", summary: "start a re-inspection of a completed report, pre-filled from it",
            positionals: [parent.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let parent = try workspace.report(try inv[Self.parent])
        return reinspected(try workspace.reinspect(parent), of: parent, in: workspace)
    }

    /// What `reinspect` prints once the re-inspection is started.
    static func reinspected(_ child: Report, of parent: Report, in workspace: Workspace) -> CommandOutput {
        let id = child.localID.uuidString.lowercased()
        return CommandOutput(
            lines: [
                "Started re-inspection \(id) of \(workspace.short(parent)), \(child.answers.values.count) answer\(child.answers.values.count == 1 ? "" : "s") copied.",
                "Ratings, pass/fail, photos and signatures start blank. Continue with 'jqc run \(id)'.",
            ],
            json: [
                "local_id": .string(id), "parent_local_id": .string(parent.localID.uuidString.lowercased()),
                "copied_field_ids": .array(child.answers.answeredIDs.map { .string($0.rawValue) }),
            ])
    }
}
