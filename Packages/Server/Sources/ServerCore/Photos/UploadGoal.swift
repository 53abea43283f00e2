import APIRoutes
import Foundation
import Models
import ServerStore

/// Where a resumable upload's photo goes: a report (contract 1.1) or a
/// corrective action or one of its updates (contract 1.2). Beginning the
/// upload and storing its photo ask the same questions of either: may this
/// caller add a photo there, is the photo held already, how many are.
enum UploadGoal: Sendable, Equatable {
    case report(serverID: String)
    case action(id: String, updateID: String?)

    /// The goal an upload was begun for.
    init(_ upload: StoredUpload) {
        switch upload.target {
        case .report: self = .report(serverID: upload.serverID)
        case .action(let update): self = .action(id: upload.serverID, updateID: update)
        }
    }

    /// The id an upload row keeps: the report's server id or the action's id.
    var serverID: String {
        switch self {
        case .report(let id), .action(let id, _): id
        }
    }

    /// What the upload row says its photo goes to.
    var target: UploadTarget {
        switch self {
        case .report: .report
        case .action(_, let update): .action(updateID: update)
        }
    }
}

/// What a goal holds for one photo, read in one transaction.
struct GoalPhotos: Sendable {
    /// The photo, when the goal holds it already, as an upload's answer names it.
    var existing: PhotoUploadResponse.UploadedPhoto?
    /// The photos the goal holds.
    var held: Int
}

extension RouteCapability {
    /// Whether `caller` may add photo `localID` to `goal`, and what the goal
    /// holds. A report or action the caller may not see is 404; an action's
    /// photo is for its creator, an update's for its author (403 otherwise);
    /// an update not recorded on the action is 404; a photo held by another
    /// goal is 400.
    func goalPhotos(_ goal: UploadGoal, localID: UUID, caller: Caller, in session: any StorageSession)
        throws(ServerError) -> GoalPhotos
    {
        switch goal {
        case .report(let serverID):
            _ = try reportVisible(serverID, to: caller, in: session)
            if let found = try session.photo(localID: localID) {
                guard found.serverID == serverID else {
                    throw ServerError.badRequest("photo \(localID) already belongs to another report")
                }
                return GoalPhotos(existing: uploaded(found), held: 0)
            }
            return GoalPhotos(existing: nil, held: try session.photoCount(serverID: serverID))
        case .action(let id, let updateID):
            let action = try actionVisible(id, to: caller, in: session)
            if let updateID {
                guard let update = try session.actionUpdate(id: updateID), update.actionID == action.id else {
                    throw ServerError.notFound("no update '\(updateID.prefix(40))' on action '\(id.prefix(40))'")
                }
                guard update.authorID == caller.user.id else {
                    throw ServerError.forbidden("only the author of an update may add photos to it")
                }
            } else if action.createdByID != caller.user.id {
                throw ServerError.forbidden("only the person who made an action may add photos to it")
            }
            if let found = try session.actionPhoto(localID: localID) {
                guard found.actionID == id, found.updateID == updateID else {
                    throw ServerError.badRequest("photo \(localID) already belongs to another action or update")
                }
                return GoalPhotos(existing: uploaded(found), held: 0)
            }
            return GoalPhotos(existing: nil, held: try session.actionPhotos(actionID: id).count)
        }
    }

    /// The action if it exists and the caller may see it: 404 otherwise (its existence is not told).
    func actionVisible(_ id: String, to caller: Caller, in session: any StorageSession) throws(ServerError)
        -> StoredAction
    {
        guard let action = try session.action(id: id) else {
            throw ServerError.notFound("no action '\(id.prefix(40))'")
        }
        // The one rule of who sees an action, a client's scope with it.
        guard try ActionRoutes(context: context).visible(action, to: caller, in: session) else {
            throw ServerError.notFound("no action '\(id.prefix(40))'")
        }
        return action
    }

    /// A stored photo of an action as an upload's answer names it.
    func uploaded(_ photo: StoredActionPhoto) -> PhotoUploadResponse.UploadedPhoto {
        PhotoUploadResponse.UploadedPhoto(
            localID: photo.localID,
            url: APIRoute.downloadActionPhoto.fullPath(photo.actionID, photo.localID.uuidString.lowercased()),
            byteSize: photo.byteSize)
    }
}
