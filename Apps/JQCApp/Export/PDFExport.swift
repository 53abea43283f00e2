import Documents
import FieldTypes
import Foundation
import JQCCore
import Models

/// A report as an inspection report PDF (Packages/Documents), drawn from
/// what the device holds: the inspector's own copy, private fields shown
/// and marked "not shown to the client"; times are the device's clock in
/// its own zone. The organisation's name is the server's to set, so the
/// document is headed by the form and site.
enum PDFExport {
    static func document(_ content: ExportedReport, number: String) -> InspectionDocument {
        let report = content.report
        let deficient = Set(content.score?.deficiencies ?? [])
        return InspectionDocument(
            organisation: "Inspection report", logo: nil, form: content.template?.name ?? report.templateID,
            number: number, site: content.facilityName ?? report.facilityID, area: content.areaName,
            when: time(report.completedAtDevice ?? report.updatedAtDevice) + " (device clock)",
            inspector: content.inspector,
            score: content.score.map { score in
                .init(
                    fraction: score.ratio, passed: score.failedCritical ? false : score.passed,
                    threshold: score.passThreshold,
                    deficiencies: score.deficiencies.compactMap { content.template?.schema.field($0)?.displayName })
            },
            sections: sections(content, deficient: deficient),
            issues: content.issues.map { issue in
                .init(
                    severity: issue.severity.rawValue, description: issue.description, action: nil,
                    photos: content.photos(ofIssue: issue).map { image(content, $0) })
            },
            note: report.serverID.map { "Server id \($0)" })
    }

    private static func sections(_ content: ExportedReport, deficient: Set<FieldID>) -> [InspectionDocument.Section] {
        guard let template = content.template else {
            return [
                .init(
                    title: nil,
                    answers: content.report.answers.answeredIDs.map {
                        .init(label: "field \($0.rawValue)", value: content.report.answers[$0]?.canonicalString() ?? "")
                    })
            ]
        }
        var sections = [InspectionDocument.Section(title: nil, answers: [])]
        for field in template.schema.fields where !content.hidden.contains(field.id) {
            let type = content.registry.resolve(field)
            guard type.isAnswerable else {
                if type.startsSection {
                    sections.append(.init(title: field.label, answers: []))
                } else {
                    // A note of the form: its words alone.
                    sections[sections.count - 1].answers.append(.init(label: "", value: field.label))
                }
                continue
            }
            var notes: [String] = []
            if field.isPrivate { notes.append("not shown to the client") }
            if field.critical { notes.append("critical") }
            let photos = content.photos.filter { $0.fieldID == field.id }.map { image(content, $0) }
            let value = content.report.answers[field.id]
            sections[sections.count - 1].answers.append(
                .init(
                    label: field.displayName,
                    value: photos.isEmpty || !type.takesPhotos
                        ? type.display(value, for: field, style: HTMLExport.answerStyle) : "",
                    deficient: deficient.contains(field.id), notes: notes, photos: photos))
        }
        return sections.filter { $0.title != nil || !$0.answers.isEmpty }
    }

    /// A photo's stored file; one not on this device is drawn as a box saying so.
    private static func image(_ content: ExportedReport, _ photo: Photo) -> DocumentImage {
        guard let file = content.file(of: photo) else { return DocumentImage { nil } }
        return DocumentImage.file(file.path)
    }

    private static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.dateFormat = "d MMM yyyy, HH:mm"
        return formatter.string(from: date)
    }

    /// Draws the PDF into a file with no name, then copies it into `sink`
    /// 64 KiB at a time: a file or standard output, memory flat either way.
    static func write(_ content: ExportedReport, number: String, to sink: ExportSink) throws(AppError) {
        let document = document(content, number: number)
        let descriptor: Int32
        do throws(DocumentsError) {
            descriptor = try DocumentFile.unnamed { (fd) throws(DocumentsError) in try document.write(to: fd) }
                .descriptor
        } catch {
            throw AppError.failure(.exportWriteFailed, error.message)
        }
        defer { close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            try sink.write(bytes: Array(chunk[0..<got]))
        }
    }
}
