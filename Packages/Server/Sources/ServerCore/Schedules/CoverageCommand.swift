import ArgumentParsing
import FieldTypes
import Foundation
import ProgramOutput
import ServerStore

/// `jqc-server report coverage`: for a period, each site's and area's
/// scheduled visits (on time, late, missed, open) and the areas nobody
/// inspected, straight from the database (a server may be running on it),
/// as a table or CSV.
enum CoverageCommand {
    static let spec = CommandSpec(
        "report coverage",
        summary: "scheduled visits on time, late and missed, and areas with no inspection, by site and area",
        options: [
            RollupCommand.db.spec, RollupCommand.from.spec, RollupCommand.to.spec, RollupCommand.month.spec,
            RollupCommand.week.spec, RollupCommand.quarter.spec, RollupCommand.facility.spec,
            RollupCommand.format.spec, RollupCommand.output.spec,
        ],
        discussion:
            "A visit counts in the period its window begins in. Done by its window's end: on time; after: late; none accepted 'visit-grace' hours after it (admin settings, 2 until set): missed.\n"
            + "Example: jqc-server report coverage --db server.db --from 2027-03-01 --to 2027-03-31 --format csv")

    /// Runs the command on the words after `report coverage`; the exit code.
    static func run(_ words: [String], parser: ArgumentParser, storage: StorageOpener) throws(UsageError)
        -> ExitCode
    {
        let parsed = try parser.parse(words, for: spec)
        if parsed[ServerCommand.help] {
            OutputChannel.standardOutput.line(
                HelpFormatter.help(spec, program: "jqc-server", globalOptions: ServerCommand.globalOptions))
            return .ok
        }
        guard let db = try parsed[RollupCommand.db] else {
            throw UsageError("'report coverage' needs --db FILE or --db postgres://....")
        }
        let format = try parsed[RollupCommand.format] ?? .text
        let words = try ReportCommandParts.PeriodWords(parsed)
        let (facilityID, output) = (try parsed[RollupCommand.facility], try parsed[RollupCommand.output])
        do throws(ServerError) {
            let opened = try storage.open(db, StorageOpener.Settings(connections: 1, uploadDirectory: nil))
            let report = try opened.store.read { session -> CoverageReport in
                let period = try words.period(zone: try OrganisationZone.current(in: session))
                return try CoverageReport.read(
                    period: period, facilityID: facilityID, now: Date(), grace: try VisitGrace.current(in: session),
                    in: session)
            }
            let text =
                format == .csv
                ? report.csv
                : AdminCommands.table(
                    CoverageReport.header.map { $0.uppercased() }, report.rows,
                    empty: "no sites or areas to cover in \(report.period.name)"
                ).map { $0 + "\n" }.joined()
            try ReportCommandParts.write(
                text, to: output,
                said: "wrote the coverage of \(report.period.name) (\(ReportCommandParts.lines(report.lines.count)))")
            return .ok
        } catch {
            return CommandFailure.told(error)
        }
    }
}
