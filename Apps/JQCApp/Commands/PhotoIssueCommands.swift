import ArgumentParsing
import Foundation
import JQCCore
import Models

/// photo add, issue add, issues.
enum PhotoIssueCommands {
    static var all: [Command] { [photoAdd, issueAdd, issues] }

    static let report = Argument("LOCAL_ID", help: "the report (DRAFT or REJECTED)")
    static let files = Argument(variadic: "FILE", help: "JPEG or PNG files; never changed")
    static let field = Option("field", "FIELD_ID", help: "the image field the photos answer")
    static let issue = Option("issue", "ISSUE_ID", help: "the issue the photos document (its id or a unique prefix)")

    static let photoAdd = Command(
        CommandSpec(
            "photo add",
            summary: "import photo files into a report, compressed; attach them to an image field or an issue",
            positionals: [report.spec, files.spec],
            options: [field.spec, issue.spec],
            discussion: """
                Each photo is compressed to a JPEG in the profile's photo folder and waits to upload after the report is accepted.
                Every import states the report's photo cap and the room left ('jqc settings photo-cap-mb N' changes the cap).
                Exit codes: 5 PHOTO_CAP_EXCEEDED or STORAGE_LOW (free space under 'storage-floor-mb'); 1 DISK_FULL (the disk
                ran out: the photo was not added and nothing saved was lost; free some space and add it again).
                Examples:
                  jqc photo add 3f2a --field 14 IMG_0042.jpg IMG_0043.jpg
                  jqc photo add 3f2a --issue 9b1c leak.png
                """)
    ) { (inv) throws(AppError) -> CommandOutput in
        let files = try inv[Self.files]
        guard !files.isEmpty else {
            throw AppError.usage(
                "'photo add' needs at least one FILE. Usage: jqc photo add LOCAL_ID [--field FIELD_ID | --issue ISSUE_ID] FILE..."
            )
        }
        let field = try inv[Self.field]
        if field != nil && inv.isGiven(Self.issue) {
            throw AppError.usage("Give either --field or --issue, not both; a photo belongs to one place.")
        }
        let workspace = try inv.workspace()
        let report = try workspace.report(try inv[Self.report])
        let issue = try inv[Self.issue].map { (reference: String) throws(AppError) -> Issue in
            try workspace.issue(reference, of: report)
        }
        let result = try workspace.addPhotos(
            to: report, fieldID: field, issueLocalID: issue?.localID, files: files)
        return photosAdded(result, to: report, field: field, issue: issue, in: workspace)
    }

    /// What `photo add` prints once the photos are in; the menu says the same.
    static func photosAdded(
        _ result: PhotoImportResult, to report: Report, field: String?, issue: Issue?,
        in workspace: Workspace
    ) -> CommandOutput {
        var lines: [String] = []
        for (index, imported) in result.photos.enumerated() {
            let name = URL(fileURLWithPath: imported.source).lastPathComponent
            let which = result.photos.count == 1 ? "Photo" : "Photo \(index + 1) of \(result.photos.count)"
            lines.append(
                "\(which) added: \(name), \(ReportPresenter.bytes(imported.photo.originalByteSize)) -> \(ReportPresenter.bytes(imported.photo.byteSize)). \(Workspace.capText(used: imported.usedBytesAfter, cap: result.capBytes))."
            )
        }
        let target =
            field.map { "field \($0)" } ?? issue.map { "issue \(Workspace.shortID($0.localID))" } ?? "the report"
        lines.append(
            "Attached to \(target) of \(workspace.short(report)); \(result.photos.count == 1 ? "it uploads" : "they upload") after the report is accepted."
        )
        let json: JSONValue = [
            "photos": .array(
                result.photos.map { imported in
                    [
                        "local_id": .string(imported.photo.localID.uuidString.lowercased()),
                        "file": .string(imported.source),
                        "byte_size": .integer(imported.photo.byteSize),
                        "original_byte_size": .integer(imported.photo.originalByteSize),
                        "field_id": imported.photo.fieldID.map { .string($0.rawValue) } ?? .null,
                        "issue_local_id": imported.photo.issueLocalID.map { .string($0.uuidString.lowercased()) }
                            ?? .null,
                    ]
                }),
            "cap_bytes": .integer(result.capBytes),
            "used_bytes": .integer(result.usedBytes),
            "remaining_bytes": .integer(result.remainingBytes),
        ]
        var output = CommandOutput(lines: lines, json: json)
        output.diagnostics = result.notices
        return output
    }

    static let severity = Option(
        "severity", "S", values: IssueSeverity.allCases.map(\.rawValue), help: "how bad it is")
    static let description = Option("description", "TEXT", help: "what is wrong")
    static let photo = Option("photo", "FILE", help: "a JPEG or PNG showing it, imported like 'photo add'")

    static let issueAdd = Command(
        CommandSpec(
            "issue add", summary: "flag an issue on a report, with a severity, a description and optionally a photo",
            positionals: [report.spec],
            options: [severity.spec, description.spec, photo.spec],
            discussion:
                "Example:\n  jqc issue add 3f2a --severity high --description \"Hand dryer broken\" --photo dryer.jpg")
    ) { (inv) throws(AppError) -> CommandOutput in
        guard let severity = try inv[Self.severity], let description = try inv[Self.description] else {
            throw AppError.usage("'issue add' needs --severity S (\(Workspace.severityList)) and --description TEXT.")
        }
        let workspace = try inv.workspace()
        let report = try workspace.report(try inv[Self.report])
        let file = try inv[Self.photo]
        let (issue, photo) = try workspace.addIssue(
            to: report, severity: severity, description: description, photoFile: file)
        return issueAdded(issue, photo: photo, from: file, on: report, in: workspace)
    }

    /// What `issue add` prints once the issue (and its photo, from `file`) is saved; the menu says the same.
    static func issueAdded(
        _ issue: Issue, photo: Photo?, from file: String?, on report: Report, in workspace: Workspace
    ) -> CommandOutput {
        var lines = [
            "Flagged \(issue.severity.rawValue.uppercased()) issue \(Workspace.shortID(issue.localID)) on \(workspace.short(report)): \(issue.description)"
        ]
        if let photo {
            let used = (try? workspace.photoBytes(of: report)) ?? photo.byteSize
            lines.append(
                "Photo added: \(URL(fileURLWithPath: file ?? "").lastPathComponent), \(ReportPresenter.bytes(photo.originalByteSize)) -> \(ReportPresenter.bytes(photo.byteSize)). \(Workspace.capText(used: used, cap: workspace.settings.photoCapBytes))."
            )
        }
        return CommandOutput(
            lines: lines,
            json: [
                "local_id": .string(issue.localID.uuidString.lowercased()),
                "report_local_id": .string(report.localID.uuidString.lowercased()),
                "severity": .string(issue.severity.rawValue),
                "description": .string(issue.description),
                "photo_local_id": photo.map { .string($0.localID.uuidString.lowercased()) } ?? .null,
            ])
    }

    static let issues = Command(
        CommandSpec(
            "issues", summary: "every issue on this device, newest first, with its report")
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let listings = try workspace.issues()
        let rows = listings.map { listing in
            [
                Workspace.shortID(listing.issue.localID), Workspace.shortID(listing.issue.reportLocalID),
                listing.report?.state.rawValue ?? "-", listing.issue.severity.rawValue.uppercased(),
                String(listing.photoIDs.count), listing.issue.description,
            ]
        }
        let lines =
            listings.isEmpty
            ? ["No issues on this device. Flag one with 'jqc issue add LOCAL_ID --severity S --description TEXT'."]
            : TextTable.render(["ID", "REPORT", "STATE", "SEVERITY", "PHOTOS", "DESCRIPTION"], rows, maxColumn: 48)
        let json: JSONValue = [
            "issues": .array(
                listings.map { listing in
                    [
                        "local_id": .string(listing.issue.localID.uuidString.lowercased()),
                        "report_local_id": .string(listing.issue.reportLocalID.uuidString.lowercased()),
                        "report_state": listing.report.map { .string($0.state.rawValue) } ?? .null,
                        "facility_id": listing.report.map { .string($0.facilityID) } ?? .null,
                        "template_id": listing.report.map { .string($0.templateID) } ?? .null,
                        "severity": .string(listing.issue.severity.rawValue),
                        "description": .string(listing.issue.description),
                        "photo_count": .integer(Int64(listing.photoIDs.count)),
                        "photo_local_ids": .array(listing.photoIDs.map { .string($0.uuidString.lowercased()) }),
                    ]
                })
        ]
        return CommandOutput(lines: lines, json: json)
    }
}
