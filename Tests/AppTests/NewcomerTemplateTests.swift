import Foundation
import Models
import Testing
import TestSupport

/// What a newcomer met linting templates with `jqc`: a repeated field id
/// that showed only once the other problems were fixed, and a file of one
/// template (the shape `jqc-server admin template publish` takes) refused.
@Suite("Newcomer trial: jqc templates lint and import")
struct NewcomerTemplateTests {
    /// A template with four faults; the last field repeats an id and does not decode.
    static let fourFaults = #"""
        {"id": "four", "name": "Four faults", "form_schema": {"fields": [
          {"id": "a", "type": "text", "label": "Notes", "critical": true},
          {"id": "b", "type": "radio", "label": "Odour", "options": []},
          {"id": "c", "type": "rating", "label": "Floors"},
          {"id": "c", "type": "rating", "label": "Mirrors", "required": "yes"}
        ]}}
        """#

    @Test("lint lists every problem in one pass, the repeated field id among them")
    func everyProblemInOnePass() throws {
        let profile = try DemoProfile()
        let file = profile.path("four.json")
        try Data(#"{"templates": [\#(Self.fourFaults)]}"#.utf8).write(to: URL(fileURLWithPath: file))
        let (status, document) = try profile.document(["templates", "lint", file])
        #expect(status == 4)
        let problems = document["error"]?["problems"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(problems.count == 4, "\(problems)")
        #expect(
            problems.contains(
                "template 'four': field 'c': the id is already used by field #3; give each field its own id"),
            "\(problems)")
    }

    @Test("lint and import take one template object, and a {\"templates\": [...]} list as before")
    func oneTemplateObject() throws {
        let profile = try DemoProfile()
        let one =
            #"{"id": "one", "name": "One", "form_schema": {"fields": [{"id": 1, "type": "rating", "label": "A"}]}}"#
        let single = profile.path("one.json")
        try Data(one.utf8).write(to: URL(fileURLWithPath: single))
        let linted = try profile.jqc(["templates", "lint", single])
        #expect(linted.status == 0, "\(linted.stderr)")
        #expect(linted.stdout.hasSuffix("1 template, no problems.\n"), "\(linted.stdout)")
        let imported = try profile.jqc(["templates", "import", single])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported 1 template: one."), "\(imported.stdout)")

        let faulty = profile.path("four.json")
        try Data(Self.fourFaults.utf8).write(to: URL(fileURLWithPath: faulty))
        let (status, document) = try profile.document(["templates", "lint", faulty])
        #expect(status == 4 && document["error"]?["problems"]?.arrayValue?.count == 4, "\(document)")

        let list = profile.path("list.json")
        try Data(#"{"templates": [\#(one)]}"#.utf8).write(to: URL(fileURLWithPath: list))
        #expect(try profile.jqc(["templates", "lint", list]).status == 0)
        let enveloped = profile.path("enveloped.json")
        try Data(#"{"ok": true, "data": {"templates": [\#(one)]}}"#.utf8).write(to: URL(fileURLWithPath: enveloped))
        #expect(try profile.jqc(["templates", "lint", enveloped]).status == 0)
    }
}
