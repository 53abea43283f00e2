import FieldTypes
import Foundation
import Models
import Scoring
import ServerStore

/// A report's page: its facts, score and breakdown, answers by section with
/// photos inline, issues, what changed, its events and the decision form;
/// and its printable view (the same without forms).
extension ConsoleRoutes {
    /// `GET /console/reports/{id}[?revision=N]` and `.../print`.
    func consoleReport(
        _ input: ConsoleInput, serverID: String, printable: Bool = false, status: Int = 200, error: String? = nil
    )
        throws(ServerError) -> ConsolePage
    {
        let caller = try input.requireCaller()
        var number: Int?
        if let text = input.query("revision") {
            guard let value = Int(text), value >= 1, value <= Int(Int32.max) else {
                throw ServerError.notFound(
                    "report \(OneLine.quote(serverID, limit: 60)) has no revision \(OneLine.quote(text, limit: 20))")
            }
            number = value
        }
        let view = try consoleReportView(serverID: serverID, revision: number, caller: caller)
        let page = ConsoleReportRenderer(
            view: view, judgement: ConsoleJudgement(view: view, registry: judge.registry), registry: judge.registry,
            viewer: input.viewer, printable: printable, form: input.form)
        let title =
            "\(view.template?.name ?? view.report.templateID) at \(view.facility?.name ?? view.report.facilityID)"
        return ConsolePage(
            status: status, title: title,
            body: ConsoleLayout.notice(Self.noticeText(input)) + ConsoleLayout.error(error) + page.html,
            viewer: input.viewer, printable: printable)
    }

    /// `POST /console/reports/{id}/review`: the decision form. Done: back to
    /// the page with a notice. Refused: the page again with why, the comments
    /// typed kept. Stale: 409 with what changed since the revision decided on.
    func consoleDecide(_ input: ConsoleInput, serverID: String) throws(ServerError) -> ConsoleReply {
        let caller = try input.requireSupervisor()
        try input.requireCSRF()
        guard let decisionText = input.form.text("decision"), let decision = ReviewDecision(rawValue: decisionText)
        else {
            throw ServerError.badRequest("choose approve, return or reject")
        }
        guard let revision = input.form.text("revision").flatMap({ Int($0) }) else {
            throw ServerError.badRequest("the form did not say which revision it decides on; open the report again")
        }
        let prefix = "field_comment:"
        let fieldComments = input.form.fields.keys.sorted().compactMap { name -> FieldComment? in
            guard name.hasPrefix(prefix), let text = input.form.text(name) else { return nil }
            return FieldComment(fieldID: String(name.dropFirst(prefix.count)), comment: text)
        }
        do throws(ServerError) {
            let (_, _, recorded) = try ReviewRoutes(context: context).recordDecision(
                serverID: serverID, decision: decision, revision: revision,
                comment: input.form.raw("comment"), fieldComments: fieldComments, by: caller)
            let notice = recorded ? decision.state.rawValue : "unchanged"
            return .redirect("\(Self.consolePath)/reports/\(HTML.percent(serverID))?notice=\(notice)")
        } catch {
            if error.code == .revisionStale {
                return .page(try consoleStale(input, serverID: serverID, decidedOn: revision, error: error))
            }
            // A refused decision (a bad comment, one's own report) shows the report again with why.
            guard error.status == 400 || error.status == 403 else { throw error }
            return .page(
                try consoleReport(
                    input, serverID: serverID, status: error.status,
                    error: error.message.prefix(1).uppercased() + error.message.dropFirst() + "."))
        }
    }

    /// The 409 page of a decision on a revision that is no longer current:
    /// what changed from the revision decided on to the current one.
    private func consoleStale(_ input: ConsoleInput, serverID: String, decidedOn revision: Int, error: ServerError)
        throws(ServerError) -> ConsolePage
    {
        let caller = try input.requireCaller()
        let current = try consoleReportView(serverID: serverID, revision: nil, caller: caller)
        let seen = try store.read { session in try session.revision(serverID: serverID, revision: revision) }
        var view = current
        view.previous = seen
        let renderer = ConsoleReportRenderer(
            view: view, judgement: ConsoleJudgement(view: view, registry: judge.registry),
            registry: judge.registry, viewer: input.viewer, printable: false, form: .empty)
        let body = """
            <section id="stale" class="card warning">
            <p class="error">Nothing was recorded: the report changed while you were looking at it. You decided on revision \(revision); revision \(current.report.currentRevision) is now current.</p>
            <h2>What changed since revision \(revision)</h2>
            \(renderer.changes(from: seen, heading: false))
            <p>\(ConsoleLayout.reportLink(serverID, text: "Open revision \(current.report.currentRevision) and decide again"))</p>
            </section>
            """
        return ConsolePage(status: 409, title: "Changed meanwhile", body: body, viewer: input.viewer)
    }

    /// `GET /console/reports/{id}/photos/{local_id}`: the photo's bytes, to
    /// whoever may see its report (anyone else: 404), never to a signed-out browser.
    func consolePhoto(_ input: ConsoleInput, serverID: String, photo text: String) throws(ServerError) -> ConsoleReply {
        let caller = try input.requireCaller()
        let missing = ServerError.notFound("there is no such photo")
        guard let localID = UUID(uuidString: text) else { throw missing }
        let photo = try store.read { session -> StoredPhoto? in
            guard let report = try session.report(serverID: serverID),
                caller.isSupervisor || report.ownerID == caller.user.id
            else {
                return nil
            }
            return try session.photo(localID: localID)
        }
        guard let photo, photo.serverID == serverID,
            let descriptor = try photos.open(sha256: photo.sha256, byteSize: photo.byteSize)
        else {
            throw missing
        }
        return .photo(descriptor: descriptor, byteSize: photo.byteSize)
    }
}
