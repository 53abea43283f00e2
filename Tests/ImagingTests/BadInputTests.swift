import Foundation
import Imaging
import Testing
import TestSupport

@Suite("Refusing what cannot be imported, with a clear message")
struct BadInputTests {
    let dir = TemporaryDirectory()

    private func compress(_ source: URL) -> ImagingError? {
        imagingError { () throws(ImagingError) in
            _ = try PhotoCompressor(settings: .standard).compress(source: source, to: dir.file("stored.jpg"))
        }
    }

    private var nothingStored: Bool { !FileManager.default.fileExists(atPath: dir.path("stored.jpg")) }

    @Test(
        "text, a GIF and an empty file are not images",
        arguments: [
            ("notes.jpg", Array("Inspection notes: floor wet near entrance.\n".utf8)),
            ("animation.png", Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00]),
            ("empty.jpg", []),
        ])
    func notAnImage(name: String, bytes: [UInt8]) throws {
        let source = dir.file(name)
        try Data(bytes).write(to: source)

        let error = try #require(compress(source))

        #expect(error.code == .notAnImage)
        #expect(error.message.contains("'\(name)'"))
        #expect(error.message.contains("JPEG or PNG"))
        #expect(!error.message.contains("\n"))
        #expect(throws: ImagingError.self) { try ImageProbe.format(of: source) }
        #expect(nothingStored)
    }

    @Test("a GIF is named as a GIF")
    func namesTheFormat() throws {
        let source = dir.file("sign.gif")
        try Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8).write(to: source)
        #expect(compress(source)?.message.contains("GIF") == true)
    }

    @Test("a JPEG cut in half is damaged")
    func truncatedJPEG() throws {
        let source = dir.file("cut.jpg")
        let whole = dir.file("whole.jpg")
        try SyntheticImage.writeJPEG(width: 640, height: 480, pattern: .texture(seed: 2), to: whole)
        let bytes = try Data(contentsOf: whole)
        try bytes.prefix(bytes.count / 2).write(to: source)

        let error = try #require(compress(source))

        #expect(error.code == .damaged)
        #expect(error.message.contains("'cut.jpg'") && error.message.contains("damaged JPEG"))
        #expect(nothingStored)
    }

    @Test("a JPEG that stops after its first marker is damaged")
    func headerOnlyJPEG() throws {
        let source = dir.file("stub.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).write(to: source)
        #expect(compress(source)?.code == .damaged)
    }

    @Test("a PNG with a corrupted IDAT chunk is damaged")
    func corruptPNG() throws {
        let source = dir.file("corrupt.png")
        try SyntheticImage.writePNG(width: 300, height: 200, pattern: .texture(seed: 9), to: source)
        var bytes = [UInt8](try Data(contentsOf: source))
        let idat = try #require(offset(of: "IDAT", in: bytes))
        for i in (idat + 40)..<(idat + 60) { bytes[i] ^= 0x5A }
        try Data(bytes).write(to: source)

        let error = try #require(compress(source))

        #expect(error.code == .damaged)
        #expect(error.message.contains("'corrupt.png'") && error.message.contains("damaged PNG"))
        #expect(nothingStored)
    }

    @Test("a PNG cut short is damaged")
    func truncatedPNG() throws {
        let source = dir.file("short.png")
        try SyntheticImage.writePNG(width: 300, height: 200, pattern: .texture(seed: 4), to: source)
        let bytes = try Data(contentsOf: source)
        try bytes.prefix(bytes.count * 2 / 3).write(to: source)

        #expect(compress(source)?.code == .damaged)
    }

    @Test("a missing path and a folder are unreadable")
    func unreadable() throws {
        let missing = try #require(compress(dir.file("no-such-photo.jpg")))
        #expect(missing.code == .unreadable)
        #expect(
            missing.message
                == "Cannot read 'no-such-photo.jpg': no such file or directory. Check the path and its permissions.")

        let folder = dir.file("Photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let error = try #require(compress(folder))
        #expect(error.code == .unreadable)
        #expect(error.message.contains("'Photos'") && error.message.contains("folder"))
        #expect(throws: ImagingError.self) { try ImageProbe.format(of: folder) }
    }

    @Test("a JPEG claiming 30000x30000 pixels is refused as too large before decoding")
    func hugeJPEG() throws {
        let source = dir.file("huge.jpg")
        try SyntheticImage.writeJPEG(width: 64, height: 48, pattern: .cornerMarkers, to: source)
        var bytes = [UInt8](try Data(contentsOf: source))
        // Walk the segments to the frame header and rewrite its height and width.
        var at = 2
        while at + 9 < bytes.count, bytes[at] == 0xFF, bytes[at + 1] != 0xC0 {
            at += 2 + Int(bytes[at + 2]) << 8 + Int(bytes[at + 3])
        }
        try #require(bytes[at + 1] == 0xC0)
        bytes.replaceSubrange((at + 5)..<(at + 9), with: [0x75, 0x30, 0x75, 0x30])
        try Data(bytes).write(to: source)

        let error = try #require(compress(source))

        #expect(error.code == .tooLarge)
        #expect(error.message.contains("'huge.jpg'") && error.message.contains("30000x30000"))
    }

    @Test("a PNG claiming 30000x30000 pixels is refused as too large before decoding")
    func hugePNG() throws {
        let source = dir.file("huge.png")
        try SyntheticImage.writePNG(width: 64, height: 48, pattern: .cornerMarkers, to: source)
        var bytes = [UInt8](try Data(contentsOf: source))
        bytes.replaceSubrange(16..<24, with: [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30])
        let crc = crc32(bytes[12..<29])
        bytes.replaceSubrange(
            29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        try Data(bytes).write(to: source)

        let error = try #require(compress(source))

        #expect(error.code == .tooLarge)
        #expect(error.message.contains("30000x30000"))
    }

    @Test("a destination in a missing folder fails to write and leaves nothing behind")
    func missingFolder() throws {
        let source = dir.file("photo.jpg")
        try SyntheticImage.writeJPEG(width: 100, height: 100, pattern: .cornerMarkers, to: source)
        let destination = dir.file("gone").appendingPathComponent("stored.jpg")

        let error = imagingError { () throws(ImagingError) in
            _ = try PhotoCompressor(settings: .standard).compress(source: source, to: destination)
        }

        #expect(error?.code == .writeFailed)
        #expect(error?.message.contains("'stored.jpg'") == true)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test("a destination on a full disk is DISK_FULL, says so, and leaves nothing behind")
    func fullDisk() throws {
        let source = dir.file("photo.jpg")
        try SyntheticImage.writeJPEG(width: 800, height: 600, pattern: .texture(seed: 4), to: source)
        let disk = try SmallDisk(megabytes: 1)
        try disk.fill()
        let destination = URL(fileURLWithPath: disk.path("stored.jpg"))

        let error = imagingError { () throws(ImagingError) in
            _ = try PhotoCompressor(settings: .standard).compress(source: source, to: destination)
        }

        #expect(error?.code == .diskFull)
        #expect(
            error?.message
                == "The disk is full: the compressed photo 'stored.jpg' cannot be written. Free some space and import it again."
        )
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        disk.unmount()
    }

    @Test("the source is refused as its own destination and stays intact")
    func sourceAsDestination() throws {
        let source = dir.file("photo.jpg")
        try SyntheticImage.writeJPEG(width: 300, height: 200, pattern: .texture(seed: 1), to: source)
        let before = try Data(contentsOf: source)

        let error = imagingError { () throws(ImagingError) in
            _ = try PhotoCompressor(settings: .standard).compress(source: source, to: source)
        }

        #expect(error?.code == .writeFailed)
        #expect(error?.message.contains("Choose a different destination") == true)
        #expect(try Data(contentsOf: source) == before)
    }
}
