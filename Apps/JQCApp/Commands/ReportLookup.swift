import FieldTypes
import Foundation
import JQCCore
import Models
import ProgramOutput

/// Which report `show` and `export` mean: the device's own (by local id or a
/// unique prefix, or by the server id of a report the device holds), or,
/// when the device has none and a profile is signed in, the server's copy,
/// read for this invocation only (online only; nothing is stored).
enum ReportLookup {
    /// A report found.
    enum Found {
        case local(Report)
        case server(FetchedReport)
    }

    /// The report `reference` names (see the type's note).
    static func find(_ reference: String, in workspace: Workspace, context: AppContext) async throws(AppError)
        -> Found
    {
        do throws(AppError) {
            return .local(try workspace.report(reference))
        } catch  where error.code == .notFound {
            let id = reference.trimmingCharacters(in: .whitespaces)
            if let held = try workspace.reports().first(where: { $0.serverID == id }) { return .local(held) }
            let service = SyncService(context: context)
            guard !id.isEmpty, service.isSignedIn else { throw error }
            return .server(try await service.serverReport(id))
        }
    }

    /// What `show` prints for a report read from the server: the presenter's
    /// view of a local report (every outside string through `OneLine`, as the
    /// presenter shows a local one), and `"source": "server"` in the JSON.
    static func shown(
        _ fetched: FetchedReport, in workspace: Workspace, style: TerminalStyle,
        savedPhotos: [String]? = nil, photoFolder: String? = nil
    ) -> CommandOutput {
        let report = fetched.report
        let template = try? workspace.template(for: report)
        let presenter = ReportPresenter(workspace: workspace, style: style)
        let score = template.map { workspace.score(report, template: $0) }
        var json =
            presenter.json(report, template: template, photos: fetched.photos, issues: fetched.issues, score: score)
            .objectValue ?? [:]
        json["source"] = .string("server")
        let actions = ActionPresenter.ofReport(fetched.serverID, in: workspace)
        json["completed_at"] = fetched.completedAt.map { .string($0) } ?? .null
        if let savedPhotos { json["photos_saved"] = .array(savedPhotos.map { .string($0) }) }
        var lines: [String]
        if let template, let score {
            lines = presenter.lines(
                report, template: template, photos: fetched.photos, issues: fetched.issues, score: score)
        } else {
            lines = [
                "Report \(report.localID.uuidString.lowercased())  \(report.state.rawValue)",
                "Its template '\(oneLine(report.templateID))' is not on this device; answers are shown as the server holds them.",
                flatLine(report.answers.json.canonicalString()),
            ]
        }
        lines += actions.lines
        let accepted = fetched.completedAt.map { ", accepted \(flatLine($0))" } ?? ""
        lines.insert(
            "Read from the server (server id \(oneLine(fetched.serverID)), revision \(fetched.revision)\(accepted)); not kept on this device.",
            at: 1)
        if let savedPhotos, let photoFolder {
            lines.append("")
            lines.append(
                "Saved \(savedPhotos.count) photo\(savedPhotos.count == 1 ? "" : "s") to \(oneLine(photoFolder)).")
        }
        return CommandOutput(lines: lines, json: .object(json))
    }

    /// Copies a local report's photos into `folder` as `<photo local_id>.jpg`
    /// (the folder made 0700 when missing), each streamed and replaced atomically.
    static func copyPhotos(_ photos: [Photo], in workspace: Workspace, to folder: String) throws(AppError) -> [String] {
        try SyncService.preparePhotoFolder(folder)
        var written: [String] = []
        for photo in photos {
            let id = photo.localID.uuidString.lowercased()
            guard let source = workspace.storedPhotos?.file(of: photo),
                let handle = try? FileHandle(forReadingFrom: source)
            else {
                throw AppError.failure(
                    .photoUnreadable,
                    "Photo \(id.prefix(8)) is not readable on this device; check the profile's photo folder.")
            }
            defer { try? handle.close() }
            let path = (folder as NSString).appendingPathComponent(FetchedReport.fileName(photo.localID))
            try AtomicFile.replace(
                path, mode: 0o600, exactMode: true,
                failure: { SyncService.photoFileError($0, path: path) }
            ) { (descriptor: Int32) throws(AppError) in
                while true {
                    let chunk: Data
                    do { chunk = try handle.read(upToCount: 64 * 1024) ?? Data() } catch {
                        throw AppError.failure(
                            .photoUnreadable, "Cannot read photo \(id.prefix(8)) (\(error.localizedDescription)).")
                    }
                    if chunk.isEmpty { break }
                    do throws(OutputError) {
                        try DescriptorWriter.writeAll(descriptor, [UInt8](chunk), target: "'\(path)'")
                    } catch {
                        throw SyncService.photoFileError(error, path: path)
                    }
                }
            }
            written.append(path)
        }
        return written
    }
}
