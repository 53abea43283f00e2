import Foundation
import FieldTypes
import Models

/// `meter_reading`: a utility meter's reading (water, electricity, gas) with
/// the photo of its dial as the evidence. The definition may name the `unit`
/// shown after the number (`"kWh"`, `"m³"`).
///
/// Stored as `{"reading": number, "photos": ["<photo local id>", ...]}`;
/// either part may come first. The number is typed (`48213.7`, or with the
/// unit); photos are attached as to an image field (`jqc photo add --field`,
/// or a path typed in the runner), and typing the reading again keeps them.
/// It uses the photo capability of `FieldType` and nothing else of the
/// programs: the runner, the store and the exports handle it without knowing
/// its name. Not scored; conditions compare the reading; taken again on a
/// re-inspection.
public struct MeterReadingField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"meter_reading"`.
    public var name: String { "meter_reading" }
    /// Read again, with a new photo, on a re-inspection.
    public var copiesOnReinspection: Bool { false }
    /// Conditions compare the reading.
    public var logicKind: LogicKind? { .number }
    /// Its answer holds the photos of the dial.
    public var takesPhotos: Bool { true }
    /// And the number, typed.
    public var takesTypedAnswers: Bool { true }

    /// The unit shown after the reading, when the definition names one.
    public func unit(_ field: FieldDefinition) -> String? {
        guard let unit = field.raw["unit"]?.stringValue.map(Refusal.trimmed), !unit.isEmpty else { return nil }
        return unit
    }

    /// `unit`, when given, is a short non-blank string.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        guard let raw = field.raw["unit"], !raw.isNull else { return [] }
        guard let text = raw.stringValue, !Refusal.trimmed(text).isEmpty, text.count <= 16 else {
            return [
                field.problem("'unit' must be a short text such as \"kWh\", not \(Refusal.describe(raw)); change it")
            ]
        }
        return []
    }

    /// Null, or an object with neither a reading nor a photo.
    public func isBlank(_ answer: JSONValue) -> Bool {
        switch answer {
        case .null: return true
        case .object(let object):
            return (object["reading"] ?? .null).isNull && (object["photos"]?.arrayValue ?? []).isEmpty
        default: return false
        }
    }

    /// An object whose `reading` is a finite number at least 0 (or absent)
    /// and whose `photos` is a list of distinct photo local ids (or absent).
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        if answer.isNull { return nil }
        guard case .object(let object) = answer else {
            return "a meter reading "
                + Refusal.wrongKind(answer, expected: "{\"reading\": number, \"photos\": [photo local ids]}")
        }
        if let reading = object["reading"], !reading.isNull {
            guard let value = Numbers.finite(reading), value >= 0 else {
                return "a meter reading's 'reading' must be a number of at least 0, not \(Refusal.describe(reading))"
            }
        }
        if let photos = object["photos"], !photos.isNull {
            guard case .array(let items) = photos else {
                return "a meter reading's 'photos' must be a list of photo local ids, not \(Refusal.describe(photos))"
            }
            var seen: Set<String> = []
            for item in items {
                guard case .string(let id) = item, UUID(uuidString: id) != nil else {
                    return "a meter reading's photos must be photo local ids (UUIDs), not \(Refusal.describe(item))"
                }
                guard seen.insert(id.lowercased()).inserted else {
                    return "photo \(id) is listed twice; list each photo once"
                }
            }
        }
        for key in object.keys where key != "reading" && key != "photos" {
            return "a meter reading has only 'reading' and 'photos', not \(OneLine.quote(key))"
        }
        return nil
    }

    /// `48213.7`, or with the field's unit after it (`48213.7 kWh`).
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let expected = "the number on the dial, like 48213.7\(unit(field).map { " (in \($0))" } ?? "")"
        var text = Refusal.trimmed(input)
        guard !text.isEmpty else { throw Refusal.blankInput(input, expected: expected) }
        if let unit = unit(field), text.lowercased().hasSuffix(unit.lowercased()) {
            text = Refusal.trimmed(String(text.dropLast(unit.count)))
        }
        guard let value = Numbers.decimal(text), value >= 0 else {
            throw AnswerInputError(
                input: input, message: "\(Typed.quote(input)) is not a meter reading; type \(expected)")
        }
        return .object(["reading": Numbers.json(value)])
    }

    /// What to type, and how to add the photo.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        [
            "Type the number on the dial\(unit(field).map { " (in \($0))" } ?? ""), like 48213.7.",
            "Then type the path of the dial's photo (a .jpg or .png file) to attach it; typing the number again keeps the photos.",
        ]
    }

    /// `48213.7 kWh, 1 photo`; a reading still without its photo says so.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer) else { return AnswerDisplay.noAnswer(style) }
        guard validate(answer, for: field) == nil, case .object(let object) = answer else {
            return AnswerDisplay.unreadable(answer, style)
        }
        let photos = object["photos"]?.arrayValue?.count ?? 0
        let photoText = photos == 0 ? style.paint("no photo yet", .bad) : "\(photos) photo\(photos == 1 ? "" : "s")"
        guard let reading = Numbers.finite(object["reading"]) else { return "no reading yet, \(photoText)" }
        return "\(style.paint(readingText(reading, field), .accent)), \(photoText)"
    }

    /// The reading, for conditions.
    public func logicValue(of answer: JSONValue, for field: FieldDefinition) -> LogicValue? {
        guard case .object(let object) = answer, let reading = Numbers.finite(object["reading"]) else { return nil }
        return .number(reading)
    }

    /// The photo joins the answer's photos, the reading stays.
    public func attachingPhoto(_ id: String, to existing: JSONValue?, for field: FieldDefinition) -> JSONValue {
        var object = existing?.objectValue ?? [:]
        var photos = object["photos"]?.arrayValue ?? []
        if !photos.contains(.string(id)) { photos.append(.string(id)) }
        object["photos"] = .array(photos)
        return .object(object)
    }

    /// A new reading keeps the photos already attached.
    public func mergingTyped(_ typed: JSONValue, into existing: JSONValue?, for field: FieldDefinition) -> JSONValue {
        guard case .object(var object) = typed, let photos = existing?.objectValue?["photos"], !photos.isNull else {
            return typed
        }
        object["photos"] = photos
        return .object(object)
    }

    /// The dial's photos under the reading.
    public func layout(_ answer: JSONValue, for field: FieldDefinition) -> AnswerLayout {
        let object = answer.objectValue ?? [:]
        let ids = (object["photos"]?.arrayValue ?? []).compactMap(\.stringValue).map { $0.lowercased() }
        return .photos(
            ids: ids,
            caption: Numbers.finite(object["reading"]).map { "Reading: \(readingText($0, field))" } ?? "No reading yet")
    }

    private func readingText(_ reading: Double, _ field: FieldDefinition) -> String {
        Numbers.text(reading) + (unit(field).map { " \($0)" } ?? "")
    }
}
