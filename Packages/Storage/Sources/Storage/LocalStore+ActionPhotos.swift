import Foundation
import Models
import SQLite

/// A photo of a person's action change, held on this device until the
/// server has it.
public struct ActionPhoto: Sendable, Hashable {
    /// The photo's id, the server's key for it.
    public var localID: UUID
    /// The id of the change (the update) it shows.
    public var requestID: UUID
    /// The action.
    public var actionID: String
    /// Its file in the photo folder.
    public var fileName: String
    public var byteSize: Int64
    /// Lower-case hex SHA-256 of the file.
    public var sha256: String

    /// A photo of a change.
    public init(localID: UUID, requestID: UUID, actionID: String, fileName: String, byteSize: Int64, sha256: String) {
        self.localID = localID
        self.requestID = requestID
        self.actionID = actionID
        self.fileName = fileName
        self.byteSize = byteSize
        self.sha256 = sha256
    }
}

/// Photos of action changes (contract 1.2): recorded with their change in
/// one transaction, sent once the server has recorded the change (an
/// update's photo names a recorded update), and their files let go of once
/// the server holds them. A photo of a change the server refused follows
/// the words kept from it, or stays refused, never lost from the queue's
/// record.
extension LocalStore {
    /// Queues a change with photos already in the photo folder, in one transaction.
    public func queueActionChange(_ change: WireActionChange, on actionID: String, at date: Date, photos: [ActionPhoto])
        throws(StorageError)
    {
        try write { db throws(StorageError) in
            _ = try db.run(
                "INSERT INTO action_outbox (request_id, action_id, kind, body, queued_at) VALUES (?, ?, 'update', ?, ?)",
                [
                    .text(change.id.uuidString.lowercased()), .text(actionID), .text(try Self.json(change)),
                    SQLValue(date),
                ])
            for photo in photos {
                _ = try db.run(
                    """
                    INSERT INTO action_photos (local_id, request_id, action_id, file_name, byte_size, sha256)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        SQLValue(photo.localID), .text(change.id.uuidString.lowercased()), .text(actionID),
                        .text(photo.fileName), .integer(photo.byteSize), .text(photo.sha256),
                    ])
            }
        }
    }

    /// The photos to send now: not yet held by the server, of changes the server recorded (no longer queued).
    public func actionPhotosToSend() throws(StorageError) -> [ActionPhoto] {
        try read { db throws(StorageError) in
            try db.rows(
                """
                SELECT local_id, request_id, action_id, file_name, byte_size, sha256 FROM action_photos p
                WHERE state = 'pending' AND NOT EXISTS (SELECT 1 FROM action_outbox o WHERE o.request_id = p.request_id)
                ORDER BY rowid
                """
            ).compactMap(Self.actionPhoto)
        }
    }

    /// The photos of a queued change, in the order they were added.
    public func actionPhotos(ofChange requestID: UUID) throws(StorageError) -> [ActionPhoto] {
        try read { db throws(StorageError) in
            try db.rows(
                """
                SELECT local_id, request_id, action_id, file_name, byte_size, sha256 FROM action_photos
                WHERE request_id = ? ORDER BY rowid
                """, [.text(requestID.uuidString.lowercased())]
            ).compactMap(Self.actionPhoto)
        }
    }

    /// How many photos wait: to be sent, and refused for good.
    public func actionPhotoCounts() throws(StorageError) -> (waiting: Int, refused: Int) {
        try read { db throws(StorageError) in
            let waiting = try db.firstRow("SELECT COUNT(*) FROM action_photos WHERE state = 'pending'")?[0].int64Value
            let refused = try db.firstRow("SELECT COUNT(*) FROM action_photos WHERE state = 'refused'")?[0].int64Value
            return (Int(waiting ?? 0), Int(refused ?? 0))
        }
    }

    /// The server holds the photo: it is marked so, and its file goes.
    public func actionPhotoSent(_ localID: UUID) throws(StorageError) {
        let name = try write { db throws(StorageError) -> String? in
            let name = try db.firstRow(
                "SELECT file_name FROM action_photos WHERE local_id = ? AND state = 'pending'", [SQLValue(localID)]
            )?[0].stringValue
            _ = try db.run("UPDATE action_photos SET state = 'uploaded' WHERE local_id = ?", [SQLValue(localID)])
            return name
        }
        if let name { try? photoFiles?.remove(name) }
    }

    /// The server refused the photo for good: it stays, with why, and is not sent again.
    public func actionPhotoRefused(_ localID: UUID, reason: String) throws(StorageError) {
        try write { db throws(StorageError) in
            _ = try db.run(
                "UPDATE action_photos SET state = 'refused', refusal = ? WHERE local_id = ?",
                [.text(reason), SQLValue(localID)])
        }
    }

    /// The photos of a refused change follow the comment kept from it (`to`),
    /// or, with none kept, are refused with the change's reason; in `db`'s transaction.
    static func movePhotos(of requestID: String, to kept: UUID?, reason: String, _ db: StoreDatabase)
        throws(StorageError)
    {
        if let kept {
            _ = try db.run(
                "UPDATE action_photos SET request_id = ? WHERE request_id = ? AND state = 'pending'",
                [.text(kept.uuidString.lowercased()), .text(requestID)])
        } else {
            _ = try db.run(
                "UPDATE action_photos SET state = 'refused', refusal = ? WHERE request_id = ? AND state = 'pending'",
                [.text(reason), .text(requestID)])
        }
    }

    private static func actionPhoto(_ row: Row) -> ActionPhoto? {
        guard let local = row[0].uuidValue, let request = row[1].uuidValue, let action = row[2].stringValue,
            let file = row[3].stringValue, let size = row[4].int64Value, let sha = row[5].stringValue
        else { return nil }
        return ActionPhoto(
            localID: local, requestID: request, actionID: action, fileName: file, byteSize: size, sha256: sha)
    }
}
