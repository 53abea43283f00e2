import FieldTypes
import Foundation
import Models
import ServerStore

/// An action's page: what, where, who, by when; its thread, oldest first;
/// and the forms of what the viewer may do now. Each form carries a new
/// update id, so a form sent twice records once.
extension ConsoleActionView {
    static func detail(_ shown: ConsoleActionDetail, csrf: String, now: Date) -> String {
        facts(shown, now: now) + thread(shown) + forms(shown, csrf: csrf)
    }

    private static func facts(_ shown: ConsoleActionDetail, now: Date) -> String {
        let action = shown.action
        let person = { (id: String) in HTML.escape(shown.document.person(id)["display_name"]?.stringValue ?? id) }
        var rows: [(String, String)] = [
            ("State", badge(action.state)),
            ("Severity", "<span class=\"severity-\(action.severity.rawValue)\">\(action.severity.rawValue)</span>"),
            (
                "Site",
                HTML.escape(shown.facility?.name ?? action.facilityID)
                    + (shown.area.map { " · " + HTML.escape($0.name) } ?? "")
            ),
            ("Assignee", action.assigneeID.map(person) ?? "<span class=\"muted\">nobody yet</span>"),
            ("Due", due(action, now: now)),
            ("Made by", "\(person(action.createdByID)), \(ConsoleLayout.time(action.createdAt))"),
        ]
        // A client is shown no internal id: the report an issue came from is the organisation's.
        if let serverID = action.reportServerID, shown.movers.client == nil {
            rows.append(("From report", ConsoleLayout.reportLink(serverID)))
        }
        if action.isInternal { rows.append(("Internal", "kept from the organisation's customers")) }
        var html =
            "<dl class=\"meta\" id=\"action-facts\">"
            + rows.map { "<div><dt>\($0.0)</dt><dd>\($0.1)</dd></div>" }.joined() + "</dl>\n"
        if let description = action.description {
            html += "<p class=\"description\">\(HTML.escape(description))</p>\n"
        }
        return html + photos(shown, of: nil)
    }

    /// The photos of the action itself (`update` nil) or of one update, each linked to its bytes.
    private static func photos(_ shown: ConsoleActionDetail, of update: String?) -> String {
        let held = shown.document.photos.filter { $0.updateID == update }
        guard !held.isEmpty else { return "" }
        return "<div class=\"photos\">"
            + held.map { photo in
                let url =
                    "\(ConsoleRoutes.consolePath)/actions/\(HTML.percent(shown.action.id))/photos/"
                    + photo.localID.uuidString.lowercased()
                return
                    "<figure class=\"photo\"><a class=\"photo-link\" href=\"\(url)\"><img class=\"photo-thumb\" src=\"\(url)\" alt=\"photo\" loading=\"lazy\"></a></figure>"
            }.joined() + "</div>"
    }

    private static func thread(_ shown: ConsoleActionDetail) -> String {
        guard !shown.updates.isEmpty else {
            return
                "<section id=\"thread\"><h2>Thread</h2><p class=\"muted\">Nothing has happened to it yet.</p></section>\n"
        }
        var html = "<section id=\"thread\"><h2>Thread</h2><ol>"
        for update in shown.updates {
            let author = shown.document.person(update.authorID)["display_name"]?.stringValue ?? update.authorID
            var said: [String] = []
            if let state = update.state { said.append("moved it to \(badge(state))") }
            if update.changesAssignee {
                said.append(
                    update.assigneeID.map {
                        "gave it to \(HTML.escape(shown.document.person($0)["display_name"]?.stringValue ?? $0))"
                    } ?? "took it from its assignee")
            }
            if update.changesDue {
                said.append(update.dueAt.map { "set it due \(ConsoleLayout.time($0))" } ?? "cleared its due time")
            }
            if said.isEmpty { said.append("commented") }
            html +=
                "<li class=\"update\" data-version=\"\(update.version)\"><strong>\(HTML.escape(author))</strong> "
                + said.joined(separator: ", ") + " <span class=\"muted\">\(ConsoleLayout.time(update.at))</span>"
                + (update.comment.map { "<blockquote>\(HTML.escape($0))</blockquote>" } ?? "")
                + photos(shown, of: update.id) + "</li>"
        }
        return html + "</ol></section>\n"
    }

    /// The moves the viewer may make now, a comment, and (supervisors) the assignee and due date.
    private static func forms(_ shown: ConsoleActionDetail, csrf: String) -> String {
        let action = shown.action
        let path = "\(ConsoleRoutes.consolePath)/actions/\(HTML.percent(action.id))"
        func open(_ id: String) -> String {
            "<form class=\"card\" id=\"\(id)\" method=\"post\" action=\"\(path)\">\(ConsoleLayout.csrfField(csrf))"
                + "<input type=\"hidden\" name=\"update_id\" value=\"\(UUID().uuidString.lowercased())\">"
        }
        let ownWork = action.state == .done && shown.movers.movedItToDone
        let moves = ActionState.allCases.filter { wanted in
            let caller = ownWork && (wanted == .verified || wanted == .open) ? [] : shown.movers.movers
            return ActionMove.judge(from: action.state, to: wanted, caller: caller) == .allowed
        }
        if let client = shown.movers.client, !client.ownRequest { return "" }
        var html = "<section id=\"action-forms\"><h2>What next</h2>"
        html +=
            open("move-form")
            + "<label>Comment <textarea name=\"comment\" rows=\"3\" maxlength=\"4000\"></textarea></label>"
            + moves.map { "<button type=\"submit\" name=\"state\" value=\"\($0.rawValue)\">\(moveWord($0))</button>" }
            .joined(separator: " ")
            + "<button type=\"submit\" name=\"state\" value=\"\">Comment only</button></form>"
        if shown.movers.isSupervisor && !action.state.isFinal {
            html +=
                open("assign-form") + "<input type=\"hidden\" name=\"assigning\" value=\"1\">"
                + "<label>Assignee <select name=\"assignee\">"
                + HTML.options(
                    [("", "nobody")] + shown.people.map { ($0.username, "\($0.displayName) (\($0.role.rawValue))") },
                    selected: currentAssignee(shown))
                + "</select></label><label>Due <input type=\"date\" name=\"due\" value=\"\(HTML.attribute(String((action.dueAt ?? "").prefix(10))))\"></label>"
                + "<input type=\"hidden\" name=\"was_assignee\" value=\"\(HTML.attribute(currentAssignee(shown)))\">"
                + "<input type=\"hidden\" name=\"was_due\" value=\"\(HTML.attribute(String((action.dueAt ?? "").prefix(10))))\">"
                + "<button type=\"submit\">Save</button></form>"
        }
        return html + "</section>\n"
    }

    /// The user name of the action's assignee among those it may be given to; "" for none.
    private static func currentAssignee(_ shown: ConsoleActionDetail) -> String {
        shown.action.assigneeID.flatMap { id in shown.people.first { $0.id == id }?.username } ?? ""
    }

    /// The button's words for a move to `state`.
    private static func moveWord(_ state: ActionState) -> String {
        switch state {
        case .open: "Reopen"
        case .inProgress: "Start"
        case .done: "Mark done"
        case .verified: "Verify"
        case .cancelled: "Cancel the action"
        }
    }

    /// The update a form of the action's page asks for, read as the API reads its body.
    static func request(_ form: ConsoleForm) throws(ServerError) -> ActionUpdateRequest {
        var body: [String: JSONValue] = ["id": .string(form.raw("update_id") ?? "")]
        if let state = form.text("state") { body["state"] = .string(state) }
        if let comment = form.text("comment") { body["comment"] = .string(comment) }
        // The assignee and the due date only when the form changes them.
        if form.text("assigning") != nil {
            let assignee = form.text("assignee") ?? ""
            if assignee != (form.text("was_assignee") ?? "") {
                body["assignee"] = assignee.isEmpty ? .null : .string(assignee)
            }
            let day = form.text("due") ?? ""
            if day != (form.text("was_due") ?? "") {
                guard day.isEmpty || RFC3339.isDay(day) else {
                    throw ServerError.badRequest("the due date must be a day, YYYY-MM-DD")
                }
                body["due_at"] = day.isEmpty ? .null : .string(day + "T23:59:59Z")
            }
        }
        if body.count == 1 { throw ServerError.badRequest("nothing changed: write a comment, or choose what to do") }
        return try ActionUpdateRequest.read(RequestMembers(.object(body)))
    }
}
