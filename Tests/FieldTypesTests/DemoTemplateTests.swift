import Testing
import Models
import FieldTypes
import TestSupport

@Suite("The shipped demo templates")
struct DemoTemplateTests {
    @Test("every demo template decodes and passes the registry's checks")
    func valid() throws {
        let registry = FieldTypeRegistry.builtIn()
        let objects = try #require(DemoFiles.json("templates.json")["templates"]?.arrayValue)
        #expect(objects.count >= 2)
        for object in objects {
            let template = try Template.decode(object).get()
            #expect(
                registry.check(template.schema).isEmpty, "template '\(template.id)': \(registry.check(template.schema))"
            )
        }
    }

    @Test("together they use every built-in field type")
    func coverage() throws {
        let objects = try #require(DemoFiles.json("templates.json")["templates"]?.arrayValue)
        let used = Set(try objects.flatMap { try Template.decode($0).get().schema.fields.map(\.type) })
        let builtIn = Set(FieldTypeRegistry.builtIn().names)
        #expect(builtIn.subtracting(used).isEmpty, "not covered: \(builtIn.subtracting(used).sorted())")
    }

    @Test("every assignment names a demo template and facility, and every area a demo facility")
    func references() throws {
        let templates = Set(
            try #require(DemoFiles.json("templates.json")["templates"]?.arrayValue).compactMap {
                $0["id"].flatMap(FieldID.init(json:))?.rawValue
            })
        let facilitiesFile = try DemoFiles.json("facilities.json")
        let facilities = Set(
            try #require(facilitiesFile["facilities"]?.arrayValue).compactMap { $0["id"]?.stringValue })
        for area in try #require(facilitiesFile["areas"]?.arrayValue) {
            #expect(facilities.contains(area["facility_id"]?.stringValue ?? ""))
        }
        for assignment in try #require(DemoFiles.json("assignments.json")["assignments"]?.arrayValue) {
            #expect(templates.contains(assignment["template_id"].flatMap(FieldID.init(json:))?.rawValue ?? ""))
            #expect(facilities.contains(assignment["facility_id"]?.stringValue ?? ""))
        }
    }
}
