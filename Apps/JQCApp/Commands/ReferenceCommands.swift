import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models

/// facilities, areas, templates, assignments; their imports; templates lint; cache clear.
enum ReferenceCommands {
    static var all: [Command] {
        [
            facilities, areas, templates, assignments, templatesImport, templatesLint, facilitiesImport,
            assignmentsImport, cacheClear,
        ]
    }

    static let facilities = Command(CommandSpec("facilities", summary: "cached facilities (offline)")) {
        (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let list = try workspace.facilities()
        // Names and ids came from the server or a file: each cell through OneLine (the JSON keeps them exact).
        let lines =
            list.isEmpty
            ? ["No facilities on this device. Sync, or import them with 'jqc facilities import FILE'."]
            : TextTable.render(
                ["ID", "NAME", "ADDRESS", "PROJECT"],
                list.map { [oneLine($0.id), flatLine($0.name), flatLine($0.address), flatLine($0.projectName)] })
        return CommandOutput(
            lines: lines,
            json: [
                "facilities": .array(
                    list.map {
                        [
                            "id": .string($0.id), "name": .string($0.name), "address": .string($0.address),
                            "project_name": .string($0.projectName),
                        ]
                    })
            ])
    }

    static let facility = Argument("FACILITY", help: "the facility id")
    /// The file `templates import`, `templates lint`, `facilities import` and `assignments import` read.
    static let jsonFile = Argument("FILE", help: "the JSON file")

    static let areas = Command(
        CommandSpec(
            "areas", summary: "cached areas of a facility (offline)",
            positionals: [facility.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let facility = try inv[Self.facility]
        guard try workspace.facility(id: facility) != nil else {
            throw AppError.notFound("No facility '\(facility)' on this device. See 'jqc facilities'.")
        }
        let list = try workspace.areas(facilityID: facility)
        let lines =
            list.isEmpty
            ? ["Facility '\(oneLine(facility))' has no areas on this device."]
            : TextTable.render(
                ["ID", "NAME", "TYPE"], list.map { [oneLine($0.id), flatLine($0.name), flatLine($0.areaType)] })
        return CommandOutput(
            lines: lines,
            json: [
                "areas": .array(
                    list.map {
                        [
                            "id": .string($0.id), "facility_id": .string($0.facilityID), "name": .string($0.name),
                            "area_type": .string($0.areaType),
                        ]
                    })
            ])
    }

    static let templates = Command(CommandSpec("templates", summary: "cached inspection templates (offline)")) {
        (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let list = try workspace.templates()
        let lines =
            list.isEmpty
            ? ["No templates on this device. Sync, or import them with 'jqc templates import FILE'."]
            : TextTable.render(
                ["ID", "NAME", "VERSION", "FIELDS"],
                list.map { [oneLine($0.id), flatLine($0.name), String($0.version), String($0.schema.fields.count)] })
        return CommandOutput(
            lines: lines,
            json: [
                "templates": .array(
                    list.map {
                        [
                            "id": .string($0.id), "name": .string($0.name), "version": .integer(Int64($0.version)),
                            "field_count": .integer(Int64($0.schema.fields.count)),
                        ]
                    })
            ])
    }

    static let assignments = Command(
        CommandSpec(
            "assignments",
            summary: "cached assignments, overdue first: what is done and the report started for each (offline)",
            discussion: """
                Overdue: open on the server, due before now (this device's clock) and no report for it completed here.
                Done: closed on the server, or a report for it completed on this device (PENDING, SYNCED or CONFLICT).
                Names come from this device's cache; an id not cached is shown as it is.
                """)
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        return assignmentsShown(
            try workspace.assignments(), reports: try workspace.reports(), in: workspace, now: inv.context.now())
    }

    /// One assignment as `assignments` shows it: names, whether it is overdue or done, its report.
    struct AssignmentLine {
        let assignment: Assignment
        let templateName: String
        let facilityName: String
        let areaName: String?
        let due: Date?
        let overdue: Bool
        let done: Bool
        let report: Report?
    }

    /// The assignments overdue first, then by due date (none last), then by id.
    static func assignmentLines(_ list: [Assignment], reports: [Report], in workspace: Workspace, now: Date)
        -> [AssignmentLine]
    {
        let lines = list.map { a -> AssignmentLine in
            let mine = reports.filter { $0.assignmentID == a.id }
            let report = mine.first { $0.state != .synced } ?? mine.first
            let completedHere = mine.contains { [.pending, .synced, .conflict].contains($0.state) }
            let done = a.status == .closed || completedHere
            let due = a.dueAt.flatMap(RFC3339.date)
            return AssignmentLine(
                assignment: a,
                templateName: workspace.templateName(a.templateID) ?? a.templateID,
                facilityName: workspace.facilityName(a.facilityID) ?? a.facilityID,
                areaName: a.areaID.map { workspace.areaName($0, facilityID: a.facilityID) ?? $0 },
                due: due, overdue: a.status == .open && !done && due.map { $0 < now } == true,
                done: done, report: report)
        }
        return lines.sorted { x, y in
            if x.overdue != y.overdue { return x.overdue }
            switch (x.due, y.due) {
            case let (a?, b?) where a != b: return a < b
            case (_?, nil): return true
            case (nil, _?): return false
            default: return x.assignment.id < y.assignment.id
            }
        }
    }

    /// What `assignments` prints; text from the server goes through `OneLine`.
    static func assignmentsShown(_ list: [Assignment], reports: [Report], in workspace: Workspace, now: Date)
        -> CommandOutput
    {
        let lines = assignmentLines(list, reports: reports, in: workspace, now: now)
        func text(_ value: String) -> String { OneLine.flatten(value, lineBreak: " ") }
        let rows = lines.map { line -> [String] in
            let a = line.assignment
            let mark = line.overdue ? "OVERDUE" : line.done ? "done" : a.status.rawValue
            return [
                text(a.id), text(line.templateName), text(line.facilityName), line.areaName.map(text) ?? "-",
                a.dueAt.map(text) ?? "-", mark,
                line.report.map { "\(workspace.short($0)) \($0.state.rawValue)" } ?? (line.done ? "-" : "to do"),
            ]
        }
        let overdue = lines.filter(\.overdue).count
        var shown =
            list.isEmpty
            ? ["No assignments on this device. Sync, or import them with 'jqc assignments import FILE'."]
            : TextTable.render(["ID", "TEMPLATE", "FACILITY", "AREA", "DUE", "STATUS", "REPORT"], rows)
        if overdue > 0 { shown.append("\(overdue) overdue.") }
        return CommandOutput(
            lines: shown,
            json: [
                "assignments": .array(
                    lines.map { line in
                        let a = line.assignment
                        return [
                            "id": .string(a.id), "template_id": .string(a.templateID),
                            "facility_id": .string(a.facilityID),
                            "area_id": a.areaID.map { .string($0) } ?? .null,
                            "due_at": a.dueAt.map { .string($0) } ?? .null,
                            "status": .string(a.status.rawValue),
                            "report_local_id": line.report.map { .string($0.localID.uuidString.lowercased()) } ?? .null,
                            "overdue": .bool(line.overdue), "done": .bool(line.done),
                            "template_name": .string(line.templateName), "facility_name": .string(line.facilityName),
                            "area_name": line.areaName.map { .string($0) } ?? .null,
                        ]
                    })
            ])
    }

    static let templatesImport = Command(
        CommandSpec(
            "templates import",
            summary: "load templates from a JSON file: one template object, or {\"templates\": [...]} as sent",
            positionals: [jsonFile.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        importedTemplates(try inv.workspace().importTemplates(path: try inv[Self.jsonFile]))
    }

    /// What `templates import` prints; the menu says the same.
    static func importedTemplates(_ summary: ImportSummary) -> CommandOutput {
        CommandOutput(
            lines: [
                summary.imported.isEmpty
                    ? nothingImported(summary, lists: "no templates (its \"templates\" list is empty)")
                    : "Imported \(counted(summary.imported.count, "template")): \(summary.imported.map(oneLine).joined(separator: ", "))."
            ]
                + summary.warnings.map { "Note: \($0)" }
                // Each outside string in it went through the one sanitiser.
                + summary.moved.map(\.message),
            json: [
                "imported": .array(summary.imported.map { .string($0) }),
                "warnings": .array(summary.warnings.map { .string($0) }),
                "moved": .array(summary.moved.map(\.json)),
            ])
    }

    static let templatesLint = Command(
        CommandSpec(
            "templates lint",
            summary: "check a template file against the field-type registry; exit 4 listing every problem",
            positionals: [jsonFile.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        let path = try inv[Self.jsonFile]
        let document = try Workspace.readReferenceFile(path)
        let (templates, all) = Workspace.lintTemplates(document, source: path, registry: inv.context.registry)
        guard all.isEmpty else {
            throw AppError.validation(
                "'\(path)' has \(all.count) problem\(all.count == 1 ? "" : "s").", problems: all, code: .templateInvalid
            )
        }
        return CommandOutput(
            lines: ["'\(path)': \(templates.count) template\(templates.count == 1 ? "" : "s"), no problems."],
            json: ["ok": true, "templates": .array(templates.map { .string($0) }), "problems": []],
            showsStatusLine: false)
    }

    static let facilitiesImport = Command(
        CommandSpec(
            "facilities import",
            summary: "load facilities and areas from a JSON file ({\"facilities\": [...], \"areas\": [...]})",
            positionals: [jsonFile.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        importedFacilities(try inv.workspace().importFacilities(path: try inv[Self.jsonFile]))
    }

    /// What `facilities import` prints; the menu says the same.
    static func importedFacilities(_ summary: ImportSummary) -> CommandOutput {
        let facilities = counted(summary.imported.count, "facility", "facilities")
        let line =
            summary.imported.isEmpty && summary.areas == 0
            ? nothingImported(summary, lists: "no facilities and no areas (its \"facilities\" list is empty)")
            : "Imported \(facilities)\(summary.imported.isEmpty ? "" : " (\(summary.imported.map(oneLine).joined(separator: ", ")))")"
                + (summary.areas > 0 ? " and \(counted(summary.areas, "area"))." : ".")
        return CommandOutput(
            lines: [line] + summary.warnings.map { "Note: \($0)" },
            json: ["imported": .array(summary.imported.map { .string($0) }), "areas": .integer(Int64(summary.areas))])
    }

    /// Why an import changed nothing: the file held nothing to import.
    static func nothingImported(_ summary: ImportSummary, lists what: String) -> String {
        "Nothing was imported: '\(oneLine(summary.source))' lists \(what)."
    }

    static let assignmentsImport = Command(
        CommandSpec(
            "assignments import", summary: "load assignments from a JSON file ({\"assignments\": [...]})",
            positionals: [jsonFile.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        importedAssignments(try inv.workspace().importAssignments(path: try inv[Self.jsonFile]))
    }

    /// What `assignments import` prints; the menu says the same.
    static func importedAssignments(_ summary: ImportSummary) -> CommandOutput {
        CommandOutput(
            lines: [
                summary.imported.isEmpty
                    ? nothingImported(summary, lists: "no assignments (its \"assignments\" list is empty)")
                    : "Imported \(counted(summary.imported.count, "assignment")): \(summary.imported.map(oneLine).joined(separator: ", "))."
            ],
            json: ["imported": .array(summary.imported.map { .string($0) })])
    }

    static let cacheClear = Command(
        CommandSpec(
            "cache clear",
            summary: "forget cached facilities, areas, templates and assignments; reports, photos and issues are kept, "
                + "and so are the templates of reports not yet synced")
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let kept = try workspace.clearReferenceCache()
        var lines = ["Cleared the reference cache. Reports, photos and issues are untouched."]
        if kept > 0 {
            lines.append(
                "Kept \(kept) template\(kept == 1 ? "" : "s") that drafts or reports not yet synced still need; the next sync refreshes the rest."
            )
        }
        return CommandOutput(lines: lines, json: ["cleared": true, "templates_kept": .integer(Int64(kept))])
    }
}
