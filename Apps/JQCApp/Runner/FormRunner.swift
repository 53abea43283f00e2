import FieldTypes
import Models

/// The interactive form runner's navigation as a value: which field is on
/// screen and what a typed line means. It performs no I/O; `RunSession`
/// carries out the actions it returns, so every rule here is tested without a terminal.
public struct FormRunner: Sendable {
    /// The fields a person answers, in form order (sections and labels are shown with the field after them).
    public let steps: [FieldDefinition]
    /// The field on screen; `steps.count` means past the last field (the end screen).
    public private(set) var index: Int

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
    }

    /// An answer to save.
    public enum Answer: Sendable, Equatable {
        case typed(String)
        case addRow(String)
        case clear
    }

    /// Reads one typed line. Commands start with '/'; '//' starts an answer that begins with '/'.
    public mutating func handle(_ line: String, isTable: Bool = false) -> Action {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("//") { return answer(String(text.dropFirst())) }
        if text == "<" { return move(to: index - 1) }
        if text == ">" { return move(to: index + 1) }
        guard text.hasPrefix("/") else {
            if text.isEmpty { return move(to: index + 1) }
            return answer(line.trimmingCharacters(in: .whitespaces), isTable: isTable)
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
        case "?", "h", "help": return .help
        default:
            return .message("'/\(word)' is not a runner command; type /help for the list, or // to start an answer with '/'.")
        }
    }

    /// Moves to the field after the current one (after a successful save).
    public mutating func advance() { index = min(index + 1, steps.count) }

    /// Moves to a field by id (used after a failed completion, to the first problem).
    public mutating func go(to id: FieldID) {
        if let found = steps.firstIndex(where: { $0.id == id }) { index = found }
    }

    private func answer(_ text: String, isTable: Bool = false) -> Action {
        guard let field = current else {
            return .message("You are past the last field: /done completes the report, /b goes back, /q saves and quits.")
        }
        return .save(field.id, isTable ? .addRow(text) : .typed(text))
    }

    private mutating func move(to target: Int) -> Action {
        if target < 0 { return .message("This is the first field.") }
        index = min(target, steps.count)
        return .show
    }

    private mutating func jump(_ target: String) -> Action {
        if target.isEmpty { return .message("Say where to: /jump FIELD_ID, or /jump N for the N-th field.") }
        if let found = steps.firstIndex(where: { $0.id.rawValue == target }) {
            index = found
            return .show
        }
        if let n = Int(target), (1...max(steps.count, 1)).contains(n), !steps.isEmpty {
            index = n - 1
            return .show
        }
        return .message("No field '\(target)' in this form; use a field id or a number from 1 to \(steps.count).")
    }
}
