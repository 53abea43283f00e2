import FieldTypes
import Foundation
import Models
import ServerStore

/// The review queue: reports awaiting review first, filtered, sorted and
/// paged by the store (an indexed offset), with counts per state. An
/// inspector's queue is their own reports.
extension ConsoleRoutes {
    /// Reports on one page of the queue.
    static let queuePageSize = 50
    /// The deepest page the queue offers (past it, narrow the filters).
    static let queueDeepestPage = 10_000

    /// `GET /console/queue?state=&facility=&inspector=&template=&from=&to=&sort=&page=`.
    func consoleQueue(_ input: ConsoleInput) throws(ServerError) -> ConsolePage {
        let caller = try input.requireCaller()
        let request = try queueRequest(input, caller: caller)
        let snapshot = try queueSnapshot(request, caller: caller)
        let html =
            Self.queueCounts(request, snapshot.counts)
            + Self.queueFilterForm(input, request, snapshot, isSupervisor: caller.isSupervisor)
            + Self.queueResults(request, snapshot) + Self.queuePager(request, snapshot)
        return ConsolePage(
            title: caller.isSupervisor ? "Review queue" : "My reports",
            body: ConsoleLayout.notice(Self.noticeText(input)) + html,
            viewer: input.viewer)
    }

    /// Reads the queue's query arguments into the store's query, in order: state, dates, sort, page.
    private func queueRequest(_ input: ConsoleInput, caller: Caller) throws(ServerError) -> QueueRequest {
        // No `state` at all opens on what awaits review; an empty one (chosen "all states") is every state.
        let stateText =
            input.request.query["state"] == nil ? ReviewState.awaitingReview.rawValue : (input.query("state") ?? "")
        var query = HistoryQuery(ownerID: caller.isSupervisor ? nil : caller.user.id)
        if !stateText.isEmpty {
            guard let state = ReviewState(rawValue: stateText) else {
                throw ServerError.badRequest("there is no review state \(OneLine.quote(stateText, limit: 40))")
            }
            query.reviewState = state
        }
        query.facilityID = input.query("facility")
        query.inspectorID = caller.isSupervisor ? input.query("inspector") : nil
        query.templateID = input.query("template")
        query.acceptedFrom = try HistoryRoutes(context: context).moment(
            input.query("from"), name: "from", endOfDay: false)
        query.acceptedTo = try HistoryRoutes(context: context).moment(input.query("to"), name: "to", endOfDay: true)
        let sortText =
            input.query("sort")
            ?? (query.reviewState == .awaitingReview ? HistoryOrder.oldest.rawValue : HistoryOrder.newest.rawValue)
        guard let order = HistoryOrder(rawValue: sortText) else {
            throw ServerError.badRequest("the queue cannot be sorted by \(OneLine.quote(sortText, limit: 40))")
        }
        query.order = order
        switch input.query("outcome") ?? "" {
        case "": break
        case "failed": query.failedOnly = true
        case let other:
            throw ServerError.badRequest(
                "the queue has no outcome \(OneLine.quote(other, limit: 40)); choose failed, or none for every report")
        }
        let pageText = input.query("page") ?? "1"
        guard let page = Int(pageText), (1...Self.queueDeepestPage).contains(page) else {
            throw ServerError.badRequest("'page' must be a whole number from 1 to \(Self.queueDeepestPage)")
        }
        let filters: [(String, String)] = [
            ("state", stateText), ("facility", query.facilityID ?? ""),
            ("inspector", query.inspectorID ?? ""), ("template", query.templateID ?? ""),
            ("from", input.query("from") ?? ""), ("to", input.query("to") ?? ""),
            ("sort", input.query("sort") ?? ""), ("outcome", query.failedOnly ? "failed" : ""),
        ]
        return QueueRequest(query: query, stateText: stateText, page: page, filters: filters)
    }

    /// Reads the queue page from the store in one snapshot: the page, the counts of every state (the total is one
    /// of them, or their sum), the filters' choices.
    private func queueSnapshot(_ request: QueueRequest, caller: Caller) throws(ServerError) -> QueueSnapshot {
        let query = request.query
        let found = try store.read { session in
            let rows = try session.reportsPage(
                query, limit: Self.queuePageSize, offset: (request.page - 1) * Self.queuePageSize)
            return (
                rows, try Self.rowDetails(rows.map(\.0), in: session), try session.reviewStateCounts(query),
                try session.managedFacilities(),
                try templateCache.templates(in: session).values.map(\.template).sorted { $0.name < $1.name },
                caller.isSupervisor ? try session.users(role: .inspector) : [caller.user]
            )
        }
        let (rows, details, counts, facilities, templates, inspectors) = found
        return QueueSnapshot(
            rows: rows, areaNames: details.areaNames, gravest: details.gravest, counts: counts,
            total: query.reviewState.map { counts[$0] ?? 0 } ?? counts.values.reduce(0, +),
            facilities: facilities, templates: templates, inspectors: inspectors)
    }

    /// The names of the page's areas, and the gravest issue of each report's current revision.
    private static func rowDetails(_ reports: [StoredReport], in session: any StorageSession) throws(ServerError) -> (
        areaNames: [String: String], gravest: [String: IssueSeverity]
    ) {
        var areaNames: [String: String] = [:]
        for report in reports {
            if let id = report.areaID, areaNames[id] == nil { areaNames[id] = try session.area(id: id)?.name ?? id }
        }
        let issues = try session.currentIssues(serverIDs: reports.map(\.serverID))
        return (areaNames, issues.compactMapValues(Self.gravestIssue))
    }

    /// The gravest severity among stored issues, read leniently (an unreadable one counts for nothing).
    static func gravestIssue(_ issuesJSON: String) -> IssueSeverity? {
        guard let list = (try? JSONDecoder().decode(JSONValue.self, from: Data(issuesJSON.utf8)))?.arrayValue else {
            return nil
        }
        let order = IssueSeverity.allCases
        return list.compactMap { $0["severity"]?.stringValue.flatMap(IssueSeverity.init(typed:)) }
            .max { order.firstIndex(of: $0)! < order.firstIndex(of: $1)! }
    }

    /// The count of reports in each state, and in all, each a link to the queue filtered to it.
    private static func queueCounts(_ request: QueueRequest, _ counts: [ReviewState: Int]) -> String {
        let countLink = { (state: String, label: String, count: Int) -> String in
            let link = Self.queueURL(state: state, request.filters.filter { $0.0 != "state" && $0.0 != "sort" })
            let current = state == request.stateText ? " class=\"current\"" : ""
            return
                "<li data-state=\"\(state.isEmpty ? "all" : state)\"\(current)><a href=\"\(HTML.attribute(link))\">\(HTML.escape(label)) <span class=\"count\">\(count)</span></a></li>"
        }
        var html = "<ul id=\"counts\">"
        for state in ReviewState.allCases {
            html += countLink(state.rawValue, ConsoleLayout.stateName(state), counts[state] ?? 0)
        }
        html += countLink("", "all states", counts.values.reduce(0, +))
        html += "</ul>\n"
        return html
    }

    /// The form of the queue's filters, each set to what the request asked for.
    private static func queueFilterForm(
        _ input: ConsoleInput, _ request: QueueRequest, _ snapshot: QueueSnapshot, isSupervisor: Bool
    ) -> String {
        let query = request.query
        var html = "<form id=\"filters\" method=\"get\" action=\"\(Self.consolePath)/queue\">\n"
        html +=
            "<label>State <select name=\"state\">"
            + HTML.options(
                [("", "all states")] + ReviewState.allCases.map { ($0.rawValue, ConsoleLayout.stateName($0)) },
                selected: request.stateText)
            + "</select></label>\n"
        html +=
            "<label>Site <select name=\"facility\">"
            + HTML.options(
                [("", "every site")] + snapshot.facilities.map { ($0.facility.id, $0.facility.name) },
                selected: query.facilityID ?? "")
            + "</select></label>\n"
        if isSupervisor {
            html +=
                "<label>Inspector <select name=\"inspector\">"
                + HTML.options(
                    [("", "everyone")] + snapshot.inspectors.map { ($0.id, $0.displayName) },
                    selected: query.inspectorID ?? "")
                + "</select></label>\n"
        }
        html +=
            "<label>Form <select name=\"template\">"
            + HTML.options(
                [("", "every form")] + snapshot.templates.map { ($0.id, $0.name) }, selected: query.templateID ?? "")
            + "</select></label>\n"
        html +=
            "<label>From <input type=\"date\" name=\"from\" value=\"\(HTML.attribute(input.query("from") ?? ""))\"></label>\n"
        html +=
            "<label>To <input type=\"date\" name=\"to\" value=\"\(HTML.attribute(input.query("to") ?? ""))\"></label>\n"
        html +=
            "<label>Sort <select name=\"sort\">"
            + HTML.options(
                [
                    ("", "default"), (HistoryOrder.oldest.rawValue, "oldest first"),
                    (HistoryOrder.newest.rawValue, "newest first"),
                    (HistoryOrder.lowestScore.rawValue, "lowest score first"),
                    (HistoryOrder.mostDeficiencies.rawValue, "most deficiencies first"),
                ], selected: input.query("sort") ?? "")
            + "</select></label>\n"
        html +=
            "<label>Outcome <select name=\"outcome\">"
            + HTML.options(
                [("", "every report"), ("failed", "failed only")], selected: query.failedOnly ? "failed" : "")
            + "</select></label>\n"
        html += "<button type=\"submit\">Show</button>\n</form>\n"
        return html
    }

    /// Which reports of how many the page shows, then the table of them (none when the page is empty).
    private static func queueResults(_ request: QueueRequest, _ snapshot: QueueSnapshot) -> String {
        let total = snapshot.total
        let first = total == 0 ? 0 : (request.page - 1) * Self.queuePageSize + 1
        let last = (request.page - 1) * Self.queuePageSize + snapshot.rows.count
        var html =
            "<p class=\"muted\">\(total == 0 ? "No reports match." : "Reports \(first)–\(last) of \(total).")</p>\n"
        guard !snapshot.rows.isEmpty else { return html }
        let facilityNames = Dictionary(
            snapshot.facilities.map { ($0.facility.id, $0.facility.name) }, uniquingKeysWith: { a, _ in a })
        let templateNames = Self.templateNames(snapshot.templates)
        html +=
            "<table id=\"queue\">\n<thead><tr><th>Report</th><th>Completed</th><th>Site</th><th>Area</th><th>Form</th>"
            + "<th>Inspector</th>"
            + "<th class=\"num\">Score</th><th class=\"num\">Deficiencies</th><th>Review</th>"
            + "<th class=\"num\">Revision</th></tr></thead>\n<tbody>\n"
        for (report, owner) in snapshot.rows {
            html +=
                "<tr class=\"report\" data-server-id=\"\(HTML.attribute(report.serverID))\">"
                + "<td>\(Self.queueReportCell(report, gravest: snapshot.gravest[report.serverID]))</td>"
                + "<td class=\"completed\">\(ConsoleLayout.completion(report))</td>"
                + "<td class=\"facility\">\(HTML.escape(facilityNames[report.facilityID] ?? report.facilityID))</td>"
                + "<td class=\"area\">\(HTML.escape(report.areaID.map { snapshot.areaNames[$0] ?? $0 } ?? ""))</td>"
                + "<td class=\"template\">\(HTML.escape(templateNames[report.templateID] ?? report.templateID))</td>"
                + "<td class=\"inspector\">\(HTML.escape(owner.displayName))</td>"
                + "<td class=\"score num\(ConsoleLayout.outcomeClass(report.passed))\">"
                + "\(ConsoleLayout.percent(report.score))\(ConsoleLayout.outcomeWord(report.passed))</td>"
                + "<td class=\"deficiencies num\">\(report.deficiencyCount)</td>"
                + "<td class=\"state\">\(ConsoleLayout.stateBadge(report.reviewState))</td>"
                + "<td class=\"num\">\(report.currentRevision)</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        return html
    }

    /// A queue row's report: its short number linking to it (the whole id on
    /// hover), a mark for a high or critical issue, and the follow-up flag.
    private static func queueReportCell(_ report: StoredReport, gravest: IssueSeverity?) -> String {
        let id = report.serverID
        var cell =
            "<a class=\"open\" title=\"\(HTML.attribute(id))\" href=\"\(Self.consolePath)/reports/\(HTML.percent(id))\">"
            + "\(HTML.escape(ConsoleLayout.shortID(id)))</a>"
        if let gravest, gravest == .high || gravest == .critical {
            cell +=
                " <span class=\"flag severity-\(gravest.rawValue)\" title=\"an issue of \(gravest.rawValue) severity\">"
                + "\(gravest.rawValue)</span>"
        }
        if report.followUpRequired {
            cell += " <span class=\"flag\" title=\"follow-up required\">follow-up</span>"
        }
        return cell
    }

    /// The links to the previous and next pages, when there are any.
    private static func queuePager(_ request: QueueRequest, _ snapshot: QueueSnapshot) -> String {
        let page = request.page
        let last = (page - 1) * Self.queuePageSize + snapshot.rows.count
        func pageLink(_ number: Int, _ cls: String, _ label: String) -> String {
            let link = Self.queueURL(
                state: request.stateText, request.filters.filter { $0.0 != "state" } + [("page", String(number))])
            return "<a class=\"\(cls)\" href=\"\(HTML.attribute(link))\">\(label)</a>"
        }
        var pager: [String] = []
        if page > 1 { pager.append(pageLink(page - 1, "previous", "← previous")) }
        if last < snapshot.total && page < Self.queueDeepestPage { pager.append(pageLink(page + 1, "next", "next →")) }
        return pager.isEmpty ? "" : "<p class=\"pager\">\(pager.joined(separator: " "))</p>\n"
    }

    /// A link to the queue: the state always carried, empty or not (no state
    /// at all means "awaiting review"), the other filters when set.
    static func queueURL(state: String, _ pairs: [(String, String)]) -> String {
        let rest = HTML.query(pairs)
        return consolePath + "/queue?state=" + HTML.percent(state) + (rest.isEmpty ? "" : "&" + rest.dropFirst())
    }

    /// The notice a redirect after a form asks for, from a fixed list (never text from the URL).
    static func noticeText(_ input: ConsoleInput) -> String? {
        switch input.query("notice") {
        case "approved"?: return "Approved. The inspector sees it at their next sync."
        case "returned"?: return "Returned to the inspector, with your comments. They see it at their next sync."
        case "rejected"?: return "Rejected. The inspector sees it at their next sync."
        case "unchanged"?: return "That decision was already recorded; nothing changed."
        case "saved"?: return "Saved."
        default: return nil
        }
    }
}

/// A queue request once read: the store's query, the state as asked (empty for every state), the page, and the
/// filters as the queue's links carry them.
private struct QueueRequest {
    var query: HistoryQuery
    var stateText: String
    var page: Int
    var filters: [(String, String)]
}

/// What one queue page shows from the store: its rows, the count per state and the total the filters match,
/// and the choices of the filters.
private struct QueueSnapshot {
    var rows: [(StoredReport, StoredUser)]
    /// The names of the page's areas, by id.
    var areaNames: [String: String]
    /// The gravest issue of each report of the page, by server id.
    var gravest: [String: IssueSeverity]
    var counts: [ReviewState: Int]
    var total: Int
    var facilities: [ManagedFacility]
    var templates: [Template]
    var inspectors: [StoredUser]
}
