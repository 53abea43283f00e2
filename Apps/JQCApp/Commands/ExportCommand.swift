import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models

/// `export`: a report as JSON, CSV or one self-contained HTML page.
enum ExportCommand {
    /// `jqc export (LOCAL_ID... | --state S | --all) --format json|csv|html|pdf [-o FILE]`.
    static let reports = Argument(
        variadic: "LOCAL_ID", help: "the report's id or a unique prefix of it, or a server id; several for one file",
        optional: true)
    static let format = Option(
        "format", "FORMAT", values: ExportFormat.allCases.map(\.rawValue),
        help: "the format, by default from the -o file's extension",
        as: .checked(
            ExportFormat.init(typed:),
            otherwise: { word, _ in "'\(word)' is not an export format; use --format \(ExportFormat.choices)." }))
    static let output = Option(
        "output", short: "o", "FILE", help: "write to FILE (atomically) instead of standard output")
    static let state = Option(
        repeating: "state", "STATE", values: ReportState.allCases.map(\.rawValue),
        help: "every local report in this state, into one file; repeatable, or a comma list", as: .text)
    static let everyReport = Flag("all", help: "every local report, into one file")

    static let export = Command(
        CommandSpec(
            "export",
            summary:
                "export a report as JSON, CSV, a self-contained HTML page to print or a PDF; or several into one CSV or JSON file",
            positionals: [reports.spec],
            options: [format.spec, output.spec, state.spec, everyReport.spec],
            discussion: """
                Any report can be exported, whatever its state. Without -o the export alone goes to standard output.
                JSON: the 'show --json' document plus template version, facility and area names and exported_at.
                CSV (RFC 4180, UTF-8, CRLF): one row per form field, then one per issue, then the summary (template,
                facility, area, state, score, verdict, counts of fields, issues and photos). Notes keep their line
                breaks inside the quoted cell. A cell starting with = + - @, a tab or CR gets a leading ' so a spreadsheet shows it as text, never runs it.
                HTML: one file with its photos embedded, for printing (A4). Times are the device's clock.
                PDF: the inspection report (A4) with its photos as stored, private fields marked; one report a file.
                Several reports (more than one LOCAL_ID, --state or --all) go into one file, newest first: CSV is one table
                under one header, every report's rows as above; JSON is {"reports": [...]}, each the one-report document.
                HTML stays one report a page.
                A server id of a report this device does not hold is read from the server (signed in, online only, as
                'jqc show' does), exported from memory and never kept; HTML embeds the photos fetched for it.
                Examples:
                  jqc export 3f2a --format html -o washroom.html
                  jqc export 3f2a --format csv > washroom.csv
                  jqc export 3f2a -o washroom.pdf
                  jqc export --state SYNCED,PENDING -o week.csv
                """)
    ) { (inv) async throws(AppError) -> CommandOutput in
        let ids = try inv[Self.reports]
        let states = try states(try inv[Self.state])
        let all = inv[Self.everyReport]
        let choices = (ids.isEmpty ? 0 : 1) + (states.isEmpty ? 0 : 1) + (all ? 1 : 0)
        guard choices == 1 else {
            throw AppError.usage(
                choices == 0
                    ? "'export' needs a LOCAL_ID, --state STATE or --all."
                    : "give LOCAL_IDs, --state or --all, one of them.")
        }
        let outputPath = try inv[Self.output]
        let format: ExportFormat
        if let typed = try inv[Self.format] {
            format = typed
        } else if let outputPath, let implied = ExportFormat(fileName: outputPath) {
            format = implied
        } else if let outputPath {
            let suffix = (outputPath as NSString).pathExtension
            let told =
                suffix.isEmpty
                ? "'\(outputPath)' has no extension to tell the format from"
                : "The format cannot be told from '.\(suffix)' ('\(outputPath)')"
            throw AppError.usage(
                "\(told): add --format \(ExportFormat.choices), or name the file .json, .csv, .html or .pdf.")
        } else {
            throw AppError.usage("'export' needs --format \(ExportFormat.choices).")
        }
        if inv.context.json && outputPath == nil && format != .json {
            throw AppError.usage(
                "--json prints one JSON document, so a \(format.rawValue.uppercased()) export needs -o FILE; or leave out --json to get it on standard output."
            )
        }
        let target = try outputPath.map { (path) throws(AppError) in try ExportFile.target(path) }
        if format == .pdf && outputPath == nil && isatty(STDOUT_FILENO) == 1 {
            throw AppError.usage("A PDF is not for the terminal: add -o FILE, or send it to a file or a pipe.")
        }
        if ids.count != 1 {
            guard format != .html && format != .pdf else {
                throw AppError.usage(
                    "\(format == .pdf ? "A PDF" : "HTML") is one report a page: export reports one at a time, or several as --format csv or json."
                )
            }
            return try await several(ids: ids, states: states, format: format, target: target, inv)
        }
        let workspace = try inv.workspace()
        let content: ExportedReport
        let shortID: String
        var fetchedPhotos: URL?
        defer { if let fetchedPhotos { try? FileManager.default.removeItem(at: fetchedPhotos) } }
        switch try await ReportLookup.find(ids[0], in: workspace, context: inv.context) {
        case .local(let report):
            if let target {
                return try exported(
                    report, as: format, to: target, in: workspace, now: inv.context.now(),
                    inspector: inspector(inv.context))
            }
            content = try ExportedReport(
                report, workspace: workspace, exportedAt: inv.context.now(), inspector: inspector(inv.context))
            shortID = workspace.short(report)
        case .server(let fetched):
            // Only the HTML page embeds photos: they are fetched into a private folder removed after the export.
            if (format == .html || format == .pdf) && !fetched.photos.isEmpty {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "jqc-export-\(UUID().uuidString.lowercased())")
                fetchedPhotos = folder
                try await SyncService(context: inv.context).savePhotos(of: fetched, to: folder.path)
            }
            // A supervisor who has not synced yet holds no template: read it with the report, never kept.
            let template: Template? =
                (try? workspace.template(for: fetched.report)) != nil
                ? nil
                : await SyncService(context: inv.context).serverTemplate(
                    id: fetched.report.templateID, version: fetched.report.templateVersion)
            content = ExportedReport(
                fetched: fetched, workspace: workspace, exportedAt: inv.context.now(), photoFolder: fetchedPhotos,
                template: template)
            shortID = fetched.serverID
        }
        if let target {
            return try written(content, id: shortID, as: format, to: target)
        }
        if inv.context.json {
            // Only JSON reaches here: the dispatcher prints it as the one document.
            return CommandOutput(lines: [], json: JSONExport.document(content), showsStatusLine: false)
        }
        try ExportFile.writeToStandardOutput(produce(format, content))
        return CommandOutput(lines: [], json: .null, showsStatusLine: false)
    }

    /// The states of `--state`, each a name or a comma list of them.
    static func states(_ given: [String]) throws(AppError) -> [ReportState] {
        var states: [ReportState] = []
        for text in given.flatMap({ $0.split(separator: ",") }).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let state = ReportState(rawValue: text.uppercased()) else {
                throw AppError.usage(
                    "'\(OneLine.flatten(text, lineBreak: " "))' is not a report state; use DRAFT, PENDING, SYNCED, CONFLICT or REJECTED."
                )
            }
            if !states.contains(state) { states.append(state) }
        }
        return states
    }

    /// Several reports into one CSV table or one JSON document, each report
    /// read and written in turn (never all in memory), newest first.
    static func several(
        ids: [String], states: [ReportState], format: ExportFormat, target: URL?,
        _ inv: Invocation
    ) async throws(AppError) -> CommandOutput {
        let workspace = try inv.workspace()
        let now = inv.context.now()
        let name = inspector(inv.context)
        // The reports, by local id, so none is exported twice; each becomes its export when it is written.
        var picked: [Report] = []
        var seen = Set<UUID>()
        if !ids.isEmpty {
            for id in ids {
                guard case .local(let report) = try await ReportLookup.find(id, in: workspace, context: inv.context)
                else {
                    throw AppError.notFound(
                        "'\(OneLine.flatten(id, lineBreak: " "))' is a report this device does not hold; export it alone to read it from the server."
                    )
                }
                if seen.insert(report.localID).inserted { picked.append(report) }
            }
        } else {
            let wanted = Set(states)
            for report in try workspace.reports() where wanted.isEmpty || wanted.contains(report.state) {
                if seen.insert(report.localID).inserted { picked.append(report) }
            }
        }
        let reports = picked
        let produce = { (sink: ExportSink) throws(AppError) in
            switch format {
            case .csv:
                try sink.write(CSVExport.line(CSVExport.header))
                for report in reports {
                    try sink.write(
                        CSVExport.rows(
                            try ExportedReport(report, workspace: workspace, exportedAt: now, inspector: name)))
                }
            default:
                // {"reports": [...]}: each document as the one-report export writes it, one after another.
                try sink.write("{\"reports\": [")
                for (index, report) in reports.enumerated() {
                    let document = JSONExport.document(
                        try ExportedReport(report, workspace: workspace, exportedAt: now, inspector: name))
                    try sink.write((index == 0 ? "\n" : ",\n") + document.canonicalString())
                }
                try sink.write(reports.isEmpty ? "]}\n" : "\n]}\n")
            }
        }
        let count = "\(reports.count) report\(reports.count == 1 ? "" : "s")"
        if let target {
            let bytes = try ExportFile.writeAtomically(to: target, produce)
            return CommandOutput(
                lines: [
                    "Exported \(count) as \(format.rawValue.uppercased()) to \(target.path) (\(ReportPresenter.bytes(bytes)))."
                ],
                json: [
                    "file": .string(target.path), "format": .string(format.rawValue), "bytes": .integer(bytes),
                    "reports": .integer(Int64(reports.count)),
                ])
        }
        if inv.context.json {
            var documents: [JSONValue] = []
            for report in reports {
                documents.append(
                    JSONExport.document(
                        try ExportedReport(report, workspace: workspace, exportedAt: now, inspector: name)))
            }
            return CommandOutput(lines: [], json: ["reports": .array(documents)], showsStatusLine: false)
        }
        try ExportFile.writeToStandardOutput(produce)
        return CommandOutput(lines: [], json: .null, showsStatusLine: false)
    }

    /// Writes a report's export to a file, atomically, and says where; the menu exports the same way.
    static func exported(
        _ report: Report, as format: ExportFormat, to target: URL, in workspace: Workspace,
        now: Date, inspector: String? = nil
    ) throws(AppError) -> CommandOutput {
        let content = try ExportedReport(report, workspace: workspace, exportedAt: now, inspector: inspector)
        return try written(content, id: workspace.short(report), as: format, to: target)
    }

    /// The display name of the person signed in on this device (cached; offline), nil when no one is or it cannot be read.
    static func inspector(_ context: AppContext) -> String? {
        guard let saved = try? context.credentials.load() else { return nil }
        let name = saved.user.displayName.isEmpty ? saved.user.username : saved.user.displayName
        return name.isEmpty ? nil : name
    }

    /// Writes an export to a file, atomically, and says where.
    static func written(_ content: ExportedReport, id: String, as format: ExportFormat, to target: URL) throws(AppError)
        -> CommandOutput
    {
        let bytes = try ExportFile.writeAtomically(to: target, produce(format, content))
        return CommandOutput(
            lines: [
                "Exported report \(OneLine.flatten(id, lineBreak: " ")) as \(format.rawValue.uppercased()) to \(target.path) (\(ReportPresenter.bytes(bytes)))."
            ],
            json: ["file": .string(target.path), "format": .string(format.rawValue), "bytes": .integer(bytes)])
    }

    /// Writes `content` in `format` to a sink.
    private static func produce(_ format: ExportFormat, _ content: ExportedReport) -> (ExportSink) throws(AppError) ->
        Void
    {
        { (sink: ExportSink) throws(AppError) in
            switch format {
            case .json: try sink.write(JSONExport.text(content))
            case .csv: try sink.write(CSVExport.text(content))
            case .html: try HTMLExport.write(content, to: sink)
            case .pdf: try PDFExport.write(content, number: String(content.localID.prefix(8)), to: sink)
            }
        }
    }
}
