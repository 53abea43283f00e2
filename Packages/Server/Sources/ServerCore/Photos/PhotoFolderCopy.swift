import Foundation
import ServerStore

/// Copies a photo folder (`<two hex digits>/<sha256>`) for a backup or a
/// restore: each photo hard-linked when both folders are on one file
/// system (photos are never changed in place), copied otherwise; uploads in
/// flight (`incoming`) stay behind.
enum PhotoFolderCopy {
    /// Copies every photo of `source` into `target` (made, mode 0700) and returns how many.
    static func copy(from source: String, to target: String) throws(ServerError) -> Int {
        let files = FileManager.default
        do {
            try files.createDirectory(
                atPath: target, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ServerError.internal("cannot create the photo folder '\(target)'")
        }
        guard files.fileExists(atPath: source) else { return 0 }
        var count = 0
        let shards = ((try? files.contentsOfDirectory(atPath: source)) ?? []).filter {
            $0.count == 2 && Hex.isSHA256(String(repeating: $0, count: 32))
        }.sorted()
        for shard in shards {
            let names = ((try? files.contentsOfDirectory(atPath: source + "/" + shard)) ?? []).filter {
                Hex.isSHA256($0)
            }
            guard !names.isEmpty else { continue }
            let folder = target + "/" + shard
            do {
                try files.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ServerError.internal("cannot create the photo folder '\(folder)'")
            }
            for name in names {
                let from = source + "/" + shard + "/" + name
                let to = folder + "/" + name
                if files.fileExists(atPath: to) { count += 1; continue }
                if link(from, to) != 0 {
                    do {
                        try files.copyItem(atPath: from, toPath: to)
                    } catch {
                        throw ServerError.internal(
                            "cannot copy the photo '\(from)' to '\(to)': \(error.localizedDescription)")
                    }
                }
                count += 1
            }
        }
        return count
    }
}
