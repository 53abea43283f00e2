import ArgumentParsing
import Documents
import FieldTypes
import Foundation
import ProgramOutput
import ServerStore

/// `jqc-server document report SERVER_ID [--client] -o FILE` and `document
/// site FACILITY_ID --month YYYY-MM [-o FILE]`: the console's PDFs straight
/// from the database (a server may be running on it).
enum DocumentCommand {
    static let db = Option("db", "FILE|URL", help: "the server's database (a SQLite file or a postgres:// URL)")
    static let output = Option("output", short: "o", "FILE", help: "write the PDF to FILE (replaced whole)")
    static let client = Flag("client", help: "the client-safe copy: no private field, review, events or issues")
    static let month = Option(
        "month", "YYYY-MM", help: "the month of the organisation's time zone (this month when left out)")
    static let serverID = Argument("SERVER_ID", help: "the report's server id (R-...)")
    static let facilityID = Argument("FACILITY_ID", help: "the site's id")

    static let reportSpec = CommandSpec(
        "document report", summary: "an inspection report as a PDF (internal, or client-safe with --client)",
        positionals: [serverID.spec], options: [db.spec, client.spec, output.spec],
        discussion: "Example: jqc-server document report R-7a3f --db server.db --client -o report.pdf")
    static let siteSpec = CommandSpec(
        "document site", summary: "a site's summary for a month as a PDF, as its client may read it",
        positionals: [facilityID.spec], options: [db.spec, month.spec, output.spec],
        discussion: "Without -o the file is summary-FACILITY_ID-YYYY-MM.pdf in this folder.\n"
            + "Example: jqc-server document site F-100 --db server.db --month 2026-11")

    /// Runs the command on the words after `document`; the exit code.
    static func run(_ words: [String], parser: ArgumentParser, storage: StorageOpener) throws(UsageError)
        -> ExitCode
    {
        let spec: CommandSpec
        switch words.first {
        case "report": spec = reportSpec
        case "site": spec = siteSpec
        default:
            throw UsageError(
                "'document' takes 'report' or 'site'\(words.first.map { ", not \(OneLine.quote($0, limit: 30))" } ?? ""); see 'jqc-server document report --help'."
            )
        }
        let parsed = try parser.parse(Array(words.dropFirst()), for: spec)
        if parsed[ServerCommand.help] {
            OutputChannel.standardOutput.line(
                HelpFormatter.help(spec, program: "jqc-server", globalOptions: ServerCommand.globalOptions))
            return .ok
        }
        guard let db = try parsed[Self.db] else {
            throw UsageError("'\(spec.name)' needs --db FILE or --db postgres://....")
        }
        let path = try parsed[Self.output]
        let isReport = spec.name == reportSpec.name
        if isReport && path == nil { throw UsageError("'document report' needs -o FILE, the PDF to write.") }
        let id = isReport ? try parsed[Self.serverID] : try parsed[Self.facilityID]
        let client = isReport ? parsed[Self.client] : false
        let month = isReport ? nil : try parsed[Self.month]
        do throws(ServerError) {
            let opened = try storage.open(db, StorageOpener.Settings(connections: 1, uploadDirectory: nil))
            if isReport, let path {
                try report(id, client: client, to: path, store: opened.store, photos: opened.photos)
            } else {
                try site(id, month: month, to: path, store: opened.store, photos: opened.photos)
            }
            return .ok
        } catch {
            return CommandFailure.told(error)
        }
    }

    private static func report(
        _ id: String, client: Bool, to path: String, store: any ServerStorage, photos: any PhotoStore
    ) throws(ServerError) {
        let judge = AnswerJudge()
        let variant: ReportDocumentVariant = client ? .clientSafe : .internalCopy
        let (view, look) = try store.read { session in
            guard let report = try session.report(serverID: id) else {
                throw ServerError.notFound("there is no report \(OneLine.quote(id, limit: 60))")
            }
            return (
                try ConsoleReportView.read(report, revision: nil, in: session),
                try OrganisationLook.current(in: session)
            )
        }
        let document = ReportDocument(
            view: view, judgement: ConsoleJudgement(view: view, registry: judge.registry), registry: judge.registry,
            look: look, photos: photos, variant: variant
        ).document
        try write(path) { (fd) throws(DocumentsError) in try document.write(to: fd) }
        OutputChannel.standardOutput.line(
            "wrote \(client ? "the client-safe" : "the internal") report \(OneLine.escaped(id)) to \(path)")
        if client && view.report.reviewState != .approved {
            OutputChannel.standardError.write(
                "jqc-server: note: clients do not see this report in the console yet: it is \(view.report.reviewState.rawValue.replacingOccurrences(of: "_", with: " "))\n"
            )
        }
    }

    private static func site(
        _ id: String, month given: String?, to output: String?, store: any ServerStorage, photos: any PhotoStore
    ) throws(ServerError) {
        let (document, month) = try store.read { session in
            let zone = try OrganisationZone.current(in: session)
            let month = given ?? RollupPeriod.thisMonth(zone: zone)
            return (
                try SiteSummary(
                    facilityID: id, period: try RollupPeriod.named(month: month, zone: zone),
                    periodName: SiteSummary.monthName(month), gate: .approved, registry: AnswerJudge().registry,
                    photos: photos, now: Date()
                ).read(in: session), month
            )
        }
        let path = output ?? "summary-\(id.filter { $0.isLetter || $0.isNumber || $0 == "-" })-\(month).pdf"
        try write(path) { (fd) throws(DocumentsError) in try document.write(to: fd) }
        OutputChannel.standardOutput.line("wrote the summary of \(OneLine.escaped(id)) for \(month) to \(path)")
    }

    private static func write(_ path: String, _ draw: (Int32) throws(DocumentsError) -> Void) throws(ServerError) {
        do throws(DocumentsError) { try DocumentFile.write(path, draw) } catch {
            throw ServerError.badRequest(error.message)
        }
    }
}
