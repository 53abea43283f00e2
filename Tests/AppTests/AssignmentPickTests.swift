import Foundation
import Models
import Testing
import TestSupport

/// `jqc start --template --facility [--area]` takes the open assignment the
/// inspection fulfils, says so, asks (or stops, off a terminal) when several
/// do, and takes none with `--no-assignment`.
@Suite("Starting from a template takes the open assignment it fulfils")
struct AssignmentPickTests {
    /// A demo profile holding `assignments` (id, facility, area, due in hours from now) of lobby-walk.
    static func profile(_ assignments: [(String, String, String?, Double)]) throws -> DemoProfile {
        let profile = try DemoProfile()
        let lines = assignments.map { id, facility, area, hours in
            let due = RFC3339.string(Date().addingTimeInterval(hours * 3600))
            let place = area.map { #", "area_id": "\#($0)""# } ?? ""
            return
                #"{"id": "\#(id)", "template_id": "lobby-walk", "facility_id": "\#(facility)"\#(place), "due_at": "\#(due)", "status": "open"}"#
        }
        let file = profile.path("work.json")
        try #"{"assignments": [\#(lines.joined(separator: ", "))], "cursor": "x"}"#.write(
            toFile: file, atomically: true, encoding: .utf8)
        let imported = try profile.jqc(["assignments", "import", file])
        try #require(imported.status == 0, "import: \(imported.stderr)")
        return profile
    }

    @Test("the one overdue assignment at the place is taken and named; a second start there takes none")
    func takesTheOne() throws {
        let profile = try Self.profile([("AS-LATE", "F-200", "A-201", -1), ("AS-NEXT-WEEK", "F-200", "A-201", 24 * 7)])
        let started = try profile.jqc(["start", "--template", "lobby-walk", "--facility", "F-200", "--area", "A-201"])
        #expect(started.status == 0, "\(started.stderr)")
        #expect(started.stdout.contains("for assignment AS-LATE."), "\(started.stdout)")
        let again = try profile.document([
            "start", "--template", "lobby-walk", "--facility", "F-200", "--area", "A-201",
        ])
        #expect(again.status == 0)
        #expect(again.value["assignment_id"] == .null, "\(again.value)")
    }

    @Test(
        "several open assignments match: off a terminal, exit 2 naming each and nothing started; --no-assignment takes none"
    )
    func severalMatch() throws {
        let profile = try Self.profile([
            ("AS-ONE", "F-200", nil, -1), ("AS-TWO", "F-200", nil, -2), ("AS-LATER", "F-200", nil, 24 * 3),
            ("AS-ELSEWHERE", "F-300", nil, -1),
        ])
        let before = try #require(try profile.document(["list"]).value["reports"]?.arrayValue?.count)
        let refused = try profile.jqc(["start", "--template", "lobby-walk", "--facility", "F-200"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("AS-ONE") && refused.stderr.contains("AS-TWO"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("AS-LATER") && !refused.stderr.contains("AS-ELSEWHERE"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--no-assignment"))
        #expect(try profile.document(["list"]).value["reports"]?.arrayValue?.count == before)
        let plain = try profile.document([
            "start", "--template", "lobby-walk", "--facility", "F-200", "--no-assignment",
        ])
        #expect(plain.status == 0)
        #expect(plain.value["assignment_id"] == .null)
        let chosen = try profile.document(["start", "--assignment", "AS-TWO"])
        #expect(chosen.value["assignment_id"]?.stringValue == "AS-TWO")
    }
}
