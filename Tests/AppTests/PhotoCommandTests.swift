import Foundation
import Imaging
import Models
import Testing
import TestSupport

@Suite("jqc photo add: import, compress, cap, storage floor, unreadable sources")
struct PhotoCommandTests {
    @Test(
        "a JPEG and a PNG are stored as private JPEGs at the profile's size, smaller, PENDING upload, listed in the image field's answer; the sources are untouched"
    )
    func importsJPEGAndPNG() throws {
        let profile = try DemoProfile()
        #expect(try profile.jqc(["settings", "photo-max-edge", "256"]).status == 0)
        let id = try profile.startDraft()
        let jpeg = try profile.writeJPEG("IMG_0042.jpg", width: 640, height: 480)
        let png = try profile.writePNG("leak.png", width: 640, height: 480)
        let jpegBefore = try Data(contentsOf: URL(fileURLWithPath: jpeg))
        let pngBefore = try Data(contentsOf: URL(fileURLWithPath: png))

        let (status, result) = try profile.document(["photo", "add", id, "--field", "14", jpeg, png])
        #expect(status == 0)
        let photos = try #require(result["photos"]?.arrayValue)
        try #require(photos.count == 2)
        #expect(photos.map { $0["file"]?.stringValue } == [jpeg, png])
        for photo in photos {
            let stored = try #require(photo["byte_size"]?.integerValue)
            let original = try #require(photo["original_byte_size"]?.integerValue)
            #expect(stored > 0)
            #expect(stored < original, "\(photo["file"]?.stringValue ?? ""): \(stored) stored, \(original) original")
            #expect(photo["field_id"]?.stringValue == "14")
            #expect(photo["issue_local_id"]?.isNull == true)
        }
        let used = photos.compactMap { $0["byte_size"]?.integerValue }.reduce(0, +)
        let cap: Int64 = 25 * 1024 * 1024
        #expect(result["cap_bytes"]?.integerValue == cap)
        #expect(result["used_bytes"]?.integerValue == used)
        #expect(result["remaining_bytes"]?.integerValue == cap - used)

        // Stored as <uuid>.jpg JPEGs, mode 0600, in the profile's photo folder.
        let ids = photos.compactMap { $0["local_id"]?.stringValue }
        #expect(try profile.photoFolderContents() == ids.map { $0.uppercased() + ".jpg" }.sorted())
        for photoID in ids {
            let path = profile.photosFolder + "/" + photoID.uppercased() + ".jpg"
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.prefix(2) == Data([0xFF, 0xD8]))
            // Scaled to the profile's maximum edge.
            let stored = try SyntheticImage.decode(URL(fileURLWithPath: path))
            #expect(stored.width == 256 && stored.height == 192)
        }

        let shown = try profile.show(id)
        let listed = try #require(shown["photos"]?.arrayValue)
        #expect(listed.compactMap { $0["local_id"]?.stringValue } == ids)
        #expect(listed.allSatisfy { $0["upload_state"]?.stringValue == "PENDING" })
        #expect(shown["answers"]?["14"] == .array(ids.map { .string($0) }))

        #expect(try Data(contentsOf: URL(fileURLWithPath: jpeg)) == jpegBefore)
        #expect(try Data(contentsOf: URL(fileURLWithPath: png)) == pngBefore)
    }

    @Test("every import states the cap and the room left")
    func statesTheCapAtEveryImport() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let first = try profile.writeJPEG("first.jpg", seed: 3)
        let second = try profile.writePNG("second.png", seed: 4)

        let outcome = try profile.jqc(["photo", "add", id, first, second])
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let first1 = try #require(lines.first { $0.hasPrefix("Photo 1 of 2 added: first.jpg, ") })
        let second2 = try #require(lines.first { $0.hasPrefix("Photo 2 of 2 added: second.png, ") })
        for line in [first1, second2] {
            #expect(line.contains(" of 25.0 MB used, "))
            #expect(line.hasSuffix(" MB left."))
        }

        let single = try profile.writeJPEG("third.jpg", seed: 5)
        let again = try profile.jqc(["photo", "add", id, single])
        #expect(again.status == 0)
        #expect(again.stdout.contains("Photo added: third.jpg, "))
        #expect(again.stdout.contains(" of 25.0 MB used, "))
    }

    @Test("beyond a low cap the next photo is refused with PHOTO_CAP_EXCEEDED, exit 5, and nothing more is queued")
    func capExceeded() throws {
        let profile = try DemoProfile()
        #expect(try profile.jqc(["settings", "photo-cap-mb", "1"]).status == 0)
        let id = try profile.startDraft()
        let big = try profile.writeJPEG("big.jpg", width: 1200, height: 900, seed: 7)

        let (firstStatus, first) = try profile.document(["photo", "add", id, big])
        try #require(firstStatus == 0)
        let size = try #require(first["photos"]?[0]?["byte_size"]?.integerValue)
        let cap: Int64 = 1024 * 1024
        #expect(first["cap_bytes"]?.integerValue == cap)
        #expect(first["remaining_bytes"]?.integerValue == cap - size)
        // Copies of the same image compress to the same size: this many more fit, the one after does not.
        let fitting = Int((cap - size) / size)
        let copies = try (0...fitting).map { index -> String in
            let copy = profile.path("copy-\(index).jpg")
            try FileManager.default.copyItem(atPath: big, toPath: copy)
            return copy
        }

        let (status, refused) = try profile.document(["photo", "add", id] + copies)
        #expect(status == 5)
        #expect(refused.errorCode == "PHOTO_CAP_EXCEEDED")
        #expect(refused.errorMessage.contains("Photo cap reached for this report: "))
        #expect(refused.errorMessage.contains("of 1.0 MB used, "))
        #expect(refused.errorMessage.contains("MB left; 'copy-\(fitting).jpg' needs "))
        if fitting > 0 {
            #expect(refused.errorMessage.hasPrefix("Photo \(fitting + 1) of \(fitting + 1) refused: "))
            #expect(refused.errorMessage.contains("stay"))
        }

        let shown = try profile.show(id)
        #expect(shown["photos"]?.arrayValue?.count == 1 + fitting)
        let total = shown["photos"]?.arrayValue?.compactMap { $0["byte_size"]?.integerValue }.reduce(0, +) ?? 0
        #expect(total <= cap)
        #expect(try profile.photoFolderContents().count == 1 + fitting)
        let (_, summary) = try profile.document(["status"])
        #expect(summary["photos_pending"]?.integerValue == Int64(1 + fitting))

        let human = try profile.jqc(["photo", "add", id, big])
        #expect(human.status == 5)
        #expect(human.stdout.isEmpty)
        #expect(human.stderr.contains("Photo cap reached for this report"))
    }

    @Test(
        "below the storage floor photo import is refused with STORAGE_LOW, while start, answer and complete still work (AC-10)"
    )
    func storageFloor() throws {
        let profile = try DemoProfile()
        #expect(try profile.jqc(["settings", "storage-floor-mb", "100000000"]).status == 0)
        let id = try profile.startDraft()
        let photo = try profile.writeJPEG("floor.jpg")

        let (status, refused) = try profile.document(["photo", "add", id, photo])
        #expect(status == 5)
        #expect(refused.errorCode == "STORAGE_LOW")
        #expect(refused.errorMessage.hasPrefix("Not enough space for photos ("))
        #expect(refused.errorMessage.hasSuffix("Free space or sync pending reports."))
        #expect(try profile.photoFolderContents().isEmpty)

        let other = try profile.startDraft()
        try profile.answerRequired(other)
        let completed = try profile.document(["complete", other])
        #expect(completed.status == 0)
        #expect(completed.value["state"]?.stringValue == "PENDING")
    }

    @Test(
        "a missing file and a folder are refused as PERMISSION_PHOTO_DENIED and the report still completes (AC-08, AC-09)"
    )
    func unreadableSourceNeverBlocksCompletion() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let kept = try profile.writeJPEG("kept.jpg")
        #expect(try profile.jqc(["photo", "add", id, kept]).status == 0)
        // The source is checked at every import: gone now, so refused, and the photo already taken stays.
        try FileManager.default.removeItem(atPath: kept)
        let folder = profile.path("a-folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

        for source in [kept, profile.path("never-there.jpg"), folder] {
            let (status, refused) = try profile.document(["photo", "add", id, source])
            #expect(status == 4)
            #expect(refused.errorCode == "PERMISSION_PHOTO_DENIED")
            // It says what is wrong with the file, naming it; photos are not "disabled".
            let missing = source != folder
            #expect(
                refused.errorMessage.hasPrefix(
                    missing
                        ? "The photo file '\(source)' does not exist; check the path."
                        : "The photo file '\(source)' cannot be read: it is a folder"), "\(refused.errorMessage)")
            #expect(!refused.errorMessage.contains("disabled"))
            #expect(refused.errorMessage.hasSuffix("You can still complete this report."))
        }
        let human = try profile.jqc(["photo", "add", id, folder])
        #expect(human.stderr.contains("it is a folder"))

        try profile.answerRequired(id)
        let completed = try profile.document(["complete", id])
        #expect(completed.status == 0)
        let shown = try profile.show(id)
        #expect(shown["state"]?.stringValue == "PENDING")
        #expect(shown["photos"]?.arrayValue?.count == 1)
        #expect(shown["photos"]?[0]?["upload_state"]?.stringValue == "PENDING")
    }

    @Test("a text file named .jpg is refused as PHOTO_INVALID, exit 4, and nothing is stored")
    func textFileIsNotAPhoto() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let fake = profile.path("notes.jpg")
        try Data("these are notes, not a photo\n".utf8).write(to: URL(fileURLWithPath: fake))

        let (status, refused) = try profile.document(["photo", "add", id, fake])
        #expect(status == 4)
        #expect(refused.errorCode == "PHOTO_INVALID")
        #expect(refused.errorMessage.contains("'notes.jpg'"))
        #expect(try profile.photoFolderContents().isEmpty)
        #expect(try profile.show(id)["photos"]?.arrayValue?.isEmpty == true)
    }

    @Test("several files stop at the first refusal; the ones before it stay and the message says so")
    func stopsAtFirstRefusal() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let good = try profile.writeJPEG("good.jpg")
        let fake = profile.path("fake.png")
        try Data("plain text".utf8).write(to: URL(fileURLWithPath: fake))
        let after = try profile.writeJPEG("after.jpg", seed: 9)

        let outcome = try profile.jqc(["photo", "add", id, "--field", "14", good, fake, after])
        #expect(outcome.status == 4)
        #expect(outcome.stderr.contains("Photo 2 of 3 refused: "))
        #expect(outcome.stderr.contains("The photo before it was added and stays attached ("))
        #expect(outcome.stderr.contains(" of 25.0 MB used, "))
        let shown = try profile.show(id)
        #expect(shown["photos"]?.arrayValue?.count == 1)
        #expect(shown["answers"]?["14"]?.arrayValue?.count == 1)
    }

    @Test("a PENDING report takes no photos (exit 5)")
    func pendingReportRefusesPhotos() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        #expect(try profile.jqc(["complete", id]).status == 0)
        let photo = try profile.writeJPEG("late.jpg")

        let (status, refused) = try profile.document(["photo", "add", id, photo])
        #expect(status == 5)
        #expect(refused.errorCode == "STATE_NOT_ALLOWED")
        #expect(refused.errorMessage.contains("PENDING"))
        #expect(try profile.photoFolderContents().isEmpty)
    }

    @Test("--field naming a field that is not an image field is refused (exit 4), naming its type")
    func nonImageField() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let photo = try profile.writeJPEG("floors.jpg")

        let outcome = try profile.jqc(["photo", "add", id, "--field", "2", photo])
        #expect(outcome.status == 4)
        #expect(outcome.stderr.contains("Field '2' (Floors) is a rating field, not an image field"))
        #expect(try profile.photoFolderContents().isEmpty)
    }

    @Test("deleting a draft removes its photo files from disk")
    func deleteRemovesPhotoFiles() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let photo = try profile.writeJPEG("gone.jpg")
        #expect(try profile.jqc(["photo", "add", id, "--field", "14", photo]).status == 0)
        #expect(try profile.photoFolderContents().count == 1)

        #expect(try profile.jqc(["delete", id, "--yes"]).status == 0)
        #expect(try profile.photoFolderContents().isEmpty)
        #expect(FileManager.default.fileExists(atPath: photo))
    }
}
