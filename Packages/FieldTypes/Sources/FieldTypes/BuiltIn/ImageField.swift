import Foundation
import Models

/// `image`: photos, stored as a list of photo local ids (UUIDs); the photos
/// themselves travel separately and may arrive after the report. Attached
/// with `jqc photo add`, never typed; never copied to a re-inspection.
public struct ImageField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"image"`.
    public var name: String { "image" }
    /// Conditions can only ask whether it is answered: there is no value to compare.
    public var logicKind: LogicKind? { nil }
    /// A re-inspection takes new photos.
    public var copiesOnReinspection: Bool { false }

    /// A list of distinct UUID strings.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        guard case .array(let items) = answer else {
            return "an image answer " + Refusal.wrongKind(answer, expected: "a list of photo local ids")
        }
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            guard case .string(let id) = item, UUID(uuidString: id) != nil else {
                return
                    "item \(index + 1) of the image answer must be a photo local id (a UUID), not \(Refusal.describe(item))"
            }
            guard seen.insert(id.lowercased()).inserted else {
                return "photo \(id) is listed twice; list each photo once"
            }
        }
        return nil
    }

    /// Always refused: photos are files, attached with a command.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        throw AnswerInputError(
            input: input,
            message:
                "\(field.messageName) takes photos, not typed text (\(OneLine.quote(input))); attach them with: \(Self.command(field, context.reportLocalID))"
        )
    }

    /// Its answer is the photos attached to it.
    public var takesPhotos: Bool { true }
    /// Nothing is typed: every line at the field is a photo's path.
    public var takesTypedAnswers: Bool { false }

    /// The photos, by local id.
    public func layout(_ answer: JSONValue, for field: FieldDefinition) -> AnswerLayout {
        .photos(ids: (answer.arrayValue ?? []).compactMap(\.stringValue).map { $0.lowercased() }, caption: nil)
    }

    /// How to attach photos.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        ["Attach photos with: \(Self.command(field, nil))"]
    }

    /// How to attach photos to this report: here, type the files' paths.
    public func prompt(for field: FieldDefinition, style: TerminalStyle, context: InputContext) -> [String] {
        [
            "Type the path of a photo (several separated by spaces) to attach it, or later: \(Self.command(field, context.reportLocalID.map { String($0.prefix(8)) }))"
        ]
    }

    /// `2 photos`.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer) else { return AnswerDisplay.noAnswer(style) }
        guard case .array(let items) = answer, validate(answer, for: field) == nil else {
            return AnswerDisplay.unreadable(answer, style)
        }
        return items.count == 1 ? "1 photo" : "\(items.count) photos"
    }

    static func command(_ field: FieldDefinition, _ reportID: String?) -> String {
        let id =
            field.id.rawValue.contains(where: { $0 == " " || $0 == "'" })
            ? OneLine.quote(field.id.rawValue) : OneLine.flatten(field.id.rawValue, lineBreak: " ")
        return "jqc photo add \(reportID.map { OneLine.flatten($0, lineBreak: " ") } ?? "LOCAL_ID") --field \(id) FILE"
    }
}
