import FieldTypes
import Foundation
import Models
import Testing

/// Answers given to one version of a template, read by the next: what a
/// draft keeps when it moves, and what a re-inspection of an older parent starts with.
@Suite("Answers mapped onto a new template version")
struct AnswerMappingTests {
    static let old = FormSchema(fields: [
        field("text", id: "1", label: "Note"),
        FieldDefinition(id: "2", type: "rating", label: "Floors", required: true, max: 5),
        field("text", id: "3", label: "Soap count"),
        field("text", id: "4", label: "Bins"),
        field("text", id: "7", label: "Old question"),
        field("signature", id: "8", label: "Inspector"),
        field("text", id: "9", label: "Becomes a heading"),
    ])
    static let new = FormSchema(fields: [
        field("text", id: "1", label: "Note"),
        FieldDefinition(id: "2", type: "rating", label: "Floors", required: true, max: 5),
        field("number", id: "3", label: "Soap count"),
        field("number", id: "4", label: "Bins"),
        field("signature", id: "8", label: "Inspector"),
        field("section", id: "9", label: "A heading now"),
        FieldDefinition(id: "10", type: "pass_fail", label: "Mirrors", required: true),
        field("text", id: "11", label: "Optional new"),
    ])
    static let answers = Answers([
        "1": "all fine", "2": 4, "3": "12", "4": "a dozen", "7": "gone", "8": signature("Dana"), "9": "x",
    ])

    @Test("same field and a type that reads the answer: kept; a retyped field's answer read by its new type")
    func kept() {
        let mapping = registry.mapAnswers(Self.answers, from: Self.old, to: Self.new, at: context.deviceTime)
        #expect(mapping.kept["1"] == "all fine" && mapping.kept["2"] == 4)
        #expect(mapping.kept["3"] == 12, "text '12' became the number 12")
        #expect(mapping.kept["8"] == signature("Dana"), "a signature still valid is kept as it is")
    }

    @Test(
        "a removed field, an answer the new type refuses and a field that no longer takes answers: set aside with why, never dropped"
    )
    func setAside() {
        let mapping = registry.mapAnswers(Self.answers, from: Self.old, to: Self.new, at: context.deviceTime)
        let aside = Dictionary(uniqueKeysWithValues: mapping.setAside.map { ($0.fieldID, $0) })
        #expect(Set(aside.keys) == ["4", "7", "9"])
        #expect(aside["7"]?.reason == "field 7 was removed" && aside["7"]?.answer == "gone")
        #expect(
            aside["4"]?.answer == "a dozen" && aside["4"]?.reason.contains("'a dozen' is not a number") == true,
            "\(String(describing: aside["4"]))")
        #expect(aside["9"]?.reason.contains("takes no answer") == true)
        // Every answer is somewhere: kept or set aside.
        #expect(Set(mapping.kept.answeredIDs).union(aside.keys) == Set(Self.answers.answeredIDs))
    }

    @Test("required fields the new version adds are left unanswered and named; optional ones are not")
    func newRequired() {
        let mapping = registry.mapAnswers(Self.answers, from: Self.old, to: Self.new, at: context.deviceTime)
        #expect(mapping.newRequired == ["10"])
        #expect(mapping.kept["10"] == nil)
    }

    @Test("a text answer never becomes a signature, nor a photo: nothing may forge them")
    func noForgery() {
        let old = FormSchema(fields: [field("text", id: "s"), field("text", id: "p")])
        let new = FormSchema(fields: [field("signature", id: "s"), field("image", id: "p")])
        let mapping = registry.mapAnswers(
            Answers(["s": "Dana", "p": .string(photoA)]), from: old, to: new, at: context.deviceTime)
        #expect(mapping.kept.isEmpty)
        #expect(mapping.setAside.map(\.fieldID) == ["s", "p"])
    }

    @Test("a re-inspection of a parent on an older version goes through the same mapping")
    func prefillFromOlderParent() {
        let prefilled = registry.prefill(
            from: Self.answers, parentSchema: Self.old, schema: Self.new, at: context.deviceTime)
        #expect(prefilled["3"] == 12, "read by the retyped field, as a moving draft's is")
        #expect(prefilled["1"] == "all fine")
        #expect(prefilled["2"] == nil && prefilled["8"] == nil, "ratings and signatures are never copied")
        #expect(prefilled["4"] == nil && prefilled["7"] == nil)
    }
}
