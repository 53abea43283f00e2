import FieldTypes
import FormLogic
import Foundation
import JQCCore
import Models
import Scoring

/// Drives a `FormRunner` over lines of input and output: draws each field
/// with its type's prompt and display, saves every answer at once (autosave),
/// records where it stopped so a later run reopens there, and completes on request.
/// Works the same on a terminal and on piped input (one answer per line).
final class RunSession {
    let workspace: Workspace
    let style: TerminalStyle
    /// Shows a prompt and reads the next line; nil when input has ended.
    let readLine: (String) -> String?
    let write: (String) -> Void
    private var report: Report
    private let template: Template
    private var runner: FormRunner
    private let logic: FormLogic
    /// The logic's view of the answers, updated after each answer.
    private var state: FormState

    init(
        workspace: Workspace, report: Report, style: TerminalStyle,
        readLine: @escaping (String) -> String?, write: @escaping (String) -> Void
    ) throws(AppError) {
        self.workspace = workspace
        self.report = report
        self.style = style
        self.readLine = readLine
        self.write = write
        template = try workspace.template(for: report)
        let resume = try workspace.resumeField(of: report)
        runner = FormRunner(schema: template.schema, registry: workspace.registry, resume: resume)
        logic = workspace.logic(template)
        state = logic.evaluate(report.answers)
        runner.setNotAsked(notAsked())
    }

    /// The fields not asked for the current answers: hidden ones with the condition, calculated ones with their value.
    private func notAsked() -> [FieldID: FormRunner.NotAsked] {
        var result: [FieldID: FormRunner.NotAsked] = [:]
        for field in runner.steps {
            if !state.isVisible(field.id) {
                result[field.id] = .hidden(logic.hiddenReason(field.id, in: state) ?? "its condition does not hold")
            } else if logic.isCalculated(field.id), logic.unsupportedReason(field.id) == nil {
                result[field.id] = .calculated(workspace.registry.display(field, state.value(field.id), style: style))
            }
        }
        return result
    }

    /// One answer as typed: a line ending in a backslash goes on on the next
    /// line, joined with a line break (notes of several lines). Nil when
    /// input has ended, even in the middle of such an answer.
    private func readAnswer() -> String? {
        guard var line = readLine("> ") else { return nil }
        while line.hasSuffix("\\") {
            guard let next = readLine(style.unicode ? "\u{2026} " : "... ") else { return nil }
            line = String(line.dropLast()) + "\n" + next
        }
        return line
    }

    /// After an answer: the logic updated, and every calculated value that changed shown.
    private func answerChanged(_ id: FieldID) {
        let before = state
        state = logic.updating(state, answers: report.answers, changed: id)
        for field in runner.steps
        where logic.isCalculated(field.id) && state.isVisible(field.id)
            && before.value(field.id) != state.value(field.id)
        {
            write(
                "  calculated: \(flatLine(field.displayName)) = \(workspace.registry.display(field, state.value(field.id), style: style))"
            )
        }
        runner.setNotAsked(notAsked())
    }

    /// Runs until the person quits, completes, or input ends. Returns the report as saved.
    func run() throws(AppError) -> (report: Report, completed: Bool) {
        guard report.lifecycle.isEditable else {
            throw AppError.blocked(.stateNotAllowed, report.lifecycle.refusal(for: .autosave))
        }
        // Names, labels and ids came from the template (and texts from the server): each through
        // OneLine before it is joined with our words and colours; an answer's display keeps its own.
        write(
            paint(
                "\(flatLine(template.name)): \(runner.steps.count) fields. Type an answer and press Enter; /help for commands.",
                bold: true))
        for line in reviewHeader() { write(line) }
        try show()
        while true {
            guard let line = readAnswer() else {
                write("\nSaved. Continue later with 'jqc run \(workspace.short(report))'.")
                return (report, false)
            }
            var runnerCopy = runner
            let currentType = runner.current.map { workspace.registry.resolve($0) }
            let takesPhotos = currentType?.takesPhotos ?? false
            let action = runnerCopy.handle(line, holdsRows: currentType?.holdsRows ?? false, isPath: takesPhotos)
            runner = runnerCopy
            switch action {
            case .show:
                try show()
            case .message(let text):
                write("  \(text)")
            case .help:
                for line in Self.helpLines { write("  \(line)") }
            case .flagIssue(let severity, let description):
                flagIssue(severity, description)
            case .quit:
                write("Saved. Continue later with 'jqc run \(workspace.short(report))'.")
                return (report, false)
            case .save(let id, let answer):
                if takesPhotos, case .typed(let text) = answer,
                    !(currentType?.takesTypedAnswers ?? false) || Self.looksLikePaths(text)
                {
                    attachPhotos(text, field: id)
                    continue
                }
                do {
                    let input: AnswerInput
                    switch answer {
                    case .typed(let text): input = .typed(text)
                    case .addRow(let text): input = .addRow(text)
                    case .clear: input = .clear
                    }
                    let before = report
                    report = try workspace.answer(report, fieldID: id.rawValue, input: input)
                    let field = template.schema.field(id)
                    let shown = field.map { workspace.registry.display($0, report.answers[id], style: style) } ?? ""
                    let fails = field.map { Self.deficient(workspace.registry.score($0, report.answers[id])) } ?? false
                    write("  saved: \(shown)\(fails ? "  " + style.paint("deficient", .bad) : "")")
                    for withdrawn in try workspace.withdrawnSignatures(before: before, after: report) {
                        write(
                            "  "
                                + paint(
                                    "! "
                                        + ReportPresenter.withdrawnSignatureLine(
                                            withdrawn, report: workspace.short(report)), error: true))
                    }
                    if let field, field.critical, fails {
                        write(
                            "  "
                                + paint(
                                    "! \(flatLine(field.displayName)) is critical and this answer fails it: the report will ask for a follow-up inspection.",
                                    error: true))
                    }
                    answerChanged(id)
                    if case .addRow = answer {
                        write("  Another row, or Enter to go on.")
                        continue
                    }
                    if case .clear = answer { continue }
                    runner.advance()
                    try show()
                } catch {
                    write("  " + paint("! \(oneLine(error.message))", error: true))
                }
            case .complete:
                do {
                    report = try workspace.complete(report)
                    let score = workspace.score(report, template: template)
                    write(
                        "Completed: score \(ReportPresenter(workspace: workspace, style: style).scoreText(score)). It will upload at the next sync."
                    )
                    try workspace.setResumeField(of: report, to: nil)
                    return (report, true)
                } catch {
                    write("  " + paint("! \(oneLine(error.message))", error: true))
                    for problem in error.problems { write("    - \(oneLine(problem))") }
                    if let first = workspace.logic(template).completionProblems(report.answers).first {
                        runner.go(to: first.fieldID)
                        try show()
                    }
                }
            }
        }
    }

    /// A path (or several, separated by spaces) typed at a photo field: the
    /// files are imported, compressed and attached as `jqc photo add` does.
    private func attachPhotos(_ text: String, field: FieldID) {
        let files = text.split(separator: " ").map { String($0) }.map { ($0 as NSString).expandingTildeInPath }
        do {
            let result = try workspace.addPhotos(to: report, fieldID: field.rawValue, issueLocalID: nil, files: files)
            report = try workspace.report(report.localID.uuidString)
            write(
                "  attached \(result.photos.count) photo\(result.photos.count == 1 ? "" : "s"); type another path, or Enter to go on."
            )
        } catch {
            write("  " + paint("! \(oneLine(error.message))", error: true))
        }
    }

    /// True when every word of a line at a field taking both photos and typed
    /// text looks like a photo file: a path (`/`, `~`) or a JPEG or PNG name.
    static func looksLikePaths(_ text: String) -> Bool {
        let words = text.split(separator: " ")
        return !words.isEmpty
            && words.allSatisfy { word in
                let lower = word.lowercased()
                return word.contains("/") || word.hasPrefix("~")
                    || [".jpg", ".jpeg", ".png"].contains { lower.hasSuffix($0) }
            }
    }

    /// Draws the field on screen (or the end screen) and remembers it as the place to resume.
    private func show() throws(AppError) {
        let resumeAt = runner.current?.id
        try workspace.setResumeField(of: report, to: resumeAt)
        let answered = runner.steps.filter { field in
            guard let answer = report.answers[field.id] else { return false }
            return !workspace.registry.resolve(field).isBlank(answer)
        }.count
        let score = workspace.score(report, template: template)
        write("")
        guard let field = runner.current else {
            write(
                paint(
                    "End of form · \(answered) of \(runner.steps.count) answered · score so far \(score.percentText)",
                    bold: true))
            for field in runner.steps where logic.isCalculated(field.id) && state.isVisible(field.id) {
                write(
                    "  calculated: \(flatLine(field.displayName)) = \(workspace.registry.display(field, state.value(field.id), style: style))"
                )
            }
            write("Type /done to complete, /b to go back, /jump N to revisit a field, /q to save and quit.")
            return
        }
        write(
            paint(
                "Field \(runner.index + 1) of \(runner.steps.count) · \(answered) answered · score so far \(score.percentText)",
                bold: true))
        for heading in headings(before: field) { write(heading) }
        let type = workspace.registry.resolve(field)
        let required = state.isRequired(field.id)
        write(
            paint("\(required ? "* " : "")\(flatLine(field.displayName))", bold: true)
                + "  [\(oneLine(field.id.rawValue)), \(oneLine(field.type))\(required ? ", required" : "")\(field.critical ? ", critical" : "")\(field.isPrivate ? ", not shown to the client" : "")]"
        )
        if field.critical {
            write(
                "  " + paint("Critical: a fail here fails the whole inspection and asks for a follow-up.", error: true))
        }
        if let reason = logic.unsupportedReason(field.id) {
            write("  This field is unsupported here: \(flatLine(reason)).")
        }
        for comment in report.lifecycle.review?.comments(on: field.id) ?? [] {
            // The supervisor's words, from the server: one line through the sanitiser.
            write("  " + paint("Supervisor: " + OneLine.flatten(comment, lineBreak: " "), error: true))
        }
        let context = InputContext(
            deviceTime: workspace.now(), contentDigest: "", reportLocalID: report.localID.uuidString.lowercased())
        for line in type.prompt(for: field, style: style, context: context) { write("  \(line)") }
        if let current = report.answers[field.id] {
            write("  now: \(type.display(current, for: field, style: style))  (Enter keeps it, /clear removes it)")
        }
    }

    /// A returned report's review when the runner opens: who returned it and
    /// what they said, and which fields carry a comment (shown again at each).
    private func reviewHeader() -> [String] {
        guard let review = report.lifecycle.review, review.isReturned else { return [] }
        let by = review.decidedBy.map { " by \($0.displayName.isEmpty ? $0.id : $0.displayName)" } ?? ""
        // The supervisor's words and ids, from the server: through the sanitiser before any colour is added.
        var lines = [
            paint(
                OneLine.flatten(
                    "Returned for changes\(by)" + (review.comment.map { ": " + $0 } ?? "."), lineBreak: " "),
                error: true)
        ]
        let fields = review.fieldComments.map(\.fieldID)
        if !fields.isEmpty {
            lines.append(
                OneLine.flatten(
                    "  Comments on field\(fields.count == 1 ? "" : "s") \(fields.joined(separator: ", ")); /jump ID goes to one.",
                    lineBreak: " "))
        }
        return lines
    }

    /// Section headings and labels placed between the previous step and this one.
    private func headings(before field: FieldDefinition) -> [String] {
        guard let position = template.schema.fields.firstIndex(where: { $0.id == field.id }) else { return [] }
        var lines: [String] = []
        var cursor = position - 1
        while cursor >= 0, !workspace.registry.resolve(template.schema.fields[cursor]).isAnswerable {
            let f = template.schema.fields[cursor]
            lines.insert(
                workspace.registry.resolve(f).startsSection
                    ? paint("== \(flatLine(f.label)) ==", bold: true) : "  \(flatLine(f.label))", at: 0)
            cursor -= 1
        }
        return lines
    }

    /// Flags an issue on the report from the field on screen; the field stays on screen.
    private func flagIssue(_ severity: String, _ description: String) {
        let at = runner.current.map { " at '\(flatLine($0.displayName))'" } ?? ""
        do {
            let (issue, _) = try workspace.addIssue(
                to: report, severity: severity, description: description, photoFile: nil)
            write(
                "  Issue \(Workspace.shortID(issue.localID)) flagged\(at): \(issue.severity.rawValue). "
                    + "High and critical issues become corrective actions when the report reaches the server.")
        } catch {
            write("  " + paint("! \(oneLine(error.message))", error: true))
            for problem in error.problems { write("    - \(oneLine(problem))") }
        }
    }

    private func paint(_ text: String, bold: Bool = false, error: Bool = false) -> String {
        guard style.color else { return text }
        if error { return "\u{1B}[31m\(text)\u{1B}[0m" }
        return bold ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }

    static let helpLines = [
        "Type the answer and press Enter. Every answer is saved at once.",
        "Enter on its own keeps the answer and goes to the next field.",
        "/b or <      back to the previous field",
        "/s or >      skip to the next field",
        "/jump ID     go to a field by id (or /jump N for the N-th field)",
        "/clear       remove this field's answer",
        "/done        complete the report (every required field answered)",
        "/q           save and quit; 'jqc run' reopens here",
        "/issue S TEXT flag an issue (low, medium, high, critical) and stay here",
        "//text       an answer that starts with '/'",
        "text\\        go on typing on the next line (a line break in notes)",
    ]

    /// True when a field type judged an answer a failure: a deficiency.
    static func deficient(_ outcome: FieldScore) -> Bool {
        if case .scored(_, passed: false) = outcome { return true }
        return false
    }
}
