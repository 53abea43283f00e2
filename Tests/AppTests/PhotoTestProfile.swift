import Foundation
import Imaging
import Models
import Testing
import TestSupport

/// A fresh jqc profile in a temporary folder with the demo world imported,
/// driven through the built `jqc` binary as a user would.
final class PhotoTestProfile {
    let folder = TemporaryDirectory(prefix: "jqc-photos")

    /// The profile directory passed as `--home`.
    var home: String { folder.path("home") }

    /// The profile's app-private photo folder.
    var photosFolder: String { folder.path("home/photos") }

    init() throws {
        for (command, file) in [("templates", "templates.json"), ("facilities", "facilities.json")] {
            let outcome = try jqc([command, "import", DemoFiles.path(file)])
            try #require(outcome.status == 0, "importing \(file): \(outcome.stderr)")
        }
    }

    /// Runs `jqc --home HOME ARGS...`.
    func jqc(_ arguments: [String]) throws -> ProcessOutcome {
        try Programs.run("jqc", ["--home", home] + arguments)
    }

    /// Runs `jqc ... --json` and parses its one JSON document.
    func json(_ arguments: [String]) throws -> (status: Int32, value: JSONValue) {
        let outcome = try jqc(arguments + ["--json"])
        let value = try JSONValue.parse(Data(outcome.stdout.utf8))
        return (outcome.status, value)
    }

    /// Starts a Washroom QC draft (template 101) and returns its local id.
    func startDraft() throws -> String {
        let (status, value) = try json(["start", "--template", "101", "--facility", "F-100"])
        try #require(status == 0)
        return try #require(value["local_id"]?.stringValue)
    }

    /// Answers every required field of template 101, so the report can be completed.
    func answerRequired(_ id: String) throws {
        for (field, value) in [("2", "4"), ("3", "4"), ("4", "pass"), ("6", "Good"), ("18", "Dana Inspector")] {
            let outcome = try jqc(["answer", id, field, value])
            try #require(outcome.status == 0, "answering field \(field): \(outcome.stderr)")
        }
    }

    /// The `show --json` document of a report.
    func show(_ id: String) throws -> JSONValue {
        let (status, value) = try json(["show", id])
        try #require(status == 0)
        return value
    }

    /// The names of the files in the photo folder, sorted.
    func photoFolderContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: photosFolder).sorted()
    }

    /// A path in the test's temporary folder (outside the profile).
    func path(_ name: String) -> String { folder.path(name) }

    /// Writes a noisy JPEG that compresses like a photograph.
    @discardableResult
    func writeJPEG(_ name: String, width: Int = 320, height: Int = 240, seed: UInt32 = 1) throws -> String {
        let path = self.path(name)
        try SyntheticImage.writeJPEG(width: width, height: height, pattern: .texture(seed: seed), quality: 95, to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes a noisy PNG.
    @discardableResult
    func writePNG(_ name: String, width: Int = 320, height: Int = 240, seed: UInt32 = 2) throws -> String {
        let path = self.path(name)
        try SyntheticImage.writePNG(width: width, height: height, pattern: .texture(seed: seed), to: URL(fileURLWithPath: path))
        return path
    }
}

extension JSONValue {
    /// The error code of a `--json` error document.
    var errorCode: String? { self["error"]?["code"]?.stringValue }
    /// The item at `index`, when this is an array that long.
    subscript(_ index: Int) -> JSONValue? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
    /// The message of a `--json` error document.
    var errorMessage: String { self["error"]?["message"]?.stringValue ?? "" }
}
