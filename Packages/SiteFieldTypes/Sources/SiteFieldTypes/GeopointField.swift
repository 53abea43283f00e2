import Foundation
import FieldTypes
import Models

/// `geopoint`: where something was measured, stored as
/// `{"lat": number, "lon": number, "accuracy_m": number?}` (degrees WGS 84,
/// accuracy in metres). Latitude is -90 to 90, longitude -180 to 180 and the
/// accuracy zero or more. A definition may set `max_accuracy_m`: then every
/// answer must give an accuracy no worse than it. Not scored; a position is
/// measured again on a re-inspection, so it never copies. Keys other than
/// these three are kept and ignored, for newer clients.
public struct GeopointField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"geopoint"`.
    public var name: String { "geopoint" }
    /// Conditions can only ask whether it is answered: there is no value to compare.
    public var logicKind: LogicKind? { nil }
    /// A position is taken again on each inspection.
    public var copiesOnReinspection: Bool { false }

    /// The worst accuracy the field accepts, in metres, when it sets one.
    public func maxAccuracy(_ field: FieldDefinition) -> Double? {
        Numbers.finite(field.raw["max_accuracy_m"]).flatMap { $0 > 0 ? $0 : nil }
    }

    /// `max_accuracy_m`, when given, is a number above zero.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        guard let raw = field.raw["max_accuracy_m"], !raw.isNull, maxAccuracy(field) == nil else { return [] }
        return [
            field.problem(
                "'max_accuracy_m' must be a number of metres above 0, not \(Refusal.describe(raw)); change it or remove it"
            )
        ]
    }

    /// An object with `lat` and `lon` in range and, when present, `accuracy_m` of zero or more.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        if isBlank(answer) { return nil }
        let expected = "an object {\"lat\": -90 to 90, \"lon\": -180 to 180, \"accuracy_m\": metres?}"
        guard case .object(let object) = answer else {
            return "a geopoint answer " + Refusal.wrongKind(answer, expected: expected)
        }
        guard let lat = Numbers.finite(object["lat"]), let lon = Numbers.finite(object["lon"]) else {
            return "a geopoint answer needs numbers 'lat' and 'lon', not \(Refusal.describe(answer))"
        }
        if let problem = Self.rangeProblem(lat: lat, lon: lon) { return problem }
        let accuracy: Double?
        switch object["accuracy_m"] {
        case nil, .null?: accuracy = nil
        case let value?:
            guard let metres = Numbers.finite(value), metres >= 0 else {
                return "a geopoint's 'accuracy_m' must be a number of metres, 0 or more, not \(Refusal.describe(value))"
            }
            accuracy = metres
        }
        return accuracyProblem(accuracy, for: field)
    }

    /// `51.5072, -0.1276`, optionally followed by the accuracy: `±5m`, `+-5 m` or `5m`.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let text = Refusal.trimmed(input)
        let expected = "latitude, longitude in degrees, like 51.5072, -0.1276 (optionally ±5m for the accuracy)"
        guard !text.isEmpty else { throw Refusal.blankInput(input, expected: expected) }
        let parts = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw AnswerInputError(input: input, message: "\(Typed.quote(input)) is not a position; type \(expected)")
        }
        let rest = Substring(parts[1].trimmingCharacters(in: .whitespaces))
        var lonEnd = rest.endIndex
        var index = rest.startIndex
        while index < rest.endIndex {
            let c = rest[index]
            if c == " " || c == "\u{B1}" || (c == "+" && index != rest.startIndex) { lonEnd = index; break }
            index = rest.index(after: index)
        }
        let lonText = rest[..<lonEnd]
        var tail = Substring(rest[lonEnd...].trimmingCharacters(in: .whitespaces))
        guard let lat = Numbers.decimal(Substring(parts[0].trimmingCharacters(in: .whitespaces))),
            let lon = Numbers.decimal(lonText)
        else {
            throw AnswerInputError(input: input, message: "\(Typed.quote(input)) is not a position; type \(expected)")
        }
        if let problem = Self.rangeProblem(lat: lat, lon: lon) {
            throw AnswerInputError(input: input, message: "\(Typed.quote(input)): \(problem)")
        }
        var object: [String: JSONValue] = ["lat": Numbers.json(lat), "lon": Numbers.json(lon)]
        var accuracy: Double?
        if !tail.isEmpty {
            if tail.hasPrefix("\u{B1}") {
                tail = tail.dropFirst()
            } else if tail.hasPrefix("+-") {
                tail = tail.dropFirst(2)
            }
            tail = tail.drop { $0 == " " }
            guard tail.hasSuffix("m"),
                let metres = Numbers.decimal(Substring(tail.dropLast().trimmingCharacters(in: .whitespaces))),
                metres >= 0
            else {
                throw AnswerInputError(
                    input: input,
                    message: "\(Typed.quote(input)): the accuracy must be metres like ±5m after the position")
            }
            accuracy = metres
            object["accuracy_m"] = Numbers.json(metres)
        }
        if let problem = accuracyProblem(accuracy, for: field) {
            throw AnswerInputError(input: input, message: "\(Typed.quote(input)): \(problem)")
        }
        return .object(object)
    }

    /// What to type.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        var lines = [
            "Type latitude, longitude in degrees, like 51.5072, -0.1276; add the accuracy as \(style.pick("\u{B1}", "+-"))5m."
        ]
        if let max = maxAccuracy(field) { lines.append("The accuracy must be \(Numbers.text(max)) m or better.") }
        return lines
    }

    /// `51.5072, -0.1276 ±5 m` (ASCII: `+-5 m`).
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer) else { return AnswerDisplay.noAnswer(style) }
        guard case .object(let object) = answer, let lat = Numbers.finite(object["lat"]),
            let lon = Numbers.finite(object["lon"]),
            Self.rangeProblem(lat: lat, lon: lon) == nil
        else {
            return AnswerDisplay.unreadable(answer, style)
        }
        var line = "\(Numbers.text(lat, places: 6)), \(Numbers.text(lon, places: 6))"
        if let metres = Numbers.finite(object["accuracy_m"]), metres >= 0 {
            line += " \(style.pick("\u{B1}", "+-"))\(Numbers.text(metres, places: 1)) m"
        }
        return style.paint(line, .accent)
    }

    static func rangeProblem(lat: Double, lon: Double) -> String? {
        if !(-90...90).contains(lat) {
            return "the latitude \(Numbers.text(lat)) is out of range; it must be from -90 to 90"
        }
        if !(-180...180).contains(lon) {
            return "the longitude \(Numbers.text(lon)) is out of range; it must be from -180 to 180"
        }
        return nil
    }

    func accuracyProblem(_ accuracy: Double?, for field: FieldDefinition) -> String? {
        guard let max = maxAccuracy(field) else { return nil }
        guard let accuracy else {
            return "this field needs the accuracy (\(Numbers.text(max)) m or better); add it like ±5m"
        }
        return accuracy <= max
            ? nil
            : "the accuracy \(Numbers.text(accuracy)) m is worse than the \(Numbers.text(max)) m this field needs; take the reading again"
    }
}
