import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models
import Sync

/// history and rollup (F11): the server's views, read-only. History needs the
/// network; the team view shows its last fetched copy offline. Every other
/// command keeps working offline whatever these do.
enum HistoryCommands {
    static var all: [Command] { [history, rollup] }

    static let limit = Option(
        "limit", "N", default: 30, help: "how many to show, 1-100", as: .count(in: 1...100))
    static let offset = Option(
        "offset", "N", default: 0, help: "how many to skip, for the next page", as: .count(in: 0...Int(Int32.max)))
    static let inspector = Option(
        "inspector", "ID", help: "only this inspector's inspections (a user id, as in 'jqc rollup --json')", as: .id)
    static let facility = Option("facility", "ID", help: "only inspections of this facility", as: .id)
    static let template = Option("template", "ID", help: "only inspections of this template", as: .id)
    static let from = Option(
        "from", "DATE", help: "completed on or after DATE: YYYY-MM-DD (from 00:00:00 UTC that day) or RFC 3339",
        as: HistoryMoment.conversion(endOfDay: false))
    static let to = Option(
        "to", "DATE", help: "completed on or before DATE: YYYY-MM-DD (to 23:59:59 UTC that day) or RFC 3339",
        as: HistoryMoment.conversion(endOfDay: true))

    static let history = Command(
        CommandSpec(
            "history", summary: "completed inspections on the server, newest first (online only)",
            options: [
                limit.spec, offset.spec, inspector.spec, facility.spec, template.spec, from.spec, to.spec,
            ],
            discussion: """
                Inspectors see their own inspections; supervisors see everyone's. An inspector asking for someone
                else's (--inspector) gets none. Dates are when the server accepted each report. A server older than
                contract 1.1 ignores the filters and shows every inspection.
                Examples:
                  jqc history --facility F-100 --from 2026-03-01 --to 2026-03-31
                  jqc history --inspector U-INSPECTOR --template 101 --from 2026-03-01T08:00:00+01:00
                Exit codes: 0 shown; 2 a date not understood; 75 offline or server unavailable (HISTORY_REQUIRES_NETWORK); 6 sign in again.
                """)
    ) { (inv) async throws(AppError) -> CommandOutput in
        let limit = try inv[Self.limit]
        let offset = try inv[Self.offset]
        let filter = try historyFilter(inv)
        let page = try await SyncService(context: inv.context).history(limit: limit, offset: offset, filter: filter)
        let workspace = try? inv.context.workspace()
        let rows = page.items.map { item -> [String] in
            let template = workspace?.templateName(item.templateID) ?? item.templateID
            let facility = workspace?.facilityName(item.facilityID) ?? item.facilityID
            // Text from the server reaches the terminal only through OneLine.
            return [
                String(item.completedAt.prefix(10)), template, facility,
                item.score.map { "\(Int(($0 * 100).rounded()))%" } ?? "-",
                item.followUpRequired ? "follow-up" : "", item.inspector.displayName, item.serverID,
            ]
            .map { OneLine.flatten($0, lineBreak: " ") }
        }
        var lines: [String]
        if page.items.isEmpty {
            lines = [
                page.total == 0
                    ? (filter.isEmpty
                        ? "No completed inspections on the server yet."
                        : "No completed inspections on the server match these filters.")
                    : "No inspections at offset \(offset); there are \(page.total)."
            ]
        } else {
            lines = TextTable.render(
                ["COMPLETED", "TEMPLATE", "FACILITY", "SCORE", "FOLLOW-UP", "INSPECTOR", "SERVER ID"], rows,
                maxColumn: 24,
                whole: [6])
            let shown = offset + page.items.count
            lines.append(
                shown < page.total
                    ? "\(offset + 1)-\(shown) of \(page.total), next page: --offset \(shown)"
                    : "\(offset + 1)-\(shown) of \(page.total)")
        }
        return CommandOutput(lines: lines, json: encoded(page), showsStatusLine: false)
    }

    static let rollup = Command(
        CommandSpec(
            "rollup", summary: "supervisor team view: per inspector completed, pending follow-up, average score",
            discussion: """
                Online it is fetched and saved on this device; offline the saved copy is shown, labelled with
                when it was fetched (device time). Exit codes: 0 shown (fresh or cached); 75 offline with no saved
                copy (ROLLUP_REQUIRES_NETWORK); 5 the account is not a supervisor; 6 sign in again.
                """)
    ) { (inv) async throws(AppError) -> CommandOutput in
        let view = try await SyncService(context: inv.context).teamView()
        let rows = view.rollup.inspectors.map { line -> [String] in
            [
                line.displayName.isEmpty ? line.id : line.displayName, String(line.completed),
                String(line.pendingFollowUp),
                line.averageScore.map { "\(Int(($0 * 100).rounded()))%" } ?? "-",
            ]
        }
        var lines = [
            view.cachedAt.map {
                "Team view cached from \($0) (device time), offline; generated by the server at \(view.rollup.generatedAt)."
            }
                ?? "Team view generated by the server at \(view.rollup.generatedAt)."
        ]
        lines +=
            view.rollup.inspectors.isEmpty
            ? ["No inspectors yet."]
            : TextTable.render(["INSPECTOR", "COMPLETED", "PENDING FOLLOW-UP", "AVERAGE SCORE"], rows)
        var json = encoded(view.rollup).objectValue ?? [:]
        json["cached"] = .bool(view.isCached)
        if let cachedAt = view.cachedAt { json["cached_at"] = .string(cachedAt) }
        return CommandOutput(lines: lines, json: .object(json), showsStatusLine: false)
    }

    /// The `--inspector`, `--facility`, `--template`, `--from` and `--to` of `history`.
    static func historyFilter(_ inv: Invocation) throws(AppError) -> HistoryFilter {
        let from = try inv[Self.from]
        let to = try inv[Self.to]
        if let from, let to, let start = RFC3339.date(from.sent), let end = RFC3339.date(to.sent), start > end {
            throw AppError.usage("--from \(from.given) is after --to \(to.given); nothing could match.")
        }
        return HistoryFilter(
            facilityID: try inv[Self.facility], inspectorID: try inv[Self.inspector],
            templateID: try inv[Self.template], from: from?.sent, to: to?.sent)
    }

    /// A wire value in the contract's JSON shape.
    static func encoded<T: Encodable>(_ value: T) -> JSONValue {
        guard let data = try? JSONEncoder().encode(value), let json = try? JSONValue.parse(data) else { return .null }
        return json
    }
}
