import FieldTypes
import Foundation
import Models
import ServerHTTP
import ServerStore

/// One export being written: the reader's pages rendered, a chunk of about
/// `chunkBytes` at a time, in one of the `ReportLayout`s (JSON Lines, the
/// contract's CSV, the CSV with labels, the issues). The HTTP route streams
/// its chunks to the client; `jqc-server export` writes them to a file.
/// Memory holds one page and one chunk, whatever the number of reports.
///
/// Not Sendable in spirit: one thread at a time (the stream's, or the
/// command's) calls `nextChunk` and then `finish`.
public final class ReportExport: StreamSource, @unchecked Sendable {
    /// How each report is rendered.
    private enum Renderer {
        case lines
        case table(fieldIDs: [String])
        case labelled(LabelledCSV)
        case issues
    }

    private let reader: any ExportReader
    private let renderer: Renderer
    private let versions: TemplateVersions
    private let chunkBytes: Int
    private var page: [ExportedReport] = []
    private var next = 0
    private var started = false
    private var ended = false
    private var finished = false
    private var text = JSONText()
    /// Reports written so far.
    public private(set) var count = 0
    /// Issues written so far (the issues layout).
    public private(set) var issueCount = 0
    /// Called with each report as it is written (the archive takes its photos).
    var onReport: ((ExportedReport) throws(ServerError) -> Void)?
    /// Called once a failure cut the export short.
    var onFailure: ((ServerError) -> Void)?
    /// Called once, when the export is finished or abandoned.
    var onFinish: (() -> Void)?

    /// An export of what `reader` holds in `layout`; `templateID` names a
    /// table's template, and `registry` says which of its fields take answers.
    init(
        reader: any ExportReader, layout: ReportLayout, templateID: String?, registry: FieldTypeRegistry,
        chunkBytes: Int = 64 * 1024
    ) {
        self.reader = reader
        self.chunkBytes = chunkBytes
        versions = TemplateVersions(reader.versions)
        switch layout {
        case .lines: renderer = .lines
        case .table: renderer = .table(fieldIDs: templateID.map(versions.fieldIDs(of:)) ?? [])
        case .labelledTable:
            renderer = .labelled(LabelledCSV(fields: templateID.map(versions.fields(of:)) ?? [], registry: registry))
        case .issues: renderer = .issues
        }
    }

    /// Opens the export `request` asks of `store`: the window resolved in
    /// the organisation's time zone (400 for a bound that is not a time or a
    /// date), and a table's template known (404 otherwise).
    static func open(_ store: any ServerStorage, request: ReportExportRequest, registry: FieldTypeRegistry)
        throws(ServerError) -> ReportExport
    {
        var query = request.query
        if request.from != nil || request.to != nil {
            let zone = try store.read { session in try OrganisationZone.current(in: session) }
            (query.acceptedFrom, query.acceptedBefore) = try ExportWindow.bounds(
                from: request.from, to: request.to, zone: zone)
        }
        query.readsNames = request.layout == .labelledTable || request.layout == .issues
        query.readsIssueActions = request.layout == .issues
        let reader = PrefetchingReader(try store.openExport(query))
        if request.layout.isTemplateTable, let template = query.templateID,
            !TemplateVersions(reader.versions).knows(template)
        {
            reader.close()
            throw ServerError.notFound("no template \(OneLine.quote(template, limit: 60))")
        }
        return ReportExport(reader: reader, layout: request.layout, templateID: query.templateID, registry: registry)
    }

    /// How many reports the export holds in all.
    public var matching: Int { reader.matching }

    /// The `change` a later export continues from.
    public var change: String { ReviewCursor.encode(reader.lastChange, generation: reader.generation) }

    public func nextChunk() throws -> Data? {
        do throws(ServerError) {
            return try produce()
        } catch {
            onFailure?(error)
            throw error
        }
    }

    private func produce() throws(ServerError) -> Data? {
        guard !ended else { return nil }
        text.reset()
        if !started {
            started = true
            writeHeader()
        }
        while text.bytes.count < chunkBytes {
            if next == page.count {
                page = try reader.nextPage()
                next = 0
                if page.isEmpty {
                    ended = true
                    if case .lines = renderer { ExportLine.writeEnd(count: count, change: change, into: &text) }
                    break
                }
            }
            let row = page[next]
            next += 1
            write(row)
            count += 1
            try onReport?(row)
        }
        if page.count == next {
            page = []
            next = 0
        }
        return text.bytes.isEmpty ? nil : Data(text.bytes)
    }

    /// The header row of a CSV; nothing for JSON Lines.
    private func writeHeader() {
        switch renderer {
        case .lines: break
        case .table(let fieldIDs): text.appendContinuing(ExportCSV.header(fieldIDs: fieldIDs).utf8)
        case .labelled(let table): text.appendContinuing(table.headerLine.utf8)
        case .issues: text.appendContinuing(IssueCSV.header.utf8)
        }
    }

    /// One report: its line, its row, or the rows of its issues.
    private func write(_ row: ExportedReport) {
        let version = versions.version(of: row.templateID, acceptedAt: row.revisionAcceptedAt)
        switch renderer {
        case .lines:
            ExportLine.write(row, templateVersion: version, generation: reader.generation, into: &text)
        case .table(let fieldIDs):
            text.appendContinuing(
                ExportCSV.row(row, templateVersion: version, fieldIDs: fieldIDs, generation: reader.generation).utf8)
        case .labelled(let table):
            text.appendContinuing(table.row(row, templateVersion: version, generation: reader.generation).utf8)
        case .issues:
            let issues = IssueCSV.rows(row)
            text.appendContinuing(issues.text.utf8)
            issueCount += issues.count
        }
    }

    public func finish() {
        guard !finished else { return }
        finished = true
        page = []
        reader.close()
        onFinish?()
    }
}
