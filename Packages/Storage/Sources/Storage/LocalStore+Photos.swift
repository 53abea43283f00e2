import Foundation
import SQLite
import Models

/// Photo records: which photos a report owns and where each one's upload stands.
/// The files themselves are in `PhotoFileStore`.
extension LocalStore {
    /// Records a photo already written to the photo store; refused when its
    /// report cannot be edited, its name is not `<UUID>.jpg`, its issue is not
    /// one of the report's, or (with `capBytes`) the report's photos would then
    /// be over the cap. The cap is checked in the same transaction as the
    /// insert, so two imports into one report at once cannot pass it together.
    /// With `placeInAnswer`, the answer of the photo's field becomes what it
    /// makes of the answer read in that transaction and the photo's id (its
    /// field type decides: an image field lists the id), saved as an autosave
    /// revision in the same transaction, so a crash never leaves a recorded
    /// photo missing from its field or a field naming a photo that was never
    /// recorded.
    @discardableResult
    public func addPhoto(
        _ photo: Photo, capBytes: Int64? = nil,
        placeInAnswer: ((JSONValue?, String) -> JSONValue)? = nil
    ) throws(StorageError) -> Photo {
        guard PhotoFileStore.isValidName(photo.fileName) else {
            throw StorageError(
                .permission,
                "The photo name '\(photo.fileName)' is not one jqc makes (<UUID>.jpg); photos stay inside the profile's photo folder.",
                context: "addPhoto")
        }
        return try write { db throws(StorageError) -> Photo in
            try Self.requireEditable(photo.reportLocalID, db)
            if let issue = photo.issueLocalID {
                let owner = try db.scalar("SELECT report_local_id FROM issues WHERE local_id = ?", [SQLValue(issue)])
                    .stringValue
                guard owner == photo.reportLocalID.uuidString else {
                    throw StorageError(
                        .notFound, "No issue '\(issue.uuidString)' on this report; 'jqc show' lists its issues.",
                        context: "addPhoto")
                }
            }
            if let capBytes {
                let used =
                    try db.scalar(
                        "SELECT coalesce(sum(byte_size), 0) FROM photos WHERE report_local_id = ?",
                        [SQLValue(photo.reportLocalID)]
                    ).int64Value ?? 0
                guard used + photo.byteSize <= capBytes else {
                    throw StorageError(
                        .photoCapExceeded,
                        "The report's photos would be over their cap (\(used) of \(capBytes) bytes used, \(photo.byteSize) more).",
                        context: photo.reportLocalID.uuidString)
                }
            }
            let sequence = try Self.nextSequence("photo", db)
            try db.run(
                """
                INSERT INTO photos (local_id, report_local_id, field_id, issue_local_id, file_name, upload_state,
                    original_bytes, byte_size, sha256, creation_seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    SQLValue(photo.localID), SQLValue(photo.reportLocalID), SQLValue(photo.fieldID?.rawValue),
                    SQLValue(photo.issueLocalID), .text(photo.fileName), .text(photo.uploadState.rawValue),
                    .integer(photo.originalByteSize), .integer(photo.byteSize), .text(photo.sha256), .integer(sequence),
                ])
            if let placeInAnswer, let field = photo.fieldID {
                _ = try Self.perform(
                    .autosave, on: photo.reportLocalID,
                    LifecycleChange(edit: { report in
                        report.answers[field] = placeInAnswer(
                            report.answers[field], photo.localID.uuidString.lowercased())
                    }), reload: false, db)
            }
            return photo
        }
    }

    /// Deletes the photo files and temporary files no photo record names: what
    /// an import killed between writing its file and recording it leaves
    /// behind. Every such file goes while no import holds the photo folder;
    /// while one does (another `jqc` importing now), only files older than
    /// `age` seconds (see `PhotoFileStore.removeLeftovers`). The names recorded
    /// are read under the sweep's lock. A file that cannot be removed is in
    /// the result, never thrown.
    @discardableResult
    public func removePhotoLeftovers(olderThan age: TimeInterval) throws(StorageError) -> PhotoLeftoverSweep {
        guard let photoFiles else { return PhotoLeftoverSweep() }
        return try photoFiles.removeLeftovers(olderThan: age) { () throws(StorageError) -> Set<String> in
            try read { db throws(StorageError) -> Set<String> in
                Set(
                    try db.rows(
                        "SELECT file_name FROM photos UNION ALL SELECT file_name FROM action_photos WHERE state != 'uploaded'"
                    ).compactMap { $0[0].stringValue })
            }
        }
    }

    /// The photos of a report, in the order they were added.
    public func photos(ofReport localID: UUID) throws(StorageError) -> [Photo] {
        try read { db throws(StorageError) -> [Photo] in
            try db.rows(
                "SELECT \(Self.photoColumns) FROM photos WHERE report_local_id = ? ORDER BY creation_seq",
                [SQLValue(localID)]
            )
            .map { (row: Row) throws(StorageError) -> Photo in try Self.photo(from: row) }
        }
    }

    /// Every photo in an upload state, in the order added (the upload queue).
    public func photos(uploadState: PhotoUploadState) throws(StorageError) -> [Photo] {
        try read { db throws(StorageError) -> [Photo] in
            try db.rows(
                "SELECT \(Self.photoColumns) FROM photos WHERE upload_state = ? ORDER BY creation_seq",
                [.text(uploadState.rawValue)]
            )
            .map { (row: Row) throws(StorageError) -> Photo in try Self.photo(from: row) }
        }
    }

    /// How many photos are in an upload state, counted without loading them.
    public func photoCount(uploadState: PhotoUploadState) throws(StorageError) -> Int {
        try read { db throws(StorageError) -> Int in
            Int(
                try db.scalar("SELECT count(*) FROM photos WHERE upload_state = ?", [.text(uploadState.rawValue)])
                    .int64Value ?? 0)
        }
    }

    /// Records a photo's upload state, with the error of a failed attempt.
    public func setUploadState(_ state: PhotoUploadState, photo localID: UUID, error: String? = nil)
        throws(StorageError)
    {
        try write { db throws(StorageError) in
            let changed = try db.run(
                "UPDATE photos SET upload_state = ?, last_error = ? WHERE local_id = ?",
                [.text(state.rawValue), SQLValue(error), SQLValue(localID)])
            guard changed == 1 else {
                throw StorageError(
                    .notFound, "No photo with local id '\(localID.uuidString)' on this device.",
                    context: "setUploadState")
            }
        }
    }

    /// Records the outcome of many uploads in one transaction: `uploaded`
    /// become UPLOADED, `failed` FAILED with their error. Photos no longer on
    /// this device (a draft deleted meanwhile) are skipped.
    public func setUploadStates(uploaded: [UUID], failed: [UUID: String]) throws(StorageError) {
        guard !uploaded.isEmpty || !failed.isEmpty else { return }
        try write { db throws(StorageError) in
            let statement = try db.prepare("UPDATE photos SET upload_state = ?, last_error = ? WHERE local_id = ?")
            for id in uploaded {
                try statement.run([.text(PhotoUploadState.uploaded.rawValue), .null, SQLValue(id)])
            }
            for (id, message) in failed {
                try statement.run([.text(PhotoUploadState.failed.rawValue), .text(message), SQLValue(id)])
            }
        }
    }

    /// The error of a photo's last failed upload, if any.
    public func uploadError(photo localID: UUID) throws(StorageError) -> String? {
        try read { db throws(StorageError) in
            try db.scalar("SELECT last_error FROM photos WHERE local_id = ?", [SQLValue(localID)]).stringValue
        }
    }

    /// The stored bytes of a report's photos, for the per-report photo cap.
    public func photoBytes(ofReport localID: UUID) throws(StorageError) -> Int64 {
        try read { db throws(StorageError) in
            try db.scalar(
                "SELECT coalesce(sum(byte_size), 0) FROM photos WHERE report_local_id = ?", [SQLValue(localID)]
            ).int64Value ?? 0
        }
    }

    /// How many of a report's photos are not UPLOADED yet (what `accepted` needs to know).
    public func outstandingPhotoCount(ofReport localID: UUID) throws(StorageError) -> Int {
        try read { db throws(StorageError) in try Self.outstandingPhotoCount(localID, db) }
    }

    static func outstandingPhotoCount(_ localID: UUID, _ db: StoreDatabase) throws(StorageError) -> Int {
        Int(
            try db.scalar(
                "SELECT count(*) FROM photos WHERE report_local_id = ? AND upload_state <> ?",
                [SQLValue(localID), .text(PhotoUploadState.uploaded.rawValue)]
            ).int64Value ?? 0)
    }

    /// Refuses a change to a report that does not exist or cannot be edited.
    static func requireEditable(_ localID: UUID, _ db: StoreDatabase) throws(StorageError) {
        let report = try requireReport(localID, db)
        guard report.lifecycle.isEditable else {
            throw StorageError(.notAllowed, report.lifecycle.refusal(for: .autosave), context: localID.uuidString)
        }
    }

    private static let photoColumns = """
        local_id, report_local_id, field_id, issue_local_id, file_name, upload_state, original_bytes, byte_size, sha256
        """

    private static func photo(from row: Row) throws(StorageError) -> Photo {
        guard let localID = row["local_id"].uuidValue,
            let report = row["report_local_id"].uuidValue,
            let fileName = row["file_name"].stringValue,
            let state = PhotoUploadState(rawValue: row["upload_state"].stringValue ?? "")
        else {
            throw StorageError(.corruptStore, "A photo record cannot be read; the store is damaged.", context: "photos")
        }
        return Photo(
            localID: localID, reportLocalID: report, fieldID: row["field_id"].stringValue.map { FieldID($0) },
            issueLocalID: row["issue_local_id"].uuidValue,
            fileName: fileName, uploadState: state, originalByteSize: row["original_bytes"].int64Value ?? 0,
            byteSize: row["byte_size"].int64Value ?? 0, sha256: row["sha256"].stringValue ?? "")
    }
}
