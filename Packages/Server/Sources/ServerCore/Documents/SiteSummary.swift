import Documents
import FieldTypes
import FormLogic
import Foundation
import Models
import Scoring
import ServerStore

/// A site's summary for a period, read in one snapshot: what a client may
/// see of it (the reports past the server's review gate, `--clients-see`;
/// no private field, internal action or review), so the same document goes
/// to the organisation's people and to its customer.
struct SiteSummary {
    /// The most inspections listed (a month of a busy site is far fewer).
    static let inspectionLimit = 5_000
    /// The most photos of deficient items shown.
    static let photoLimit = 48
    /// The most actions listed in each table.
    static let actionLimit = 500

    let facilityID: String
    let period: RollupPeriod
    let periodName: String
    let gate: ClientScope.ReportGate
    let registry: FieldTypeRegistry
    let photos: any PhotoStore
    let now: Date

    /// The summary, read in `session`; 404 for a site that does not exist.
    func read(in session: any StorageSession) throws(ServerError) -> SiteSummaryDocument {
        guard let site = try session.managedFacility(id: facilityID)?.facility else {
            throw ServerError.notFound("there is no site \(OneLine.quote(facilityID, limit: 60))")
        }
        let look = try OrganisationLook.current(in: session)
        let templates = Dictionary(try session.templates().map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let reports = try inspections(in: session)
        let areaNames = Dictionary(
            try session.areas(facilityID: facilityID).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let (closed, open) = try actions(in: session)
        return SiteSummaryDocument(
            organisation: look.name, logo: look.logoImage, site: site.name, address: site.address,
            period: periodName, zone: look.zoneName, totals: try totals(in: session),
            trend: trend(reports, look: look), areas: try areas(areaNames, in: session),
            deficiencies: try deficiencies(templates, in: session), actionsClosed: closed, actionsOpen: open,
            inspections: reports.map { report in
                .init(
                    number: ConsoleLayout.shortID(report.serverID), day: look.day(report.acceptedAt),
                    area: report.areaID.flatMap { areaNames[$0] } ?? "—",
                    form: templates[report.templateID]?.name ?? report.templateID, fraction: report.score,
                    passed: report.passed)
            },
            coverage: try coverage(in: session), photos: try deficientPhotos(reports, templates, in: session))
    }

    /// The period's scheduled visits by area, as the coverage report counts them.
    private func coverage(in session: any StorageSession) throws(ServerError) -> [SiteSummaryDocument.CoverageLine] {
        try CoverageReport.read(
            period: period, facilityID: facilityID, now: now, grace: try VisitGrace.current(in: session), in: session
        ).lines.map {
            .init(
                area: $0.areaName, expected: $0.expected, onTime: $0.onTime, late: $0.late, missed: $0.missed,
                open: $0.open, uninspected: $0.uninspected)
        }
    }

    private var states: [ReviewState] { ClientScope(facilities: [], gate: gate).reviewStates }

    private func rollup(_ by: RollupKey, in session: any StorageSession) throws(ServerError) -> [RollupSums] {
        var query = RollupQuery(by: by, from: period.from, to: period.to, facilityID: facilityID)
        query.reviewStates = states
        return try session.gradeRollup(query)
    }

    private func totals(in session: any StorageSession) throws(ServerError) -> SiteSummaryDocument.Totals {
        let sums = try rollup(.site, in: session).first { $0.key == facilityID }
        return .init(
            inspections: sums?.inspections ?? 0, average: sums?.averageScore, passRate: sums?.passRate,
            deficiencies: sums?.deficiencies ?? 0)
    }

    private func areas(_ names: [String: String], in session: any StorageSession) throws(ServerError)
        -> [SiteSummaryDocument.AreaLine]
    {
        try rollup(.area, in: session).map {
            .init(
                name: names[$0.key] ?? ($0.key.isEmpty ? "(no area)" : $0.key), inspections: $0.inspections,
                average: $0.averageScore, passRate: $0.passRate)
        }.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The items found deficient, most often first; private fields left out.
    private func deficiencies(_ templates: [String: Template], in session: any StorageSession) throws(ServerError)
        -> [SiteSummaryDocument.DeficiencyLine]
    {
        try rollup(.item, in: session).compactMap { sums -> SiteSummaryDocument.DeficiencyLine? in
            guard sums.deficiencies > 0, let template = templates[sums.key] else { return nil }
            let field = template.schema.field(FieldID(sums.field ?? ""))
            guard let field, !field.isPrivate else { return nil }
            return .init(form: template.name, item: field.displayName, count: sums.deficiencies)
        }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.item < $1.item }
    }

    /// The period's reports past the gate, oldest first.
    private func inspections(in session: any StorageSession) throws(ServerError) -> [StoredReport] {
        var query = HistoryQuery(facilityID: facilityID, acceptedFrom: period.from, acceptedTo: period.to)
        query.reviewState = gate == .approved ? .approved : nil
        query.order = .oldest
        var found: [StoredReport] = []
        while found.count < Self.inspectionLimit {
            let page = try session.reportsPage(query, limit: 500, offset: found.count).map(\.0)
            found += page
            if page.count < 500 { break }
        }
        return found.filter { states.contains($0.reviewState) }
    }

    private func trend(_ reports: [StoredReport], look: OrganisationLook) -> [SiteSummaryDocument.TrendPoint] {
        let start = RFC3339.date(period.from) ?? now
        return reports.compactMap { report in
            guard let score = report.score, let at = RFC3339.date(report.acceptedAt) else { return nil }
            return .init(
                day: look.day(report.acceptedAt), offset: at.timeIntervalSince(start), fraction: score,
                passed: report.passed)
        }
    }
}
