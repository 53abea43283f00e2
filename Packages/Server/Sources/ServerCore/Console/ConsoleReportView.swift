import FieldTypes
import FormLogic
import Foundation
import Models
import Scoring
import ServerStore

/// Everything a report's page shows, read in one transaction.
struct ConsoleReportView: Sendable {
    var report: StoredReport
    /// The revision shown (the current one unless `?revision=N`).
    var revision: StoredRevision
    /// The revision before it, for what changed.
    var previous: StoredRevision?
    var template: Template?
    var photos: [StoredPhoto]
    /// The review of the current revision.
    var review: StoredReview
    var events: [StoredReportEvent]
    var owner: StoredUser?
    var facility: Facility?
    var area: Area?
    /// The corrective actions its issues became, and the other actions naming it.
    var actions: [StoredAction] = []

    /// The answers of the shown revision.
    var answers: Answers { Self.answers(of: revision) }

    /// The answers a revision's payload holds.
    static func answers(of revision: StoredRevision?) -> Answers {
        guard let revision else { return Answers() }
        return Answers(json: CanonicalJSON.value(revision.payloadJSON)["answers"] ?? .null) ?? Answers()
    }

    /// The issues of the shown revision, read leniently (one unreadable issue is skipped, never the page).
    var issues: [WireIssue] {
        (try? JSONDecoder().decode([LenientIssue].self, from: Data(revision.issuesJSON.utf8)))?.compactMap(\.issue)
            ?? []
    }

    /// One element of the stored issues: the issue, or nil when it cannot be read.
    private struct LenientIssue: Decodable {
        var issue: WireIssue?
        init(from decoder: any Decoder) { issue = try? WireIssue(from: decoder) }
    }
}

/// The shown answers judged as the server judges them: which fields a
/// condition hides, and the score with its breakdown.
struct ConsoleJudgement: Sendable {
    var hidden: Set<FieldID>
    var score: ScoreReport?

    init(view: ConsoleReportView, registry: FieldTypeRegistry) {
        guard let template = view.template else {
            hidden = []
            score = nil
            return
        }
        let state = FormLogic(schema: template.schema, registry: registry).evaluate(view.answers)
        hidden = Set(state.hiddenFields)
        score = Scorer.score(
            schema: template.schema, answers: state.answers, hidden: hidden, passThreshold: template.passThreshold
        ) { field, answer in registry.score(field, answer) }
    }
}

extension ConsoleRoutes {
    /// A report's page's contents, when the caller may see the report: its
    /// inspector or a supervisor. Anyone else gets 404, as for an unknown id.
    func consoleReportView(serverID: String, revision number: Int?, caller: Caller) throws(ServerError)
        -> ConsoleReportView
    {
        try store.read { session in
            guard let report = try session.report(serverID: serverID),
                caller.isSupervisor || report.ownerID == caller.user.id
            else {
                throw ServerError.notFound("there is no report \(OneLine.quote(serverID, limit: 60)) that you may see")
            }
            return try ConsoleReportView.read(report, revision: number, in: session)
        }
    }
}

extension ConsoleReportView {
    /// Everything of `report` its page shows, read in `session`: revision `number`, else the current one.
    static func read(_ report: StoredReport, revision number: Int?, in session: any StorageSession)
        throws(ServerError) -> ConsoleReportView
    {
        let serverID = report.serverID
        let shown = number ?? report.currentRevision
        guard let revision = try session.revision(serverID: serverID, revision: shown) else {
            throw ServerError.notFound("report \(OneLine.quote(serverID, limit: 60)) has no revision \(shown)")
        }
        return ConsoleReportView(
            report: report, revision: revision,
            previous: shown > 1 ? try session.revision(serverID: serverID, revision: shown - 1) : nil,
            template: try session.template(id: report.templateID), photos: try session.photos(serverID: serverID),
            review: try session.review(serverID: serverID)
                ?? StoredReview.awaiting(report, revision: report.currentRevision),
            events: try session.reportEvents(serverID: serverID), owner: try session.user(id: report.ownerID),
            facility: try session.managedFacility(id: report.facilityID)?.facility,
            area: try report.areaID.flatMap { (id) throws(ServerError) in try session.area(id: id) },
            actions: try session.actions(reportServerID: serverID))
    }
}
