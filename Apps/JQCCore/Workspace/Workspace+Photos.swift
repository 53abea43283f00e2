import Foundation
import Imaging
import Models
import Storage
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One photo imported by `addPhotos`, with where the report's cap stood right after it.
public struct ImportedPhoto: Sendable {
    /// The stored photo record (PENDING upload).
    public let photo: Photo
    /// The source path as the user gave it.
    public let source: String
    /// The report's stored photo bytes after this photo was added.
    public let usedBytesAfter: Int64
}

/// What `addPhotos` did: every photo imported, in order, and where the report's cap stands.
public struct PhotoImportResult: Sendable {
    /// The photos imported, in the order given.
    public let photos: [ImportedPhoto]
    /// The per-report photo cap (BR-10).
    public let capBytes: Int64
    /// The report's stored photo bytes now.
    public let usedBytes: Int64
    /// Room left under the cap.
    public var remainingBytes: Int64 { max(0, capBytes - usedBytes) }
    /// Leftover photo files of killed imports that could not be removed, one line each.
    public var notices: [String] = []
}

/// A photo that passed every check and is compressed into a temporary file in
/// the photo folder, waiting to be stored; `discard()` removes the temporary file.
struct PreparedPhoto {
    let source: String
    let temporary: URL
    let compressed: CompressedPhoto

    func discard() {
        unlink(temporary.path)
    }
}

extension Workspace {
    // MARK: Importing photos (F7, BR-09, BR-10, BR-13)

    /// Imports photo files into a report, one at a time, attached to the report,
    /// to one of its image fields (the field's answer lists the photo's id), or
    /// to one of its issues.
    ///
    /// Each file is checked before anything is written for it: the report takes
    /// photos, the source is a readable file (rechecked every time), free space
    /// is above the floor, it is a JPEG or PNG, and its compressed size fits under
    /// the per-report cap. The first refusal stops the import; photos imported
    /// before it stay, and the error says so. The source is only ever read.
    public func addPhotos(to report: Report, fieldID: String?, issueLocalID: UUID?, files: [String]) throws(AppError)
        -> PhotoImportResult
    {
        guard !files.isEmpty else { throw AppError.usage("Give at least one photo FILE to add.") }
        if fieldID != nil && issueLocalID != nil {
            throw AppError.usage("Give either --field or --issue, not both; a photo belongs to one place.")
        }
        let field = try fieldID.map { (id: String) throws(AppError) -> FieldID in try imageField(id, of: report) }
        // What imports killed halfway left behind (files no record names), then this import's hold on the
        // photo folder, kept until its last photo is recorded, so no sweep meanwhile takes what it writes.
        let notices = sweepPhotoLeftovers()
        let hold = try storage { () throws(StorageError) in try store.photoFiles?.holdForImport() }
        defer { hold?.release() }
        var imported: [ImportedPhoto] = []
        for (index, file) in files.enumerated() {
            do {
                let current = try refreshed(report)
                if let issueLocalID { try requireIssue(issueLocalID, of: current) }
                let prepared = try preparePhoto(file, for: current)
                let (photo, used) = try storePrepared(prepared, in: current, fieldID: field, issueLocalID: issueLocalID)
                imported.append(ImportedPhoto(photo: photo, source: file, usedBytesAfter: used))
            } catch {
                throw imported.isEmpty ? error : partial(error, refused: index + 1, of: files.count, imported: imported)
            }
        }
        let used = try storage { () throws(StorageError) in try store.photoBytes(ofReport: report.localID) }
        return PhotoImportResult(
            photos: imported, capBytes: settings.photoCapBytes, usedBytes: used, notices: notices)
    }

    /// Removes the photo files no record names that killed imports left (see
    /// `LocalStore.removePhotoLeftovers`); returns a line for each file that
    /// could not be removed. Never fails: a sweep that cannot run waits for the next.
    public func sweepPhotoLeftovers() -> [String] {
        guard let sweep = try? store.removePhotoLeftovers(olderThan: PhotoFileStore.leftoverAgeWhileImporting)
        else { return [] }
        return sweep.unremovable.map { "A photo file left by an interrupted import stays: \($0.message)" }
    }

    /// The report as stored now, refused unless it still takes photos.
    public func refreshed(_ report: Report) throws(AppError) -> Report {
        guard let current = try storage({ () throws(StorageError) in try store.report(report.localID) }) else {
            throw AppError.notFound("Report \(short(report)) is no longer on this device. See 'jqc list'.")
        }
        try requireAcceptsPhotos(current)
        return current
    }

    /// Refuses a report that cannot take photos (only DRAFT and REJECTED can).
    func requireAcceptsPhotos(_ report: Report) throws(AppError) {
        guard report.lifecycle.isEditable else {
            throw AppError.blocked(.stateNotAllowed, report.lifecycle.refusal(for: .autosave))
        }
    }

    /// The id of an image field of the report's template; any other field is refused.
    private func imageField(_ id: String, of report: Report) throws(AppError) -> FieldID {
        let template = try template(for: report)
        let field = try field(id, of: template)
        guard registry.resolve(field).takesPhotos else {
            let images = template.schema.fields.filter { registry.resolve($0).takesPhotos }.map(\.id.rawValue)
            let hint =
                images.isEmpty
                ? "This template has no image field; attach photos to the report or an issue instead."
                : "Photo fields here: \(images.joined(separator: ", "))."
            throw AppError.validation(
                "Field '\(field.id)' (\(field.displayName)) is a \(field.type) field, not an image field. \(hint)",
                code: .fieldNotImage)
        }
        return field.id
    }

    /// Refuses an issue that is not one of the report's.
    private func requireIssue(_ issueID: UUID, of report: Report) throws(AppError) {
        let issues = try storage { () throws(StorageError) in try store.issues(ofReport: report.localID) }
        guard issues.contains(where: { $0.localID == issueID }) else {
            throw AppError.notFound(
                "Report \(short(report)) has no issue '\(issueID.uuidString.lowercased())'; 'jqc show \(short(report))' lists its issues."
            )
        }
    }

    /// Runs every check on one source file and compresses it into a temporary
    /// file in the photo folder; nothing is recorded yet.
    func preparePhoto(_ file: String, for report: Report) throws(AppError) -> PreparedPhoto {
        let prepared = try compressPhoto(file)
        let used: Int64
        do {
            used = try storage { () throws(StorageError) in try store.photoBytes(ofReport: report.localID) }
        } catch {
            prepared.discard()
            throw error
        }
        if used + prepared.compressed.storedBytes > settings.photoCapBytes {
            prepared.discard()
            throw capExceeded(used: used, file: file, needs: prepared.compressed.storedBytes)
        }
        return prepared
    }

    /// Checks one source file (readable, room left) and compresses it into a
    /// temporary file in the photo folder, as every photo this device keeps.
    func compressPhoto(_ file: String) throws(AppError) -> PreparedPhoto {
        let source = URL(fileURLWithPath: file)
        try requireReadable(file)
        let photoFiles = try self.photoFiles()
        let free = try storage { () throws(StorageError) in try photoFiles.freeBytes() }
        if free < settings.storageFloorBytes {
            throw AppError.blocked(
                .storageLow,
                "Not enough space for photos (\(Self.megabytes(free)) free, \(Self.megabytes(settings.storageFloorBytes)) kept free). Free space or sync pending reports."
            )
        }
        let compressor: PhotoCompressor
        do {
            compressor = PhotoCompressor(
                settings: try CompressionSettings(quality: settings.photoQuality, maxLongEdge: settings.photoMaxEdge))
        } catch {
            throw AppError.failure(.settingsInvalid, "\(error.message) Change them with 'jqc settings'.")
        }
        let temporary = photoFiles.directory.appendingPathComponent(".import-\(UUID().uuidString).tmp")
        let compressed: CompressedPhoto
        do {
            compressed = try compressor.compress(source: source, to: temporary)
        } catch {
            unlink(temporary.path)
            throw Self.importError(error, file: file)
        }
        return PreparedPhoto(source: file, temporary: temporary, compressed: compressed)
    }

    private func capExceeded(used: Int64, file: String, needs: Int64) -> AppError {
        let cap = settings.photoCapBytes
        return AppError.blocked(
            .photoCapExceeded,
            "Photo cap reached for this report: \(Self.megabytes(used)) of \(Self.megabytes(cap)) used, \(Self.megabytes(max(0, cap - used))) left; '\(URL(fileURLWithPath: file).lastPathComponent)' needs \(Self.megabytes(needs)). Nothing was added; raise the cap with 'jqc settings photo-cap-mb N' or attach fewer photos."
        )
    }

    /// Moves a prepared photo into the photo store, records it (PENDING upload)
    /// and, for an image field, lists its id in the field's answer. Returns the
    /// photo and the report's stored photo bytes after it.
    func storePrepared(_ prepared: PreparedPhoto, in report: Report, fieldID: FieldID?, issueLocalID: UUID?)
        throws(AppError) -> (Photo, Int64)
    {
        defer { prepared.discard() }
        // The field's type decides how the photo joins its answer (an image field lists it).
        var placement: ((JSONValue?, String) -> JSONValue)?
        if let fieldID {
            let field = try self.field(fieldID.rawValue, of: try template(for: report))
            let type = registry.resolve(field)
            placement = { existing, id in type.attachingPhoto(id, to: existing, for: field) }
        }
        let photoFiles = try self.photoFiles()
        let photoID = UUID()
        let stored = try storage { () throws(StorageError) in
            try photoFiles.store(contentsOf: prepared.temporary, as: photoID)
        }
        let photo = Photo(
            localID: photoID, reportLocalID: report.localID, fieldID: fieldID, issueLocalID: issueLocalID,
            fileName: stored.fileName, uploadState: .pending, originalByteSize: prepared.compressed.sourceBytes,
            byteSize: stored.byteSize, sha256: stored.sha256)
        do {
            // The cap again, in the insert's transaction: another import may have added photos since the check above.
            _ = try store.addPhoto(photo, capBytes: settings.photoCapBytes, placeInAnswer: placement)
        } catch {
            try? photoFiles.remove(stored.fileName)
            if error.code == .photoCapExceeded {
                let used = try storage { () throws(StorageError) in try store.photoBytes(ofReport: report.localID) }
                throw capExceeded(used: used, file: prepared.source, needs: stored.byteSize)
            }
            throw AppError(storage: error)
        }
        let used = try storage { () throws(StorageError) in try store.photoBytes(ofReport: report.localID) }
        return (photo, used)
    }

    /// The profile's photo folder.
    func photoFiles() throws(AppError) -> PhotoFileStore {
        guard let files = store.photoFiles else {
            throw AppError.failure(
                .photoFolderMissing, "This store was opened without a photo folder, so photos cannot be added.")
        }
        return files
    }

    /// BR-09: the source must be a regular file this user can read, checked at every import.
    private func requireReadable(_ file: String) throws(AppError) {
        var info = stat()
        let reason: String?
        if stat(file, &info) != 0 {
            if errno == ENOENT {
                throw AppError.validation(
                    "The photo file '\(file)' does not exist; check the path. You can still complete this report.",
                    code: .permissionPhotoDenied)
            }
            reason = Self.describe(errno: errno)
        } else if (info.st_mode & S_IFMT) == S_IFDIR {
            reason = "it is a folder, not a photo file"
        } else if (info.st_mode & S_IFMT) != S_IFREG {
            reason = "it is not a regular file"
        } else {
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            if fd < 0 { reason = Self.describe(errno: errno) } else { close(fd); reason = nil }
        }
        if let reason { throw Self.photoDenied(file, reason: reason) }
    }

    private static func photoDenied(_ file: String, reason: String) -> AppError {
        AppError.validation(
            "The photo file '\(file)' cannot be read: \(reason). You can still complete this report.",
            code: .permissionPhotoDenied)
    }

    /// The app's reading of an Imaging failure.
    private static func importError(_ error: ImagingError, file: String) -> AppError {
        switch error.code {
        case .unreadable:
            return photoDenied(file, reason: "it cannot be read")
        case .notAnImage, .damaged, .tooLarge:
            return AppError.validation(error.message, code: .photoInvalid)
        case .writeFailed:
            return AppError.failure(.photoWriteFailed, error.message)
        case .diskFull:
            return AppError.failure(
                .diskFull,
                "The disk is full: '\(URL(fileURLWithPath: file).lastPathComponent)' was not added, and nothing already saved was lost. Free some space, then add the photo again."
            )
        case .invalidSettings:
            return AppError.failure(.settingsInvalid, "\(error.message) Change them with 'jqc settings'.")
        default:
            return AppError.failure(AppError.Code(carrying: error.code.rawValue), error.message)
        }
    }

    /// A refusal after some photos were imported: the same code and exit, saying what stayed.
    private func partial(_ error: AppError, refused position: Int, of total: Int, imported: [ImportedPhoto]) -> AppError
    {
        let count = imported.count
        let used = imported.last?.usedBytesAfter ?? 0
        let kept =
            "\(count == 1 ? "The photo" : "The \(count) photos") before it \(count == 1 ? "was" : "were") added and stay\(count == 1 ? "s" : "") attached (\(Self.capText(used: used, cap: settings.photoCapBytes)))."
        return AppError(
            code: error.code, "Photo \(position) of \(total) refused: \(error.message) \(kept)",
            exitCode: error.exitCode, problems: error.problems)
    }

    /// "1.8 MB of 25.0 MB used, 23.2 MB left".
    public static func capText(used: Int64, cap: Int64) -> String {
        "\(megabytes(used)) of \(megabytes(cap)) used, \(megabytes(max(0, cap - used))) left"
    }

    /// Bytes as megabytes with one decimal ("24.1 MB").
    public static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / (1024 * 1024))
    }

    private static func describe(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}
