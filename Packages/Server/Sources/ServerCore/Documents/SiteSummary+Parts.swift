import Documents
import FieldTypes
import FormLogic
import Foundation
import Models
import Scoring
import ServerStore

extension SiteSummary {
    /// The actions closed in the period (done or verified) and those open
    /// now, internal ones left out; each with its age.
    func actions(in session: any StorageSession) throws(ServerError) -> (
        [SiteSummaryDocument.ActionLine], [SiteSummaryDocument.ActionLine]
    ) {
        var closed: [StoredAction] = []
        for state in [ActionState.done, .verified] {
            var query = ActionListQuery()
            query.facilityID = facilityID
            query.state = state
            closed += try session.actionList(query, limit: Self.actionLimit, offset: 0).filter {
                !$0.isInternal && $0.updatedAt >= period.from && $0.updatedAt < period.to
            }
        }
        var unfinished = ActionListQuery()
        unfinished.facilityID = facilityID
        unfinished.unfinishedOnly = true
        let open = try session.actionList(unfinished, limit: Self.actionLimit, offset: 0).filter { !$0.isInternal }
        let nowText = RFC3339.string(now)
        return (
            closed.sorted { $0.updatedAt < $1.updatedAt }.map {
                .init(title: $0.title, state: Self.words($0.state), age: Self.age(from: $0.createdAt, to: $0.updatedAt))
            },
            open.sorted { $0.createdAt < $1.createdAt }.map {
                .init(
                    title: $0.title, state: Self.words($0.state), age: Self.age(from: $0.createdAt, to: nowText),
                    overdue: ($0.dueAt ?? "9999") < nowText)
            }
        )
    }

    /// Photos of the items the period's reports found deficient (not of
    /// private fields), at most `photoLimit`, each captioned with its item and day.
    func deficientPhotos(_ reports: [StoredReport], _ templates: [String: Template], in session: any StorageSession)
        throws(ServerError) -> [DocumentImage]
    {
        var images: [DocumentImage] = []
        for report in reports where report.deficiencyCount > 0 && images.count < Self.photoLimit {
            guard let template = templates[report.templateID],
                let revision = try session.revision(serverID: report.serverID, revision: report.currentRevision)
            else { continue }
            let answers = ConsoleReportView.answers(of: revision)
            let state = FormLogic(schema: template.schema, registry: registry).evaluate(answers)
            let score = Scorer.score(
                schema: template.schema, answers: state.answers, hidden: Set(state.hiddenFields),
                passThreshold: template.passThreshold
            ) { field, answer in registry.score(field, answer) }
            let deficient = Set(score.deficiencies.map(\.rawValue))
            for photo in try session.photos(serverID: report.serverID) {
                guard let fieldID = photo.fieldID, deficient.contains(fieldID),
                    let field = template.schema.field(FieldID(fieldID)), !field.isPrivate,
                    images.count < Self.photoLimit
                else { continue }
                images.append(
                    .stored(
                        sha256: photo.sha256, byteSize: photo.byteSize, photos: photos,
                        caption: "\(field.displayName), \(ConsoleLayout.shortID(report.serverID))"))
            }
        }
        return images
    }

    static func words(_ state: ActionState) -> String { state.rawValue.replacingOccurrences(of: "_", with: " ") }

    /// The time between two RFC 3339 times in words: "5 hours", "3 days".
    static func age(from: String, to: String) -> String {
        guard let start = RFC3339.date(from), let end = RFC3339.date(to) else { return "—" }
        let hours = max(0, Int(end.timeIntervalSince(start) / 3_600))
        if hours < 48 { return hours == 1 ? "1 hour" : "\(hours) hours" }
        return "\(hours / 24) days"
    }
}
