import ArgumentParsing
import Foundation
import Models
import ServerStore

/// `jqc-server admin backup`, `restore` and `new-generation`: copies of the
/// data, and what an operator runs on a restored database before serving it.
extension AdminCommands {
    /// `backup -o FILE`: the new backup file.
    static let backupOutput = Option(
        "output", short: "o", "FILE", help: "the new backup file (required); photos go to FILE.photos")
    /// `restore FILE`: the backup to restore from.
    static let backupFile = Argument(
        "FILE", help: "the backup ('admin backup -o FILE'); its photos are read from FILE.photos")

    static let backups: [AdminCommand] = [
        AdminCommand(
            "backup", summary: "copy a SQLite database and its photos while servers run (PostgreSQL: pg_dump)",
            options: [backupOutput.spec],
            discussion:
                "The copy is one consistent moment of the database, taken through SQLite's online backup API while servers go on writing, and checked; the photos beside it are linked or copied after it. An existing FILE is refused. To restore: 'admin restore FILE --db NEW', or copy FILE and FILE.photos into place and run 'admin new-generation'."
        ) { parsed, admin throws(ServerError) in
            guard let output = try parsed[backupOutput] else {
                throw ServerError.badRequest("'admin backup' needs -o FILE, the new backup file")
            }
            let backup = try admin.backup(database: try parsed[db] ?? "", to: output, by: actor)
            return AdminOutput(
                lines: [
                    "backed up to \(show(backup.file))"
                        + (backup.photoFolder.map {
                            " and \(backup.photos) photo\(backup.photos == 1 ? "" : "s") to \(show($0))"
                        } ?? "")
                ],
                json: [
                    "backup": [
                        "file": .string(backup.file), "photo_folder": backup.photoFolder.map { .string($0) } ?? .null,
                        "photos": .integer(Int64(backup.photos)),
                    ]
                ])
        },
        AdminCommand(
            "restore", summary: "make a new SQLite database from a backup, with a new generation",
            positionals: [backupFile.spec],
            discussion:
                "--db names the new database, which must not exist yet. The copy is given a new server generation: devices that synced after the backup was taken send again what it lacks."
        ) { _, admin throws(ServerError) in
            let generation = try admin.newGeneration(by: actor)
            return AdminOutput(
                lines: ["restored; the server generation is now \(generation.current); start the server on it"],
                json: ["server_generation": .string(generation.current)])
        },
        AdminCommand(
            "new-generation", summary: "give restored data a new server generation, so devices resend what it lacks",
            discussion:
                "Run it on a restored database (after copying a SQLite backup into place, or after pg_restore) before a server starts on it. Devices that see the new generation check every report they hold as synced and send again what the server no longer has."
        ) { _, admin throws(ServerError) in
            let generation = try admin.newGeneration(by: actor)
            return AdminOutput(
                lines: ["the server generation is now \(generation.current) (was \(generation.previous ?? "none"))"],
                json: [
                    "server_generation": .string(generation.current),
                    "previous": generation.previous.map { .string($0) } ?? .null,
                ])
        },
    ]

    /// Before `admin restore` opens `database`: copies the backup file and its photos there.
    static func placeBackup(_ file: String, at database: String) throws(ServerError) {
        let files = FileManager.default
        guard !file.isEmpty, files.fileExists(atPath: file) else {
            throw ServerError.notFound("no backup file '\(file)'")
        }
        guard !DatabaseLocation.isPostgres(database) else {
            throw ServerError.badRequest(
                "'admin restore' makes a SQLite database; restore PostgreSQL with 'pg_restore', then run 'admin new-generation'"
            )
        }
        for path in [database, PhotoVault.directory(besideDatabase: database)] where files.fileExists(atPath: path) {
            throw ServerError.conflict("'\(path)' already exists; restore into a new path")
        }
        do {
            try files.copyItem(atPath: file, toPath: database)
        } catch {
            throw ServerError.internal("cannot copy '\(file)' to '\(database)': \(error.localizedDescription)")
        }
        _ = try PhotoFolderCopy.copy(
            from: PhotoVault.directory(besideDatabase: file), to: PhotoVault.directory(besideDatabase: database))
    }
}
