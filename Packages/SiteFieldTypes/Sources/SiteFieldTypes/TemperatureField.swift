import Foundation
import FieldTypes
import Models

/// `temperature`: a reading from a thermometer (a fridge, hot water, a
/// dishwasher rinse). The definition names its `unit` (`"C"` or `"F"`,
/// default `"C"`) and the allowed range `allowed_min`...`allowed_max`, both
/// required, in that unit. (Not `min`/`max`: the contract reads a field's
/// `max` as a whole number, and ranges such as 63.5 are common.)
///
/// Stored as `{"value": number, "unit": "C"|"F"}`; a bare number is read in
/// the field's unit. Scored: inside the range (inclusive, after converting)
/// scores 1 and passes, outside scores 0 and fails, `"N/A"` is excluded, so
/// a critical temperature out of range fails the inspection. A reading is
/// taken again on a re-inspection: never copied.
public struct TemperatureField: FieldType {
    /// A temperature unit.
    public enum Unit: String, Sendable, CaseIterable {
        /// Degrees Celsius.
        case celsius = "C"
        /// Degrees Fahrenheit.
        case fahrenheit = "F"

        /// `value` in this unit converted to `other`.
        public func convert(_ value: Double, to other: Unit) -> Double {
            switch (self, other) {
            case (.celsius, .fahrenheit): return value * 9 / 5 + 32
            case (.fahrenheit, .celsius): return (value - 32) * 5 / 9
            default: return value
            }
        }

        /// Absolute zero in this unit; nothing reads colder.
        public var absoluteZero: Double { self == .celsius ? -273.15 : -459.67 }
    }

    /// Makes the type.
    public init() {}
    /// `"temperature"`.
    public var name: String { "temperature" }
    /// In range passes, out of range fails.
    public var isScoreable: Bool { true }
    /// Measured again on a re-inspection.
    public var copiesOnReinspection: Bool { false }
    /// Conditions compare the reading, in the field's unit.
    public var logicKind: LogicKind? { .number }

    /// The field's unit; Celsius when it gives none or an unknown one.
    public func unit(_ field: FieldDefinition) -> Unit {
        field.raw["unit"]?.stringValue.flatMap { Unit(rawValue: $0) } ?? .celsius
    }

    /// The allowed range in the field's unit, when the definition gives a valid one.
    public func allowedRange(_ field: FieldDefinition) -> ClosedRange<Double>? {
        guard let low = Numbers.finite(field.raw["allowed_min"]), let high = Numbers.finite(field.raw["allowed_max"]),
            low <= high
        else { return nil }
        return low...high
    }

    /// `unit` is `"C"` or `"F"`; `allowed_min` and `allowed_max` are numbers, min not above max.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        if let raw = field.raw["unit"], !raw.isNull, raw.stringValue.flatMap({ Unit(rawValue: $0) }) == nil {
            problems.append(field.problem("'unit' must be \"C\" or \"F\", not \(Refusal.describe(raw)); change it"))
        }
        var bounds: [Double] = []
        for key in ["allowed_min", "allowed_max"] {
            switch field.raw[key] {
            case nil, .null?:
                problems.append(
                    field.problem("a temperature field needs '\(key)' (the allowed range, in the field's unit); add it")
                )
            case let value?:
                if let number = Numbers.finite(value) {
                    bounds.append(number)
                } else {
                    problems.append(
                        field.problem("'\(key)' must be a number, not \(Refusal.describe(value)); change it"))
                }
            }
        }
        if bounds.count == 2, bounds[0] > bounds[1] {
            problems.append(
                field.problem(
                    "'allowed_min' \(Numbers.text(bounds[0])) is above 'allowed_max' \(Numbers.text(bounds[1])); swap them"
                ))
        }
        return problems
    }

    /// `{"value": number, "unit": "C"|"F"}`, a number, or `"N/A"`; not colder than absolute zero.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        if isBlank(answer) || answer == NotApplicable.answer { return nil }
        guard let (value, unit) = reading(answer, field: field) else {
            return "a temperature answer "
                + Refusal.wrongKind(
                    answer, expected: "{\"value\": number, \"unit\": \"C\" or \"F\"}, a number, or \"N/A\"")
        }
        return value < unit.absoluteZero
            ? "the temperature \(Numbers.text(value)) \(unit.rawValue) is below absolute zero" : nil
    }

    /// `4.5`, `40F`, `4.5 °C`, `-18c` or `n/a`; a reading in the other unit is
    /// converted to the field's (to 0.1 degree).
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let fieldUnit = unit(field)
        let expected = "a reading like 4.5 (in \(fieldUnit.rawValue)), 40F or 4.5 C, or n/a"
        let text = Refusal.trimmed(input)
        guard !text.isEmpty else { throw Refusal.blankInput(input, expected: expected) }
        if NotApplicable.isTyped(text) { return NotApplicable.answer }
        var body = Substring(text)
        var typedUnit = fieldUnit
        for (suffixes, unit) in [
            (["\u{2103}", "\u{00B0}C", "\u{00B0}c", "C", "c"], Unit.celsius),
            (["\u{2109}", "\u{00B0}F", "\u{00B0}f", "F", "f"], Unit.fahrenheit),
        ] {
            if let suffix = suffixes.first(where: { body.hasSuffix($0) }) {
                body = body.dropLast(suffix.count)
                typedUnit = unit
                break
            }
        }
        guard let typed = Numbers.decimal(Substring(body.trimmingCharacters(in: .whitespaces))) else {
            throw AnswerInputError(
                input: input, message: "\(Typed.quote(input)) is not a temperature; type \(expected)")
        }
        guard typed >= typedUnit.absoluteZero else {
            throw AnswerInputError(
                input: input, message: "\(Typed.quote(input)) is below absolute zero; check the reading")
        }
        let value = typedUnit == fieldUnit ? typed : Numbers.rounded(typedUnit.convert(typed, to: fieldUnit), places: 1)
        return .object(["value": Numbers.json(value), "unit": .string(fieldUnit.rawValue)])
    }

    /// The unit and the allowed range.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        let unit = unit(field)
        var lines = [
            "Type the reading in \(unit.rawValue), like 4.5 (or with its unit: 40F, 4.5 C); n/a if it does not apply."
        ]
        if let range = allowedRange(field) {
            lines.append(
                "Passes from \(Numbers.text(range.lowerBound)) to \(Numbers.text(range.upperBound)) \(degrees(unit, style))."
            )
        }
        return lines
    }

    /// `4.5 °C ✓` when in range, `9 °C ✗ (allowed 0 to 5 °C)` outside (ASCII: `C`, `ok`/`out of range`).
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer) else { return AnswerDisplay.noAnswer(style) }
        if NotApplicable.isAnswer(answer) { return AnswerDisplay.notApplicable(style) }
        guard let (value, unit) = reading(answer, field: field), value >= unit.absoluteZero else {
            return AnswerDisplay.unreadable(answer, style)
        }
        let shown = "\(Numbers.text(value, places: 2)) \(degrees(unit, style))"
        guard let range = allowedRange(field) else { return style.paint(shown, .accent) }
        let fieldUnit = self.unit(field)
        if range.contains(unit.convert(value, to: fieldUnit)) {
            return style.paint("\(shown) \(style.pick("\u{2713}", "ok"))", .good)
        }
        let allowed =
            "allowed \(Numbers.text(range.lowerBound)) to \(Numbers.text(range.upperBound)) \(degrees(fieldUnit, style))"
        return style.paint("\(shown) \(style.pick("\u{2717}", "out of range")) (\(allowed))", .bad)
    }

    /// 1 and passed inside the allowed range, 0 and failed outside; N/A excluded.
    public func score(_ answer: JSONValue?, for field: FieldDefinition) -> FieldScore {
        guard let answer, !isBlank(answer) else { return .unanswered }
        if NotApplicable.isAnswer(answer) { return .notApplicable }
        guard let (value, unit) = reading(answer, field: field), value >= unit.absoluteZero else {
            return .unreadable(
                "a temperature must be {\"value\": number, \"unit\": \"C\" or \"F\"} or a number, not \(Refusal.describe(answer))"
            )
        }
        guard let range = allowedRange(field) else {
            return .unreadable("the field has no valid allowed range ('allowed_min' to 'allowed_max') to score against")
        }
        let inRange = range.contains(unit.convert(value, to: self.unit(field)))
        return .scored(fraction: inRange ? 1 : 0, passed: inRange)
    }

    /// The value and unit of an answer, or nil when it is neither encoding.
    func reading(_ answer: JSONValue, field: FieldDefinition) -> (Double, Unit)? {
        if let number = Numbers.finite(answer) { return (number, unit(field)) }
        guard case .object(let object) = answer, let value = Numbers.finite(object["value"]),
            let unit = object["unit"]?.stringValue.flatMap({ Unit(rawValue: $0) })
        else { return nil }
        return (value, unit)
    }

    func degrees(_ unit: Unit, _ style: TerminalStyle) -> String {
        style.pick("\u{00B0}", "") + unit.rawValue
    }
}
