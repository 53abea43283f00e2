import Documents
import Foundation
import Models
import ServerStore

/// The console's PDFs: a report (`/reports/{id}/pdf`: the internal copy,
/// or `?variant=client` the client-safe one; a client always gets theirs)
/// and a site's summary for a month (`/sites/{id}/summary`,
/// `/buildings/{id}/summary` for a client). Each is drawn into a file that
/// has no name, then streamed from it.
extension ConsoleRoutes {
    func consoleReportPDF(_ input: ConsoleInput, serverID: String, isClient: Bool) throws(ServerError)
        -> ConsoleReply
    {
        let caller = try input.requireCaller()
        let view =
            isClient
            ? try clientReportView(input, serverID: serverID)
            : try consoleReportView(serverID: serverID, revision: nil, caller: caller)
        let variant: ReportDocumentVariant =
            isClient || input.query("variant") == "client" ? .clientSafe : .internalCopy
        let look = try store.read { session in try OrganisationLook.current(in: session) }
        let document = ReportDocument(
            view: view, judgement: ConsoleJudgement(view: view, registry: judge.registry), registry: judge.registry,
            look: look, photos: photos, variant: variant
        ).document
        let suffix = variant == .clientSafe ? "" : "-internal"
        return try Self.pdf(named: "report-\(ConsoleLayout.shortID(view.report.serverID))\(suffix).pdf") {
            (descriptor) throws(DocumentsError) in try document.write(to: descriptor)
        }
    }

    func consoleSiteSummary(_ input: ConsoleInput, facilityID: String, isClient: Bool) throws(ServerError)
        -> ConsoleReply
    {
        if !isClient { _ = try input.requireSupervisor() }
        let document = try store.read { session -> SiteSummaryDocument in
            if isClient, !(try clientScope(input, in: session)).sees(facility: facilityID) {
                throw ClientScope.notFound("building")
            }
            let zone = try OrganisationZone.current(in: session)
            let month = input.query("month") ?? RollupPeriod.thisMonth(zone: zone)
            return try SiteSummary(
                facilityID: facilityID, period: try RollupPeriod.named(month: month, zone: zone),
                periodName: SiteSummary.monthName(month), gate: config.clientsSee, registry: judge.registry,
                photos: photos, now: Date()
            ).read(in: session)
        }
        let month = input.query("month") ?? "this-month"
        return try Self.pdf(named: "summary-\(facilityID)-\(month).pdf") { (descriptor) throws(DocumentsError) in
            try document.write(to: descriptor)
        }
    }

    /// A PDF drawn into a file with no name (made, then unlinked, in the
    /// temporary folder) and streamed from it: memory stays flat whatever its size.
    static func pdf(named name: String, _ draw: (Int32) throws(DocumentsError) -> Void) throws(ServerError)
        -> ConsoleReply
    {
        do throws(DocumentsError) {
            let file = try DocumentFile.unnamed(draw)
            return .file(
                descriptor: file.descriptor, byteSize: file.byteSize, contentType: "application/pdf", fileName: name)
        } catch {
            if error.code == .writeFailed { throw ServerError.storageFull() }
            throw ServerError.internal("the document could not be drawn: \(error.message)")
        }
    }
}

extension SiteSummary {
    /// "2026-12" as "December 2026"; anything else as given.
    static func monthName(_ month: String) -> String {
        let parts = month.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let number = Int(parts[1]), (1...12).contains(number) else {
            return month
        }
        let names = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(names[number - 1]) \(year)"
    }
}
