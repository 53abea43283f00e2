import ArgumentParsing
import FieldTypes
import Foundation
import Models
import ProgramOutput
import ServerHTTP
import ServerStore

/// `jqc-server export`: what `GET /exports/reports` streams, written to a
/// file for an operator, straight from the database (the server may be
/// running): JSON Lines, one template's CSV, or a ZIP archive of
/// `reports.jsonl` and every photo (`photos/SERVER_ID/PHOTO_LOCAL_ID.jpg`).
/// The file is replaced atomically, streamed; a progress bar goes to stderr
/// when it is a terminal.
enum ExportCommand {
    /// What `--format` names: a stream of lines, one template's table, or an archive with the photos.
    enum Kind: String, CaseIterable, Sendable {
        case jsonl, csv, zip
    }

    static let db = Option("db", "FILE|URL", help: "the server's database (a SQLite file or a postgres:// URL)")
    static let format = Option(
        "format", "FORMAT", values: Kind.allCases.map(\.rawValue), help: "what to write",
        as: Conversion<Kind>.choice(otherwise: { word, label in "\(label) must be jsonl, csv or zip, not '\(word)'." }))
    static let since = Option(
        "since", "CHANGE",
        help: "only reports changed after this change (the 'change' of an earlier export's last line)")
    static let template = Option("template", "ID", help: "only this template's reports; csv needs it")
    static let facility = Option("facility", "ID", help: "only this facility's reports, issues or actions")
    static let from = Option(
        "from", "DATE|TIME",
        help:
            "only reports completed at or after this time (RFC 3339), or from this day's start (YYYY-MM-DD, the organisation's zone)"
    )
    static let to = Option(
        "to", "DATE|TIME",
        help: "only reports completed before this time (RFC 3339), or before this day's start (YYYY-MM-DD)")
    static let labels = Flag(
        "labels",
        help: "csv for people: the fields' labels, names beside codes, the score as a percent, passed, deficiencies")
    /// What an export holds.
    enum What: String, CaseIterable, Sendable {
        case reports, issues, actions
    }
    static let what = Option(
        "what", "WHAT", values: What.allCases.map(\.rawValue),
        help: "reports (the default), their issues (csv), or corrective actions, each with its thread",
        as: Conversion<What>.choice(otherwise: { word, label in
            "\(label) must be reports, issues or actions, not '\(word)'."
        })
    )
    static let output = Option(
        "output", short: "o", "FILE", help: "the file to write; replaced whole once the export is complete")

    static let spec = CommandSpec(
        "export", summary: "write every report (or those changed since a change) to a file, with the photos in a zip",
        options: [
            db.spec, format.spec, since.spec, template.spec, facility.spec, from.spec, to.spec, labels.spec, what.spec,
            output.spec,
        ],
        discussion:
            "The rows and shapes are those of GET /api/v1/exports/reports (docs/exports.md). The last line of a\n"
            + "JSON Lines export, and the summary printed, give the change to pass as --since next time.\n"
            + "--from and --to take a window of completion times, [from, to); a date is its day's start.\n"
            + "--labels writes a template's csv for people: labels for headers, names, the score in percent.\n"
            + "--what issues writes one csv row an issue, with the state of the action it became.\n"
            + "--what actions writes the actions as GET /api/v1/exports/actions does (jsonl or csv).\n"
            + "Example: jqc-server export --db server.db --format csv --template lobby-walk --labels\n"
            + "  --from 2026-11-01 --to 2026-12-01 -o november.csv")

    /// Runs the command on the words after `export`; the exit code.
    static func run(_ arguments: [String], parser: ArgumentParser, storage: StorageOpener) throws(UsageError)
        -> ExitCode
    {
        let parsed = try parser.parse(arguments, for: spec)
        if parsed[ServerCommand.help] {
            OutputChannel.standardOutput.line(
                HelpFormatter.help(spec, program: "jqc-server", globalOptions: ServerCommand.globalOptions))
            return .ok
        }
        guard let db = try parsed[Self.db] else { throw UsageError("'export' needs --db FILE or --db postgres://....") }
        guard let kind = try parsed[Self.format] else {
            throw UsageError("'export' needs --format jsonl, csv or zip.")
        }
        guard let output = try parsed[Self.output] else {
            throw UsageError("'export' needs -o FILE, the file to write.")
        }
        let what = try parsed[Self.what] ?? .reports
        if what == .actions {
            return exportActions(try actionQuery(parsed, kind: kind), db: db, output: output, storage: storage)
        }
        let request = try reportRequest(parsed, kind: kind, issues: what == .issues)
        return exportReports(request, archive: kind == .zip, db: db, output: output, storage: storage)
    }

    /// `--what actions`: the query, refusing what narrows or shapes reports only.
    private static func actionQuery(_ parsed: ParsedArguments, kind: Kind) throws(UsageError) -> ActionExportQuery {
        guard kind != .zip else {
            throw UsageError("a zip holds reports and their photos; export actions as jsonl or csv.")
        }
        guard !parsed.isGiven(Self.template) else { throw UsageError("--template narrows reports, not actions.") }
        guard !parsed.isGiven(Self.from) && !parsed.isGiven(Self.to) else {
            throw UsageError("--from and --to narrow reports and issues, not actions.")
        }
        guard !parsed[Self.labels] else { throw UsageError("--labels shapes a report csv, not the actions.") }
        return ActionExportQuery(
            format: kind == .csv ? .csv : .jsonl, since: try parsed[Self.since], facilityID: try parsed[Self.facility])
    }

    /// Reports or their issues: the request, refusing what cannot be written.
    private static func reportRequest(_ parsed: ParsedArguments, kind: Kind, issues: Bool) throws(UsageError)
        -> ReportExportRequest
    {
        let labels = parsed[Self.labels]
        var request = ReportExportRequest(
            query: ExportQuery(
                since: try parsed[Self.since], templateID: try parsed[Self.template],
                facilityID: try parsed[Self.facility]),
            from: try parsed[Self.from], to: try parsed[Self.to])
        if issues {
            guard kind == .csv else {
                throw UsageError(
                    "the issues export is csv (a jsonl export of reports holds their issues): give --format csv.")
            }
            guard !labels else {
                throw UsageError("the issues csv names sites, areas and inspectors already; leave out --labels.")
            }
            request.layout = .issues
        } else if kind == .csv {
            guard request.query.templateID != nil else {
                throw UsageError("a csv export is one template's table: give --template ID.")
            }
            request.layout = labels ? .labelledTable : .table
        } else if labels {
            throw UsageError("--labels names the columns of a csv; use it with --format csv.")
        }
        return request
    }

    /// Reports (JSON Lines, a table, or an archive with the photos) or their issues, written to `output`.
    private static func exportReports(
        _ request: ReportExportRequest, archive: Bool, db: String, output: String, storage: StorageOpener
    ) -> ExitCode {
        do throws(ServerError) {
            let opened = try storage.open(db, StorageOpener.Settings(connections: 2, uploadDirectory: nil))
            let export = try ReportExport.open(opened.store, request: request, registry: ServerFieldTypes.registry())
            defer { export.finish() }
            let progress = ExportProgress(total: export.matching, photos: archive)
            let photos =
                archive
                ? try write(export, archiveTo: output, photos: opened.photos, progress: progress)
                : try write(export, to: output, progress: progress)
            progress.done()
            var summary = "exported " + counted(export.count, "report")
            if request.layout == .issues {
                summary = "exported \(counted(export.issueCount, "issue")) of \(counted(export.count, "report"))"
            }
            if archive { summary += " and " + counted(photos.written, "photo") }
            OutputChannel.standardOutput.line("\(summary) to \(output); next time: --since \(export.change)")
            if photos.missing > 0 {
                OutputChannel.standardError.write(
                    "jqc-server: \(photos.missing) photo\(photos.missing == 1 ? " was" : "s were") recorded but their bytes are missing; the archive has the rest\n"
                )
            }
            return .ok
        } catch {
            return failed(error)
        }
    }

    /// `1 report`, `2 reports`.
    private static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// The one line of a failed export and its exit code.
    private static func failed(_ error: ServerError) -> ExitCode { CommandFailure.told(error) }

    /// `--what actions`: the actions, streamed into the file's replacement.
    private static func exportActions(_ query: ActionExportQuery, db: String, output: String, storage: StorageOpener)
        -> ExitCode
    {
        do throws(ServerError) {
            let opened = try storage.open(db, StorageOpener.Settings(connections: 2, uploadDirectory: nil))
            let export = try ActionExport.open(opened.store, query: query)
            defer { export.finish() }
            try write(export, to: output)
            OutputChannel.standardOutput.line(
                "exported \(export.count) action\(export.count == 1 ? "" : "s") to \(output); next time: --since \(export.change)"
            )
            return .ok
        } catch {
            return failed(error)
        }
    }

    /// JSON Lines or CSV, streamed into the file's replacement.
    private static func write(_ export: ReportExport, to output: String, progress: ExportProgress) throws(ServerError)
        -> PhotoCount
    {
        export.onReport = { _ in progress.report() }
        try write(export, to: output)
        return PhotoCount()
    }

    /// Every chunk of `export`, streamed into the file's replacement.
    private static func write(_ export: any StreamSource, to output: String) throws(ServerError) {
        try AtomicFile.replace(
            output, mode: 0o600,
            failure: { ServerError.internal("could not write \(OneLine.quote(output, limit: 200)): \($0.reason)") }
        ) {
            (descriptor) throws(ServerError) in
            while let chunk = try chunk(of: export) {
                try writeAll(descriptor, Array(chunk), output)
            }
        }
    }

    /// The archive: each report's photos as its line is written, the lines
    /// spooled beside the output and added last as `reports.jsonl`.
    private static func write(
        _ export: ReportExport, archiveTo output: String, photos store: any PhotoStore,
        progress: ExportProgress
    ) throws(ServerError) -> PhotoCount {
        let folder =
            (output as NSString).deletingLastPathComponent.isEmpty
            ? "." : (output as NSString).deletingLastPathComponent
        let lines = try ScratchFile(folder: folder)
        defer { lines.remove() }
        var count = PhotoCount()
        try AtomicFile.replace(
            output, mode: 0o600,
            failure: { ServerError.internal("could not write \(OneLine.quote(output, limit: 200)): \($0.reason)") }
        ) {
            (descriptor) throws(ServerError) in
            let zip = try ZipWriter(
                descriptor: descriptor, target: OneLine.quote(output, limit: 200), scratchFolder: folder)
            defer { zip.abandon() }
            export.onReport = { (row) throws(ServerError) in
                progress.report()
                for photo in row.photos {
                    guard let source = try store.open(sha256: photo.sha256, byteSize: photo.byteSize) else {
                        count.missing += 1
                        continue
                    }
                    defer { close(source) }
                    let name = "photos/\(safe(photo.serverID))/\(photo.localID.uuidString.lowercased()).jpg"
                    try zip.add(name, from: source, expectedSize: UInt64(max(0, photo.byteSize)))
                    count.written += 1
                    progress.photo()
                }
            }
            while let chunk = try chunk(of: export) {
                try lines.append(Array(chunk))
            }
            try lines.rewind()
            try zip.add("reports.jsonl", expectedSize: lines.size) { (buffer) throws(ServerError) -> Int in
                try lines.read(into: buffer)
            }
            try zip.finish()
        }
        return count
    }

    private static func chunk(of export: any StreamSource) throws(ServerError) -> Data? {
        do {
            return try export.nextChunk()
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError.internal("the export failed: \(error)")
        }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], _ output: String) throws(ServerError) {
        do throws(OutputError) {
            try DescriptorWriter.writeAll(descriptor, bytes, target: OneLine.quote(output, limit: 200))
        } catch {
            throw ServerError.internal("could not write \(OneLine.quote(output, limit: 200)): \(error.reason)")
        }
    }

    /// A name safe as one folder of the archive: letters, digits, `-`, `_` and `.` (not alone).
    static func safe(_ name: String) -> String {
        let kept = String(
            name.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            })
        return kept.isEmpty || kept == "." || kept == ".." ? "_" : kept
    }

    private struct PhotoCount {
        var written = 0
        var missing = 0
    }
}
