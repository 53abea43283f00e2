import Foundation
import Models
import ProgramOutput
import Storage
import Sync

/// A report read from the server for a person to look at (`jqc show
/// SERVER_ID`, `jqc export SERVER_ID`): held in memory only, never written
/// into the device's store, since it is not this device's report.
public struct FetchedReport: Sendable {
    /// The id the server gave it.
    public let serverID: String
    /// The report as the presenters take it: SYNCED at the server's revision.
    public let report: Report
    /// Its photos as the server lists them; each `fileName` is `<local_id>.jpg`.
    public let photos: [Photo]
    /// Its issues, in the order the server holds them.
    public let issues: [Issue]
    /// When the server accepted it (RFC 3339), when it says.
    public let completedAt: String?
    /// The server's current revision.
    public let revision: Int
    /// The photos' content hashes as the server lists them, by photo id.
    let expectedHashes: [UUID: String]

    /// The report in the shapes the device's presenters use, with the
    /// server's review of it when the server sent one (contract 1.1).
    init(_ fetched: ServerReport, serverID: String, review: WireReview? = nil) {
        let wire = fetched.report
        let completedDevice = wire.completedAtDevice.flatMap(RFC3339.date)
        let accepted = fetched.completedAt.flatMap(RFC3339.date)
        let lifecycle = ReportLifecycle(
            heldByServer: wire.serverID ?? serverID, revision: fetched.revision,
            review: review.map(ReportReview.init))
        report = Report(
            restoring: wire.localID, lifecycle: lifecycle, assignmentID: wire.assignmentID, templateID: wire.templateID,
            facilityID: wire.facilityID, areaID: wire.areaID, answers: Answers(json: wire.payload.answers) ?? Answers(),
            schemaVersion: Report.currentSchemaVersion,
            updatedAtDevice: completedDevice ?? accepted ?? Date(timeIntervalSince1970: 0),
            completedAtDevice: completedDevice, score: wire.payload.score, parentLocalID: wire.parentLocalID,
            parentServerID: wire.parentServerID, followUpRequired: wire.payload.followUpRequired, creationSequence: 0)
        let issueOf = Dictionary(
            wire.issues.flatMap { issue in issue.photoLocalIDs.map { ($0, issue.localID) } },
            uniquingKeysWith: { first, _ in first })
        photos = fetched.photos.map { photo in
            Photo(
                localID: photo.localID, reportLocalID: wire.localID, fieldID: photo.fieldID.map { FieldID($0) },
                issueLocalID: photo.issueLocalID ?? issueOf[photo.localID],
                fileName: Self.fileName(photo.localID), uploadState: .uploaded,
                originalByteSize: photo.byteSize, byteSize: photo.byteSize, sha256: photo.sha256 ?? "")
        }
        issues = wire.issues.enumerated().map { index, issue in
            Issue(
                localID: issue.localID, reportLocalID: wire.localID, severity: issue.severity,
                description: issue.description,
                creationSequence: Int64(index))
        }
        completedAt = fetched.completedAt
        revision = fetched.revision
        self.serverID = wire.serverID ?? serverID
        expectedHashes = Dictionary(
            fetched.photos.compactMap { photo in photo.sha256.map { (photo.localID, $0.lowercased()) } },
            uniquingKeysWith: { first, _ in first })
    }

    /// The name a fetched photo is saved under: `<photo local_id>.jpg`.
    public static func fileName(_ photoID: UUID) -> String { photoID.uuidString.lowercased() + ".jpg" }
}

/// Reading a report that is not on this device from the server: online only,
/// like history; nothing fetched is stored.
extension SyncService {
    /// Whether a session is saved on this profile (a profile signed in).
    public var isSignedIn: Bool {
        ((try? credentials.load()) ?? nil) != nil
    }

    /// `GET /reports/{server_id}`. Unknown to the server, or not the caller's
    /// to read: `NOT_FOUND` (3), the same words for both. Offline:
    /// `SERVER_REPORT_REQUIRES_NETWORK` (75). Signed out: `AUTH_REQUIRED` (6).
    public func serverReport(_ serverID: String) async throws(AppError) -> FetchedReport {
        let saved = try signedInSession()
        let client = try sessionClient(saved)
        // With its review (contract 1.1; none from a 1.0 server), so `show` says where it stands.
        let result: Result<ReviewedReport, APIError>
        do throws(APIError) { result = .success(try await client.reviewedReport(serverID: serverID)) } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let fetched):
            return FetchedReport(fetched.report, serverID: serverID, review: fetched.review)
        case .failure(let error):
            throw Self.serverReportError(error, serverID: serverID)
        }
    }

    /// The template a fetched report was made on, read from the server
    /// (`GET /templates`) for a device that has not synced it yet: the same
    /// version when the server offers it, else its current one; nil when the
    /// server offers none or cannot be reached (the export then names fields
    /// by id). Kept in memory only, as the fetched report is.
    public func serverTemplate(id: String, version: Int?) async -> Template? {
        guard let saved = try? signedInSession(), let client = try? sessionClient(saved),
            let list = try? await client.templates()
        else { return nil }
        let offered = list.compactMap { try? Template.decode($0).get() }.filter { $0.id == id }
        return offered.first { $0.version == version } ?? offered.max { $0.version < $1.version }
    }

    /// Saves a fetched report's photos into `folder` as `<photo local_id>.jpg`,
    /// each streamed from the server to disk and replaced atomically, its
    /// SHA-256 checked against the server's list as it arrives. The folder is
    /// made (0700) when it does not exist; a path that is something else is
    /// refused. Returns the paths written, in the report's photo order.
    @discardableResult
    public func savePhotos(of fetched: FetchedReport, to folder: String) async throws(AppError) -> [String] {
        try Self.preparePhotoFolder(folder)
        guard !fetched.photos.isEmpty else { return [] }
        let saved = try signedInSession()
        let client = try sessionClient(saved)
        var written: [String] = []
        for photo in fetched.photos {
            let path = (folder as NSString).appendingPathComponent(FetchedReport.fileName(photo.localID))
            try await download(photo.localID, of: fetched, with: client, to: path)
            written.append(path)
        }
        return written
    }

    /// One photo, streamed into `path` atomically (mode 0600).
    private func download(_ photoID: UUID, of fetched: FetchedReport, with client: APIClient, to path: String)
        async throws(AppError)
    {
        let serverID = fetched.serverID
        let expected = fetched.expectedHashes[photoID]
        let shown = String(photoID.uuidString.lowercased().prefix(8))
        let file = try AtomicFile.Replacement(
            path, mode: 0o600, exactMode: true, failure: { Self.photoFileError($0, path: path) })
        defer { withExtendedLifetime(file) {} }
        let descriptor = file.descriptor
        let hasher: SHA256.Hasher
        do throws(StorageError) { hasher = try SHA256.Hasher() } catch { throw AppError(storage: error) }
        let state = PhotoStream(hasher: hasher)
        let result: Result<Void, APIError>
        do throws(APIError) {
            try await client.downloadPhoto(serverID: serverID, localID: photoID) { bytes in
                state.write(bytes, to: descriptor, target: path)
            }
            result = .success(())
        } catch {
            result = .failure(error)
        }
        if let failure = state.failure { throw Self.photoFileError(failure, path: path) }
        if case .failure(let error) = result {
            throw Self.serverReportError(error, serverID: serverID, photo: shown)
        }
        let actual: String
        do throws(StorageError) { actual = try state.finish() } catch { throw AppError(storage: error) }
        if let expected, expected != actual {
            throw AppError.failure(
                .photoDownloadMismatch,
                "Photo \(shown) of report '\(serverID)' arrived with other bytes than the server lists (SHA-256 \(actual.prefix(12))..., not \(expected.prefix(12))...); nothing was saved. Try again."
            )
        }
        try file.commit(failure: { Self.photoFileError($0, path: path) })
    }

    /// Makes `folder` (0700) when it is not there; refuses a path that is not a folder.
    public static func preparePhotoFolder(_ folder: String) throws(AppError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw AppError.validation(
                    "'\(folder)' exists and is not a folder; give a folder for the photos (it is made when it does not exist).",
                    code: .outputNotFolder)
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw AppError.validation(
                "Cannot make the folder '\(folder)' for the photos (\(error.localizedDescription)); choose a folder you can write to.",
                code: .outputNotWritable)
        }
    }

    /// A failed request for a report (or one of its photos) not on this device, in the person's words.
    static func serverReportError(_ error: APIError, serverID: String, photo: String? = nil) -> AppError {
        switch error.code {
        case .notFound, .forbidden:
            if let photo {
                return AppError.notFound("The server has no photo \(photo) of report '\(serverID)' for this account.")
            }
            return AppError.notFound("No report '\(serverID)' on this device or on the server.")
        case _ where isUnreachable(error):
            return AppError(
                code: .serverReportRequiresNetwork,
                "Report '\(serverID)' is not on this device, and reading it from the server needs a connection; try again when online.",
                exitCode: ExitCode.temporary)
        default:
            return AppError(api: error)
        }
    }

    /// A photo file that could not be written, in the person's words.
    public static func photoFileError(_ error: OutputError, path: String) -> AppError {
        switch error.errno {
        case ENOSPC, EDQUOT:
            return AppError.failure(.diskFull, "The disk is full writing '\(path)'; free some space and try again.")
        case EACCES, EPERM, EROFS:
            return AppError.validation(
                "Cannot write '\(path)' (\(String(cString: strerror(error.errno)))); choose a folder you can write to.",
                code: .outputNotWritable)
        default:
            return AppError.failure(
                .photoWriteFailed, "Cannot write '\(path)' (\(String(cString: strerror(error.errno)))).")
        }
    }
}

/// One photo arriving: its bytes written to the temporary file and hashed, the
/// first write failure kept. The transport calls `write` from its own thread,
/// one piece at a time; the lock orders that with the reads after the
/// transfer (hence `@unchecked`: the hasher is a class of its own).
private final class PhotoStream: @unchecked Sendable {
    private let lock = NSLock()
    private let hasher: SHA256.Hasher
    private var firstFailure: OutputError?

    init(hasher: SHA256.Hasher) {
        self.hasher = hasher
    }

    /// Writes and hashes one piece; false (stop) once a write failed.
    func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, target: String) -> Bool {
        lock.withLock {
            guard firstFailure == nil else { return false }
            do throws(OutputError) {
                try DescriptorWriter.writeAll(descriptor, bytes, target: "'\(target)'")
            } catch {
                firstFailure = error
                return false
            }
            hasher.update(bytes)
            return true
        }
    }

    /// The first write that failed.
    var failure: OutputError? { lock.withLock { firstFailure } }

    /// The hash of everything written.
    func finish() throws(StorageError) -> String {
        lock.lock()
        defer { lock.unlock() }
        return try hasher.finish()
    }
}
