import Documents
import FieldTypes
import Foundation
import Models
import Scoring
import ServerStore

/// Which of a report's two PDFs: the organisation's own (the review and the
/// events too) or the client-safe one, as a client's console shows it
/// (no private field, no review, no events, no issues, no inspector).
enum ReportDocumentVariant: Sendable {
    case internalCopy
    case clientSafe
}

/// An inspection report as a PDF: the report's page, read in one snapshot,
/// turned into the document's words.
struct ReportDocument {
    let view: ConsoleReportView
    let judgement: ConsoleJudgement
    let registry: FieldTypeRegistry
    let look: OrganisationLook
    let photos: any PhotoStore
    let variant: ReportDocumentVariant

    private var isClient: Bool { variant == .clientSafe }

    var document: InspectionDocument {
        let report = view.report
        let number = ConsoleLayout.shortID(report.serverID)
        return InspectionDocument(
            organisation: look.name, logo: look.logoImage, form: view.template?.name ?? report.templateID,
            number: number, site: view.facility?.name ?? report.facilityID, area: view.area?.name,
            when: look.time(report.completedAtDevice ?? report.acceptedAt),
            inspector: isClient ? nil : view.owner?.displayName ?? report.ownerID, score: score(),
            sections: sections(), issues: isClient ? [] : issues(), signature: signature(),
            review: isClient ? [] : review(),
            note: isClient ? nil : "Internal copy: holds the review, the events and private fields")
    }

    private func isShown(_ field: FieldDefinition) -> Bool {
        !judgement.hidden.contains(field.id) && !(isClient && field.isPrivate)
    }

    private func score() -> InspectionDocument.Score? {
        guard let score = judgement.score, score.ratio != nil || score.passThreshold != nil else { return nil }
        let shown = score.deficiencies.compactMap { view.template?.schema.field($0) }.filter(isShown)
        return .init(
            fraction: score.ratio, passed: score.failedCritical ? false : score.passed,
            threshold: score.passThreshold, deficiencies: shown.map(\.displayName))
    }

    private func sections() -> [InspectionDocument.Section] {
        guard let template = view.template else { return [] }
        let deficient = Set(judgement.score?.deficiencies ?? [])
        var sections = [InspectionDocument.Section(title: nil, answers: [])]
        for field in template.schema.fields where isShown(field) {
            let type = registry.resolve(field)
            guard type.isAnswerable else {
                if type.startsSection { sections.append(.init(title: field.label, answers: [])) }
                continue
            }
            var notes: [String] = []
            if field.isPrivate { notes.append("not shown to the client") }
            if field.critical == true { notes.append("critical") }
            let value = view.answers[field.id]
            let held = view.photos.filter { $0.fieldID == field.id.rawValue }.map {
                DocumentImage.stored(sha256: $0.sha256, byteSize: $0.byteSize, photos: photos)
            }
            sections[sections.count - 1].answers.append(
                .init(
                    label: field.displayName,
                    value: held.isEmpty || !type.takesPhotos
                        ? type.display(value, for: field, style: ConsoleReportRenderer.style) : "",
                    deficient: deficient.contains(field.id), notes: notes, photos: held))
        }
        if !isClient {
            let loose = view.photos.filter { $0.fieldID == nil && $0.issueLocalID == nil }
            if !loose.isEmpty {
                sections.append(
                    .init(
                        title: "Other photos",
                        answers: [
                            .init(
                                label: "Photos", value: "",
                                photos: loose.map {
                                    DocumentImage.stored(sha256: $0.sha256, byteSize: $0.byteSize, photos: photos)
                                })
                        ]))
            }
        }
        return sections.filter { $0.title != nil || !$0.answers.isEmpty }
    }

    private func issues() -> [InspectionDocument.Issue] {
        view.issues.map { issue in
            let action = view.actions.first { $0.issueLocalID == issue.localID.uuidString.lowercased() }
            let attached = view.photos.filter { $0.issueLocalID == issue.localID }
            return .init(
                severity: issue.severity.rawValue, description: issue.description,
                action: action.map { "\($0.state.rawValue.replacingOccurrences(of: "_", with: " ")): \($0.title)" },
                photos: attached.map { DocumentImage.stored(sha256: $0.sha256, byteSize: $0.byteSize, photos: photos) })
        }
    }

    /// The first answered signature the variant may show.
    private func signature() -> InspectionDocument.Signature? {
        guard let template = view.template else { return nil }
        for field in template.schema.fields where isShown(field) && registry.resolve(field).name == "signature" {
            guard let answer = view.answers[field.id] else { continue }
            switch registry.resolve(field).layout(answer, for: field) {
            case .signature(let signer, let signedAt, _):
                return .init(label: field.displayName, name: "\(signer), \(look.time(signedAt))", image: nil)
            case .photos(let ids, _):
                let photo = view.photos.first { ids.contains($0.localID.uuidString.lowercased()) }
                return .init(
                    label: field.displayName, name: "",
                    image: photo.map { DocumentImage.stored(sha256: $0.sha256, byteSize: $0.byteSize, photos: photos) })
            default:
                continue
            }
        }
        return nil
    }

    private func review() -> [String] {
        var lines: [String] = []
        let review = view.review
        if let by = review.decidedBy {
            lines.append(
                "Review: \(review.state.rawValue.replacingOccurrences(of: "_", with: " ")) by \(by.displayName), \(look.time(review.decidedAt))"
                    + (review.comment.map { ": \($0)" } ?? ""))
        } else {
            lines.append("Review: \(review.state.rawValue.replacingOccurrences(of: "_", with: " "))")
        }
        for event in view.events {
            var line = "\(look.time(event.at)) \(event.actor.displayName): \(event.kind), revision \(event.revision)"
            if let comment = event.comment { line += ": \(comment)" }
            lines.append(line)
            for item in event.fieldComments ?? [] {
                let label =
                    view.template?.schema.fields.first { $0.id.rawValue == item.fieldID }?.displayName ?? item.fieldID
                lines.append("    on \(label): \(item.comment)")
            }
        }
        return lines
    }
}
