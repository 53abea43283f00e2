import ArgumentParsing
import FieldTypes
import Foundation
import ProgramOutput
import ServerStore

/// `jqc-server report rollup`: a roll-up of grades straight from the
/// database (a server may be running on it), as a table or CSV, for a
/// month, week, quarter or dates of the organisation's time zone.
enum RollupCommand {
    /// What `--format` names.
    enum Format: String, CaseIterable, Sendable { case text, csv }

    static let db = Option("db", "FILE|URL", help: "the server's database (a SQLite file or a postgres:// URL)")
    static let by = Option(
        "by", "KEY", values: RollupKey.allCases.map(\.rawValue), help: "what to group the reports by",
        as: Conversion<RollupKey>.choice(otherwise: { word, label in
            "\(label) must be one of \(RollupKey.allCases.map(\.rawValue).joined(separator: ", ")), not '\(word)'."
        }))
    static let from = Option("from", "DATE|TIME", help: "the first day (YYYY-MM-DD) or moment (RFC 3339) in")
    static let to = Option(
        "to", "DATE|TIME", help: "the last day in (YYYY-MM-DD), or the first moment after (RFC 3339)")
    static let month = Option("month", "YYYY-MM", help: "one month of the organisation's time zone")
    static let week = Option("week", "YYYY-Www", help: "one ISO week (Monday to Sunday)")
    static let quarter = Option("quarter", "YYYY-Qn", help: "one quarter")
    static let facility = Option("facility", "ID", help: "only this site's reports")
    static let template = Option("template", "ID", help: "only this form's reports")
    static let format = Option(
        "format", "FORMAT", values: Format.allCases.map(\.rawValue), help: "text (a table, the default) or csv",
        as: Conversion<Format>.choice(otherwise: { word, label in "\(label) must be text or csv, not '\(word)'." }))
    static let output = Option("output", short: "o", "FILE", help: "write to FILE (replaced whole) instead of stdout")

    static let spec = CommandSpec(
        "report rollup",
        summary: "average score, pass rate and deficiencies of the reports received in a period, by group",
        options: [
            db.spec, by.spec, from.spec, to.spec, month.spec, week.spec, quarter.spec, facility.spec, template.spec,
            format.spec, output.spec,
        ],
        discussion:
            "Periods are days of the organisation's time zone ('admin settings set timezone ZONE'; UTC until set).\n"
            + "--by item lists each form's fields by how often they were deficient, the most often first.\n"
            + "Example: jqc-server report rollup --db server.db --by site --month 2026-11 --format csv")

    /// Runs the command on the words after `report` (`rollup` first); the exit code.
    static func run(_ words: [String], parser: ArgumentParser, storage: StorageOpener) throws(UsageError)
        -> ExitCode
    {
        guard words.first == "rollup" else {
            throw UsageError(
                "'report' takes 'rollup' or 'coverage'\(words.first.map { ", not \(OneLine.quote($0, limit: 30))" } ?? ""); see 'jqc-server report rollup --help'."
            )
        }
        let parsed = try parser.parse(Array(words.dropFirst()), for: spec)
        if parsed[ServerCommand.help] {
            OutputChannel.standardOutput.line(
                HelpFormatter.help(spec, program: "jqc-server", globalOptions: ServerCommand.globalOptions))
            return .ok
        }
        guard let db = try parsed[Self.db] else {
            throw UsageError("'report rollup' needs --db FILE or --db postgres://....")
        }
        guard let key = try parsed[Self.by] else {
            throw UsageError("'report rollup' needs --by site, area, area-type, inspector, template or item.")
        }
        let format = try parsed[Self.format] ?? .text
        let words = try ReportCommandParts.PeriodWords(parsed)
        let (facilityID, templateID, output) = (
            try parsed[Self.facility], try parsed[Self.template], try parsed[Self.output]
        )
        do throws(ServerError) {
            let opened = try storage.open(db, StorageOpener.Settings(connections: 1, uploadDirectory: nil))
            let report = try opened.store.read { session -> RollupReport in
                let period = try words.period(zone: try OrganisationZone.current(in: session))
                return try RollupReport.read(
                    by: key, period: period, facilityID: facilityID, templateID: templateID, in: session)
            }
            let text =
                format == .csv
                ? report.csv
                : (AdminCommands.table(
                    report.header.dropFirst().map { $0.uppercased() }, report.rows.map { Array($0.dropFirst()) },
                    empty: "no reports were received in \(report.period.name)"
                )
                .map { $0 + "\n" }.joined())
            try ReportCommandParts.write(
                text, to: output,
                said:
                    "wrote the roll-up by \(key.rawValue) of \(report.period.name) (\(ReportCommandParts.lines(report.lines.count)))"
            )
            return .ok
        } catch {
            return CommandFailure.told(error)
        }
    }
}
