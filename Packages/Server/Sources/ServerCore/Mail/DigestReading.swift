import Foundation
import Models
import ServerStore

/// One site of a digest: the period's inspections, the actions opened and
/// closed in it, and what is overdue now.
struct DigestSite {
    var facility: Facility
    var reports: [StoredReport]
    var opened: [StoredAction]
    var closed: [StoredAction]
    var overdue: [StoredAction]
    var formNames: [String: String]

    /// Whether anything happened at the site in the period.
    var hadActivity: Bool { !reports.isEmpty || !opened.isEmpty || !closed.isEmpty }

    /// The most inspections listed per site.
    static let listed = 12

    /// The site's lines: a summary, then its inspections (the lowest first named).
    func lines(look: OrganisationLook) -> [String] {
        var summary = "\(facility.name): \(reports.count) inspection\(reports.count == 1 ? "" : "s")"
        let scored = reports.compactMap(\.score)
        if !scored.isEmpty {
            summary += ", average \(MailText.score(scored.reduce(0, +) / Double(scored.count)))"
        }
        let failed = reports.filter { $0.passed == false }.count
        if failed > 0 { summary += ", \(failed) failed" }
        let deficiencies = reports.map(\.deficiencyCount).reduce(0, +)
        if deficiencies > 0 { summary += ", \(deficiencies) deficienc\(deficiencies == 1 ? "y" : "ies")" }
        summary += "; actions opened \(opened.count), closed \(closed.count), overdue now \(overdue.count)"
        var lines = [summary]
        if let lowest = reports.filter({ $0.score != nil }).min(by: { ($0.score ?? 0) < ($1.score ?? 0) }) {
            lines.append("  Lowest: \(line(lowest, look: look))")
        }
        for report in reports.prefix(Self.listed) { lines.append("  \(line(report, look: look))") }
        if reports.count > Self.listed { lines.append("  and \(reports.count - Self.listed) more") }
        for action in overdue.prefix(5) { lines.append("  Overdue: \(action.title)") }
        return lines
    }

    private func line(_ report: StoredReport, look: OrganisationLook) -> String {
        var text = "\(look.time(report.acceptedAt)) \(formNames[report.templateID] ?? report.templateID)"
        text += ": \(MailText.score(report.score))"
        if let passed = report.passed { text += passed ? " passed" : " failed" }
        return text
    }
}

/// What one person's digest reads: their sites' inspections and actions
/// in the period. A client reads what they may see (their facilities,
/// reports past the review gate, actions not internal); an inspector their
/// own inspections and the actions assigned to them; crew their actions;
/// supervisors and admins every site.
struct DigestReading {
    let session: any StorageSession
    let person: MailRecipient
    let period: DigestPeriod
    let gate: ClientScope.ReportGate
    let now: Date

    /// The most reports or actions read per site.
    static let limit = 500

    func read() throws(ServerError) -> [DigestSite] {
        let forms = Dictionary(try session.templates().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        var sites: [DigestSite] = []
        for facility in try session.facilities().sorted(by: { $0.name < $1.name }) {
            if person.role == .client && !person.facilities.contains(facility.id) { continue }
            sites.append(
                DigestSite(
                    facility: facility, reports: try reports(at: facility.id), opened: [], closed: [], overdue: [],
                    formNames: forms))
            try readActions(into: &sites[sites.count - 1])
        }
        return sites
    }

    private func reports(at facilityID: String) throws(ServerError) -> [StoredReport] {
        guard person.role != .crew else { return [] }
        var query = HistoryQuery(facilityID: facilityID, acceptedFrom: period.from, acceptedTo: period.to)
        query.order = .oldest
        if person.role == .inspector { query.ownerID = person.userID }
        if person.role == .client && gate == .approved { query.reviewState = .approved }
        let found = try session.reportsPage(query, limit: Self.limit, offset: 0).map(\.0)
        guard person.role == .client else { return found }
        let states = ClientScope(facilities: [], gate: gate).reviewStates
        return found.filter { states.contains($0.reviewState) }
    }

    private func readActions(into site: inout DigestSite) throws(ServerError) {
        var query = ActionListQuery()
        query.facilityID = site.facility.id
        if person.role == .inspector || person.role == .crew { query.assigneeID = person.userID }
        let all = try session.actionList(query, limit: Self.limit, offset: 0).filter {
            person.role != .client || !$0.isInternal
        }
        let nowText = RFC3339.string(now)
        site.opened = all.filter { $0.createdAt >= period.from && $0.createdAt < period.to }
        site.closed = all.filter {
            ($0.state == .done || $0.state == .verified) && $0.updatedAt >= period.from && $0.updatedAt < period.to
        }
        site.overdue = all.filter { !$0.state.isFinal && $0.state != .done && ($0.dueAt ?? "9999") < nowText }
    }
}
