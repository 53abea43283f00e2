import FieldTypes
import FormLogic
import Models
import Testing
import TestSupport

/// The demo template `washroom-logic` shipped in `Tools/demo/templates.json`.
@Suite struct DemoLogicTemplateTests {
    func demo() throws -> Template {
        let objects = try #require(DemoFiles.json("templates.json")["templates"]?.arrayValue)
        let object = try #require(objects.first { $0["id"] == "washroom-logic" })
        return try Template.decode(object).get()
    }

    @Test("it uses visible_when (on a section and on a field), required_when and calculate, with no logic problem")
    func usesEveryKey() throws {
        let template = try demo()
        let keys = Set(template.schema.fields.flatMap { $0.raw.keys })
        #expect(keys.isSuperset(of: ["visible_when", "required_when", "calculate"]))
        let logic = FormLogic(schema: template.schema, registry: registry)
        #expect(logic.problems.isEmpty && logic.warnings.isEmpty, "\(logic.problems)")
        #expect(registry.check(template.schema).isEmpty)
    }

    @Test("it is the form the shared test vectors call washroom-logic")
    func sameAsVectors() throws {
        let vector = try #require(try LogicVector.all().first { $0.templateName == "washroom-logic" })
        #expect(try demo().schema == vector.schema)
    }
}
