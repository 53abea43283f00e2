import Foundation
import Models

/// A rating's `scale`: named steps, each with the percent it scores and
/// whether it is a deficiency (CleanTelligent's "3 = 75% deficient", APPA's
/// five appearance levels). The values are 1...max in order, so a device
/// that knows no scales still reads value/max and sends valid answers.
public struct RatingScale: Sendable, Hashable {
    /// One step of a scale.
    public struct Step: Sendable, Hashable {
        /// The answer that picks the step: 1...max.
        public var value: Int
        /// What an inspector reads and may type ("Ordinary tidiness").
        public var label: String
        /// What the step scores, from 0 to 100.
        public var percent: Double
        /// True when an answer on this step is a deficiency.
        public var deficient: Bool

        /// `75%`, `87.5%`.
        public var percentText: String {
            percent == percent.rounded() ? "\(Int(percent))%" : "\(String(format: "%g", percent))%"
        }
    }

    /// The longest label a step may carry.
    public static let labelLimit = 60

    /// The steps in value order.
    public var steps: [Step]

    /// The field's scale, or nil when it has none or an unreadable one (the
    /// template's check names the problem; until then the rating scores value/max).
    public init?(_ field: FieldDefinition) {
        guard let raw = field.raw["scale"], !raw.isNull else { return nil }
        guard Self.problems(raw, max: field.max).isEmpty, case .array(let items) = raw else { return nil }
        steps = items.compactMap(Self.step)
    }

    /// The step an answer picks, or nil.
    public func step(_ value: Int) -> Step? { steps.first { $0.value == value } }

    /// The step a typed label names: the whole label, ignoring case and
    /// surrounding spaces.
    public func step(labelled text: String) -> Step? {
        let key = OptionList.normalized(text)
        return steps.first { OptionList.normalized($0.label) == key }
    }

    /// Every problem with a `scale` value: at least two steps, values exactly
    /// 1, 2, ... in order with `max` equal to their count, percents 0...100,
    /// non-empty distinct labels that are not numbers or "n/a", `deficient`
    /// true or false.
    public static func problems(_ raw: JSONValue, max: Int?) -> [String] {
        guard case .array(let items) = raw else {
            return [
                "'scale' must be a list of steps ({\"value\", \"label\", \"percent\", \"deficient\"}), not \(raw.kindDescription)"
            ]
        }
        guard items.count >= 2 else {
            return ["'scale' has \(items.count) step\(items.count == 1 ? "" : "s"); a scale needs at least two"]
        }
        var problems: [String] = []
        var labels: Set<String> = []
        for (index, item) in items.enumerated() {
            problems += stepProblems(item, position: index + 1, labels: &labels)
        }
        if max != items.count {
            problems.append(
                "'max' must be \(items.count), the number of steps of its 'scale'"
                    + (max.map { ", not \($0)" } ?? "; add \"max\": \(items.count)"))
        }
        return problems
    }

    private static func stepProblems(_ item: JSONValue, position: Int, labels: inout Set<String>) -> [String] {
        guard case .object(let members) = item else {
            return ["scale step \(position) must be an object, not \(item.kindDescription)"]
        }
        var problems: [String] = []
        let name = "scale step \(position)"
        if members["value"]?.integerValue != Int64(position) || members["value"]?.numberValue == nil {
            problems.append(
                "\(name) has 'value' \(members["value"].map { $0.canonicalString() } ?? "missing"); the values must be 1, 2, 3... in order"
            )
        }
        if let label = members["label"]?.stringValue, !Refusal.trimmed(label).isEmpty {
            let key = OptionList.normalized(label)
            if label.count > labelLimit {
                problems.append("\(name)'s label is \(label.count) characters; keep it to \(labelLimit)")
            } else if Double(key) != nil || NotApplicable.isTyped(label) {
                problems.append(
                    "\(name)'s label \(OneLine.quote(label)) reads as a value; an inspector types a step by its value or its label, so name it in words"
                )
            } else if !labels.insert(key).inserted {
                problems.append(
                    "\(name)'s label \(OneLine.quote(label)) is used twice (labels are matched ignoring case); give each step its own"
                )
            }
        } else {
            problems.append("\(name) needs a 'label': the words an inspector reads, such as \"Ordinary tidiness\"")
        }
        let percent = members["percent"]?.numberValue
        if !(percent.map { $0.isFinite && (0...100).contains($0) } ?? false) {
            problems.append(
                "\(name) needs a 'percent' from 0 to 100 (what the step scores), not \(members["percent"].map(Refusal.describe) ?? "none")"
            )
        }
        switch members["deficient"] {
        case nil, .null?, .bool?: break
        case let other?: problems.append("\(name)'s 'deficient' must be true or false, not \(other.kindDescription)")
        }
        return problems
    }

    private static func step(_ item: JSONValue) -> Step? {
        guard case .object(let members) = item, let value = members["value"]?.integerValue,
            let label = members["label"]?.stringValue, let percent = members["percent"]?.numberValue
        else { return nil }
        return Step(
            value: Int(value), label: label, percent: percent, deficient: members["deficient"]?.boolValue ?? false)
    }
}
