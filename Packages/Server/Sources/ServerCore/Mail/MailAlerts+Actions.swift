import Foundation
import Models
import ServerStore

/// Alerts of actions: assigned to me, a client's request, overdue.
extension MailAlerts {
    /// The notices of one action event (the action as it stood after the change).
    mutating func action(_ event: StoredActionEvent) throws(ServerError) {
        guard isFresh(event.at) else { return }
        let action = CanonicalJSON.value(event.actionJSON)
        guard let id = action["id"]?.stringValue else { return }
        let site = facilityName(action["facility_id"]?.stringValue ?? "")
        let title = action["title"]?.stringValue ?? ""
        let actor =
            action["updates"]?.arrayValue?.last?["author"]?["id"]?.stringValue
            ?? action["created_by"]?["id"]?.stringValue
        let about = "\(id).c\(event.change)"
        if event.type.isActionCreation, action["source"]?["kind"]?.stringValue == "client" {
            let client = action["created_by"]?["display_name"]?.stringValue ?? "A client"
            let notice = MailNotice(
                kind: MailAlert.clientRequest.rawValue, about: about,
                subject: "Request from \(client) at \(site): \(title)",
                heading: "\(client) asked for service at \(site)", lines: try lines(action, site: site),
                page: "/actions/\(id)", pageLabel: "Open the request")
            send(notice, to: overseers(.clientRequest))
        }
        // Assigned in this change: made with an assignee, or an update that set one.
        let assignedNow =
            event.type.isActionCreation
            ? action["assignee"] != nil && action["assignee"] != .null
            : action["updates"]?.arrayValue?.last?["assignee"]?.stringValue != nil
        if assignedNow, let assignee = action["assignee"]?["id"]?.stringValue, assignee != actor {
            var facts = try lines(action, site: site)
            if let by = action["updates"]?.arrayValue?.last?["author"]?["display_name"]?.stringValue
                ?? action["created_by"]?["display_name"]?.stringValue
            {
                facts.append("Assigned by: \(by)")
            }
            let notice = MailNotice(
                kind: MailAlert.actionAssigned.rawValue, about: about, subject: "Assigned to you: \(title) at \(site)",
                heading: "An action at \(site) is yours", lines: facts, page: "/actions/\(id)",
                pageLabel: "Open the action")
            send(notice, to: choosing(.actionAssigned, among: [assignee]))
        }
    }

    /// The notice of an action that passed its due time, once for that due time.
    mutating func overdue(_ action: OverdueAction) throws(ServerError) {
        let site = facilityName(action.facilityID)
        var lines = ["Site: \(site)", "Severity: \(action.severity)", "Was due: \(look.time(action.dueAt))"]
        if let assignee = action.assigneeID, let person = try session.user(id: assignee) {
            lines.append("Assigned to: \(person.displayName)")
        } else {
            lines.append("Assigned to nobody")
        }
        let notice = MailNotice(
            kind: MailAlert.actionOverdue.rawValue, about: "\(action.id).\(action.dueAt)",
            subject: "Overdue: \(action.title) at \(site)", heading: "An action at \(site) is overdue", lines: lines,
            page: "/actions/\(action.id)", pageLabel: "Open the action")
        var recipients = overseers(.actionOverdue)
        if let assignee = action.assigneeID { recipients += choosing(.actionOverdue, among: [assignee]) }
        send(notice, to: recipients)
    }

    /// The lines of an action: site, area, severity, due time, description.
    private func lines(_ action: JSONValue, site: String) throws(ServerError) -> [String] {
        var lines = ["Site: \(site)"]
        if let area = action["area_id"]?.stringValue {
            lines.append("Area: \(try session.area(id: area)?.name ?? area)")
        }
        lines.append("Severity: \(action["severity"]?.stringValue ?? "medium")")
        if let due = action["due_at"]?.stringValue { lines.append("Due: \(look.time(due))") }
        if let description = action["description"]?.stringValue, !description.isEmpty {
            lines.append("Description: \(description)")
        }
        return lines
    }
}
