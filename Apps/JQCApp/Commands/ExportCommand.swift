import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models

/// `export`: a report as JSON, CSV or one self-contained HTML page (PRODUCT.md F13).
enum ExportCommand {
    /// `jqc export LOCAL_ID --format json|csv|html [-o FILE]`.
    static let export = Command(CommandSpec(
        "export", summary: "export a report as JSON, CSV or a self-contained HTML page to print",
        positionals: [PositionalSpec("LOCAL_ID", help: "the report's id or a unique prefix of it, or a server id")],
        options: [.value("format", "FORMAT", values: ExportFormat.allCases.map(\.rawValue),
                         help: "the format, by default from the -o file's extension"),
                  .value("output", short: "o", "FILE", help: "write to FILE (atomically) instead of standard output")],
        discussion: """
        Any report can be exported, whatever its state. Without -o the export alone goes to standard output.
        JSON: the 'show --json' document plus template version, facility and area names and exported_at.
        CSV (RFC 4180, UTF-8, CRLF): one row per form field, then one per issue, then the summary (template,
        facility, area, state, score, verdict, counts of fields, issues and photos). Notes keep their line
        breaks inside the quoted cell. A cell starting with = + - @, a tab or CR gets a leading ' so a spreadsheet shows it as text, never runs it.
        HTML: one file with its photos embedded, for printing (A4). Times are the device's clock.
        A server id of a report this device does not hold is read from the server (signed in, online only, as
        'jqc show' does), exported from memory and never kept; HTML embeds the photos fetched for it.
        Examples:
          jqc export 3f2a --format html -o washroom.html
          jqc export 3f2a --format csv > washroom.csv
        """)
    ) { (inv) throws(AppError) -> CommandOutput in
        let args = inv.arguments
        let outputPath = args.value("output")
        let format: ExportFormat
        if let typed = args.value("format") {
            guard let parsed = ExportFormat(typed: typed) else {
                throw AppError.usage("'\(typed)' is not an export format; use --format \(ExportFormat.choices).")
            }
            format = parsed
        } else if let outputPath, let implied = ExportFormat(fileName: outputPath) {
            format = implied
        } else if let outputPath {
            let suffix = (outputPath as NSString).pathExtension
            let told = suffix.isEmpty ? "'\(outputPath)' has no extension to tell the format from"
                : "The format cannot be told from '.\(suffix)' ('\(outputPath)')"
            throw AppError.usage("\(told): add --format \(ExportFormat.choices), or name the file .json, .csv or .html.")
        } else {
            throw AppError.usage("'export' needs --format \(ExportFormat.choices).")
        }
        if inv.context.json && outputPath == nil && format != .json {
            throw AppError.usage("--json prints one JSON document, so a \(format.rawValue.uppercased()) export needs -o FILE; or leave out --json to get it on standard output.")
        }
        let target = try outputPath.map { (path) throws(AppError) in try ExportFile.target(path) }
        let workspace = try inv.workspace()
        let content: ExportedReport
        let shortID: String
        var fetchedPhotos: URL?
        defer { if let fetchedPhotos { try? FileManager.default.removeItem(at: fetchedPhotos) } }
        switch try ReportLookup.find(inv.positional(0), in: workspace, context: inv.context) {
        case .local(let report):
            if let target {
                return try exported(report, as: format, to: target, in: workspace, now: inv.context.now(),
                                    inspector: inspector(inv.context))
            }
            content = try ExportedReport(report, workspace: workspace, exportedAt: inv.context.now(), inspector: inspector(inv.context))
            shortID = workspace.short(report)
        case .server(let fetched):
            // Only the HTML page embeds photos: they are fetched into a private folder removed after the export.
            if format == .html && !fetched.photos.isEmpty {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jqc-export-\(UUID().uuidString.lowercased())")
                fetchedPhotos = folder
                try SyncService(context: inv.context).savePhotos(of: fetched, to: folder.path)
            }
            content = ExportedReport(fetched: fetched, workspace: workspace, exportedAt: inv.context.now(), photoFolder: fetchedPhotos)
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

    /// Writes a report's export to a file, atomically, and says where; the menu exports the same way.
    static func exported(_ report: Report, as format: ExportFormat, to target: URL, in workspace: Workspace,
                         now: Date, inspector: String? = nil) throws(AppError) -> CommandOutput {
        let content = try ExportedReport(report, workspace: workspace, exportedAt: now, inspector: inspector)
        return try written(content, id: workspace.short(report), as: format, to: target)
    }

    /// The display name of the person signed in on this device (cached; offline), nil when no one is or it cannot be read.
    static func inspector(_ context: AppContext) -> String? {
        guard let saved = try? CredentialStore(profile: context.profile).load() else { return nil }
        let name = saved.user.displayName.isEmpty ? saved.user.username : saved.user.displayName
        return name.isEmpty ? nil : name
    }

    /// Writes an export to a file, atomically, and says where.
    static func written(_ content: ExportedReport, id: String, as format: ExportFormat, to target: URL) throws(AppError) -> CommandOutput {
        let bytes = try ExportFile.writeAtomically(to: target, produce(format, content))
        return CommandOutput(
            lines: ["Exported report \(OneLine.flatten(id, lineBreak: " ")) as \(format.rawValue.uppercased()) to \(target.path) (\(ReportPresenter.bytes(bytes)))."],
            json: ["file": .string(target.path), "format": .string(format.rawValue), "bytes": .integer(bytes)])
    }

    /// Writes `content` in `format` to a sink.
    private static func produce(_ format: ExportFormat, _ content: ExportedReport) -> (ExportSink) throws(AppError) -> Void {
        { (sink: ExportSink) throws(AppError) in
            switch format {
            case .json: try sink.write(JSONExport.text(content))
            case .csv: try sink.write(CSVExport.text(content))
            case .html: try HTMLExport.write(content, to: sink)
            }
        }
    }
}
