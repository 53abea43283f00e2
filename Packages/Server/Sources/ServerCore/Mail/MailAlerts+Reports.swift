import Foundation
import Models
import ServerStore

/// Alerts of report events: a report that failed, a serious issue, a report returned.
extension MailAlerts {
    /// Whether a report event may make an alert, judged from what the batch's
    /// one read holds: a revision that failed or carries issues, a return.
    /// Every other event (most of them) costs no further read.
    func mayConcern(_ row: MailReportEvent) -> Bool {
        guard isFresh(row.event.at) else { return false }
        switch row.event.kind {
        case "accepted", "amended", "merged", "edited": return row.grade?.passed == false || row.hasIssues
        case ReviewState.returned.rawValue: return true
        default: return false
        }
    }

    /// The notices of one report event.
    mutating func report(_ event: StoredReportEvent) throws(ServerError) {
        guard isFresh(event.at), let report = try session.report(serverID: event.serverID),
            let revision = try session.revision(serverID: event.serverID, revision: event.revision)
        else { return }
        let site = facilityName(report.facilityID)
        let form = try templateName(report.templateID)
        let about = "\(report.serverID).r\(event.revision)"
        switch event.kind {
        case "accepted", "amended", "merged", "edited":
            if try newlyFailed(report, revision) {
                let notice = MailNotice(
                    kind: MailAlert.reportFailed.rawValue, about: about,
                    subject: "Failed: \(form) at \(site) (\(MailText.score(revision.grade?.score)))",
                    heading: "An inspection failed at \(site)",
                    lines: try facts(report, revision, form: form, site: site),
                    page: "/reports/\(report.serverID)", pageLabel: "Open the report")
                send(notice, to: overseers(.reportFailed, except: nil))
            }
            let serious = try WebhookOutbox.newIssues(report, revision, in: session).filter { issue in
                let severity = issue["severity"]?.stringValue ?? ""
                return severity == "high" || severity == "critical"
            }
            guard !serious.isEmpty else { return }
            let first = serious[0]
            let notice = MailNotice(
                kind: MailAlert.seriousIssue.rawValue, about: about,
                subject:
                    "\(first["severity"]?.stringValue?.capitalized ?? "Serious") issue at \(site): \(first["description"]?.stringValue ?? "")",
                heading: serious.count == 1
                    ? "A serious issue was flagged at \(site)"
                    : "\(serious.count) serious issues were flagged at \(site)",
                lines: serious.map { "\($0["severity"]?.stringValue ?? ""): \($0["description"]?.stringValue ?? "")" }
                    + (try facts(report, revision, form: form, site: site)),
                page: "/reports/\(report.serverID)", pageLabel: "Open the report")
            send(notice, to: overseers(.seriousIssue))
        case ReviewState.returned.rawValue:
            var lines = ["Returned by \(event.actor.displayName) on \(look.time(event.at))."]
            if let comment = event.comment, !comment.isEmpty { lines.append("Comment: \(comment)") }
            for note in event.fieldComments ?? [] { lines.append("On field \(note.fieldID): \(note.comment)") }
            let notice = MailNotice(
                kind: MailAlert.reportReturned.rawValue, about: about,
                subject: "Returned to you: \(form) at \(site)", heading: "Your inspection at \(site) was returned",
                lines: lines, page: "/reports/\(report.serverID)", pageLabel: "Open the report")
            send(notice, to: choosing(.reportReturned, among: [report.ownerID]))
        default:
            return
        }
    }

    /// Whether this revision failed and the one before it (if any) did not.
    private func newlyFailed(_ report: StoredReport, _ revision: StoredRevision) throws(ServerError) -> Bool {
        guard revision.grade?.passed == false else { return false }
        guard revision.revision > 1,
            let previous = try session.revision(serverID: report.serverID, revision: revision.revision - 1)
        else { return true }
        return previous.grade?.passed != false
    }

    /// The lines every report alert carries: site, area, form, inspector, time, score.
    private func facts(_ report: StoredReport, _ revision: StoredRevision, form: String, site: String)
        throws(ServerError) -> [String]
    {
        var lines = ["Site: \(site)"]
        if let area = report.areaID { lines.append("Area: \(try session.area(id: area)?.name ?? area)") }
        lines.append("Form: \(form)")
        if let owner = try session.user(id: report.ownerID) { lines.append("Inspector: \(owner.displayName)") }
        lines.append("Received: \(look.time(report.acceptedAt))")
        var score = "Score: \(MailText.score(revision.grade?.score))"
        if let passed = revision.grade?.passed { score += passed ? ", passed" : ", failed" }
        let deficiencies = revision.grade?.deficiencies.count ?? 0
        if deficiencies > 0 { score += ", \(deficiencies) deficienc\(deficiencies == 1 ? "y" : "ies")" }
        lines.append(score)
        return lines
    }
}
