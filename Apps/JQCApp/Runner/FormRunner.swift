import FieldTypes
import JQCCore
import Models

/// The interactive form runner's navigation as a value: which field is on
/// screen and what a typed line means. It performs no I/O; `RunSession`
/// carries out the actions it returns, so every rule here is tested without a terminal.
public struct FormRunner: Sendable {
    /// The fields a person answers, in form order (sections and labels are shown with the field after them).
    public let steps: [FieldDefinition]
    /// The field on screen; `steps.count` means past the last field (the end screen).
    public private(set) var index: Int
    /// Fields the runner does not ask, with why: hidden by a condition, or calculated.
    public private(set) var notAsked: [FieldID: NotAsked] = [:]

    /// Why a field is not asked.
    public enum NotAsked: Sendable, Equatable {
        /// Hidden by a condition, which the text describes.
        case hidden(String)
        /// Calculated from other answers; the text is its value as shown.
        case calculated(String)
    }

    /// Starts at `resume` (the field where an earlier run stopped) or at the first field.
    public init(schema: FormSchema, registry: FieldTypeRegistry, resume: FieldID?) {
        let answerable = schema.fields.filter { registry.resolve($0).isAnswerable }
        steps = answerable
        index = resume.flatMap { id in answerable.firstIndex { $0.id == id } } ?? 0
    }

    /// The field on screen, or nil on the end screen.
    public var current: FieldDefinition? { index < steps.count ? steps[index] : nil }

    /// What the driver must do for a typed line.
    public enum Action: Sendable, Equatable {
        /// Save this answer for the current field, then move on when it succeeds.
        case save(FieldID, Answer)
        /// Show the field now on screen (after a move).
        case show
        /// Print a message and stay on the same screen.
        case message(String)
        /// Print the help.
        case help
        /// Try to complete the report.
        case complete
        /// Leave; everything is already saved.
        case quit
        /// Flag an issue on the report (severity as typed, the description), staying at the same field.
        case flagIssue(severity: String, description: String)
    }

    /// An answer to save.
    public enum Answer: Sendable, Equatable {
        case typed(String)
        case addRow(String)
        case clear
    }

    /// Reads one typed line. Commands start with '/'; '//' starts an answer that begins with '/'.
    /// `isPath`: the field takes file paths (a photo field), so `/home/...` is an answer, not a command.
    public mutating func handle(_ line: String, holdsRows: Bool = false, isPath: Bool = false) -> Action {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("//") { return answer(String(text.dropFirst())) }
        if isPath, text.hasPrefix("/"), text.dropFirst().contains("/") || text.contains(".") { return answer(text) }
        if text == "<" { return move(to: index - 1) }
        if text == ">" { return move(to: index + 1) }
        guard text.hasPrefix("/") else {
            if text.isEmpty { return move(to: index + 1) }
            return answer(line.trimmingCharacters(in: .whitespaces), holdsRows: holdsRows)
        }
        let parts = text.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
        let word = parts.first?.lowercased() ?? ""
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch word {
        case "b", "back": return move(to: index - 1)
        case "s", "skip", "n", "next": return move(to: index + 1)
        case "j", "jump", "g", "go":
            return jump(argument)
        case "c", "clear":
            guard let field = current else { return .message("There is no field here to clear.") }
            return .save(field.id, .clear)
        case "d", "done", "complete": return .complete
        case "q", "quit", "exit": return .quit
        case "i", "issue":
            let words = argument.split(separator: " ", maxSplits: 1).map(String.init)
            guard words.count == 2, !words[1].trimmingCharacters(in: .whitespaces).isEmpty else {
                return .message(
                    "Say how serious and what: /issue SEVERITY TEXT, such as /issue high Tap leaking (low, medium, high or critical)."
                )
            }
            return .flagIssue(severity: words[0], description: words[1])
        case "?", "h", "help": return .help
        default:
            return .message(
                "'/\(word)' is not a runner command; type /help for the list, or // to start an answer with '/'.")
        }
    }

    /// Moves to the field after the current one (after a successful save).
    public mutating func advance() { index = askable(from: min(index + 1, steps.count), step: 1) ?? steps.count }

    /// Says which fields are not asked now (after each answer, as visibility
    /// changes); the field on screen moves forward if it is one of them.
    public mutating func setNotAsked(_ fields: [FieldID: NotAsked]) {
        notAsked = fields
        if index < steps.count { index = askable(from: index, step: 1) ?? steps.count }
    }

    /// The first asked step from `start` going by `step`, or nil past either end.
    private func askable(from start: Int, step: Int) -> Int? {
        var i = start
        while i >= 0, i < steps.count {
            if notAsked[steps[i].id] == nil { return i }
            i += step
        }
        return nil
    }

    /// Moves to a field by id (used after a failed completion, to the first problem).
    public mutating func go(to id: FieldID) {
        if let found = steps.firstIndex(where: { $0.id == id }) { index = found }
    }

    private func answer(_ text: String, holdsRows: Bool = false) -> Action {
        guard let field = current else {
            return .message(
                "You are past the last field: /done completes the report, /b goes back, /q saves and quits.")
        }
        return .save(field.id, holdsRows ? .addRow(text) : .typed(text))
    }

    private mutating func move(to target: Int) -> Action {
        if target < index {
            guard target >= 0, let found = askable(from: target, step: -1) else {
                return .message("This is the first field.")
            }
            index = found
        } else {
            index = askable(from: min(target, steps.count), step: 1) ?? steps.count
        }
        return .show
    }

    private mutating func show(_ found: Int) -> Action {
        let field = steps[found]
        // The field's id and label came from the template: through OneLine (`value` is the type's display, kept).
        let name = "'\(oneLine(field.id.rawValue))' (\(flatLine(field.displayName)))"
        switch notAsked[field.id] {
        case .hidden(let why)?:
            return .message("Field \(name) is hidden by condition: \(flatLine(why)).")
        case .calculated(let value)?:
            return .message("Field \(name) is calculated from other answers (now \(value)); it is never asked.")
        case nil:
            index = found
            return .show
        }
    }

    private mutating func jump(_ target: String) -> Action {
        if target.isEmpty { return .message("Say where to: /jump FIELD_ID, or /jump N for the N-th field.") }
        if let found = steps.firstIndex(where: { $0.id.rawValue == target }) {
            return show(found)
        }
        if let n = Int(target), (1...max(steps.count, 1)).contains(n), !steps.isEmpty {
            return show(n - 1)
        }
        return .message(
            "No field '\(oneLine(target))' in this form; use a field id or a number from 1 to \(steps.count).")
    }
}
