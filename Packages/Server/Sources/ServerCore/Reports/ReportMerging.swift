import Foundation
import Models
import ServerStore

/// A sync that asks to merge (contract 1.1 "Merging disjoint edits"): an
/// amendment of an older revision is merged with what the server changed
/// since, field by field, when the two sides changed different fields.
extension ReportSyncRoutes {
    /// The answer to `report`, an amendment of `base` while the server holds
    /// `current`, inside the batch's transaction: a merged revision stored
    /// (its sent payload and the fields from the server's side kept for
    /// replays), or a CONFLICT naming exactly the fields in the way.
    func merge(
        _ report: WireReport, onto existing: StoredReport, base: StoredRevision, current: StoredRevision,
        template: CompiledTemplate, payloadJSON: String, from caller: Caller, in session: any StorageSession,
        accepted: inout [AcceptedRevision]
    ) throws(ServerError) -> SyncResult {
        func conflict(_ fields: [String]) -> SyncResult {
            SyncResult(
                localID: report.localID, status: .conflict, serverID: existing.serverID,
                serverPayload: CanonicalJSON.value(current.payloadJSON), serverRevision: existing.currentRevision,
                conflictingFields: fields)
        }
        let schema = template.template.schema
        let merger = AnswerMerge(
            fieldOrder: schema.fields.map(\.id.rawValue),
            calculatedFields: Set(template.logic.calculatedFields.map(\.rawValue)),
            signatureFields: Set(
                schema.fields.filter { judge.registry.resolve($0).vouchesForReport }.map(\.id.rawValue)))
        let outcome = merger.merge(
            base: MergeAnswer.side(base), device: MergeAnswer.side(report.payload, report.issues),
            server: MergeAnswer.side(current))
        let side: AnswerMerge.Side, mergedFields: [String]
        switch outcome {
        case .conflict(let fields): return conflict(fields)
        case .merged(let merged, let fields): (side, mergedFields) = (merged, fields)
        }
        // Calculated answers computed again on the merged ones, then judged like any report.
        var answers = Answers(json: .object(side.answers)) ?? Answers()
        let state = template.logic.evaluate(answers)
        for id in template.logic.calculatedFields { answers[id] = state.isVisible(id) ? state.value(id) : nil }
        let findings = template.logic.submissionFindings(answers)
        if !findings.isEmpty {
            var named: [String] = []
            for finding in findings where !named.contains(finding.fieldID.rawValue) {
                named.append(finding.fieldID.rawValue)
            }
            return conflict(named)
        }
        if existing.currentRevision >= config.deviceRevisionLimit {
            return SyncResult(
                localID: report.localID, status: .rejected, errorCode: ServerError.Code.reportInvalid.rawValue,
                error: ServerError.revisionLimit(existing.serverID, limit: config.deviceRevisionLimit).message)
        }
        let grade = judge.grade(template, answers: answers)
        let payload = WirePayload(answers: answers.json, score: grade.score, followUpRequired: side.followUpRequired)
        let revision = try session.appendRevision(
            serverID: existing.serverID, baseRevision: report.baseRevision, payload: payload,
            issuesJSON: CanonicalJSON.string(side.issues), grade: grade,
            source: "device", authorID: caller.user.id, limit: config.maxRevisions, now: Date())
        try session.recordMerge(
            serverID: existing.serverID, revision: revision, sentPayloadJSON: payloadJSON, mergedFields: mergedFields)
        accepted.append(
            AcceptedRevision(
                serverID: existing.serverID, localID: report.localID, ownerID: existing.ownerID,
                revision: revision, kind: "merged", actor: caller.person,
                payloadBytes: CanonicalJSON.string(payload).utf8.count))
        return SyncResult(
            localID: report.localID, status: .accepted, serverID: existing.serverID, revision: revision,
            serverPayload: CanonicalJSON.value(CanonicalJSON.string(payload)), merged: true,
            serverIssues: side.issues, mergedFields: mergedFields)
    }
}

/// The pieces of a merge's answer and the sides it compares.
enum MergeAnswer {
    /// The answer to a replayed merge: the revision as it was accepted.
    static func accepted(_ localID: UUID, _ serverID: String, _ revision: StoredRevision, mergedFields: [String])
        -> SyncResult
    {
        SyncResult(
            localID: localID, status: .accepted, serverID: serverID, revision: revision.revision,
            serverPayload: CanonicalJSON.value(revision.payloadJSON), merged: true,
            serverIssues: issues(revision.issuesJSON), mergedFields: mergedFields)
    }

    /// A stored revision as a side of a merge.
    static func side(_ revision: StoredRevision) -> AnswerMerge.Side {
        let payload = CanonicalJSON.value(revision.payloadJSON)
        return AnswerMerge.Side(
            answers: payload["answers"]?.objectValue ?? [:],
            followUpRequired: payload["follow_up_required"]?.boolValue ?? false,
            issues: issues(revision.issuesJSON))
    }

    /// A sent payload and its issues as a side of a merge.
    static func side(_ payload: WirePayload, _ issues: [WireIssue]) -> AnswerMerge.Side {
        AnswerMerge.Side(
            answers: payload.answers.objectValue ?? [:], followUpRequired: payload.followUpRequired, issues: issues)
    }

    private static func issues(_ json: String) -> [WireIssue] {
        (try? JSONDecoder().decode([WireIssue].self, from: Data(json.utf8))) ?? []
    }
}
