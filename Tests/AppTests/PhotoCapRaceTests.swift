import FieldTypes
import Foundation
import Storage
import Testing
import TestSupport
@testable import JQCCore

/// Two imports into one report at the same moment: each checks the cap before
/// it compresses and stores, so both can pass that check; the cap is checked
/// again in the transaction that records the photo, so they cannot pass it together.
@Suite("Photo cap: two imports at once")
struct PhotoCapRaceTests {
    @Test(
        "two photos prepared under the cap at once: the first is recorded, the second refused (PHOTO_CAP_EXCEEDED, exit 5) and leaves no file"
    )
    func secondImportRefusedAtRecord() throws {
        let profile = try DemoProfile()
        #expect(try profile.jqc(["settings", "photo-cap-mb", "1"]).status == 0)
        let id = try profile.startDraft()
        let first = try profile.writeJPEG("first.jpg", width: 1400, height: 1000, seed: 3)
        let second = try profile.writeJPEG("second.jpg", width: 1400, height: 1000, seed: 4)
        let context = AppContext(
            profile: Profile.resolve(home: profile.home, environment: [:]),
            registry: FieldTypeRegistry.builtIn(), style: .plain, json: false,
            stdinIsTerminal: false, environment: [:])
        let workspace = try context.workspace()
        let report = try workspace.report(id)

        // Both imports have checked the cap against an empty report before either records its photo.
        let a = try workspace.preparePhoto(first, for: report)
        let b = try workspace.preparePhoto(second, for: report)
        try #require(
            a.compressed.storedBytes + b.compressed.storedBytes > workspace.settings.photoCapBytes,
            "the two photos together must be over the 1 MB cap for this test to mean anything")

        let (stored, used) = try workspace.storePrepared(a, in: report, fieldID: "14", issueLocalID: nil)
        #expect(used == stored.byteSize)
        let refused = #expect(throws: AppError.self) {
            try workspace.storePrepared(b, in: try workspace.refreshed(report), fieldID: "14", issueLocalID: nil)
        }
        #expect(refused?.code == .photoCapExceeded)
        #expect(refused?.exitCode == 5)
        #expect(refused?.message.contains("'second.jpg' needs") == true)

        let shown = try profile.show(id)
        #expect(shown["photos"]?.arrayValue?.count == 1)
        #expect(try profile.photoFolderContents() == [stored.fileName])
    }
}
