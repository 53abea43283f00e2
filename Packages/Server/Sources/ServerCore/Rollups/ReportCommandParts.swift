import ArgumentParsing
import Foundation
import ServerStore
import ProgramOutput

/// What `report rollup` and `report coverage` read and write alike: the
/// period their options name, and the text written to stdout or a file.
enum ReportCommandParts {
    /// The period options as given, read before the database is opened.
    struct PeriodWords: Sendable {
        var month: String?
        var week: String?
        var quarter: String?
        var from: String?
        var to: String?

        init(_ parsed: ParsedArguments) throws(UsageError) {
            month = try parsed[RollupCommand.month]
            week = try parsed[RollupCommand.week]
            quarter = try parsed[RollupCommand.quarter]
            from = try parsed[RollupCommand.from]
            to = try parsed[RollupCommand.to]
        }

        /// The period they name, in the organisation's zone; one of them, exactly.
        func period(zone: TimeZone) throws(ServerError) -> RollupPeriod {
            try RollupPeriod.named(month: month, week: week, quarter: quarter, from: from, to: to, zone: zone)
        }
    }

    /// Writes `text` to `output` (replaced whole), then `said` on stdout; or the text to stdout.
    static func write(_ text: String, to output: String?, said: String) throws(ServerError) {
        guard let output else {
            OutputChannel.standardOutput.write(text)
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw ServerError.badRequest("cannot write '\(output)': \(error.localizedDescription)")
        }
        OutputChannel.standardOutput.line(said + " to \(output)")
    }

    /// "N line(s)".
    static func lines(_ count: Int) -> String { "\(count) line\(count == 1 ? "" : "s")" }
}
