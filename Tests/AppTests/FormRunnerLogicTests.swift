import FieldTypes
import JQCApp
import Models
import Testing

/// The runner's navigation around fields it does not ask: hidden by a condition, or calculated.
@Suite("The form runner skips hidden and calculated fields")
struct FormRunnerLogicTests {
    let schema = FormSchema(fields: [
        FieldDefinition(id: "1", type: "pass_fail", label: "Shower present"),
        FieldDefinition(id: "2", type: "rating", label: "Tiles"),
        FieldDefinition(id: "3", type: "number", label: "Share"),
        FieldDefinition(id: "4", type: "text", label: "Notes"),
    ])
    let registry = FieldTypeRegistry.builtIn()

    func runner(at resume: FieldID? = nil) -> FormRunner {
        var runner = FormRunner(schema: schema, registry: registry, resume: resume)
        runner.setNotAsked(["2": .hidden("it is shown only when field '1' eq \"pass\""), "3": .calculated("25")])
        return runner
    }

    @Test("moving forward and back steps over fields not asked")
    func skipping() {
        var runner = runner()
        runner.advance()
        #expect(runner.current?.id == "4")
        #expect(runner.handle("/b") == .show)
        #expect(runner.current?.id == "1")
        #expect(runner.handle(">") == .show)
        #expect(runner.current?.id == "4")
    }

    @Test("/issue SEVERITY TEXT flags an issue and stays at the field; without both it says how")
    func flagging() {
        var runner = runner()
        #expect(
            runner.handle("/issue high Tap leaking under basin 2")
                == .flagIssue(severity: "high", description: "Tap leaking under basin 2"))
        #expect(runner.current?.id == "1")
        guard case .message(let text) = runner.handle("/issue high") else {
            Issue.record("a severity alone is not an issue")
            return
        }
        #expect(text.contains("/issue SEVERITY TEXT"))
    }

    @Test("a run resuming on a field now hidden opens at the next asked one")
    func resumeOnHidden() {
        #expect(runner(at: "2").current?.id == "4")
    }

    @Test("/jump to a hidden field says which condition hides it; to a calculated one, its value; the screen stays")
    func jumps() {
        var runner = runner()
        #expect(
            runner.handle("/jump 2")
                == .message("Field '2' (Tiles) is hidden by condition: it is shown only when field '1' eq \"pass\"."))
        #expect(
            runner.handle("/jump 3")
                == .message("Field '3' (Share) is calculated from other answers (now 25); it is never asked."))
        #expect(runner.current?.id == "1")
        #expect(runner.handle("/jump 4") == .show)
        #expect(runner.current?.id == "4")
    }

    @Test("when a field becomes visible again it is asked again")
    func unhiding() {
        var runner = runner()
        runner.setNotAsked([:])
        runner.advance()
        #expect(runner.current?.id == "2")
    }
}
