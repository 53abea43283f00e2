import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Models
import Testing
@testable import Storage
import TestSupport

/// The app-private photo folder and the SHA-256 of what it holds.
@Suite("Photo file store")
struct PhotoFileStoreTests {
    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test("the folder is 0700, files are 0600 and named <UUID>.jpg")
    func modes() throws {
        let dir = TemporaryDirectory()
        let store = try PhotoFileStore(directory: dir.url.appendingPathComponent("photos"))
        #expect(try mode(store.directory.path) == 0o700)
        let id = UUID()
        let stored = try store.store(Data("not really a jpeg".utf8), as: id)
        #expect(stored.fileName == "\(id.uuidString).jpg")
        #expect(stored.byteSize == 17)
        #expect(try mode(store.url(for: stored.fileName).path) == 0o600)
        // Only the finished file is left: no temporary files behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path) == [stored.fileName])
    }

    @Test("an existing folder with loose permissions is tightened to 0700")
    func tightensFolder() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("photos")
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755])
        _ = try PhotoFileStore(directory: URL(fileURLWithPath: path))
        #expect(try mode(path) == 0o700)
    }

    @Test(
        "names that could leave the folder are refused",
        arguments: [
            "../x", "../../etc/passwd", "/etc/passwd", "..", "", "x.jpg", "photo.png",
            "\(UUID().uuidString).jpg/../../x", "\(UUID().uuidString).JPG", ".\(UUID().uuidString).tmp",
        ])
    func traversalRefused(name: String) throws {
        let dir = TemporaryDirectory()
        let store = try PhotoFileStore(directory: dir.url.appendingPathComponent("photos"))
        let error = #expect(throws: StorageError.self) { try store.url(for: name) }
        #expect(error?.code == .permission)
        #expect(throws: StorageError.self) { try store.remove(name) }
        #expect(!store.contains(name))
    }

    @Test("SHA-256 of bytes matches the standard vectors")
    func knownVectors() throws {
        #expect(
            try SHA256.hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try SHA256.hex(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            try SHA256.hex(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("a file is hashed in chunks to the standard vector (one million 'a')")
    func streamedVector() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("a.bin")
        try Data(repeating: UInt8(ascii: "a"), count: 1_000_000).write(to: URL(fileURLWithPath: path))
        #expect(try SHA256.hex(ofFile: path) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("a multi-megabyte photo is copied whole, its source untouched, with the right hash")
    func multiMegabyteCopy() throws {
        let dir = TemporaryDirectory()
        let store = try PhotoFileStore(directory: dir.url.appendingPathComponent("photos"))
        // 5 MiB plus an odd tail, so the last chunk is partial.
        var bytes = Data(count: 5 * 1024 * 1024 + 12_345)
        var generator = SystemRandomNumberGenerator()
        bytes.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: buffer.count - 7, by: 8) {
                buffer.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self)
            }
        }
        let source = URL(fileURLWithPath: dir.path("IMG_0001.jpg"))
        try bytes.write(to: source)
        let sourceModified = try FileManager.default.attributesOfItem(atPath: source.path)[.modificationDate] as? Date

        let stored = try store.store(contentsOf: source)
        let expected = try SHA256.hex(of: bytes)
        #expect(stored.sha256 == expected)
        #expect(stored.byteSize == Int64(bytes.count))
        #expect(try SHA256.hex(ofFile: source.path) == expected)
        #expect(try Data(contentsOf: store.url(for: stored.fileName)) == bytes)
        #expect(try Data(contentsOf: source) == bytes)
        #expect(
            try FileManager.default.attributesOfItem(atPath: source.path)[.modificationDate] as? Date == sourceModified)
    }

    @Test("an unreadable or missing source is a clear error and leaves nothing behind")
    func missingSource() throws {
        let dir = TemporaryDirectory()
        let store = try PhotoFileStore(directory: dir.url.appendingPathComponent("photos"))
        let missing = dir.path("nope.jpg")
        let error = #expect(throws: StorageError.self) { try store.store(contentsOf: URL(fileURLWithPath: missing)) }
        #expect(error?.code == .notFound)
        #expect(error?.message.contains(missing) == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path).isEmpty)
    }

    @Test("remove deletes the file and tolerates one already gone; free space is measured")
    func removeAndFreeSpace() throws {
        let dir = TemporaryDirectory()
        let store = try PhotoFileStore(directory: dir.url.appendingPathComponent("photos"))
        let stored = try store.store(Data([1, 2, 3]))
        #expect(store.contains(stored.fileName))
        try store.remove(stored.fileName)
        #expect(!store.contains(stored.fileName))
        try store.remove(stored.fileName)
        #expect(try store.freeBytes() > 0)
    }

    /// A store with one recorded photo; returns the store and the recorded file's name.
    private func storeWithRecordedPhoto() throws -> (TestStore, String) {
        let t = try TestStore(.file)
        let report = try t.store.createReport(templateID: "t1", facilityID: "f1", areaID: nil, assignmentID: nil)
        let recorded = try t.photoFiles.store(Data("recorded".utf8))
        try t.store.addPhoto(
            Photo(
                reportLocalID: report.localID, fileName: recorded.fileName, originalByteSize: 8,
                byteSize: recorded.byteSize, sha256: recorded.sha256))
        return (t, recorded.fileName)
    }

    /// What an import killed between writing its file and recording it leaves: a
    /// `<UUID>.jpg` no record names and its compressed temporary file, just written.
    private func killedImportLeftovers(in folder: String, ageSeconds: TimeInterval = 0) throws -> [String] {
        let orphan = UUID().uuidString + ".jpg"
        let temporary = ".import-\(UUID().uuidString).tmp"
        for name in [orphan, temporary] {
            let path = folder + "/" + name
            try Data("stored, never recorded".utf8).write(to: URL(fileURLWithPath: path))
            if ageSeconds > 0 {
                try FileManager.default.setAttributes(
                    [.modificationDate: Date().addingTimeInterval(-ageSeconds)], ofItemAtPath: path)
            }
        }
        return [orphan, temporary]
    }

    @Test(
        "with no import running, a killed import's files go at the next sweep however young; recorded files stay"
    )
    func leftoversRemoved() throws {
        let (t, recorded) = try storeWithRecordedPhoto()
        let folder = t.photoFiles.directory.path
        _ = try killedImportLeftovers(in: folder)
        _ = try killedImportLeftovers(in: folder, ageSeconds: 7200)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: folder + "/" + recorded)

        _ = try t.store.removePhotoLeftovers(olderThan: 3600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [recorded])
        #expect(try t.store.photos(ofReport: try #require(t.store.reports().first).localID).count == 1)
    }

    @Test(
        "while an import holds the folder, the files it is writing stay and only leftovers older than the age go"
    )
    func importInProgressKept() throws {
        let (t, recorded) = try storeWithRecordedPhoto()
        let folder = t.photoFiles.directory.path
        let old = try killedImportLeftovers(in: folder, ageSeconds: 7200)
        // The state another process's import is in between writing its file and recording it.
        let hold = try t.photoFiles.holdForImport()
        let writing = try killedImportLeftovers(in: folder)

        let sweep = try t.store.removePhotoLeftovers(olderThan: 3600)
        #expect(sweep.importRunning)
        #expect(sweep.removed == old.count)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == Set(writing + [recorded]))

        // Killed: the kernel drops its hold, and its files go at the next sweep.
        hold.release()
        let next = try t.store.removePhotoLeftovers(olderThan: 3600)
        #expect(!next.importRunning && next.removed == writing.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [recorded])
    }

    @Test("a leftover that cannot be removed is reported once in the result, never thrown; the sweep goes on")
    func unremovableReported() throws {
        let (t, recorded) = try storeWithRecordedPhoto()
        let folder = t.photoFiles.directory.path
        let left = try killedImportLeftovers(in: folder)
        var tried: [String] = []
        // A folder the sweep may not write to (root may remove any file, so the refusal is played).
        let sweep = try t.photoFiles.removeLeftovers(
            olderThan: 3600, now: Date(),
            unlinking: { path in
                tried.append(path)
                errno = EACCES
                return -1
            },
            keeping: { Set([recorded]) })
        #expect(tried.count == left.count)
        #expect(sweep.removed == 0)
        #expect(sweep.unremovable.count == left.count)
        #expect(sweep.unremovable.allSatisfy { $0.code == .permission && $0.message.contains(folder) })
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == Set(left + [recorded]))
    }

    @Test("the sweep looks at nothing outside the folder and leaves links and other names alone")
    func sweepStaysInFolder() throws {
        let (t, recorded) = try storeWithRecordedPhoto()
        let folder = t.photoFiles.directory.path
        let outside = t.photoFiles.directory.deletingLastPathComponent().appendingPathComponent(
            UUID().uuidString + ".jpg")
        try Data("outside".utf8).write(to: outside)
        let link = UUID().uuidString + ".jpg"
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + link, withDestinationPath: outside.path)
        try Data("a note".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))

        _ = try t.store.removePhotoLeftovers(olderThan: 3600)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == [recorded, link, "notes.txt"])
        #expect(FileManager.default.fileExists(atPath: outside.path))
    }
}
