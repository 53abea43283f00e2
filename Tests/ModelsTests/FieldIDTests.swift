import Foundation
import Testing
import Models

@Suite("Field ids: integers or strings in schemas, always strings afterwards")
struct FieldIDTests {
    @Test(
        "a JSON integer id becomes its decimal string, never 'Optional(5)'",
        arguments: [
            ("5", "5"), ("\"5\"", "5"), ("12345678901", "12345678901"), ("-3", "-3"), ("5.0", "5"), ("\"q-1\"", "q-1"),
        ])
    func decode(json: String, expected: String) throws {
        let value = try JSONValue.parse(json)
        let id = try #require(FieldID(json: value))
        #expect(id.rawValue == expected)
        #expect(!id.rawValue.contains("Optional"))
    }

    @Test(
        "ids that are neither integers nor non-empty strings are refused",
        arguments: ["true", "5.5", "\"\"", "null", "[5]", "{\"id\":5}"])
    func refuse(json: String) throws {
        #expect(FieldID(json: try JSONValue.parse(json)) == nil)
    }

    @Test("an integer id in a schema finds the answer stored under its string key")
    func schemaAndAnswersAgree() throws {
        let schema = try FormSchema.decode(
            JSONValue.parse(#"{"fields": [{"id": 5, "type": "rating", "label": "Floors"}]}"#)
        ).get()
        let answers = try #require(Answers(json: JSONValue.parse(#"{"5": 4}"#)))
        #expect(answers[schema.fields[0].id] == .integer(4))
    }

    @Test("the integer 5 and the string \"5\" are the same id, so a schema using both is refused")
    func duplicateAcrossKinds() throws {
        let result = FormSchema.decode(
            try JSONValue.parse(#"{"fields": [{"id": 5, "type": "text"}, {"id": "5", "type": "text"}]}"#))
        guard case .failure(let errors) = result else {
            Issue.record("a duplicate id was accepted")
            return
        }
        #expect(errors.problems.count == 1)
        #expect(errors.description.contains("field '5'"))
        #expect(errors.description.contains("already used by field #1"))
    }

    @Test("ids are written back as strings")
    func encode() throws {
        let data = try JSONEncoder().encode([FieldID(json: .integer(7))!])
        #expect(String(decoding: data, as: UTF8.self) == #"["7"]"#)
    }
}
