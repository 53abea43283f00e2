import Foundation
import Models

/// How answers given to one version of a template read in another, field by
/// field: what is kept (as it was, or as the new type reads it), what is set
/// aside and why, and which required fields the new version adds unanswered.
/// A value made by `FieldTypeRegistry.mapAnswers`; moving a draft onto a new
/// version and pre-filling a re-inspection from an older parent both use it.
public struct AnswerMapping: Sendable, Hashable {
    /// The answers the new version takes, by field id.
    public var kept: Answers
    /// The answers it cannot take, with why; in the old version's field order.
    public var setAside: [SetAsideAnswer]
    /// Required fields of the new version that the old one did not require
    /// (or did not have), left unanswered; in the new version's order.
    public var newRequired: [FieldID]

    /// A mapping.
    public init(kept: Answers, setAside: [SetAsideAnswer], newRequired: [FieldID]) {
        self.kept = kept
        self.setAside = setAside
        self.newRequired = newRequired
    }
}

extension FieldTypeRegistry {
    /// Maps `answers`, given to `old` (nil when that version is unknown here),
    /// onto `new`. For each answer: a field the new version removed, or made
    /// a heading or label, sets it aside; an answer the new field's type
    /// accepts as it is stays; otherwise, when the new type is typed (not a
    /// photo, not a signature, which nothing may forge), the old answer's
    /// text is read by the new type as typed input would be (`"12"` becomes
    /// the number 12), and set aside with the type's refusal when it cannot.
    /// `now` is the moment typed input is read at (a date typed as `today`).
    /// Pure: no I/O, any JSON accepted.
    public func mapAnswers(_ answers: Answers, from old: FormSchema?, to new: FormSchema, at now: Date) -> AnswerMapping
    {
        var kept = Answers()
        var setAside: [SetAsideAnswer] = []
        let oldOrder = old?.fields.map(\.id) ?? []
        let known = Set(oldOrder)
        let ids = oldOrder.filter { answers[$0] != nil } + answers.answeredIDs.filter { !known.contains($0) }
        for id in ids {
            guard let answer = answers[id] else { continue }
            let name = "field \(id.rawValue)"
            guard let field = new.field(id) else {
                setAside.append(SetAsideAnswer(fieldID: id, answer: answer, reason: "\(name) was removed"))
                continue
            }
            let type = resolve(field)
            guard type.isAnswerable else {
                setAside.append(
                    SetAsideAnswer(
                        fieldID: id, answer: answer, reason: "\(name) is now a \(field.type) and takes no answer"))
                continue
            }
            guard let refusal = type.validate(answer, for: field) else {
                kept[id] = answer
                continue
            }
            let changedType = old?.field(id).map { $0.type != field.type } ?? true
            if changedType, let text = Self.typedText(answer), type.takesTypedAnswers, !type.takesPhotos,
                !type.vouchesForReport
            {
                do throws(AnswerInputError) {
                    let read = try type.parse(
                        text, for: field, context: InputContext(deviceTime: now, contentDigest: ""))
                    if type.validate(read, for: field) == nil {
                        kept[id] = read
                        continue
                    }
                } catch {
                    setAside.append(
                        SetAsideAnswer(
                            fieldID: id, answer: answer,
                            reason: "\(name) is now a \(field.type) field: \(error.message)"))
                    continue
                }
            }
            setAside.append(
                SetAsideAnswer(fieldID: id, answer: answer, reason: "\(name) is now a \(field.type) field: \(refusal)"))
        }
        let required = new.fields.filter { field in
            guard field.required, resolve(field).isAnswerable, kept[field.id] == nil else { return false }
            return old?.field(field.id)?.required != true
        }.map(\.id)
        return AnswerMapping(kept: kept, setAside: setAside, newRequired: required)
    }

    /// An answer as a person would type it, for the new type to read: text
    /// as it is, numbers in JSON form, true and false as yes and no; nil for
    /// lists and objects, which no typed line holds.
    static func typedText(_ answer: JSONValue) -> String? {
        switch answer {
        case .string(let text): return text
        case .integer(let value): return String(value)
        case .double(let value) where value.isFinite: return JSONValue.double(value).canonicalString()
        case .bool(let value): return value ? "yes" : "no"
        default: return nil
        }
    }
}
