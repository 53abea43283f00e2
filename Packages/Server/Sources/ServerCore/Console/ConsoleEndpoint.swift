/// Every page and form of the console: its pattern under `/console`, the
/// methods it answers and who may open it. `ConsoleRoutes` dispatches on it
/// alone (its switch names every case), the access log and the metrics name
/// paths by it, and the tests walk it, so a page added here is one the
/// isolation walk reaches.
public enum ConsoleEndpoint: String, CaseIterable, Sendable {
    case home, stylesheet, signIn, signOut
    case queue, report, reportPrint, reportReview, reportPhoto, reportPDF
    case sites, site, siteSummary, team, rollups, rollupsCSV, coverage, coverageCSV
    case actions, action, actionPhoto
    case admin, adminSection
    case buildings, building, buildingSummary, requestService
    case mail

    /// Who may open a page.
    public enum Audience: Sendable {
        /// Anyone, signed in or not (signing out ends whatever session there is).
        case everyone
        /// Inspectors, crew, supervisors and admins (each page checks further).
        case staff
        /// Clients only.
        case clients
        /// Every signed-in person; a client gets the client-safe page.
        case signedIn
    }

    /// The pattern under `/console`: literal segments, and `{name}` for one segment.
    public var pattern: String {
        switch self {
        case .home: "/"
        case .stylesheet: "/console.css"
        case .signIn: "/sign-in"
        case .signOut: "/sign-out"
        case .queue: "/queue"
        case .report: "/reports/{server_id}"
        case .reportPrint: "/reports/{server_id}/print"
        case .reportReview: "/reports/{server_id}/review"
        case .reportPhoto: "/reports/{server_id}/photos/{local_id}"
        case .reportPDF: "/reports/{server_id}/pdf"
        case .sites: "/sites"
        case .site: "/sites/{facility_id}"
        case .siteSummary: "/sites/{facility_id}/summary"
        case .team: "/team"
        case .rollups: "/rollups"
        case .rollupsCSV: "/rollups/csv"
        case .coverage: "/coverage"
        case .coverageCSV: "/coverage/csv"
        case .actions: "/actions"
        case .action: "/actions/{id}"
        case .actionPhoto: "/actions/{id}/photos/{local_id}"
        case .admin: "/admin"
        case .adminSection: "/admin/{page}"
        case .buildings: "/buildings"
        case .building: "/buildings/{facility_id}"
        case .buildingSummary: "/buildings/{facility_id}/summary"
        case .requestService: "/requests/new"
        case .mail: "/mail"
        }
    }

    /// The methods the page answers; any other is 405.
    public var methods: Set<String> {
        switch self {
        case .signIn, .action, .adminSection, .requestService, .mail: ["GET", "POST"]
        case .signOut, .reportReview: ["POST"]
        default: ["GET"]
        }
    }

    public var audience: Audience {
        switch self {
        case .home, .stylesheet, .signIn, .signOut: .everyone
        case .queue, .report, .reportPrint, .reportPhoto, .reportPDF, .actions, .action, .actionPhoto, .mail: .signedIn
        case .reportReview, .sites, .site, .siteSummary, .team, .rollups, .rollupsCSV, .coverage, .coverageCSV, .admin,
            .adminSection:
            .staff
        case .buildings, .building, .buildingSummary, .requestService: .clients
        }
    }

    /// The names of the pattern's parameters, in order.
    public var parameters: [String] {
        segments.compactMap { $0.hasPrefix("{") ? String($0.dropFirst().dropLast()) : nil }
    }

    /// The pattern's segments.
    var segments: [Substring] { pattern.split(separator: "/") }

    /// The page a path under `/console` names (split into segments), and its
    /// parameters in order; nil when none does.
    public static func match(_ path: [String]) -> (ConsoleEndpoint, [String])? {
        for endpoint in allCases {
            let pattern = endpoint.segments
            guard pattern.count == path.count else { continue }
            var values: [String] = []
            var matched = true
            for (expected, given) in zip(pattern, path) {
                if expected.hasPrefix("{") {
                    values.append(given)
                } else if expected != given {
                    matched = false
                    break
                }
            }
            if matched { return (endpoint, values) }
        }
        return nil
    }

    /// The path of the page with `values` for its parameters, each one
    /// percent-encoded segment: `/console/...`.
    public func path(filling values: [String] = []) -> String {
        var given = values.makeIterator()
        let filled = segments.map { segment -> String in
            segment.hasPrefix("{") ? HTML.percent(given.next() ?? "") : String(segment)
        }
        return ConsoleRoutes.consolePath + "/" + filled.joined(separator: "/")
    }
}
