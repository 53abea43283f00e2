import Foundation
import Models

/// One kind of form field: everything the apps and the server need to know
/// about it, from checking a template's definition to scoring an answer.
///
/// A conformance is a small stateless value. It never performs I/O and never
/// reads globals; whatever it needs from outside (the device's clock, the
/// report's content digest) arrives in its arguments.
///
/// Every method takes the field's definition, because the same type behaves
/// differently per field (a rating's `max`, a radio's `options`). Methods that
/// read answers must accept any JSON without crashing: answers can come from
/// old clients, other servers or hand-edited files.
public protocol FieldType: Sendable {
    /// The name templates use in a field's `type` key, such as `"rating"`:
    /// lowercase letters, digits and underscores.
    var name: String { get }

    /// False for display-only types (`section`, `label`) that never take an answer.
    var isAnswerable: Bool { get }

    /// True when answers count towards the inspection's score.
    var isScoreable: Bool { get }

    /// True when a re-inspection starts with the parent report's answer.
    /// Observations made on the day (ratings, pass/fail, photos, signatures)
    /// must be made again, so those types say false.
    var copiesOnReinspection: Bool { get }

    /// True when the answer is a list of photos attached to the report
    /// (imported from files, not typed): what the runner and the menu offer
    /// a file path for, whatever the type is called.
    var takesPhotos: Bool { get }

    /// False when nothing is typed at all (an image field: photos only). A
    /// type that takes photos and typed text (a meter reading with its photo)
    /// says true; the runner then takes a line that looks like a file's path
    /// for a photo and anything else for typed input.
    var takesTypedAnswers: Bool { get }

    /// The answer after photo `id` (a local id, lowercase) is attached to the
    /// field: for types that take photos; by default the list of ids grows.
    func attachingPhoto(_ id: String, to existing: JSONValue?, for field: FieldDefinition) -> JSONValue

    /// The answer to store when a person typed `typed` (what `parse` made)
    /// over `existing`: by default `typed`; a type whose answer also holds
    /// attached photos keeps them.
    func mergingTyped(_ typed: JSONValue, into existing: JSONValue?, for field: FieldDefinition) -> JSONValue

    /// True when the answer is a list of rows that `--add-row` (and the
    /// runner, a row at a time) extends rather than replaces.
    var holdsRows: Bool { get }

    /// `existing` followed by the rows of `rows` (an answer `parse` made);
    /// refused for types that do not hold rows, and when `existing` is not rows.
    func appendingRows(_ rows: JSONValue, to existing: JSONValue?, for field: FieldDefinition) throws(AnswerInputError)
        -> JSONValue

    /// How a valid, non-blank answer is laid out in a document (the HTML
    /// export); by default the one-line display.
    func layout(_ answer: JSONValue, for field: FieldDefinition) -> AnswerLayout

    /// True when an answer vouches for the rest of the report, as a
    /// signature does: such answers are left out of the report's fingerprint,
    /// and an answer given before another answer changed no longer holds.
    var vouchesForReport: Bool { get }

    /// The report fingerprint (SHA-256, lowercase hex) an answer vouched for
    /// when it was given; nil when it records none (a signature image).
    func vouchedFingerprint(_ answer: JSONValue) -> String?

    /// The last revision a vouching answer sealed, when a later revision made
    /// by someone else kept it (`"covers_revision": N`); nil when it claims
    /// the revision it is in.
    func coveredRevision(_ answer: JSONValue) -> Int?

    /// A vouching answer kept in a revision someone other than its giver
    /// made, marked as covering `revision` (the last one it sealed); an
    /// answer already marked, or one that vouches for nothing, is returned as it is.
    func covering(_ answer: JSONValue, revision: Int) -> JSONValue

    /// True when the report's fingerprint covers this field's answer: what a
    /// person typed or chose. Photos (sealed by their own SHA-256) and answers
    /// that vouch for the report are left out.
    var isFingerprinted: Bool { get }

    /// Every type-specific problem of a field's definition, each naming the
    /// field and saying how to fix it. The keys every field shares (id, label,
    /// weight...) are checked by Models and by the registry, not here.
    func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem]

    /// True when `answer` is this type's encoding of "no answer": JSON null,
    /// a blank string, an empty list (and a rating of 0). Blank answers are
    /// valid and count as unanswered for completion and scoring.
    func isBlank(_ answer: JSONValue) -> Bool

    /// Checks an answer against the contract's encoding for this type.
    /// Returns nil when it is valid, otherwise one line saying what is wrong.
    func validate(_ answer: JSONValue, for field: FieldDefinition) -> String?

    /// Reads an answer typed by a person (`4`, `pass`, `yes`, `Col=value`)
    /// into the contract's encoding. The result always passes `validate`.
    func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError) -> JSONValue

    /// How to answer, one hint per line, for the interactive runner
    /// (numbered choices, the star scale, the table's columns).
    func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String]

    /// The runner's hint for this field of one report (`context` names it),
    /// when the hint needs to say which report; by default `prompt(for:style:)`.
    func prompt(for field: FieldDefinition, style: TerminalStyle, context: InputContext) -> [String]

    /// The answer as one non-empty terminal line; nil is an unanswered field.
    /// Wrong-typed JSON is shown as unreadable, never a crash.
    func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String

    /// What the answer contributes to the score. Nil or blank answers are
    /// `.unanswered`, `"N/A"` is `.notApplicable` for scoreable types, and
    /// non-scoreable types always give `.notScoreable`.
    func score(_ answer: JSONValue?, for field: FieldDefinition) -> FieldScore

    // MARK: Form logic (`visible_when`, `required_when`, `calculate`); defaults in `FieldType+Logic.swift`

    /// The kind of value conditions compare for this type (a rating's number,
    /// a pass/fail keyword); nil when answers are only answered or not.
    var logicKind: LogicKind? { get }

    /// Every condition operator this type supports; `answered` and
    /// `unanswered` always, `passed`/`failed` judged as `score` judges a critical field.
    var logicOperators: Set<LogicOperator> { get }

    /// The value a condition compares for an answer; nil when it cannot be
    /// compared (blank, `"N/A"`, unreadable): every comparison is then false.
    func logicValue(of answer: JSONValue, for field: FieldDefinition) -> LogicValue?

    /// A condition's `"value"` read as this type compares it; nil when it is
    /// of the wrong kind (a lint problem, and false at run time).
    func logicOperand(_ literal: JSONValue, for field: FieldDefinition) -> LogicValue?

    /// True when a field of this type may carry `calculate` (a value of its
    /// `logicKind`, stored as an ordinary answer).
    var holdsCalculation: Bool { get }

    /// True for headings (`section`): a `visible_when` on one hides every
    /// field after it up to the next heading.
    var startsSection: Bool { get }

    // MARK: Availability

    /// Nil when the type can judge answers in this process; otherwise one
    /// line saying why it cannot (an external field type whose program is
    /// missing, failed or too slow). An unavailable type keeps answers as an
    /// unsupported one does; a required field of it blocks completion with
    /// this line, and the server refuses reports that use it.
    var unavailableReason: String? { get }
}

extension FieldType {
    /// Most types are answerable.
    public var isAnswerable: Bool { true }

    /// Most types are not scored.
    public var isScoreable: Bool { false }

    /// Most types carry their answer over to a re-inspection.
    public var copiesOnReinspection: Bool { true }

    /// Most types are typed, not photographed.
    public var takesPhotos: Bool { false }

    /// Most types are typed.
    public var takesTypedAnswers: Bool { true }

    /// The existing list of photo ids with `id` appended (once).
    public func attachingPhoto(_ id: String, to existing: JSONValue?, for field: FieldDefinition) -> JSONValue {
        var ids = existing?.arrayValue ?? []
        if !ids.contains(.string(id)) { ids.append(.string(id)) }
        return .array(ids)
    }

    /// What was typed replaces the answer.
    public func mergingTyped(_ typed: JSONValue, into existing: JSONValue?, for field: FieldDefinition) -> JSONValue {
        typed
    }

    /// Most answers are one value, not rows.
    public var holdsRows: Bool { false }

    /// Refused: only types that hold rows append them.
    public func appendingRows(_ rows: JSONValue, to existing: JSONValue?, for field: FieldDefinition)
        throws(AnswerInputError) -> JSONValue
    {
        throw AnswerInputError(
            input: rows.canonicalString(),
            message: "\(field.messageName) is a \(name) field and holds no rows; '--add-row' is for fields that do")
    }

    /// The one-line display, without colour.
    public func layout(_ answer: JSONValue, for field: FieldDefinition) -> AnswerLayout {
        .line(display(answer, for: field, style: .plain))
    }

    /// Most answers vouch for nothing but themselves.
    public var vouchesForReport: Bool { false }

    /// No fingerprint recorded.
    public func vouchedFingerprint(_ answer: JSONValue) -> String? { nil }

    /// Claims no earlier revision.
    public func coveredRevision(_ answer: JSONValue) -> Int? { nil }

    /// Vouching for nothing, nothing to mark.
    public func covering(_ answer: JSONValue, revision: Int) -> JSONValue { answer }

    /// Typed and chosen answers are covered; photos and vouching answers are not.
    public var isFingerprinted: Bool { isAnswerable && !takesPhotos && !vouchesForReport }

    /// The hint does not depend on the report.
    public func prompt(for field: FieldDefinition, style: TerminalStyle, context: InputContext) -> [String] {
        prompt(for: field, style: style)
    }

    /// No type-specific keys to check.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] { [] }

    /// Null, a string of only whitespace, or an empty list.
    public func isBlank(_ answer: JSONValue) -> Bool {
        switch answer {
        case .null: return true
        case .string(let s): return s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        case .array(let a): return a.isEmpty
        default: return false
        }
    }

    /// A one-line hint naming the type.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        ["Type the answer (\(name))."]
    }

    /// Not scored.
    public func score(_ answer: JSONValue?, for field: FieldDefinition) -> FieldScore { .notScoreable }

    /// A compiled-in type is always available.
    public var unavailableReason: String? { nil }
}
