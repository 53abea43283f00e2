import Models

/// What the logic says about a form for one set of answers: which fields are
/// visible and required, and the answers with every calculation applied.
/// A value; `FormLogic.updating` makes the next one after an answer changes.
public struct FormState: Sendable, Equatable {
    let ids: [FieldID]
    let positions: [FieldID: Int]
    var visible: [Bool]
    var required: [Bool]
    /// Each field's answer, calculated fields holding their computed value.
    var values: [JSONValue?]
    /// For a hidden field, the field whose condition hides it (itself or its section).
    var hiddenBy: [Int?]
    /// The stored answers keyed by ids the form does not have, kept as they are.
    var strays: [FieldID: JSONValue]

    /// True when the field is shown (an unknown id is not).
    public func isVisible(_ id: FieldID) -> Bool { positions[id].map { visible[$0] } ?? false }

    /// True when the field is shown and must be answered to complete.
    public func isRequired(_ id: FieldID) -> Bool { positions[id].map { required[$0] } ?? false }

    /// The field whose `visible_when` hides this one (the field itself or its section); nil when shown.
    public func hiddenBy(_ id: FieldID) -> FieldID? { positions[id].flatMap { hiddenBy[$0] }.map { ids[$0] } }

    /// The ids of the hidden fields, in form order.
    public var hiddenFields: [FieldID] { ids.indices.filter { !visible[$0] }.map { ids[$0] } }

    /// Every answer, hidden fields' included, with calculations applied:
    /// what a draft stores.
    public var answers: Answers {
        var result = Answers(strays)
        for (i, id) in ids.enumerated() { if let value = values[i] { result[id] = value } }
        return result
    }

    /// The answers of visible fields only, with calculations applied: what a
    /// completed report holds and the server judges.
    public var visibleAnswers: Answers {
        var result = Answers(strays)
        for (i, id) in ids.enumerated() where visible[i] { if let value = values[i] { result[id] = value } }
        return result
    }

    /// The answer of one field as the logic sees it (a calculated field's computed value).
    public func value(_ id: FieldID) -> JSONValue? { positions[id].flatMap { values[$0] } }
}
