import Foundation
import Models
import ServerStore

/// Alerts of schedules: a visit missed.
extension MailAlerts {
    /// The notice of a visit with no inspection by its window's end and the grace after, once a visit.
    mutating func missed(_ visit: ScheduledVisit) throws(ServerError) {
        let site = facilityName(visit.facilityID)
        let template = try templateName(visit.templateID)
        var lines = ["Site: \(site)"]
        if let area = visit.areaID { lines.append("Area: \(try session.area(id: area)?.name ?? area)") }
        lines.append("Inspection: \(template)")
        lines.append("Window: \(look.time(visit.windowStart)) to \(look.time(visit.windowEnd))")
        let inspector = try session.user(id: visit.inspectorID)?.displayName ?? visit.inspectorID
        lines.append("Inspector: \(inspector)")
        let notice = MailNotice(
            kind: MailAlert.visitMissed.rawValue, about: visit.id, subject: "Missed: \(template) at \(site)",
            heading: "A scheduled inspection at \(site) was not done", lines: lines,
            page: "/sites/\(visit.facilityID)", pageLabel: "Open the site")
        send(notice, to: overseers(.visitMissed))
    }
}
