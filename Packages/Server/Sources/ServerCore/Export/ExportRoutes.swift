import FieldTypes
import Foundation
import Models
import ServerHTTP
import ServerStore
import Synchronization

/// How many exports may stream at once: each holds a thread, a read
/// transaction and (on PostgreSQL) a pooled connection until it ends. One
/// person holds at most `perUser` of the `limit` slots, so the others stay
/// for everyone else.
final class ExportSlots: Sendable {
    /// The slots taken, in all and by each user holding one.
    private struct Taken {
        var all = 0
        var byUser: [String: Int] = [:]
    }

    private let taken = Mutex(Taken())
    let limit: Int
    let perUser: Int

    init(limit: Int, perUser: Int = 2) {
        self.limit = limit
        self.perUser = perUser
    }

    /// Takes a slot for `user`, or answers 503 with `Retry-After` when they
    /// hold `perUser` already or every slot is taken.
    func take(for user: String) throws(ServerError) {
        let refusal = taken.withLock { taken -> String? in
            let mine = taken.byUser[user, default: 0]
            guard mine < perUser else { return "\(perUser) exports of yours are running already" }
            guard taken.all < limit else { return "\(limit) exports are running already" }
            taken.all += 1
            taken.byUser[user] = mine + 1
            return nil
        }
        if let refusal { throw ServerError.unavailable(refusal + "; retry in 30 seconds", retryAfter: 30) }
    }

    /// Gives back a slot `user` took.
    func give(for user: String) {
        taken.withLock { taken in
            taken.all -= 1
            let mine = taken.byUser[user, default: 1] - 1
            taken.byUser[user] = mine > 0 ? mine : nil
        }
    }
}

/// An export streamed to a client: told when a failure cuts it short and when it is over.
protocol ExportStream: StreamSource {
    /// Called once a failure cut the export short.
    var onFailure: ((ServerError) -> Void)? { get set }
    /// Called once, when the export is finished or abandoned.
    var onFinish: (() -> Void)? { get set }
}

extension ReportExport: ExportStream {}
extension ActionExport: ExportStream {}

struct ExportRoutes: RouteCapability {
    let context: ServerContext

    /// `GET /exports/reports` (supervisors and admins): every matching
    /// report's current revision in order of change, from one snapshot,
    /// streamed as it is read. Anything refused (role, query, cursor,
    /// template) is refused before the first byte; a failure after it cuts
    /// the stream short, so the client never takes a part for the whole.
    func exportReports(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        guard caller.isSupervisor else { throw ServerError.forbidden("only supervisors and admins may export reports") }
        let request = try ReportExportRequest.reports(input.request.query)
        let csv = request.layout != .lines
        let name =
            request.layout == .issues
            ? "issues.csv" : csv ? "reports-\(request.query.templateID ?? "").csv" : "reports.jsonl"
        return try exportReports(request, caller: caller, input, name: name)
    }

    /// `GET /exports/issues` (supervisors and admins): one CSV row an issue
    /// of the reports the same filters take, with the state of the action
    /// each became, streamed as `exportReports` is.
    func exportIssues(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        guard caller.isSupervisor else { throw ServerError.forbidden("only supervisors and admins may export issues") }
        return try exportReports(
            try ReportExportRequest.issues(input.request.query), caller: caller, input, name: "issues.csv")
    }

    /// Opens the report export `request` asks for in a slot of the caller's and streams it as `name`.
    private func exportReports(_ request: ReportExportRequest, caller: Caller, _ input: RouteInput, name: String)
        throws(ServerError) -> Reply
    {
        let (store, registry) = (self.store, judge.registry)
        let export = try inSlot(for: caller.user.id) { () throws(ServerError) in
            try ReportExport.open(store, request: request, registry: registry)
        }
        return streaming(export, input, csv: request.layout != .lines, name: name)
    }

    /// `GET /exports/actions` (supervisors and admins): every action in
    /// order of change from one snapshot, streamed, as `exportReports` is.
    func exportActions(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        guard caller.isSupervisor else { throw ServerError.forbidden("only supervisors and admins may export actions") }
        let query = try ActionExportQuery.from(input.request.query)
        let export = try inSlot(for: caller.user.id) { () throws(ServerError) in
            try ActionExport.open(store, query: query)
        }
        let csv = query.format == .csv
        return streaming(export, input, csv: csv, name: csv ? "actions.csv" : "actions.jsonl")
    }

    /// The reply streaming `export` as an attachment named `name`; a failure that cuts it short is logged.
    private func streaming(_ export: some ExportStream, _ input: RouteInput, csv: Bool, name: String) -> Reply {
        let log = self.log
        let address = input.request.clientAddress
        export.onFailure = { error in
            log.note("an export was cut short: \(error.message)", address: address)
        }
        let type = csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8"
        return .stream(
            ResponseStream(export),
            headers: [
                (name: "Content-Type", value: type), (name: "Cache-Control", value: "no-store"),
                (name: "Content-Disposition", value: "attachment; filename=\"\(Self.safeFileName(name))\""),
            ])
    }

    /// Opens an export in a slot of `user`'s, given back when it finishes or fails to open.
    private func inSlot<Export: ExportStream>(for user: String, _ open: () throws(ServerError) -> Export)
        throws(ServerError) -> Export
    {
        try exportSlots.take(for: user)
        let export: Export
        do throws(ServerError) {
            export = try open()
        } catch {
            exportSlots.give(for: user)
            throw error
        }
        let slots = exportSlots
        export.onFinish = { slots.give(for: user) }
        return export
    }

    /// A file name safe inside a quoted `Content-Disposition` value.
    static func safeFileName(_ name: String) -> String {
        String(
            name.unicodeScalars.map { scalar -> Character in
                let allowed = CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar)
                return scalar.isASCII && allowed ? Character(scalar) : "_"
            }.prefix(100))
    }
}
