import Foundation
import FieldTypes
import Models

/// The conformance kit: checks that a field type keeps every promise of the
/// `FieldType` protocol, with the type author's own samples plus wrong-typed
/// JSON of every kind. Usable from any test framework (it imports none).
public enum FieldTypeConformance {
    /// Answers of every JSON kind that no type should crash on.
    public static let wrongKinds: [JSONValue] = [
        .null, .bool(true), .bool(false), .integer(0), .integer(-1), .integer(99), .double(3.5),
        .string(""), .string("x\ny"), .string("N/A"), .string("\u{1B}[31mred"), .array([]),
        .array([.integer(1)]), .array([.object([:])]), .object([:]), .object(["a": .array([.null])]),
    ]

    /// Every failure of `type` against `samples`; empty means conformant.
    public static func check(_ type: any FieldType, samples: ConformanceSamples) -> [ConformanceFailure] {
        var run = Run(type: type, samples: samples)
        run.all()
        return run.failures
    }
}

private struct Run {
    let type: any FieldType
    let samples: ConformanceSamples
    var failures: [ConformanceFailure] = []

    static let styles: [TerminalStyle] = [
        .plain, .rich,
        TerminalStyle(color: true, unicode: false), TerminalStyle(color: false, unicode: true),
    ]

    init(type: any FieldType, samples: ConformanceSamples) {
        self.type = type
        self.samples = samples
    }

    var field: FieldDefinition { samples.goodDefinition }

    mutating func fail(_ check: String, _ sample: String, _ detail: String) {
        failures.append(ConformanceFailure(check: check, sample: sample, detail: detail))
    }

    mutating func all() {
        checkName()
        checkDefinitions()
        checkInputs()
        checkAnswers()
        checkDisplay()
        checkScore()
        checkNotAnswerable()
        checkLogic()
        checkRegistration()
    }

    /// Form logic: the operators a type offers fit what it compares, and the
    /// values it compares are of its declared kind, for any JSON.
    mutating func checkLogic() {
        let operators = type.logicOperators
        if !operators.isSuperset(of: LogicOperator.universal) {
            fail(
                "every type supports answered and unanswered", type.name,
                "logicOperators is \(operators.sorted().map(\.rawValue))")
        }
        if !operators.isDisjoint(with: [.passed, .failed]), !type.isScoreable {
            fail("passed/failed are offered only by scored types", type.name, "offered, but the type is not scored")
        }
        let comparisons = operators.subtracting(LogicOperator.universal).subtracting([.passed, .failed])
        if !comparisons.isEmpty, type.logicKind == nil {
            fail(
                "comparison operators need a logicKind", type.name,
                "offers \(comparisons.sorted().map(\.rawValue)) with no logicKind")
        }
        if type.holdsCalculation, !type.isAnswerable || ![.number, .text, .bool].contains(type.logicKind) {
            fail(
                "a calculable type is answered and compares a number, text or true/false", type.name,
                "logicKind is \(type.logicKind.map(\.rawValue) ?? "none")")
        }
        if type.startsSection, type.isAnswerable {
            fail("a section heading takes no answer", type.name, "startsSection is true for an answerable type")
        }
        for answer in samples.validAnswers + FieldTypeConformance.wrongKinds {
            if let value = type.logicValue(of: answer, for: field), value.kind != type.logicKind {
                fail(
                    "a compared value is of the type's logicKind", answer.canonicalString(),
                    "read as \(value.kind.rawValue)")
            }
            if let value = type.logicOperand(answer, for: field), value.kind != type.logicKind {
                fail(
                    "a condition's value is read as the type's logicKind", answer.canonicalString(),
                    "read as \(value.kind.rawValue)")
            }
        }
        if type.isScoreable, type.logicValue(of: .string("N/A"), for: field) != nil {
            fail("N/A is never compared", "\"N/A\"", "logicValue read it")
        }
    }

    mutating func checkName() {
        if !FieldTypeRegistry.isValidName(type.name) {
            fail("name is lowercase letters, digits and underscores", type.name, "the name is not")
        }
        if field.type != type.name {
            fail("the good definition is of this type", field.type, "its type is not '\(type.name)'")
        }
        if type.isScoreable, !type.isAnswerable {
            fail("a scoreable type is answerable", type.name, "it is scoreable but takes no answer")
        }
        if !type.isAnswerable, type.copiesOnReinspection {
            fail("a type without answers copies nothing", type.name, "copiesOnReinspection is true")
        }
    }

    mutating func checkDefinitions() {
        let good = type.checkDefinition(field)
        if !good.isEmpty {
            fail(
                "the good definition has no problems", field.id.rawValue,
                good.map(\.description).joined(separator: "; "))
        }
        for bad in samples.badDefinitions {
            let problems = type.checkDefinition(bad)
            if problems.isEmpty {
                fail("each bad definition has a problem", bad.json.canonicalString(), "no problem was reported")
            }
            for problem in problems {
                if problem.fieldID != bad.id {
                    fail(
                        "each problem names its field", bad.json.canonicalString(),
                        "the problem names \(problem.fieldID?.rawValue ?? "no field")")
                }
                if !isOneLine(problem.message) {
                    fail(
                        "each problem is one non-empty line", bad.json.canonicalString(), "got \(show(problem.message))"
                    )
                }
            }
        }
    }

    mutating func checkInputs() {
        for input in samples.validInputs {
            do {
                let answer = try type.parse(input, for: field, context: samples.context)
                if let reason = type.validate(answer, for: field) {
                    fail(
                        "a parsed answer validates", input, "parsed to \(answer.canonicalString()), refused: \(reason)")
                }
                for style in Self.styles {
                    let line = type.display(answer, for: field, style: style)
                    if !isOneLine(line) {
                        fail("a parsed answer displays on one line", input, "got \(show(line))")
                    }
                }
            } catch {
                fail("a valid input parses", input, "refused: \(error.message)")
            }
        }
        for input in samples.invalidInputs {
            do {
                let answer = try type.parse(input, for: field, context: samples.context)
                fail("an invalid input is refused", input, "parsed to \(answer.canonicalString())")
            } catch {
                if !isOneLine(error.message) {
                    fail("a refusal is one non-empty line", input, "got \(show(error.message))")
                }
            }
        }
    }

    mutating func checkAnswers() {
        for answer in samples.validAnswers {
            if let reason = type.validate(answer, for: field) {
                fail("a valid answer validates", answer.canonicalString(), "refused: \(reason)")
            }
        }
        for answer in samples.invalidAnswers {
            guard let reason = type.validate(answer, for: field) else {
                fail("an invalid answer is refused", answer.canonicalString(), "it validated")
                continue
            }
            if !isOneLine(reason) {
                fail("a refusal is one non-empty line", answer.canonicalString(), "got \(show(reason))")
            }
        }
        for answer in FieldTypeConformance.wrongKinds {
            if let reason = type.validate(answer, for: field), !isOneLine(reason) {
                fail("a refusal is one non-empty line", answer.canonicalString(), "got \(show(reason))")
            }
        }
    }

    mutating func checkDisplay() {
        let answers: [JSONValue?] =
            [nil] + samples.validAnswers.map(Optional.some)
            + samples.invalidAnswers.map(Optional.some) + FieldTypeConformance.wrongKinds.map(Optional.some)
        for answer in answers {
            for style in Self.styles {
                let line = type.display(answer, for: field, style: style)
                let sample = answer?.canonicalString() ?? "nil"
                if !isOneLine(line) {
                    fail("display is one non-empty line", sample, "got \(show(line))")
                }
                if !style.color, line.unicodeScalars.contains("\u{1B}") {
                    fail("display without colour has no escape codes", sample, "got \(show(line))")
                }
                if !style.unicode, !line.unicodeScalars.allSatisfy(\.isASCII) {
                    fail("display in an ASCII style is ASCII", sample, "got \(show(line))")
                }
            }
        }
        for style in Self.styles {
            for line in type.prompt(for: field, style: style) where !isOneLine(line) {
                fail("each prompt line is one non-empty line", field.id.rawValue, "got \(show(line))")
            }
        }
    }

    mutating func checkScore() {
        let everything = samples.validAnswers + samples.invalidAnswers + FieldTypeConformance.wrongKinds
        guard type.isScoreable else {
            for answer in [nil] + everything.map(Optional.some) where type.score(answer, for: field) != .notScoreable {
                fail(
                    "a type that is not scored gives notScoreable", answer?.canonicalString() ?? "nil",
                    "got \(type.score(answer, for: field))")
            }
            return
        }
        if type.score(nil, for: field) != .unanswered {
            fail("no answer scores as unanswered", "nil", "got \(type.score(nil, for: field))")
        }
        if type.score(.string("N/A"), for: field) != .notApplicable {
            fail("N/A scores as not applicable", "\"N/A\"", "got \(type.score(.string("N/A"), for: field))")
        }
        if type.validate(.string("N/A"), for: field) != nil {
            fail("N/A is a valid answer", "\"N/A\"", "refused")
        }
        for answer in samples.validAnswers {
            switch type.score(answer, for: field) {
            case .scored(let fraction, _) where !(0...1).contains(fraction):
                fail("a valid answer scores within 0...1", answer.canonicalString(), "fraction \(fraction)")
            case .notScoreable, .unreadable:
                fail("a valid answer is scored", answer.canonicalString(), "got \(type.score(answer, for: field))")
            default: break
            }
        }
        for answer in everything {
            if case .scored(let fraction, _) = type.score(answer, for: field), !(0...1).contains(fraction) {
                fail("every score is within 0...1", answer.canonicalString(), "fraction \(fraction)")
            }
        }
    }

    mutating func checkNotAnswerable() {
        guard !type.isAnswerable else { return }
        for input in samples.validInputs + samples.invalidInputs + ["", "x", "1", "yes", "pass", "n/a"] {
            if let answer = try? type.parse(input, for: field, context: samples.context) {
                fail("a type without answers refuses every input", input, "parsed to \(answer.canonicalString())")
            }
        }
        for answer in samples.validAnswers + FieldTypeConformance.wrongKinds
        where type.validate(answer, for: field) == nil {
            fail("a type without answers refuses every answer", answer.canonicalString(), "it validated")
        }
    }

    mutating func checkRegistration() {
        var registry = FieldTypeRegistry()
        do {
            try registry.register(type)
        } catch {
            fail("the type registers", type.name, error.message)
            return
        }
        do {
            try registry.register(type)
            fail("registering the type twice fails", type.name, "the second registration succeeded")
        } catch {
            if error.code != .duplicateFieldType {
                fail("registering the type twice fails as a duplicate", type.name, "failed with \(error.code)")
            }
        }
    }

    func isOneLine(_ text: String) -> Bool {
        !text.trimmingCharacters(in: .whitespaces).isEmpty
            && !text.unicodeScalars.contains {
                $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{85}"
            }
    }

    func show(_ text: String) -> String {
        JSONValue.string(text).canonicalString()
    }
}
