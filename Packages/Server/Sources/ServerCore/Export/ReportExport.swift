import FieldTypes
import Foundation
import Models
import ServerHTTP
import ServerStore

/// One export being written: the reader's pages rendered, a chunk of about
/// `chunkBytes` at a time, as JSON Lines or CSV. The HTTP route streams its
/// chunks to the client; `jqc-server export` writes them to a file. Memory
/// holds one page and one chunk, whatever the number of reports.
///
/// Not Sendable in spirit: one thread at a time (the stream's, or the
/// command's) calls `nextChunk` and then `finish`.
public final class ReportExport: StreamSource, @unchecked Sendable {
    private let reader: any ExportReader
    private let format: ExportFormat
    private let versions: TemplateVersions
    private let fieldIDs: [String]
    private let chunkBytes: Int
    private var page: [ExportedReport] = []
    private var next = 0
    private var started = false
    private var ended = false
    private var finished = false
    private var text = JSONText()
    /// Reports written so far.
    public private(set) var count = 0
    /// Called with each report as it is written (the archive takes its photos).
    var onReport: ((ExportedReport) throws(ServerError) -> Void)?
    /// Called once a failure cut the export short.
    var onFailure: ((ServerError) -> Void)?
    /// Called once, when the export is finished or abandoned.
    var onFinish: (() -> Void)?

    /// An export of what `reader` holds; `templateID` names the CSV's template.
    init(reader: any ExportReader, format: ExportFormat, templateID: String?, chunkBytes: Int = 64 * 1024) {
        self.reader = reader
        self.format = format
        self.chunkBytes = chunkBytes
        versions = TemplateVersions(reader.versions)
        fieldIDs = format == .csv ? templateID.map(versions.fieldIDs(of:)) ?? [] : []
    }

    /// Opens an export of `store`, refusing an unknown template for CSV (404).
    static func open(_ store: any ServerStorage, query: ExportQuery, format: ExportFormat) throws(ServerError)
        -> ReportExport
    {
        let reader = PrefetchingReader(try store.openExport(query))
        if format == .csv, let template = query.templateID, !TemplateVersions(reader.versions).knows(template) {
            reader.close()
            throw ServerError.notFound("no template \(OneLine.quote(template, limit: 60))")
        }
        return ReportExport(reader: reader, format: format, templateID: query.templateID)
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
            if format == .csv { text.appendContinuing(ExportCSV.header(fieldIDs: fieldIDs).utf8) }
        }
        while text.bytes.count < chunkBytes {
            if next == page.count {
                page = try reader.nextPage()
                next = 0
                if page.isEmpty {
                    ended = true
                    if format == .jsonl { ExportLine.writeEnd(count: count, change: change, into: &text) }
                    break
                }
            }
            let row = page[next]
            next += 1
            let version = versions.version(of: row.templateID, acceptedAt: row.revisionAcceptedAt)
            switch format {
            case .jsonl:
                ExportLine.write(row, templateVersion: version, generation: reader.generation, into: &text)
            case .csv:
                text.appendContinuing(
                    ExportCSV.row(
                        row, templateVersion: version, fieldIDs: fieldIDs,
                        generation: reader.generation
                    ).utf8)
            }
            count += 1
            try onReport?(row)
        }
        if page.count == next {
            page = []
            next = 0
        }
        return text.bytes.isEmpty ? nil : Data(text.bytes)
    }

    public func finish() {
        guard !finished else { return }
        finished = true
        page = []
        reader.close()
        onFinish?()
    }
}
