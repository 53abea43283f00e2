import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Storage
import Testing
import TestSupport

/// Photo files no store row records: what a `jqc photo add` killed between
/// writing its compressed file and recording it leaves in the profile's photo
/// folder. The next import and the next retention step remove them, never a
/// recorded photo's file, never one an import in another process is writing.
@Suite("Photo files no record names: removed at the next import and at retention")
struct PhotoLeftoverTests {
    static let demo: Result<ServerProcess, any Error> = Result { try ServerProcess(["--demo"]) }

    /// Leaves in the folder what a killed import leaves, just now: a `<UUID>.jpg`
    /// no record names and its compressed temporary file. Returns their names.
    func killedImportLeftovers(in profile: DemoProfile) throws -> Set<String> {
        let orphan = UUID().uuidString + ".jpg"
        let temporary = ".import-\(UUID().uuidString).tmp"
        for name in [orphan, temporary] {
            let path = profile.photosFolder + "/" + name
            try Data("stored, never recorded".utf8).write(to: URL(fileURLWithPath: path))
        }
        return [orphan, temporary]
    }

    /// A draft with one recorded photo on field 14; returns its id and the photo's file name.
    func draftWithPhoto(_ profile: DemoProfile) throws -> (String, String) {
        let id = try profile.startDraft()
        let (status, result) = try profile.document(
            ["photo", "add", id, "--field", "14", try profile.writeJPEG("first.jpg", seed: 5)])
        try #require(status == 0)
        let photoID = try #require(result["photos"]?[0]?["local_id"]?.stringValue)
        return (id, photoID.uppercased() + ".jpg")
    }

    @Test("the next photo import removes a killed import's files, however young; recorded photos stay")
    func removedAtNextImport() throws {
        let profile = try DemoProfile()
        let (id, recorded) = try draftWithPhoto(profile)
        let leftovers = try killedImportLeftovers(in: profile)

        let (status, result) = try profile.document(
            ["photo", "add", id, "--field", "14", try profile.writeJPEG("second.jpg", seed: 6)])
        #expect(status == 0)
        let second = try #require(result["photos"]?[0]?["local_id"]?.stringValue).uppercased() + ".jpg"
        #expect(try profile.photoFolderContents() == [recorded, second].sorted())
        #expect(Set(try profile.photoFolderContents()).isDisjoint(with: leftovers))
        #expect(try profile.show(id)["photos"]?.arrayValue?.count == 2)
    }

    @Test("an import in another process holds the folder: the files it is writing stay until it is gone")
    func importInProgressKept() throws {
        let profile = try DemoProfile()
        let (id, recorded) = try draftWithPhoto(profile)
        // This test process is the other import, between writing its file and recording it.
        let hold = try PhotoFileStore(directory: URL(fileURLWithPath: profile.photosFolder)).holdForImport()
        let writing = try killedImportLeftovers(in: profile)

        #expect(try profile.jqc(["photo", "add", id, "--field", "14", try profile.writeJPEG("b.jpg")]).status == 0)
        #expect(Set(try profile.photoFolderContents()).isSuperset(of: writing.union([recorded])))

        // Killed: the kernel drops its hold, and the next import removes its files.
        hold.release()
        #expect(try profile.jqc(["photo", "add", id, "--field", "14", try profile.writeJPEG("c.jpg")]).status == 0)
        let now = Set(try profile.photoFolderContents())
        #expect(now.isDisjoint(with: writing))
        #expect(now.contains(recorded) && now.count == 3)
    }

    @Test("the next sync's retention step removes a killed import's files; recorded photos stay")
    func removedAtRetention() throws {
        let profile = try DemoProfile.signedIn(to: try Self.demo.get().baseURL)
        let (id, recorded) = try draftWithPhoto(profile)
        let leftovers = try killedImportLeftovers(in: profile)

        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        #expect(try profile.photoFolderContents() == [recorded])
        #expect(Set(try profile.photoFolderContents()).isDisjoint(with: leftovers))
        #expect(try profile.show(id)["photos"]?.arrayValue?.count == 1)
    }

    @Test("an issue's photo holds the folder as photo add does: while a sweep has it, nothing is written")
    func issuePhotoWaitsForSweep() throws {
        let profile = try DemoProfile()
        let (id, recorded) = try draftWithPhoto(profile)
        let photo = try profile.writeJPEG("tap.jpg", seed: 9)
        // This test process is a sweep that has the folder to itself (the lock a sweep takes).
        let folder = open(profile.photosFolder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(folder >= 0 && flock(folder, LOCK_EX) == 0)
        defer { close(folder) }
        let flagging = try RunningProgram(
            "jqc",
            [
                "--home", profile.home, "issue", "add", id, "--severity", "high", "--description", "Tap leaks",
                "--photo", photo, "--json",
            ])
        Thread.sleep(forTimeInterval: 1)
        #expect(flagging.isRunning, "the issue's photo did not wait for the sweep's lock")
        #expect(try profile.photoFolderContents() == [recorded])

        flock(folder, LOCK_UN)
        let outcome = flagging.wait()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let photos = try #require(try profile.show(id)["photos"]?.arrayValue)
        #expect(photos.count == 2)
        #expect(try profile.photoFolderContents().count == 2)
    }
}
