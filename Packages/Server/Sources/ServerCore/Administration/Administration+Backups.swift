import Foundation
import Models
import ServerStore

/// Backups and restores: a copy of the records and photos, and the new
/// generation a restored database is given so that devices notice it went
/// back in time and send again what it lost.
extension Administration {
    /// What `admin backup` made.
    struct Backup: Sendable {
        /// The database copy.
        var file: String
        /// The photo folder copy, when the store keeps photos beside its file.
        var photoFolder: String?
        /// Photos copied (or linked).
        var photos: Int
    }

    /// Copies the records into the new file `path` (one snapshot while
    /// servers go on writing), then the photo folder beside `database`, if
    /// any, into `path.photos`: photos are immutable, so those taken after
    /// the snapshot are a superset of the ones it names.
    func backup(database: String, to path: String, by actor: AdminActor) throws(ServerError) -> Backup {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw ServerError.conflict("'\(path)' already exists; give the backup a new file")
        }
        let photoTarget = PhotoVault.directory(besideDatabase: path)
        guard !FileManager.default.fileExists(atPath: photoTarget) else {
            throw ServerError.conflict("'\(photoTarget)' already exists; give the backup a new file")
        }
        try store.backup(to: path)
        var photos = 0
        var photoFolder: String?
        if !DatabaseLocation.isPostgres(database) {
            photos = try PhotoFolderCopy.copy(from: PhotoVault.directory(besideDatabase: database), to: photoTarget)
            photoFolder = photoTarget
        }
        _ = try change(by: actor) { _, events in
            try events.record("server.backup", path, ["photos": .integer(Int64(photos))])
            return true
        }
        return Backup(file: path, photoFolder: photoFolder, photos: photos)
    }

    /// Gives the data a new `server_generation`: every sync answer carries
    /// it, and a device that sees another one than it stored checks what it
    /// holds as synced and sends again what this server lacks. Returns the
    /// previous generation and the new one.
    func newGeneration(by actor: AdminActor) throws(ServerError) -> (previous: String?, current: String) {
        let fresh = Hex.encode(PasswordHasher.randomBytes(6))
        return try change(by: actor) { session, events -> (previous: String?, current: String) in
            let previous = try session.setting(ReviewCursor.generationKey)
            try session.setSetting(ReviewCursor.generationKey, fresh)
            try events.record("server.new-generation", fresh, ["previous": previous.map { .string($0) } ?? .null])
            return (previous, fresh)
        }
    }
}
