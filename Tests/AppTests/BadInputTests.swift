import Foundation
import Models
import Testing
import TestSupport

/// Every bad input gets one clear line, its exit code, and loses nothing already saved.
@Suite("Bad input to jqc")
struct BadInputTests {
    /// A draft with two answers saved, to show they survive every refusal.
    func draftWithAnswers(_ profile: DemoProfile) throws -> String {
        let id = try profile.startDraft()
        #expect(try profile.jqc(["answer", id, "2", "4"]).status == 0)
        #expect(try profile.jqc(["answer", id, "15", "Sam"]).status == 0)
        return id
    }

    func expectIntact(_ profile: DemoProfile, _ id: String) throws {
        let answers = try profile.show(id)["answers"]
        #expect(answers?["2"] == 4)
        #expect(answers?["15"] == "Sam")
    }

    @Test("a malformed template file: every problem listed, exit 4, nothing imported")
    func malformedTemplates() throws {
        let profile = try DemoProfile()
        let before = try profile.document(["templates"]).value
        let outcome = try profile.jqc([
            "templates", "import", Fixtures.url("templates/malformed-wrong-types.json").path,
        ])
        #expect(outcome.status == 4)
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("has 6 problems; nothing was imported.") == true)
        #expect(lines.dropFirst().filter { $0.hasPrefix("  - template '8': field") }.count == 6)
        #expect(try profile.document(["templates"]).value == before)
    }

    @Test(
        "a template file that is not JSON, or an error page, says so in one line (exit 4)",
        arguments: [
            ("{\"templates\": [", "it is cut short: it ends at line 1, column 16 before the JSON is complete"),
            ("<html><body>502 Bad Gateway</body></html>", "it looks like an HTML or XML page"),
        ])
    func notJSON(content: String, why: String) throws {
        let profile = try DemoProfile()
        let path = profile.path("bad.json")
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try profile.jqc(["templates", "import", path])
        #expect(outcome.status == 4)
        #expect(outcome.stderr == "jqc: '\(path)': the text is not valid JSON: \(why). Nothing was imported.\n")
    }

    @Test(
        "malformed JSON in a template, facility or assignment file names the line and the column",
        arguments: ["templates", "facilities", "assignments"])
    func malformedJSONSaysWhere(kind: String) throws {
        let profile = try DemoProfile()
        let path = profile.path("\(kind).json")
        try "{\n  \"\(kind)\": [\n    {\"id\": one}\n  ]\n}\n".write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try profile.jqc([kind, "import", path])
        #expect(outcome.status == 4)
        #expect(
            outcome.stderr
                == "jqc: '\(path)': the text is not valid JSON: it is malformed at line 3, column 12: unexpected character 'o' there. Nothing was imported.\n",
            "\(outcome.stderr)")
    }

    @Test("lint lists every problem of a file and exits 4; a good file passes")
    func lint() throws {
        let profile = try DemoProfile()
        let bad = try profile.document([
            "templates", "lint", Fixtures.url("templates/malformed-missing-options.json").path,
        ])
        #expect(bad.status == 4)
        #expect(bad.value.errorCode == "TEMPLATE_INVALID")
        #expect((bad.value["error"]?["problems"]?.arrayValue?.count ?? 0) >= 3)
        #expect(try profile.jqc(["templates", "lint", DemoFiles.path("templates.json")]).status == 0)
    }

    @Test(
        "wrong-typed answers are refused in one line naming the field (exit 4); saved answers stay",
        arguments: [
            (["2", "great"], "Field '2' (Floors):"),
            (["2", "--value-json", "\"4\""], "Field '2' (Floors):"),
            (["10", "twelve"], "Field '10' (Paper towel packs left in store room):"),
            (["11", "2026-02-30"], "Field '11' (Last deep clean):"),
            (["6", "Excellent"], "Field '6' (Odour):"),
            (["16", "not an email"], "Field '16' (Site contact email):"),
            (["12", "Colour=red", "--add-row"], "Field '12' (Fixtures needing work):"),
            (["2", "--value-json", "{oops"], "is not JSON"),
        ])
    func wrongTypedAnswers(arguments: [String], message: String) throws {
        let profile = try DemoProfile()
        let id = try draftWithAnswers(profile)
        let outcome = try profile.jqc(["answer", id] + arguments)
        #expect(outcome.status == 4)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        #expect(outcome.stdout.isEmpty)
        try expectIntact(profile, id)
    }

    @Test(
        "unknown ids exit 3 with one line saying where to look",
        arguments: [
            (["show", "0000aaaa"], "No report '0000aaaa' on this device"),
            (["answer", "REPORT", "99", "4"], "has no field '99'"),
            (["start", "--template", "nope", "--facility", "F-100"], "Template 'nope' is not on this device"),
            (["start", "--template", "101", "--facility", "F-999"], "Facility 'F-999' is not on this device"),
            (["start", "--template", "101", "--facility", "F-100", "--area", "A-999"], "has no area 'A-999'"),
            (["start", "--assignment", "AS-404"], "No assignment 'AS-404'"),
            (["areas", "F-999"], "No facility 'F-999'"),
            (["templates", "import", "/nonexistent/templates.json"], "No file '/nonexistent/templates.json'"),
        ])
    func unknownIDs(arguments: [String], message: String) throws {
        let profile = try DemoProfile()
        let id = try draftWithAnswers(profile)
        let outcome = try profile.jqc(arguments.map { $0 == "REPORT" ? id : $0 })
        #expect(outcome.status == 3)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        try expectIntact(profile, id)
    }

    @Test("with --json an error is one JSON document on stdout with its code")
    func jsonError() throws {
        let profile = try DemoProfile()
        let outcome = try profile.jqc(["show", "0000aaaa", "--json"])
        #expect(outcome.status == 3)
        let document = try JSONValue.parse(Data(outcome.stdout.utf8))
        #expect(document.errorCode == "NOT_FOUND")
        #expect(document.errorMessage.hasPrefix("No report '0000aaaa'"))
        #expect(outcome.stderr.isEmpty)
    }

    @Test("completing with required answers missing lists every one (exit 4) and changes nothing")
    func missingRequired() throws {
        let profile = try DemoProfile()
        let id = try draftWithAnswers(profile)
        let outcome = try profile.jqc(["complete", id])
        #expect(outcome.status == 4)
        let problems = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("  - ") }
        #expect(problems.count == 4, "fields 3, 4, 6 and 18 are required and unanswered: \(outcome.stderr)")
        #expect(try profile.show(id)["state"] == "DRAFT")
        try expectIntact(profile, id)
    }

    @Test("actions the state does not allow exit 5 and say what is possible")
    func stateRules() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        #expect(try profile.jqc(["complete", id]).status == 0)
        let edit = try profile.jqc(["answer", id, "15", "late change"])
        #expect(edit.status == 5)
        #expect(edit.stderr.contains("PENDING and cannot be edited"))
        let delete = try profile.jqc(["delete", id, "--yes"])
        #expect(delete.status == 5)
        #expect(delete.stderr.contains("only drafts can be deleted"))
        #expect(try profile.show(id)["answers"]?["15"] == nil)
    }

    @Test(
        "usage errors exit 2 with one line on stderr",
        arguments: [
            ["start"], ["answer"], ["list", "--state", "DONE"], ["show", "x", "--bogus"],
            ["export", "x", "--format", "docx"],
        ])
    func usage(arguments: [String]) throws {
        let profile = try DemoProfile()
        let outcome = try profile.jqc(arguments)
        #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }

    @Test("a damaged store file is refused in one line (exit 1) and left as it was")
    func corruptStore() throws {
        let home = TemporaryDirectory(prefix: "jqc-corrupt")
        let storePath = home.path("jqc.sqlite")
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        try garbage.write(to: URL(fileURLWithPath: storePath))
        let outcome = try Programs.run("jqc", ["--home", home.url.path, "list"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("left untouched") || outcome.stderr.contains("left as it is"), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: storePath)) == garbage)
    }
}
