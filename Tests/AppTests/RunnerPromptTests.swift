import Foundation
import Testing
import TestSupport

/// What the runner says at a field's prompt, as a person reads it.
@Suite("the runner's prompt says what a field's answer means")
struct RunnerPromptTests {
    @Test("a critical field says so at its prompt: a fail fails the inspection; other fields do not")
    func criticalFieldSaysSo() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let run = try profile.jqc(["run", id], stdin: "/jump 4\n/q\n")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let soap = try #require(
            lines.firstIndex { $0.contains("Soap dispensers filled") && $0.contains("[4, pass_fail") }, "\(run.stdout)")
        #expect(lines[soap].contains("critical"), "\(lines[soap])")
        #expect(lines[soap + 1].contains("Critical: a fail here fails the whole inspection"), "\(run.stdout)")
        let floors = try #require(lines.first { $0.contains("[2, rating") }, "\(run.stdout)")
        #expect(!floors.contains("critical"), "\(floors)")
        #expect(run.stdout.components(separatedBy: "Critical: a fail here").count == 2, "only at the critical field")
    }
}
