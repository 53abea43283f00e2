import Foundation
import Models
import ServerStore

/// The frame of every console page: the document, the navigation, the
/// sign-out form, and the small pieces pages share (badges, scores, times).
enum ConsoleLayout {
    /// The whole HTML document of a page.
    static func document(_ page: ConsolePage) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(page.title)) · JanitorialQC</title>
            <link rel="stylesheet" href="\(ConsoleRoutes.consolePath)/console.css">
            </head>
            <body\(page.printable ? " class=\"printable\"" : "")>

            """
        if let viewer = page.viewer, !page.printable { html += navigation(viewer) }
        html += "<main>\n<h1>\(HTML.escape(page.title))</h1>\n\(page.body)\n</main>\n</body>\n</html>\n"
        return html
    }

    /// The bar at the top: where to go, who is signed in, and sign-out.
    static func navigation(_ viewer: ConsoleViewer) -> String {
        var links = [("queue", viewer.isSupervisor ? "Review queue" : "My reports")]
        links.append(("actions", viewer.isSupervisor ? "Actions" : "My actions"))
        if viewer.role == UserRole.client.rawValue {
            links = [("buildings", "My buildings"), ("actions", "Requests"), ("requests/new", "Request service")]
        }
        if viewer.isSupervisor {
            links += [("sites", "Sites"), ("team", "Team"), ("rollups", "Roll-ups"), ("coverage", "Coverage")]
        }
        if viewer.isAdmin { links.append(("admin", "Administration")) }
        links.append(("mail", "My e-mail"))
        let items = links.map { "<a href=\"\(ConsoleRoutes.consolePath)/\($0.0)\">\(HTML.escape($0.1))</a>" }.joined(
            separator: " ")
        return """
            <nav>
            <span class="brand">JanitorialQC</span> \(items)
            <span class="who">\(HTML.escape(viewer.displayName)) <span class="muted">(\(HTML.escape(viewer.role)))</span></span>
            <form id="sign-out" method="post" action="\(ConsoleRoutes.consolePath)/sign-out">\(csrfField(viewer.csrf))<button type="submit">Sign out</button></form>
            </nav>

            """
    }

    /// The hidden field every form of a session carries.
    static func csrfField(_ token: String) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(HTML.attribute(token))\">"
    }

    /// The page of an error: its status, its one-line message, a way on.
    static func errorPage(_ error: ServerError, viewer: ConsoleViewer?) -> ConsolePage {
        let title: String
        switch error.status {
        case 400: title = "That could not be done"
        case 401: title = "Sign in first"
        case 403: title = "Not allowed"
        case 404: title = "Not found"
        case 405: title = "Not here"
        case 409: title = "Changed meanwhile"
        case 413: title = "Too large"
        case 429: title = "Too many attempts"
        default: title = error.status >= 500 ? "The server could not answer" : "That could not be done"
        }
        let back =
            viewer == nil
            ? "<p><a href=\"\(ConsoleRoutes.consolePath)/sign-in\">Sign in</a></p>"
            : "<p><a href=\"\(ConsoleRoutes.consolePath)/queue\">Back to the queue</a></p>"
        return ConsolePage(
            status: error.status, title: title,
            body: "<p class=\"error\">\(HTML.escape(error.message))</p>\n\(back)", viewer: viewer)
    }

    /// A notice above the page (after a form did what it said).
    static func notice(_ text: String?) -> String {
        guard let text else { return "" }
        return "<p id=\"notice\">\(HTML.escape(text))</p>\n"
    }

    /// An error above the page (a form that was refused).
    static func error(_ text: String?) -> String {
        guard let text else { return "" }
        return "<p class=\"error\">\(HTML.escape(text))</p>\n"
    }

    /// A review state as a coloured badge.
    static func stateBadge(_ state: ReviewState) -> String {
        "<span class=\"state \(state.rawValue)\">\(HTML.escape(stateName(state)))</span>"
    }

    /// A review state in words.
    static func stateName(_ state: ReviewState) -> String {
        switch state {
        case .awaitingReview: return "awaiting review"
        case .approved: return "approved"
        case .returned: return "returned"
        case .rejected: return "rejected"
        }
    }

    /// A score ratio as a percentage; a dash when nothing was scored.
    static func percent(_ ratio: Double?) -> String {
        guard let ratio else { return "–" }
        return String(format: "%.0f%%", ratio * 100)
    }

    /// The class a score's cell takes by its report's outcome: ` passed`,
    /// ` failed`, or nothing when its template sets no threshold.
    static func outcomeClass(_ passed: Bool?) -> String {
        passed.map { $0 ? " passed" : " failed" } ?? ""
    }

    /// The word after a score in a list: passed or failed, or nothing when
    /// its template sets no threshold.
    static func outcomeWord(_ passed: Bool?) -> String {
        passed.map { " <span class=\"outcome\">\($0 ? "passed" : "failed")</span>" } ?? ""
    }

    /// An RFC 3339 time as people read it (`2026-03-01 14:02 UTC`).
    static func time(_ text: String?) -> String {
        guard let text else { return "" }
        guard let date = RFC3339.date(text) else { return HTML.escape(text) }
        // The one writer of timestamps gives `YYYY-MM-DDTHH:MM:SSZ` in UTC; shown to the minute.
        let utc = RFC3339.string(date)
        return "\(utc.prefix(10)) \(utc.dropFirst(11).prefix(5)) UTC"
    }

    /// The day of an RFC 3339 time (`2026-03-01`, UTC), escaped.
    static func day(_ text: String) -> String { HTML.escape(String(text.prefix(10))) }

    /// When a report was completed, by the device's clock (so marked), and
    /// when the server received it; the time received alone when the device
    /// gave none.
    static func completion(_ report: StoredReport) -> String {
        let received = "received \(time(report.acceptedAt))"
        guard let device = report.completedAtDevice else { return received }
        return
            "<span class=\"device-time\" title=\"by the inspector's device clock\">\(time(device))</span> "
            + "<small class=\"muted\">(device clock; \(received))</small>"
    }

    /// A report's short number: the first 8 characters of its server id
    /// (`R-` and 6 hex digits, enough to tell a page's reports apart), the
    /// whole of a shorter id.
    static func shortID(_ serverID: String) -> String {
        serverID.count > 10 ? "\(serverID.prefix(8))…" : serverID
    }

    /// A link to a report's page.
    static func reportLink(_ serverID: String, text: String? = nil, revision: Int? = nil) -> String {
        let query = revision.map { "?revision=\($0)" } ?? ""
        return
            "<a class=\"open\" href=\"\(ConsoleRoutes.consolePath)/reports/\(HTML.percent(serverID))\(query)\">\(HTML.escape(text ?? serverID))</a>"
    }
}
