import Foundation
import Models
import ServerStore

/// Actions the server makes from issues (contract 1.2): when a report
/// revision is accepted carrying an issue at or above the threshold that
/// has no action yet, one action, in the transaction that accepts it.
struct ActionMaker {
    let policy: ActionPolicy

    /// The longest title made from an issue, in Unicode scalars.
    static let longestIssueTitle = 120

    /// Makes the actions the issues of `accepted` revisions call for; what it made.
    @discardableResult
    func makeActions(for accepted: [AcceptedRevision], at date: Date, in session: any StorageSession)
        throws(ServerError) -> [StoredAction]
    {
        var made: [StoredAction] = []
        for item in accepted {
            guard let report = try session.report(serverID: item.serverID),
                let revision = try session.revision(serverID: item.serverID, revision: item.revision)
            else { continue }
            for issue in Self.issues(revision.issuesJSON) where policy.makesAction(issue.severity) {
                guard try session.action(reportServerID: report.serverID, issueLocalID: issue.localID) == nil else {
                    continue
                }
                let now = RFC3339.string(date)
                let action = StoredAction(
                    id: Self.newID(), requestID: nil, facilityID: report.facilityID, areaID: report.areaID,
                    title: Self.title(issue.description), description: Self.fullDescription(issue.description),
                    severity: issue.severity, isInternal: false, state: .open, assigneeID: nil,
                    dueAt: policy.due(issue.severity, from: date), sourceKind: "issue",
                    reportServerID: report.serverID, issueLocalID: issue.localID, createdByID: report.ownerID,
                    version: 1, createdAt: now, updatedAt: now)
                let saved = try session.insertAction(action, viewers: [report.ownerID])
                try ActionDocument.recordEvent(saved, .actionCreated, in: session)
                made.append(saved)
            }
        }
        return made
    }

    /// An issue as the stored revision holds it: its id, severity and description.
    struct IssueLine: Equatable {
        var localID: String
        var severity: IssueSeverity
        var description: String
    }

    /// The issues of a revision's stored JSON, read leniently (one unreadable is skipped).
    static func issues(_ json: String) -> [IssueLine] {
        let list = CanonicalJSON.value(json).arrayValue ?? []
        return list.compactMap { item in
            guard let id = item["local_id"]?.stringValue,
                let severity = item["severity"]?.stringValue.flatMap(IssueSeverity.init(typed:))
            else { return nil }
            return IssueLine(
                localID: id.lowercased(), severity: severity, description: item["description"]?.stringValue ?? "")
        }
    }

    /// An action's title from an issue's description: its first line, at most 120 Unicode scalars.
    static func title(_ description: String) -> String {
        let first =
            description.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).first
            .map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
        let scalars = first.unicodeScalars.prefix(longestIssueTitle)
        let title = String(String.UnicodeScalarView(scalars))
        return title.isEmpty ? "Issue" : title
    }

    /// The whole description when it says more than the title, else nil.
    static func fullDescription(_ description: String) -> String? {
        let trimmed = description.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty || trimmed == title(description) ? nil : trimmed
    }

    /// A new action id: `A-` and 24 hex digits from the system's random source.
    static func newID() -> String { "A-" + Hex.encode(PasswordHasher.randomBytes(12)) }
}
