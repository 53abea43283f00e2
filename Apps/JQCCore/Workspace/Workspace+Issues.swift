import ArgumentParsing
import Foundation
import Models
import Storage

/// One issue as `jqc issues` lists it: with its report (if still here) and its photo count.
public struct IssueListing: Sendable {
    /// The issue.
    public let issue: Issue
    /// The report it belongs to.
    public let report: Report?
    /// The ids of the photos attached to it, in the order added.
    public let photoIDs: [UUID]
}

extension Workspace {
    // MARK: Issues (F5)

    /// Flags an issue on a DRAFT or REJECTED report, optionally with one photo
    /// imported exactly as `addPhotos` does (permission, floor, cap). The photo
    /// is checked and compressed before the issue is recorded, so a refused
    /// photo leaves no issue behind.
    public func addIssue(to report: Report, severity: String, description: String, photoFile: String?) throws(AppError)
        -> (Issue, Photo?)
    {
        let text = description.trimmingCharacters(in: .whitespacesAndNewlines)
        let parsed = IssueSeverity(typed: severity)
        var problems: [String] = []
        if parsed == nil {
            // A slip of the keyboard gets the nearest name, as a mistyped command does.
            let near = CommandCatalog.closest(severity.lowercased(), among: IssueSeverity.allCases.map(\.rawValue))
            problems.append(
                "'\(severity)' is not a severity; \(near.map { "did you mean '\($0)'? Use " } ?? "use ")\(Self.severityList)."
            )
        }
        if text.isEmpty {
            problems.append(
                "The description is empty; say what is wrong, for example --description \"Soap dispenser broken\".")
        }
        guard let parsed, problems.isEmpty else {
            throw AppError.validation(
                problems.count == 1
                    ? "No issue was flagged: \(problems[0])"
                    : "No issue was flagged: \(problems.count) problems.",
                problems: problems.count == 1 ? [] : problems, code: .issueInvalid)
        }
        let current = try refreshed(report)
        // The issue's photo holds the photo folder from before its temporary file is written until it is
        // recorded, as `jqc photo add` does, so a sync's leftover sweep meanwhile takes nothing it writes.
        let hold =
            photoFile == nil
            ? nil : try storage { () throws(StorageError) in try store.photoFiles?.holdForImport() }
        defer { hold?.release() }
        var prepared: PreparedPhoto?
        if let photoFile {
            do {
                prepared = try preparePhoto(photoFile, for: current)
            } catch {
                throw AppError(
                    code: error.code, "The issue was not flagged because its photo was refused: \(error.message)",
                    exitCode: error.exitCode, problems: error.problems)
            }
        }
        let issue: Issue
        do {
            issue = try storage { () throws(StorageError) in
                try store.addIssue(Issue(reportLocalID: current.localID, severity: parsed, description: text))
            }
        } catch {
            prepared?.discard()
            throw error
        }
        guard let prepared else { return (issue, nil) }
        do {
            let (photo, _) = try storePrepared(prepared, in: current, fieldID: nil, issueLocalID: issue.localID)
            return (issue, photo)
        } catch {
            throw AppError(
                code: error.code,
                "Issue \(Self.shortID(issue.localID)) was flagged but its photo could not be stored: \(error.message) Attach it again with 'jqc photo add \(short(current)) --issue \(Self.shortID(issue.localID)) FILE'.",
                exitCode: error.exitCode, problems: error.problems)
        }
    }

    /// Every issue on this device, newest first, with its report and photos.
    public func issues() throws(AppError) -> [IssueListing] {
        let all = try storage { () throws(StorageError) in try store.allIssues() }
        let reports = Dictionary(
            try storage { () throws(StorageError) in try store.reports() }.map { ($0.localID, $0) },
            uniquingKeysWith: { first, _ in first })
        var photos: [UUID: [Photo]] = [:]
        var listings: [IssueListing] = []
        for issue in all.sorted(by: { $0.creationSequence > $1.creationSequence }) {
            let reportID = issue.reportLocalID
            if photos[reportID] == nil {
                photos[reportID] = try storage { () throws(StorageError) in try store.photos(ofReport: reportID) }
            }
            let attached = (photos[reportID] ?? []).filter { $0.issueLocalID == issue.localID }.map(\.localID)
            listings.append(IssueListing(issue: issue, report: reports[reportID], photoIDs: attached))
        }
        return listings
    }

    /// Finds an issue of a report by its full local id or a unique prefix of it (at least 4 characters).
    public func issue(_ reference: String, of report: Report) throws(AppError) -> Issue {
        let trimmed = reference.trimmingCharacters(in: .whitespaces).lowercased()
        let notFound = AppError.notFound(
            "Report \(short(report)) has no issue '\(reference)'; 'jqc show \(short(report))' lists its issues.")
        let issues = try storage { () throws(StorageError) in try store.issues(ofReport: report.localID) }
        if let id = UUID(uuidString: trimmed) {
            guard let issue = issues.first(where: { $0.localID == id }) else { throw notFound }
            return issue
        }
        guard trimmed.count >= 4, trimmed.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { throw notFound }
        let matches = issues.filter { $0.localID.uuidString.lowercased().hasPrefix(trimmed) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw notFound
        default:
            throw AppError.usage(
                "'\(reference)' matches \(matches.count) issues of report \(short(report)); type more of the id.")
        }
    }

    /// "low, medium, high or critical".
    public static var severityList: String {
        let names = IssueSeverity.allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// The first eight characters of an id, as shown in lists.
    public static func shortID(_ id: UUID) -> String {
        String(id.uuidString.lowercased().prefix(8))
    }
}

extension Workspace {
    /// How many photos and issues a report holds (what deleting it would take with it).
    public func attachmentCounts(of report: Report) throws(AppError) -> (photos: Int, issues: Int) {
        let photos = try storage { () throws(StorageError) in try store.photos(ofReport: report.localID) }
        let issues = try storage { () throws(StorageError) in try store.issues(ofReport: report.localID) }
        return (photos.count, issues.count)
    }
}
