import Foundation
@testable import ServerCore
@testable import ServerStore
import Testing

/// What a stored photo costs the server's machine after it is stored: its
/// bytes are on disk under their hash, and not kept in memory besides, so a
/// stream of uploads does not push out of the page cache what the database
/// reads.
@Suite("The photo folder")
struct PhotoVaultTests {
    @Test(
        "a stored photo is on disk under its hash with its bytes, and none of its pages stay in the page cache"
    )
    func storedPhotoLeavesTheCache() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vault-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let vault = try PhotoVault(directory: root)
        let bytes = (0..<(512 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let hash = String(repeating: "ab", count: 32)
        try Self.keep(Data(bytes), as: hash, in: vault, name: "one") { () throws in
            #expect(
                try Self.residentPages(vault.uploadDirectory + "/one") > 0, "a file just written is in the page cache")
        }

        let stored = root + "/ab/" + hash
        #expect(try Self.residentPages(stored) == 0)
        #expect(FileManager.default.contents(atPath: stored) == Data(bytes))
    }

    @Test(
        "the photos of a new hash folder and of one already there are each stored whole, in folders only the server reads"
    )
    func foldersMadeOnDemand() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vault-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let vault = try PhotoVault(directory: root)
        for (index, hash) in [String(repeating: "c1", count: 32), "c1" + String(repeating: "d2", count: 31)]
            .enumerated()
        {
            let bytes = Data("photo \(index)".utf8)
            try Self.keep(bytes, as: hash, in: vault, name: "photo-\(index)")
            #expect(FileManager.default.contents(atPath: root + "/c1/" + hash) == bytes)
        }
        let mode = try FileManager.default.attributesOfItem(atPath: root + "/c1")[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("a photo is stored whole even when the photo folder was removed while it arrived")
    func folderRemovedMeanwhile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vault-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let vault = try PhotoVault(directory: root)
        let hash = String(repeating: "e3", count: 32)
        let bytes = Data("a photo whose folder went away".utf8)
        try Self.keep(bytes, as: hash, in: vault, name: "gone") {
            try FileManager.default.removeItem(atPath: root)
        }
        #expect(FileManager.default.contents(atPath: root + "/e3/" + hash) == bytes)
    }

    @Test(
        "a resumable upload's file stored as a photo keeps one name and its own bytes: written to again, the photo is unchanged"
    )
    func uploadFileCopied() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vault-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let vault = try PhotoVault(directory: root)
        let hash = String(repeating: "f4", count: 32)
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let path = vault.uploadDirectory + "/partial-U-0123"
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        try vault.keep(copying: descriptor, sha256: hash, byteSize: Int64(bytes.count))

        // One name: the server opens an upload's file only when no other name shares it.
        var status = stat()
        #expect(fstat(descriptor, &status) == 0 && status.st_nlink == 1)
        // The upload written to again (its storing failed afterwards, and the last bytes come again).
        #expect(ftruncate(descriptor, 1_000) == 0)
        #expect(pwrite(descriptor, "other bytes", 11, 1_000) == 11)
        #expect(FileManager.default.contents(atPath: root + "/f4/" + hash) == bytes)
    }

    /// Writes `bytes` as an upload named `name`, runs `meanwhile`, then keeps it under `hash`.
    static func keep(
        _ bytes: Data, as hash: String, in vault: PhotoVault, name: String, meanwhile: () throws -> Void = {}
    ) throws {
        let descriptor = open(vault.uploadDirectory + "/" + name, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
        try meanwhile()
        try vault.keep(descriptor: descriptor, sha256: hash, byteSize: Int64(bytes.count))
    }

    /// How many of the file's pages the page cache holds, by mapping it and
    /// asking the kernel (`mincore`), which reads none of them.
    static func residentPages(_ path: String) throws -> Int {
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var status = stat()
        try #require(fstat(descriptor, &status) == 0)
        let size = Int(status.st_size)
        let map = try #require(mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0))
        try #require(map != MAP_FAILED)
        defer { munmap(map, size) }
        let page = sysconf(Int32(_SC_PAGESIZE))
        var vector = [UInt8](repeating: 0, count: (size + page - 1) / page)
        try #require(mincore(map, size, &vector) == 0)
        return vector.filter { $0 & 1 == 1 }.count
    }
}
