import Foundation
import FieldTypes
import JQCCore
import Models
import Scoring

/// The three formats of `jqc export`.
enum ExportFormat: String, CaseIterable, Sendable {
    case json, csv, html, pdf

    /// "json, csv, html or pdf", for messages.
    static var choices: String { "json, csv, html or pdf" }

    /// Reads `--format` as typed (case-insensitive).
    init?(typed: String) {
        self.init(rawValue: typed.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The format a file name's extension implies (`x.html`, `x.htm`, `x.csv`, `x.json`).
    init?(fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "json": self = .json
        case "csv": self = .csv
        case "html", "htm": self = .html
        case "pdf": self = .pdf
        default: return nil
        }
    }
}

/// Everything an export shows about one report, read from the store once:
/// the report, its template (when cached), photos, issues, score, the names
/// of its facility and area, and where the photo files are.
struct ExportedReport {
    let report: Report
    /// Nil when the template is not on this device; the answers are still exported as they are.
    let template: Template?
    let photos: [Photo]
    let issues: [Issue]
    /// Nil without a template (nothing to score against).
    let score: ScoreReport?
    /// The fields a form-logic condition hides (empty without a template).
    let hidden: Set<FieldID>
    let facilityName: String?
    let areaName: String?
    /// Device time of the export.
    let exportedAt: Date
    let registry: FieldTypeRegistry
    /// The `show` presenter, reused so every export carries the `show --json` document.
    let presenter: ReportPresenter
    private let storedPhotos: StoredPhotos?
    /// Set for a report read from the server: the folder its fetched photos were saved in.
    private let fetchedPhotos: URL?
    /// "server" for a report read from the server (not on this device); nil for the device's own.
    let source: String?
    /// Who inspected, when known: the display name of the person signed in on
    /// this device, for the device's own reports; nil otherwise (never guessed).
    let inspector: String?

    /// Reads a report and everything it shows from the workspace.
    init(_ report: Report, workspace: Workspace, exportedAt: Date, inspector: String? = nil) throws(AppError) {
        self.report = report
        self.template = try? workspace.template(for: report)
        self.photos = try workspace.photos(of: report)
        self.issues = try workspace.issues(of: report)
        self.score = template.map { workspace.score(report, template: $0) }
        self.hidden = Set(template.map { workspace.logic($0).evaluate(report.answers).hiddenFields } ?? [])
        self.facilityName = workspace.facilityName(report.facilityID)
        self.areaName = report.areaID.flatMap { workspace.areaName($0, facilityID: report.facilityID) }
        self.exportedAt = exportedAt
        self.registry = workspace.registry
        self.presenter = ReportPresenter(workspace: workspace, style: .plain)
        self.storedPhotos = workspace.storedPhotos
        self.fetchedPhotos = nil
        self.source = nil
        self.inspector = inspector
    }

    /// A report read from the server, held in memory: the device's cached
    /// template and names, its photos from `photoFolder` when they were fetched.
    /// A report read from the server; `template` is the one fetched with it when this device holds none.
    init(fetched: FetchedReport, workspace: Workspace, exportedAt: Date, photoFolder: URL?, template: Template? = nil) {
        let report = fetched.report
        self.report = report
        self.template = (try? workspace.template(for: report)) ?? template
        self.photos = fetched.photos
        self.issues = fetched.issues
        self.score = template.map { workspace.score(report, template: $0) }
        self.hidden = Set(template.map { workspace.logic($0).evaluate(report.answers).hiddenFields } ?? [])
        self.facilityName = workspace.facilityName(report.facilityID)
        self.areaName = report.areaID.flatMap { workspace.areaName($0, facilityID: report.facilityID) }
        self.exportedAt = exportedAt
        self.registry = workspace.registry
        self.presenter = ReportPresenter(workspace: workspace, style: .plain)
        self.storedPhotos = nil
        self.fetchedPhotos = photoFolder
        self.source = "server"
        self.inspector = nil
    }

    /// The report's id as every output writes it.
    var localID: String { report.localID.uuidString.lowercased() }

    /// The facility as "Name (ID)", or the id when it is not cached.
    var facilityText: String { facilityName.map { "\($0) (\(report.facilityID))" } ?? report.facilityID }

    /// The area as "Name (ID)", the id when not cached, nil when the report has no area.
    var areaText: String? { report.areaID.map { id in areaName.map { "\($0) (\(id))" } ?? id } }

    /// The template as "Name (ID, version N)", or its id when it is not cached.
    var templateText: String {
        template.map { "\($0.name) (\($0.id), version \($0.version))" } ?? report.templateID
    }

    /// The photo record with this id, if the report owns one.
    func photo(_ id: String) -> Photo? {
        guard let uuid = UUID(uuidString: id) else { return nil }
        return photos.first { $0.localID == uuid }
    }

    /// The stored JPEG of a photo, or nil when its file is not on this device.
    func file(of photo: Photo) -> URL? {
        if let fetchedPhotos {
            let url = fetchedPhotos.appendingPathComponent(photo.fileName)
            return FileManager.default.isReadableFile(atPath: url.path) ? url : nil
        }
        return storedPhotos?.file(of: photo)
    }

    /// The score contribution of a field, if it has one.
    func contribution(_ fieldID: FieldID) -> FieldContribution? {
        score?.fields.first { $0.fieldID == fieldID }
    }

    /// The photos of an issue, in the order they were added.
    func photos(ofIssue issue: Issue) -> [Photo] {
        photos.filter { $0.issueLocalID == issue.localID }
    }

    /// A device time as an ISO 8601 UTC timestamp.
    static func timestamp(_ date: Date) -> String { ReportPresenter.timestamp(date) }
}
