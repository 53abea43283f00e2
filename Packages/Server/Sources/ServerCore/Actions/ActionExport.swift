import FieldTypes
import Foundation
import Models
import ServerHTTP
import ServerStore

/// The query of `GET /exports/actions` and `jqc-server export --what actions`.
struct ActionExportQuery: Sendable {
    /// JSON Lines (each line the action as `GET /actions/{id}` has it) or CSV.
    var format: ExportFormat = .jsonl
    /// Only actions whose `change` is after this one.
    var since: String?
    /// Only the actions of this facility.
    var facilityID: String?

    /// The parameters the route knows; any other is refused, so a mistyped filter never exports everything.
    static let parameters: Set<String> = ["format", "since", "facility_id"]

    /// The query of a request, each value checked.
    static func from(_ query: [String: String]) throws(ServerError) -> ActionExportQuery {
        let parameters = try ExportParameters(query, known: Self.parameters)
        return ActionExportQuery(
            format: try parameters.format([.jsonl, .csv]), since: parameters.value("since"),
            facilityID: parameters.value("facility_id"))
    }
}

/// One export of actions being written: pages of actions in order of
/// `change`, read from one snapshot, rendered a chunk at a time as JSON
/// Lines (then `{"end": true, "count", "change"}`) or CSV (one row an
/// action, its thread counted). Memory holds one page and one chunk.
///
/// One thread at a time calls `nextChunk` and then `finish`.
public final class ActionExport: StreamSource, @unchecked Sendable {
    private let snapshot: any SnapshotReader
    private let query: ActionExportQuery
    private let generation: String
    private var after: Int64
    private var started = false
    private var ended = false
    private var finished = false
    /// Actions written so far.
    public private(set) var count = 0
    /// Called once a failure cut the export short.
    var onFailure: ((ServerError) -> Void)?
    /// Called once, when the export is finished or abandoned.
    var onFinish: (() -> Void)?

    /// Actions a page reads at most.
    static let pageSize = 200

    /// The CSV's columns.
    static let columns = [
        "id", "facility_id", "area_id", "title", "description", "severity", "state", "internal", "assignee",
        "due_at", "source_kind", "report_server_id", "issue_local_id", "created_by", "created_at", "updated_at",
        "version", "updates", "change",
    ]

    /// Opens an export of `store`: 400 `CURSOR_INVALID` for a `since` of other data.
    static func open(_ store: any ServerStorage, query: ActionExportQuery) throws(ServerError) -> ActionExport {
        let snapshot = try store.openSnapshot()
        do throws(ServerError) {
            let generation = try snapshot.read { session in try session.setting(ReviewCursor.generationKey) ?? "0" }
            let after = try FeedPaging.position(query.since, generation: generation)
            return ActionExport(snapshot: snapshot, query: query, generation: generation, after: after)
        } catch {
            snapshot.close()
            throw error
        }
    }

    private init(snapshot: any SnapshotReader, query: ActionExportQuery, generation: String, after: Int64) {
        self.snapshot = snapshot
        self.query = query
        self.generation = generation
        self.after = after
    }

    /// The `change` a later export continues from.
    public var change: String { ReviewCursor.encode(after, generation: generation) }

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
        var text = ""
        if !started {
            started = true
            if query.format == .csv { text += ExportCSV.line(Self.columns) }
        }
        // Pages until a chunk's worth (a page the facility filter empties adds nothing).
        while !ended, text.utf8.count < Self.chunkBytes {
            try readPage(into: &text)
        }
        return text.isEmpty ? nil : Data(text.utf8)
    }

    /// Bytes a chunk gathers before it is sent.
    static let chunkBytes = 64 * 1024

    /// Renders the next page into `text`; at the end, the end line.
    private func readPage(into text: inout String) throws(ServerError) {
        let (after, facility, format) = (self.after, query.facilityID, query.format)
        let page = try snapshot.read { session -> (last: Int64?, lines: [String]) in
            let actions = try session.actions(after: after, viewerID: nil, limit: Self.pageSize)
            var lines: [String] = []
            for action in actions where facility == nil || action.facilityID == facility {
                lines.append(try Self.render(action, format: format, in: session))
            }
            return (actions.last?.change, lines)
        }
        count += page.lines.count
        text += page.lines.joined()
        guard let last = page.last else {
            ended = true
            if format == .jsonl {
                var end = JSONText()
                ExportLine.writeEnd(count: count, change: change, into: &end)
                text += String(decoding: end.bytes, as: UTF8.self)
            }
            return
        }
        self.after = last
    }

    /// One action as a line of the format.
    private static func render(_ action: StoredAction, format: ExportFormat, in session: any StorageSession)
        throws(ServerError) -> String
    {
        let document = try ActionDocument.json(action, in: session)
        switch format {
        case .jsonl:
            return document.canonicalString() + "\n"
        case .csv:
            let object = document.objectValue ?? [:]
            let source = object["source"]?.objectValue ?? [:]
            func text(_ value: JSONValue?) -> String { value?.stringValue ?? "" }
            return ExportCSV.line([
                action.id, action.facilityID, action.areaID ?? "", action.title, action.description ?? "",
                action.severity.rawValue, action.state.rawValue, action.isInternal ? "true" : "false",
                text(object["assignee"]?.objectValue?["username"]), action.dueAt ?? "", action.sourceKind,
                text(source["report_server_id"]), text(source["issue_local_id"]),
                text(object["created_by"]?.objectValue?["username"]), action.createdAt, action.updatedAt,
                String(action.version), String(object["updates"]?.arrayValue?.count ?? 0), text(object["change"]),
            ])
        }
    }

    public func finish() {
        guard !finished else { return }
        finished = true
        snapshot.close()
        onFinish?()
    }
}
