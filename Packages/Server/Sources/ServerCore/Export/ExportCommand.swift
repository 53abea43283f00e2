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
    static let facility = Option("facility", "ID", help: "only this facility's reports or actions")
    /// What an export holds.
    enum What: String, CaseIterable, Sendable {
        case reports, actions
    }
    static let what = Option(
        "what", "WHAT", values: What.allCases.map(\.rawValue),
        help: "reports (the default) or corrective actions, each with its thread",
        as: Conversion<What>.choice(otherwise: { word, label in "\(label) must be reports or actions, not '\(word)'." })
    )
    static let output = Option(
        "output", short: "o", "FILE", help: "the file to write; replaced whole once the export is complete")

    static let spec = CommandSpec(
        "export", summary: "write every report (or those changed since a change) to a file, with the photos in a zip",
        options: [db.spec, format.spec, since.spec, template.spec, facility.spec, what.spec, output.spec],
        discussion:
            "The rows and shapes are those of GET /api/v1/exports/reports (docs/exports.md). The last line of a\n"
            + "JSON Lines export, and the summary printed, give the change to pass as --since next time.\n"
            + "--what actions writes the actions as GET /api/v1/exports/actions does (jsonl or csv).\n"
            + "Example: jqc-server export --db server.db --format zip -o reports.zip")

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
        guard parsed.isGiven(Self.format) else {
            throw UsageError("'export' needs --format jsonl, csv or zip.")
        }
        guard let output = try parsed[Self.output] else {
            throw UsageError("'export' needs -o FILE, the file to write.")
        }
        let kind = try parsed[Self.format]
        if parsed.isGiven(Self.what), try parsed[Self.what] == .actions {
            guard kind != .zip else {
                throw UsageError("a zip holds reports and their photos; export actions as jsonl or csv.")
            }
            guard !parsed.isGiven(Self.template) else { throw UsageError("--template narrows reports, not actions.") }
            let query = ActionExportQuery(
                format: kind == .csv ? .csv : .jsonl, since: try parsed[Self.since],
                facilityID: try parsed[Self.facility])
            return exportActions(query, db: db, output: output, storage: storage)
        }
        let archive = kind == .zip
        let format: ExportFormat = kind == .csv ? .csv : .jsonl
        let template = try parsed[Self.template]
        if format == .csv && template == nil {
            throw UsageError("a csv export is one template's table: give --template ID.")
        }
        let query = ExportQuery(
            since: try parsed[Self.since], templateID: template, facilityID: try parsed[Self.facility])
        do throws(ServerError) {
            let opened = try storage.open(db, StorageOpener.Settings(connections: 2, uploadDirectory: nil))
            let export = try ReportExport.open(opened.store, query: query, format: format)
            defer { export.finish() }
            let progress = ExportProgress(total: export.matching, photos: archive)
            let photos =
                archive
                ? try write(export, archiveTo: output, photos: opened.photos, progress: progress)
                : try write(export, to: output, progress: progress)
            progress.done()
            var summary = "exported \(export.count) report\(export.count == 1 ? "" : "s")"
            if archive { summary += " and \(photos.written) photo\(photos.written == 1 ? "" : "s")" }
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

    /// The one line of a failed export and its exit code.
    private static func failed(_ error: ServerError) -> ExitCode {
        OutputChannel.standardError.write("jqc-server: \(OneLine.escaped(error.message))\n")
        switch error.status {
        case 404: return .notFound
        case 400: return .validation
        default: return .failure
        }
    }

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

/// The progress of an export on a terminal's stderr: a bar of the reports
/// written out of those the snapshot holds, and the photos archived. Nothing
/// when stderr is not a terminal (a log, a pipe).
final class ExportProgress {
    private let total: Int
    private let photos: Bool
    private let shown = isatty(STDERR_FILENO) == 1
    private var reports = 0
    private var photoCount = 0
    private var lastDrawn = DispatchTime.now().uptimeNanoseconds

    init(total: Int, photos: Bool) {
        self.total = total
        self.photos = photos
    }

    func report() {
        reports += 1
        drawNow()
    }

    func photo() {
        photoCount += 1
        drawNow()
    }

    /// The last state, and the line ended.
    func done() {
        guard shown else { return }
        draw()
        OutputChannel.standardError.write("\n")
    }

    private func drawNow() {
        guard shown else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now &- lastDrawn > 100_000_000 else { return }
        lastDrawn = now
        draw()
    }

    private func draw() {
        let width = 30
        let fraction = total == 0 ? 1 : min(1, Double(reports) / Double(total))
        let filled = Int(fraction * Double(width))
        var line = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
        line += "\(Int(fraction * 100))% \(reports)/\(total) reports"
        if photos { line += ", \(photoCount) photos" }
        OutputChannel.standardError.write(line)
    }
}
