import Testing
import FieldTypes
import JQCApp
import Models

@Suite("The form runner's navigation")
struct FormRunnerTests {
    let schema = FormSchema(fields: [
        FieldDefinition(id: "h", type: "section", label: "Cleanliness"),
        FieldDefinition(id: "1", type: "rating", label: "Floors", required: true),
        FieldDefinition(id: "2", type: "pass_fail", label: "Soap"),
        FieldDefinition(id: "note", type: "label", label: "Look under the sinks"),
        FieldDefinition(id: "3", type: "table", label: "Fixtures", columns: ["Fixture", "Problem"]),
        FieldDefinition(id: "4", type: "text", label: "Notes"),
    ])
    let registry = FieldTypeRegistry.builtIn()

    @Test("only answerable fields are steps, in form order")
    func steps() {
        let runner = FormRunner(schema: schema, registry: registry, resume: nil)
        #expect(runner.steps.map(\.id) == ["1", "2", "3", "4"])
        #expect(runner.current?.id == "1")
    }

    @Test("a run reopens at the field where the last one stopped")
    func resume() {
        #expect(FormRunner(schema: schema, registry: registry, resume: "3").current?.id == "3")
        #expect(FormRunner(schema: schema, registry: registry, resume: "gone").current?.id == "1")
    }

    @Test("a typed line answers the field on screen; a table takes it as one more row")
    func answers() {
        var runner = FormRunner(schema: schema, registry: registry, resume: nil)
        #expect(runner.handle("4") == .save("1", .typed("4")))
        runner.go(to: "3")
        #expect(
            runner.handle("Fixture=Sink;Problem=leak", holdsRows: true)
                == .save("3", .addRow("Fixture=Sink;Problem=leak")))
    }

    @Test("back, skip, jump and Enter move between fields")
    func navigation() {
        var runner = FormRunner(schema: schema, registry: registry, resume: nil)
        #expect(runner.handle("/b") == .message("This is the first field."))
        #expect(runner.handle("") == .show)
        #expect(runner.current?.id == "2")
        #expect(runner.handle(">") == .show)
        #expect(runner.current?.id == "3")
        #expect(runner.handle("<") == .show)
        #expect(runner.current?.id == "2")
        #expect(runner.handle("/jump 4") == .show)
        #expect(runner.current?.id == "4")
        #expect(runner.handle("/j 1") == .show, "a number is a position when no field has that id")
        #expect(runner.current?.id == "1")
        #expect(
            runner.handle("/jump 99") == .message("No field '99' in this form; use a field id or a number from 1 to 4.")
        )
    }

    @Test("past the last field there is the end screen, where answers are refused")
    func end() {
        var runner = FormRunner(schema: schema, registry: registry, resume: "4")
        runner.advance()
        #expect(runner.current == nil)
        #expect(
            runner.handle("x")
                == .message(
                    "You are past the last field: /done completes the report, /b goes back, /q saves and quits."))
        #expect(runner.handle("/b") == .show)
        #expect(runner.current?.id == "4")
    }

    @Test("commands: clear, done, quit, help; '//' starts an answer with a slash; unknown commands are explained")
    func commands() {
        var runner = FormRunner(schema: schema, registry: registry, resume: "4")
        #expect(runner.handle("/clear") == .save("4", .clear))
        #expect(runner.handle("/done") == .complete)
        #expect(runner.handle("/q") == .quit)
        #expect(runner.handle("/help") == .help)
        #expect(runner.handle("//etc/hosts is fine") == .save("4", .typed("/etc/hosts is fine")))
        #expect(
            runner.handle("/frob")
                == .message(
                    "'/frob' is not a runner command; type /help for the list, or // to start an answer with '/'."))
    }
}
