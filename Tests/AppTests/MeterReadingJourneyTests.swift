import Foundation
import Models
import Testing
import TestSupport

/// A site team's type that takes photos (a meter reading with the photo of
/// its dial) works everywhere an image field does, though no code above
/// FieldTypes knows its name: `photo add --field`, the runner's typed path,
/// `show`, the HTML export, completion and sync.
@Suite("A meter reading with its photo, from device to server")
struct MeterReadingJourneyTests {
    static let templates = #"""
        {"templates": [{"id": "meters", "name": "Plant room", "version": 1, "form_schema": {"fields": [
          {"id": "power", "type": "meter_reading", "label": "Electricity meter", "required": true, "unit": "kWh"},
          {"id": "water", "type": "meter_reading", "label": "Water meter", "unit": "m3"},
          {"id": "high", "type": "text", "label": "Why so high?", "visible_when": {"field": "power", "op": "gt", "value": 50000}}
        ]}}]}
        """#

    func profileWithTemplate(server: ServerProcess? = nil) throws -> DemoProfile {
        let profile = try DemoProfile()
        let file = profile.path("meter-templates.json")
        try Data(Self.templates.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try profile.jqc(["templates", "import", file])
        try #require(imported.status == 0, "templates import: \(imported.stderr)")
        #expect(!imported.stdout.contains("Note:"), "jqc knows the type: \(imported.stdout)")
        return profile
    }

    @Test("the reading is typed, the photo attached with photo add, and typing the reading again keeps the photo")
    func answerAndPhoto() throws {
        let profile = try profileWithTemplate()
        let id = try profile.start(["--template", "meters", "--facility", "F-100"])
        #expect(try profile.jqc(["answer", id, "power", "48213.7 kWh"]).status == 0)
        let photo = try profile.writeJPEG("dial.jpg", seed: 9)
        let added = try profile.jqc(["photo", "add", id, "--field", "power", photo])
        #expect(added.status == 0, "\(added.stderr)")
        let photoID = try #require(try profile.show(id)["photos"]?.arrayValue?.first?["local_id"]?.stringValue)
        #expect(try profile.show(id)["answers"]?["power"] == ["reading": 48213.7, "photos": [.string(photoID)]])

        #expect(try profile.jqc(["answer", id, "power", "48215"]).status == 0)
        #expect(try profile.show(id)["answers"]?["power"] == ["reading": 48215, "photos": [.string(photoID)]])
        let shown = try profile.jqc(["show", id])
        #expect(shown.stdout.contains("48215 kWh, 1 photo"), "\(shown.stdout)")

        let html = profile.path("meters.html")
        #expect(try profile.jqc(["export", id, "--format", "html", "-o", html]).status == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("Reading: 48215 kWh"))
        #expect(page.contains("data:image/jpeg;base64,"), "the dial's photo is in the page")
        #expect(!page.contains("Other photos"), "the photo is shown under its field, not as a stray")
    }

    @Test(
        "in the runner a path attaches the dial's photo and a number is the reading; a condition compares the reading")
    func runner() throws {
        let profile = try profileWithTemplate()
        let id = try profile.start(["--template", "meters", "--facility", "F-100"])
        let photo = try profile.writeJPEG("dial.jpg", seed: 3)
        let run = try profile.jqc(["run", id], stdin: "\(photo)\n61000.5\n")
        #expect(run.stdout.contains("attached 1 photo"), "\(run.stdout)")
        let answer = try #require(try profile.show(id)["answers"]?["power"])
        #expect(answer["reading"] == 61000.5)
        #expect(answer["photos"]?.arrayValue?.count == 1)
        let explained = try profile.document(["explain", id, "high"]).value
        #expect(explained["visible"] == true, "61000.5 > 50000 shows the follow-up question: \(explained)")
    }

    @Test("completed with reading and photo, synced, and the server holds both")
    func synced() throws {
        let server = try ServerProcess(["--demo"]) { db in
            let file = db + ".meter-templates.json"
            try Data(Self.templates.utf8).write(to: URL(fileURLWithPath: file))
            let imported = try Programs.run("jqc-server", ["admin", "--db", db, "import-templates", file])
            guard imported.status == 0 else { throw ServerLaunchError(message: imported.stderr) }
        }
        let profile = try profileWithTemplate()
        let login = try profile.jqc(
            ["login", "--server", server.baseURL, "--username", "inspector", "--password-stdin"],
            stdin: "inspector-pass\n")
        try #require(login.status == 0, "login: \(login.stderr)")
        let id = try profile.start(["--template", "meters", "--facility", "F-100"])
        #expect(try profile.jqc(["answer", id, "power", "48213.7"]).status == 0)
        #expect(
            try profile.jqc(["photo", "add", id, "--field", "power", try profile.writeJPEG("dial.jpg")]).status == 0)
        let completed = try profile.jqc(["complete", id])
        #expect(completed.status == 0, "\(completed.stderr)")
        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")
        let shown = try profile.show(id)
        #expect(shown["state"] == "SYNCED")
        #expect(shown["photos"]?.arrayValue?.first?["upload_state"] == "UPLOADED", "\(shown)")
    }
}
