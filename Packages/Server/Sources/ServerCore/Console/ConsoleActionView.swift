import FieldTypes
import Foundation
import Models
import ServerStore

/// How the console draws corrective actions: the list's counts, filters,
/// table and pager, an action's page, and reading its forms back.
struct ConsoleActionView {
    var listing: ConsoleActionListing
    var now: Date

    private var siteNames: [String: String] {
        Dictionary(listing.facilities.map { ($0.facility.id, $0.facility.name) }, uniquingKeysWith: { a, _ in a })
    }

    private var names: [String: String] {
        Dictionary(listing.people.map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
    }

    /// The count of actions in each state, each a link to the list filtered to it.
    func counts(_ input: ConsoleInput, _ query: ActionListQuery) -> String {
        var html = "<ul id=\"action-counts\">"
        for state in ActionState.allCases {
            let link = Self.listURL(input, setting: ("state", state.rawValue))
            let current = query.state == state ? " class=\"current\"" : ""
            html +=
                "<li data-state=\"\(state.rawValue)\"\(current)><a href=\"\(HTML.attribute(link))\">"
                + "\(HTML.escape(Self.stateName(state))) <span class=\"count\">\(listing.counts[state] ?? 0)</span></a></li>"
        }
        return html + "</ul>\n"
    }

    /// The form of the list's filters, each set to what the request asked for.
    func filters(_ input: ConsoleInput, _ query: ActionListQuery, showAssignee: Bool) -> String {
        var html = "<form id=\"action-filters\" method=\"get\" action=\"\(ConsoleRoutes.consolePath)/actions\">\n"
        html +=
            "<label>State <select name=\"state\">"
            + HTML.options(
                [("", "every state")] + ActionState.allCases.map { ($0.rawValue, Self.stateName($0)) },
                selected: query.state?.rawValue ?? "") + "</select></label>\n"
        html +=
            "<label>Site <select name=\"facility\">"
            + HTML.options(
                [("", "every site")] + listing.facilities.map { ($0.facility.id, $0.facility.name) },
                selected: query.facilityID ?? "") + "</select></label>\n"
        if showAssignee {
            html +=
                "<label>Assignee <select name=\"assignee\">"
                + HTML.options(
                    [("", "anyone")] + listing.people.map { ($0.id, $0.displayName) },
                    selected: query.assigneeID ?? "") + "</select></label>\n"
        }
        html +=
            "<label>Severity <select name=\"severity\">"
            + HTML.options(
                [("", "any severity")] + IssueSeverity.allCases.reversed().map { ($0.rawValue, $0.rawValue) },
                selected: query.severity?.rawValue ?? "") + "</select></label>\n"
        html +=
            "<label><input type=\"checkbox\" name=\"overdue\" value=\"1\"\(query.overdueAt != nil ? " checked" : "")> overdue only</label>\n"
        return html + "<button type=\"submit\">Show</button>\n</form>\n"
    }

    /// The table of the page's actions, the soonest due first.
    func table() -> String {
        guard !listing.actions.isEmpty else { return "<p class=\"muted\">No actions match.</p>\n" }
        var html =
            "<table id=\"actions\">\n<thead><tr><th>Action</th><th>Site</th><th>Severity</th><th>State</th>"
            + "<th>Assignee</th><th>Due</th><th>Age</th></tr></thead>\n<tbody>\n"
        for action in listing.actions {
            html +=
                "<tr class=\"action\" data-action-id=\"\(HTML.attribute(action.id))\">"
                + "<td>\(Self.link(action))</td>"
                + "<td>\(HTML.escape(siteNames[action.facilityID] ?? action.facilityID))</td>"
                + "<td class=\"severity-\(action.severity.rawValue)\">\(action.severity.rawValue)</td>"
                + "<td>\(Self.badge(action.state))</td>"
                + "<td>\(HTML.escape(action.assigneeID.map { names[$0] ?? $0 } ?? "nobody"))</td>"
                + "<td>\(Self.due(action, now: now))</td>"
                + "<td>\(HTML.escape(Self.age(since: action.createdAt, now: now)))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    /// The links to the previous and next pages, when there are any.
    func pager(_ input: ConsoleInput, page: Int) -> String {
        var links: [String] = []
        if page > 1 {
            links.append(
                "<a class=\"previous\" href=\"\(HTML.attribute(Self.listURL(input, setting: ("page", String(page - 1)))))\">← previous</a>"
            )
        }
        if listing.actions.count == ConsoleRoutes.actionPageSize {
            links.append(
                "<a class=\"next\" href=\"\(HTML.attribute(Self.listURL(input, setting: ("page", String(page + 1)))))\">next →</a>"
            )
        }
        return links.isEmpty ? "" : "<p class=\"pager\">\(links.joined(separator: " "))</p>\n"
    }

    /// The list's address with the request's filters and one of them set anew (the page starts again).
    static func listURL(_ input: ConsoleInput, setting pair: (String, String)) -> String {
        var pairs: [(String, String)] = []
        for name in ["state", "facility", "assignee", "severity", "overdue"] where name != pair.0 {
            if let value = input.query(name) { pairs.append((name, value)) }
        }
        pairs.append(pair)
        return ConsoleRoutes.consolePath + "/actions" + HTML.query(pairs)
    }

    // MARK: Pieces

    /// A link to an action's page, its title as the text.
    static func link(_ action: StoredAction) -> String {
        "<a class=\"open\" href=\"\(ConsoleRoutes.consolePath)/actions/\(HTML.percent(action.id))\">\(HTML.escape(action.title))</a>"
    }

    /// A state in words.
    static func stateName(_ state: ActionState) -> String {
        switch state {
        case .open: "open"
        case .inProgress: "in progress"
        case .done: "done"
        case .verified: "verified"
        case .cancelled: "cancelled"
        }
    }

    /// A state as a badge.
    static func badge(_ state: ActionState) -> String {
        "<span class=\"action-state \(state.rawValue)\">\(HTML.escape(stateName(state)))</span>"
    }

    /// When an action is due, marked when it is overdue.
    static func due(_ action: StoredAction, now: Date) -> String {
        guard let due = action.dueAt else { return "<span class=\"muted\">no due time</span>" }
        let late = !action.state.isFinal && action.state != .done && (RFC3339.date(due).map { $0 < now } ?? false)
        return ConsoleLayout.time(due) + (late ? " <span class=\"flag overdue\">overdue</span>" : "")
    }

    /// How long ago an RFC 3339 time was: "3 days", "5 hours", "12 minutes".
    static func age(since text: String, now: Date) -> String {
        guard let date = RFC3339.date(text) else { return "" }
        let minutes = max(0, Int(now.timeIntervalSince(date) / 60))
        if minutes >= 2 * 24 * 60 { return "\(minutes / (24 * 60)) days" }
        if minutes >= 2 * 60 { return "\(minutes / 60) hours" }
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}
