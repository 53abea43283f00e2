import APIRoutes
import Foundation
import Models
import ServerStore

/// The top of a sync body, read once: each report is decoded in the same
/// pass but on its own, so that one malformed report is REJECTED without
/// failing the batch.
private struct SyncBatch: Decodable {
    var appVersion: String?
    var schemaVersion: Int?
    var reports: [BatchReport]
    /// `"fields"`: merge disjoint edits (contract 1.1).
    var merge: String?

    enum CodingKeys: String, CodingKey {
        case reports, merge
        case appVersion = "app_version"
        case schemaVersion = "schema_version"
    }
}

/// One element of a batch: its `local_id` as sent, and the report or why it could not be read.
private struct BatchReport: Decodable {
    var localIDText: String?
    var report: Result<WireReport, DecodingError>

    private enum Keys: String, CodingKey { case localID = "local_id" }

    init(from decoder: any Decoder) {
        localIDText = (try? decoder.container(keyedBy: Keys.self)).flatMap {
            try? $0.decodeIfPresent(String.self, forKey: .localID)
        }
        do {
            report = .success(try WireReport(from: decoder))
        } catch let error as DecodingError {
            report = .failure(error)
        } catch {
            report = .failure(.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)")))
        }
    }

    /// Why the report could not be read, its key paths relative to the report as if it had been sent alone.
    static func describe(_ error: DecodingError) -> String {
        func local(_ context: DecodingError.Context) -> DecodingError.Context {
            DecodingError.Context(
                codingPath: Array(context.codingPath.dropFirst(2)), debugDescription: context.debugDescription,
                underlyingError: context.underlyingError)
        }
        let relative: DecodingError
        switch error {
        case .dataCorrupted(let context): relative = .dataCorrupted(local(context))
        case .keyNotFound(let key, let context): relative = .keyNotFound(key, local(context))
        case .typeMismatch(let type, let context): relative = .typeMismatch(type, local(context))
        case .valueNotFound(let type, let context): relative = .valueNotFound(type, local(context))
        @unknown default: relative = error
        }
        return JSONBody.describe(relative)
    }
}

/// A template version a report names.
private struct TemplateVersionKey: Hashable {
    var id: String
    var version: Int
}

/// What a report's template says of it, judged before the database is touched.
private struct Judgement {
    /// The template is known to this server.
    var templateKnown: Bool
    /// Every problem with the answers, as one line; nil when acceptable.
    var answerProblem: String?
    /// The server's grade of the answers.
    var grade: ReportGrade = .none
    /// The version judged against (the one the report names, or the current one).
    var template: CompiledTemplate?
}

/// `PATCH /reports/{server_id}` body.
private struct ReportPatch: Decodable {
    var payload: WirePayload
    var baseRevision: Int

    enum CodingKeys: String, CodingKey {
        case payload
        case baseRevision = "base_revision"
    }
}

struct ReportSyncRoutes: RouteCapability {
    let context: ServerContext

    /// `POST /reports/sync`: one result per report, in request order.
    ///
    /// The body is decoded once; every report is judged against its
    /// template (compiled once, from the cache) before the database is
    /// touched; then the whole batch is written in one transaction. A report
    /// that breaks a rule is answered REJECTED and writes nothing, so it
    /// never affects the others.
    func syncReports(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let batch = try input.decode(SyncBatch.self)
        guard batch.reports.count <= SyncRequest.maximumBatch else {
            throw ServerError.tooLarge(
                "a batch holds at most \(SyncRequest.maximumBatch) reports, not \(batch.reports.count); send them in parts"
            )
        }
        let localIDs = try Self.localIDs(of: batch)
        if caller.user.role == .crew {
            // Crew do the work actions ask for; they send no reports (contract 1.2).
            let generation = try store.read { session in try session.setting(ReviewCursor.generationKey) ?? "0" }
            return answer(
                localIDs.map { id in
                    SyncResult(
                        localID: id, status: .rejected, errorCode: ServerError.Code.forbidden.rawValue,
                        error: "crew members send no reports; an inspector or a supervisor does")
                }, generation: generation)
        }
        let (templates, versions) = try compiledTemplates(namedIn: batch)
        let (early, judged) = screen(batch, localIDs: localIDs, templates: templates, versions: versions)
        let merging = batch.merge == SyncRequest.mergeFields
        let (results, generation) = try store.write { session -> ([SyncResult], String) in
            try record(early, judged, merging: merging, from: caller, in: session)
        }
        // Webhook senders read the events just recorded.
        if results.contains(where: { $0.status == .accepted }) { outboxBells.ring() }
        metrics.synced(results.map(\.status))
        return answer(results, generation: generation)
    }

    /// The batch's answer: one result per report, and what the server is.
    private func answer(_ results: [SyncResult], generation: String) -> Reply {
        .ok(
            SyncResponse(
                results: results, minSupportedAppVersion: config.minAppVersion,
                serverSchemaVersion: ServerApp.schemaVersion, contractVersion: ServerApp.contractVersion,
                serverGeneration: generation))
    }

    /// Each report's `local_id`; 400 for the whole batch when one is not a UUID.
    private static func localIDs(of batch: SyncBatch) throws(ServerError) -> [UUID] {
        var localIDs: [UUID] = []
        for (index, element) in batch.reports.enumerated() {
            guard let text = element.localIDText, let id = UUID(uuidString: text) else {
                throw ServerError.badRequest("'reports[\(index)].local_id' must be a UUID")
            }
            localIDs.append(id)
        }
        return localIDs
    }

    /// The current templates, and the versions the reports name (contract 1.1), each read and compiled once.
    private func compiledTemplates(namedIn batch: SyncBatch) throws(ServerError)
        -> ([String: CompiledTemplate], [TemplateVersionKey: CompiledTemplate])
    {
        let named = Set(
            batch.reports.compactMap { element -> TemplateVersionKey? in
                guard case .success(let report) = element.report, let version = report.templateVersion else {
                    return nil
                }
                return TemplateVersionKey(id: report.templateID, version: version)
            })
        return try store.read {
            session -> ([String: CompiledTemplate], [TemplateVersionKey: CompiledTemplate]) in
            let templates = try templateCache.templates(in: session)
            var versions: [TemplateVersionKey: CompiledTemplate] = [:]
            for key in named {
                versions[key] = try templateCache.template(
                    id: key.id, version: key.version, current: templates, in: session)
            }
            return (templates, versions)
        }
    }

    /// Each report of the batch, before any transaction: rejected at once
    /// (another schema version, a report that does not decode), or judged.
    private func screen(
        _ batch: SyncBatch, localIDs: [UUID], templates: [String: CompiledTemplate],
        versions: [TemplateVersionKey: CompiledTemplate]
    ) -> (early: [SyncResult?], judged: [(WireReport, Judgement)?]) {
        let schemaVersion = batch.schemaVersion ?? ServerApp.schemaVersion
        var early: [SyncResult?] = []
        var judged: [(WireReport, Judgement)?] = []
        for (element, localID) in zip(batch.reports, localIDs) {
            if schemaVersion != ServerApp.schemaVersion {
                early.append(
                    SyncResult(
                        localID: localID, status: .rejected, errorCode: ServerError.Code.schemaUnsupported.rawValue,
                        error:
                            "this server reads report schema version \(ServerApp.schemaVersion), not \(schemaVersion); update the app"
                    ))
                judged.append(nil)
                continue
            }
            switch element.report {
            case .failure(let error):
                early.append(
                    SyncResult(
                        localID: localID, status: .rejected, errorCode: ServerError.Code.reportInvalid.rawValue,
                        error: BatchReport.describe(error)))
                judged.append(nil)
            case .success(let report):
                early.append(nil)
                judged.append((report, judge(report, templates: templates, versions: versions)))
            }
        }
        return (early, judged)
    }

    /// The batch's results inside its one transaction: each judged report
    /// accepted or not, reviews reopened, the quota charged; and the data's generation.
    private func record(
        _ early: [SyncResult?], _ judged: [(WireReport, Judgement)?], merging: Bool, from caller: Caller,
        in session: any StorageSession
    ) throws(ServerError) -> ([SyncResult], String) {
        var results: [SyncResult] = []
        var accepted: [AcceptedRevision] = []
        for (result, item) in zip(early, judged) {
            if let result {
                results.append(result)
            } else if let (report, judgement) = item {
                results.append(
                    try accept(
                        report, judgement, merging: merging ? judgement.template : nil,
                        from: caller, in: session, accepted: &accepted))
            }
        }
        let now = Date()
        try ActionMaker(policy: config.actions).makeActions(for: accepted, at: now, in: session)
        try session.reopenReviews(accepted, at: RFC3339.string(now))
        // Over a quota, the whole batch is refused (429) and nothing of it stays: the device keeps it and retries.
        if !accepted.isEmpty {
            try config.quotas.charge(
                userID: caller.user.id, bytes: Int64(accepted.reduce(0) { $0 + $1.payloadBytes }),
                revisions: accepted.count, in: session, now: Date())
        }
        return (results, try session.setting(ReviewCursor.generationKey) ?? "0")
    }

    /// The answers of a report against its template: problems and score.
    /// Against the version it names (contract 1.1), or the current one when it names none.
    private func judge(
        _ report: WireReport, templates: [String: CompiledTemplate],
        versions: [TemplateVersionKey: CompiledTemplate]
    ) -> Judgement {
        guard let current = templates[report.templateID] else {
            return Judgement(templateKnown: false, answerProblem: nil)
        }
        var template = current
        if let version = report.templateVersion, version != current.template.version {
            guard let named = versions[TemplateVersionKey(id: report.templateID, version: version)] else {
                return Judgement(
                    templateKnown: true,
                    answerProblem:
                        "template '\(report.templateID)' has no version \(version) on this server (its current one is \(current.template.version))",
                    grade: .none)
            }
            template = named
        }
        guard let answers = Answers(json: report.payload.answers) else {
            return Judgement(
                templateKnown: true,
                answerProblem:
                    "'payload.answers' must be an object from field id to answer, not \(report.payload.answers.kindDescription)",
                template: template)
        }
        let problems = judge.problems(template, answers: answers)
        return Judgement(
            templateKnown: true, answerProblem: ReportRules.line(problems),
            grade: judge.grade(template, answers: answers), template: template)
    }

    /// The contract's rules for one report (docs/contract.md), inside the batch's transaction.
    /// A rejection writes nothing.
    /// Each revision it accepts is added to `accepted` (its review reopens when the batch is written).
    /// With `merging` (the report's template, when the batch asked to merge), an
    /// amendment of an older revision is merged with the server's changes when they are disjoint.
    private func accept(
        _ report: WireReport, _ judgement: Judgement, merging: CompiledTemplate?, from caller: Caller,
        in session: any StorageSession, accepted: inout [AcceptedRevision]
    ) throws(ServerError) -> SyncResult {
        let arrival = Arrival(
            report: report, judgement: judgement, merging: merging, caller: caller,
            payloadJSON: CanonicalJSON.string(report.payload), issuesJSON: CanonicalJSON.string(report.issues),
            now: Date())
        if let problem = ReportRules.fieldProblem(report) { return arrival.rejected(.reportInvalid, problem) }
        if let existing = try session.report(localID: report.localID) {
            return try amend(existing, with: arrival, in: session, accepted: &accepted)
        }
        return try insert(arrival, in: session, accepted: &accepted)
    }

    /// A report the server holds already: a replay answered as before, a
    /// conflict or a merge for an older base, or a new revision appended.
    private func amend(
        _ existing: StoredReport, with arrival: Arrival, in session: any StorageSession,
        accepted: inout [AcceptedRevision]
    ) throws(ServerError) -> SyncResult {
        guard existing.ownerID == arrival.caller.user.id else {
            return arrival.rejected(.forbidden, "report \(arrival.report.localID) belongs to another inspector")
        }
        if let serverID = arrival.report.serverID, serverID != existing.serverID {
            return arrival.rejected(
                .reportInvalid, "server_id '\(serverID)' is not the server id of report \(arrival.report.localID)")
        }
        // Replay wins over conflict: a revision already accepted from this
        // payload and base is answered as it was, whatever happened since.
        if let earlier = try session.deviceRevision(
            serverID: existing.serverID, baseRevision: arrival.report.baseRevision,
            payloadJSON: arrival.payloadJSON)
        {
            if arrival.merging != nil,
                let replayed = try session.revision(serverID: existing.serverID, revision: earlier),
                let fields = replayed.mergedFields
            {
                return MergeAnswer.accepted(arrival.report.localID, existing.serverID, replayed, mergedFields: fields)
            }
            return SyncResult(
                localID: arrival.report.localID, status: .accepted, serverID: existing.serverID, revision: earlier)
        }
        if let problem = try validate(arrival.report, arrival.judgement, in: session) {
            return arrival.rejected(.reportInvalid, problem)
        }
        let base = arrival.report.baseRevision ?? 0
        if base < existing.currentRevision {
            let current = try session.revision(serverID: existing.serverID, revision: existing.currentRevision)
            if let template = arrival.merging, let baseRevision = arrival.report.baseRevision, let current,
                let stored = try session.revision(serverID: existing.serverID, revision: baseRevision)
            {
                return try merge(
                    arrival.report, onto: existing, base: stored, current: current, template: template,
                    payloadJSON: arrival.payloadJSON, from: arrival.caller, in: session, accepted: &accepted)
            }
            return SyncResult(
                localID: arrival.report.localID, status: .conflict, serverID: existing.serverID,
                serverPayload: current.map { CanonicalJSON.value($0.payloadJSON) },
                serverRevision: existing.currentRevision)
        }
        if base > existing.currentRevision {
            return arrival.rejected(
                .reportInvalid,
                "base_revision \(base) is ahead of the server's revision \(existing.currentRevision)")
        }
        if existing.currentRevision >= config.deviceRevisionLimit {
            return arrival.rejected(
                .reportInvalid,
                ServerError.revisionLimit(existing.serverID, limit: config.deviceRevisionLimit).message)
        }
        let revision = try session.appendRevision(
            serverID: existing.serverID, baseRevision: arrival.report.baseRevision,
            payload: arrival.report.payload, issuesJSON: arrival.issuesJSON, grade: arrival.judgement.grade,
            source: "device", authorID: arrival.caller.user.id, limit: config.maxRevisions,
            now: arrival.now)
        accepted.append(
            AcceptedRevision(
                serverID: existing.serverID, localID: arrival.report.localID, ownerID: existing.ownerID,
                revision: revision, kind: "amended", actor: arrival.caller.person,
                payloadBytes: arrival.payloadJSON.utf8.count))
        return SyncResult(
            localID: arrival.report.localID, status: .accepted, serverID: existing.serverID, revision: revision)
    }

    /// A report new to the server: its links checked (assignment, parent),
    /// then stored as revision 1.
    private func insert(_ arrival: Arrival, in session: any StorageSession, accepted: inout [AcceptedRevision])
        throws(ServerError) -> SyncResult
    {
        if let serverID = arrival.report.serverID {
            return arrival.rejected(
                .reportInvalid,
                "no report with server_id '\(serverID)' and local_id \(arrival.report.localID) on this server")
        }
        if let problem = try validate(arrival.report, arrival.judgement, in: session) {
            return arrival.rejected(.reportInvalid, problem)
        }
        if let assignment = arrival.report.assignmentID, !arrival.caller.isSupervisor,
            try session.managedAssignment(id: assignment)?.inspectorID != arrival.caller.user.id
        {
            return arrival.rejected(
                .reportInvalid, "assignment '\(assignment.prefix(80))' is not an assignment of yours on this server")
        }
        let parent = try parentReport(of: arrival.report, in: session)
        if let refusal = ReportRules.parentRefusal(arrival.report, parent: parent, caller: arrival.caller) {
            return arrival.rejected(refusal.code, refusal.message)
        }
        let serverID = try session.insertReport(
            arrival.report, ownerID: arrival.caller.user.id, payloadJSON: arrival.payloadJSON,
            issuesJSON: arrival.issuesJSON, grade: arrival.judgement.grade, now: arrival.now)
        if let parent {
            try session.clearFollowUp(parentServerID: parent.serverID, childServerID: serverID)
        }
        if let assignment = arrival.report.assignmentID {
            try session.closeAssignment(id: assignment, inspectorID: arrival.caller.user.id)
        }
        accepted.append(
            AcceptedRevision(
                serverID: serverID, localID: arrival.report.localID, ownerID: arrival.caller.user.id, revision: 1,
                kind: "accepted", actor: arrival.caller.person, payloadBytes: arrival.payloadJSON.utf8.count))
        return SyncResult(localID: arrival.report.localID, status: .accepted, serverID: serverID, revision: 1)
    }

    /// Every problem with a report's references and answers, joined into one
    /// line; nil when it is acceptable. The answers were judged already.
    private func validate(_ report: WireReport, _ judgement: Judgement, in session: any StorageSession)
        throws(ServerError) -> String?
    {
        guard judgement.templateKnown else { return "unknown template '\(report.templateID)'" }
        // A retired site still takes the reports made on it before it was retired.
        guard try session.managedFacility(id: report.facilityID) != nil else {
            return "unknown facility '\(report.facilityID)'"
        }
        if let areaID = report.areaID {
            guard let area = try session.area(id: areaID), area.facilityID == report.facilityID else {
                return "area '\(areaID)' is not an area of facility '\(report.facilityID)'"
            }
        }
        return judgement.answerProblem
    }

    /// The parent a re-inspection names, by server id when it gives one, else by local id.
    private func parentReport(of report: WireReport, in session: any StorageSession) throws(ServerError)
        -> StoredReport?
    {
        if let id = report.parentServerID { return try session.report(serverID: id) }
        if let id = report.parentLocalID { return try session.report(localID: id) }
        return nil
    }

    /// The answer problems of a payload against its template, as one line.
    func problems(in payload: WirePayload, template: Template) -> String? {
        guard let answers = Answers(json: payload.answers) else {
            return "'payload.answers' must be an object from field id to answer, not \(payload.answers.kindDescription)"
        }
        let problems = judge.problems(schema: template.schema, answers: answers)
        return ReportRules.line(problems)
    }

    /// `GET /reports/{server_id}`: the owner's or any for a supervisor.
    func getReport(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let serverID = try input.parameter("server_id")
        var pinned: Int?
        if let text = input.request.query["revision"], !text.isEmpty {
            guard let number = Int(text), number >= 1 else {
                throw ServerError.badRequest("'revision' must be a revision number from 1, not '\(text.prefix(40))'")
            }
            // Revision numbers are stored as 32-bit integers: a larger one is simply not held.
            guard number <= Int(Int32.max) else {
                throw ServerError.notFound("report '\(try input.parameter("server_id"))' has no revision \(number)")
            }
            pinned = number
        }
        let document = try store.read { session in
            let report = try reportVisible(serverID, to: caller, in: session)
            return try reportDocument(report, revision: pinned, in: session)
        }
        return .ok(document)
    }

    /// `PATCH /reports/{server_id}` (supervisors): a new server revision; 409 on a stale base.
    func patchReport(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        guard caller.isSupervisor else {
            throw ServerError.forbidden("only supervisors may edit a report on the server")
        }
        let serverID = try input.parameter("server_id")
        let patch = try input.decode(ReportPatch.self)
        let document = try store.write { session in
            let report = try reportVisible(serverID, to: caller, in: session)
            _ = try reviseOnServer(
                report, payload: patch.payload, baseRevision: patch.baseRevision, source: "supervisor",
                author: caller.person, in: session)
            return try reportDocument(try session.report(serverID: serverID) ?? report, in: session)
        }
        outboxBells.ring()
        return .ok(document)
    }

    /// Makes a server-side revision (supervisor edit or admin tool) after
    /// checking the base revision and the answers; returns the new revision.
    func reviseOnServer(
        _ report: StoredReport, payload: WirePayload, baseRevision: Int, source: String, author: WirePerson,
        in session: any StorageSession
    ) throws(ServerError) -> Int {
        guard baseRevision == report.currentRevision else {
            throw ServerError.conflict(
                "base_revision \(baseRevision) is not the current revision \(report.currentRevision); reload and edit again"
            )
        }
        guard let template = try session.template(id: report.templateID) else {
            throw ServerError.unprocessable(
                code: .reportInvalid, "the report's template '\(report.templateID)' is gone")
        }
        if let problem = problems(in: payload, template: template) {
            throw ServerError.unprocessable(code: .reportInvalid, problem)
        }
        var payload = payload
        let previous = try session.revision(serverID: report.serverID, revision: report.currentRevision)
        payload.answers = judge.keepingSignatures(
            payload.answers, previous: CanonicalJSON.value(previous?.payloadJSON ?? "{}")["answers"] ?? .null,
            revision: report.currentRevision, schema: template.schema)
        let grade = Answers(json: payload.answers).map { judge.grade(template, answers: $0) } ?? .none
        let revision = try session.appendRevision(
            serverID: report.serverID, baseRevision: baseRevision, payload: payload,
            issuesJSON: nil, grade: grade, source: source, authorID: author.id,
            limit: config.maxRevisions, now: Date())
        try session.reopenReviews(
            [
                AcceptedRevision(
                    serverID: report.serverID, localID: report.localID, ownerID: report.ownerID,
                    revision: revision, kind: "edited", actor: author)
            ], at: RFC3339.string(Date()))
        return revision
    }

    /// `{"report": {...as in sync..., "revision", "photos", "review"}}`, of the
    /// current revision or of an earlier one (`?revision=N`; 404 for one it does not hold).
    func reportDocument(_ report: StoredReport, revision number: Int? = nil, in session: any StorageSession)
        throws(ServerError) -> JSONValue
    {
        let shown = number ?? report.currentRevision
        let revision = try session.revision(serverID: report.serverID, revision: shown)
        if number != nil && revision == nil {
            throw ServerError.notFound("report '\(report.serverID)' has no revision \(shown)")
        }
        var payload = CanonicalJSON.value(revision?.payloadJSON ?? "{}")
        if case .object(var members) = payload {
            members["follow_up_required"] = .bool(report.followUpRequired)
            payload = .object(members)
        }
        var object: [String: JSONValue] = [
            "local_id": .string(report.localID.uuidString.lowercased()),
            "server_id": .string(report.serverID),
            "template_id": .string(report.templateID),
            "facility_id": .string(report.facilityID),
            "payload": payload,
            "issues": CanonicalJSON.value(revision?.issuesJSON ?? "[]"),
            "revision": .integer(Int64(shown)),
            "completed_at": .string(report.acceptedAt),
        ]
        let generation = try session.setting(ReviewCursor.generationKey) ?? "0"
        let review =
            try session.review(serverID: report.serverID)
            ?? StoredReview.awaiting(report, revision: report.currentRevision)
        object["review"] = CanonicalJSON.value(CanonicalJSON.string(review.wire(generation: generation)))
        if let base = revision?.baseRevision { object["base_revision"] = .integer(Int64(base)) }
        if let v = report.areaID { object["area_id"] = .string(v) }
        if let v = report.assignmentID { object["assignment_id"] = .string(v) }
        if let v = report.parentLocalID { object["parent_local_id"] = .string(v.uuidString.lowercased()) }
        if let v = report.parentServerID { object["parent_server_id"] = .string(v) }
        if let v = report.completedAtDevice { object["completed_at_device"] = .string(v) }
        object["photos"] = .array(try session.photos(serverID: report.serverID).map { photoJSON($0) })
        let grade =
            revision?.grade
            ?? ReportGrade(score: shown == report.currentRevision ? report.score : nil, passed: nil, deficiencies: [])
        object.merge(grade.members) { _, new in new }
        return .object(["report": .object(object)])
    }

    func photoJSON(_ photo: StoredPhoto) -> JSONValue {
        var object: [String: JSONValue] = [
            "local_id": .string(photo.localID.uuidString.lowercased()),
            "url": .string(photoURL(photo)),
            "byte_size": .integer(photo.byteSize),
            "sha256": .string(photo.sha256),
        ]
        if let v = photo.fieldID { object["field_id"] = .string(v) }
        if let v = photo.issueLocalID { object["issue_local_id"] = .string(v.uuidString.lowercased()) }
        return .object(object)
    }

}

/// One report of a batch as it is accepted: what was sent, how it was
/// judged, whether its sender asked to merge, and its canonical texts.
private struct Arrival {
    let report: WireReport
    let judgement: Judgement
    /// The template to merge with, when the batch asked to merge.
    let merging: CompiledTemplate?
    let caller: Caller
    let payloadJSON: String
    let issuesJSON: String
    let now: Date

    /// The report rejected with `code` and a one-line reason.
    func rejected(_ code: ServerError.Code, _ message: String) -> SyncResult {
        SyncResult(localID: report.localID, status: .rejected, errorCode: code.rawValue, error: message)
    }
}
