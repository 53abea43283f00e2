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

    static let history = Command(
        CommandSpec(
            "history", summary: "completed inspections on the server, newest first (online only)",
            options: [
                .value("limit", "N", help: "how many to show, 1-100 (default 30)"),
                .value("offset", "N", help: "how many to skip, for the next page (default 0)"),
                .value(
                    "inspector", "ID", help: "only this inspector's inspections (a user id, as in 'jqc rollup --json')"),
                .value("facility", "ID", help: "only inspections of this facility"),
                .value("template", "ID", help: "only inspections of this template"),
                .value(
                    "from", "DATE",
                    help: "completed on or after DATE: YYYY-MM-DD (from 00:00:00 UTC that day) or RFC 3339"),
                .value(
                    "to", "DATE", help: "completed on or before DATE: YYYY-MM-DD (to 23:59:59 UTC that day) or RFC 3339"
                ),
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
    ) { (inv) throws(AppError) -> CommandOutput in
        let limit = try number(inv, "limit", default: 30, range: 1...100)
        let offset = try number(inv, "offset", default: 0, range: 0...Int(Int32.max))
        let filter = try historyFilter(inv)
        let page = try SyncService(context: inv.context).history(limit: limit, offset: offset, filter: filter)
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
    ) { (inv) throws(AppError) -> CommandOutput in
        let view = try SyncService(context: inv.context).teamView()
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
        let args = inv.arguments
        func id(_ name: String) throws(AppError) -> String? {
            guard let text = args.value(name) else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { throw AppError.usage("--\(name) needs an id.") }
            return trimmed
        }
        let from = try args.value("from").map { (text) throws(AppError) in
            try moment(text, option: "from", endOfDay: false)
        }
        let to = try args.value("to").map { (text) throws(AppError) in try moment(text, option: "to", endOfDay: true) }
        if let from, let to, let start = RFC3339.date(from), let end = RFC3339.date(to), start > end {
            throw AppError.usage(
                "--from \(args.value("from") ?? "") is after --to \(args.value("to") ?? ""); nothing could match.")
        }
        return HistoryFilter(
            facilityID: try id("facility"), inspectorID: try id("inspector"), templateID: try id("template"),
            from: from, to: to)
    }

    /// A `--from`/`--to` as the RFC 3339 time sent: a plain `YYYY-MM-DD` is that UTC day's
    /// first second (`--from`) or last second (`--to`); an RFC 3339 time is sent in UTC.
    static func moment(_ text: String, option: String, endOfDay: Bool) throws(AppError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if RFC3339.isDay(trimmed) { return trimmed + (endOfDay ? "T23:59:59Z" : "T00:00:00Z") }
        guard let date = RFC3339.date(trimmed) else {
            throw AppError.usage(
                "--\(option) takes a date YYYY-MM-DD or an RFC 3339 time such as 2026-03-01T08:00:00Z; got \(OneLine.quote(text))."
            )
        }
        return RFC3339.string(
            date, milliseconds: date.timeIntervalSince1970.rounded(.down) != date.timeIntervalSince1970)
    }

    /// A whole-number option within `range`, or a usage error (exit 2).
    static func number(_ inv: Invocation, _ name: String, default fallback: Int, range: ClosedRange<Int>)
        throws(AppError) -> Int
    {
        guard let text = inv.arguments.value(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw AppError.usage(
                "--\(name) takes a whole number from \(range.lowerBound)\(range.upperBound == Int(Int32.max) ? " up" : " to \(range.upperBound)"); got '\(text)'."
            )
        }
        return value
    }

    /// A wire value in the contract's JSON shape.
    static func encoded<T: Encodable>(_ value: T) -> JSONValue {
        guard let data = try? JSONEncoder().encode(value), let json = try? JSONValue.parse(data) else { return .null }
        return json
    }
}
