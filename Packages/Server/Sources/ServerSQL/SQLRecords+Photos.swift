import Foundation
import ServerStore

/// Photo records and resumable uploads as rows hold them.
extension SQLRecords {
    /// The columns a photo record is read from.
    public static let photoColumns = "local_id, server_id, field_id, issue_local_id, sha256, byte_size"

    /// The photo record in `row`.
    public static func photo(_ row: some SQLRow) -> StoredPhoto? {
        guard let local = row.uuid("local_id"), let serverID = row.text("server_id"), let sha = row.text("sha256")
        else { return nil }
        return StoredPhoto(
            localID: local, serverID: serverID, fieldID: row.text("field_id"),
            issueLocalID: row.uuid("issue_local_id"), sha256: sha, byteSize: row.integer("byte_size") ?? 0)
    }

    /// The columns a resumable upload is read from.
    public static let uploadColumns = """
        id, user_id, server_id, local_id, field_id, issue_local_id, sha256, byte_size, byte_offset, expires_at,
        finished_at, target, update_id
        """

    /// The resumable upload in `row`.
    public static func upload(_ row: some SQLRow) -> StoredUpload? {
        guard let id = row.text("id"), let user = row.text("user_id"), let serverID = row.text("server_id"),
            let local = row.uuid("local_id"), let sha = row.text("sha256"), let size = row.integer("byte_size"),
            let offset = row.integer("byte_offset"), let expires = row.integer("expires_at")
        else { return nil }
        return StoredUpload(
            id: id, userID: user, serverID: serverID, localID: local, fieldID: row.text("field_id"),
            issueLocalID: row.uuid("issue_local_id"), sha256: sha, byteSize: size, offset: offset,
            expiresAt: Date(timeIntervalSince1970: TimeInterval(expires)), finished: row.text("finished_at") != nil,
            target: row.text("target") == "action" ? .action(updateID: row.text("update_id")) : .report)
    }

    /// The columns of an upload's target, in the order `targetValues` gives them.
    public static let uploadTargetColumns = "target, update_id"

    /// The values of `uploadTargetColumns` for `upload`.
    public static func targetValues(_ upload: StoredUpload) -> [SQLParameter] {
        switch upload.target {
        case .report: [.text("report"), .optional(String?.none)]
        case .action(let update): [.text("action"), .optional(update)]
        }
    }

    /// The columns an action's photo is read from.
    public static let actionPhotoColumns = "local_id, action_id, update_id, sha256, byte_size"

    /// The action's photo in `row`.
    public static func actionPhoto(_ row: some SQLRow) -> StoredActionPhoto? {
        guard let local = row.uuid("local_id"), let action = row.text("action_id"), let sha = row.text("sha256")
        else { return nil }
        return StoredActionPhoto(
            localID: local, actionID: action, updateID: row.text("update_id"), sha256: sha,
            byteSize: row.integer("byte_size") ?? 0)
    }
}
