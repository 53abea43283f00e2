import Models
import Testing

/// A template's `pass_threshold` (contract 1.2): a share from 0 to 1, kept
/// through the template's JSON, and refused with its fix otherwise.
@Suite("Template pass thresholds")
struct PassThresholdTests {
    static func template(_ threshold: JSONValue?) -> Result<Template, SchemaErrors> {
        var object: [String: JSONValue] = [
            "id": "t", "name": "T", "version": 1, "form_schema": ["fields": [["id": 1, "type": "checkbox"]]],
        ]
        if let threshold { object["pass_threshold"] = threshold }
        return Template.decode(.object(object))
    }

    @Test("a share from 0 to 1 is kept, and written back as it came")
    func kept() throws {
        let template = try Self.template(0.8).get()
        #expect(template.passThreshold == 0.8)
        #expect(template.json["pass_threshold"] == 0.8)
        #expect(try Self.template(nil).get().passThreshold == nil)
        #expect(try Self.template(nil).get().json["pass_threshold"] == nil)
        #expect(try Self.template(0).get().passThreshold == 0)
        #expect(try Self.template(1).get().passThreshold == 1)
    }

    @Test(
        "a percentage, a negative share or words are refused with the fix",
        arguments: [
            (JSONValue.integer(80), "'pass_threshold' is 80, but it must be from 0 to 1 (write 0.8 for 80%)"),
            (-0.5, "'pass_threshold' is -0.5, but it must be from 0 to 1"),
            ("80%", "'pass_threshold' must be a number from 0 to 1, not a string"),
        ])
    func refused(_ value: JSONValue, _ expected: String) {
        guard case .failure(let errors) = Self.template(value) else {
            Issue.record("accepted \(value)")
            return
        }
        #expect(errors.problems.contains { $0.message.contains(expected) }, "\(errors.problems.map(\.message))")
    }
}
