import ArgumentParsing
import Foundation
import JQCCore
import Models

/// How the menu reads and writes: lines in, lines out. The dispatcher wires
/// standard input and output; tests can wire anything.
public struct MenuIO {
    /// Shows a prompt (no newline after it) and reads the next typed line
    /// without its newline; nil when input has ended.
    public var readLine: (String) -> String?
    /// Writes one line.
    public var write: (String) -> Void
    /// Clears the screen before a new one is drawn (does nothing off a terminal).
    public var clear: () -> Void

    /// Makes the input and output of a menu.
    public init(
        readLine: @escaping (String) -> String?, write: @escaping (String) -> Void,
        clear: @escaping () -> Void = {}
    ) {
        self.readLine = readLine
        self.write = write
        self.clear = clear
    }
}

/// The keyboard-driven home menu `jqc` opens on a terminal when given no
/// command (docs/user-guide.md, "The home menu"): every offline action, reached by number
/// and letter. It does nothing of its own: every action runs the same
/// `Workspace` method or the same command the scriptable surface runs.
public final class HomeMenu {
    /// Where the menu goes after a screen.
    enum Flow {
        /// Back to the screen before.
        case back
        /// Leave the menu (q, or input ended).
        case quit
    }

    let context: AppContext
    let io: MenuIO
    /// Lines to show under the next screen: what the last action did, or `! error`.
    var notices: [String] = []
    /// Input has ended; every later read returns nil at once.
    private var inputEnded = false

    /// Makes a menu over a context (its profile and style) and its input and output.
    public init(context: AppContext, io: MenuIO) {
        self.context = context
        self.io = io
    }

    /// Runs the menu until the person quits or input ends, and returns the exit code (0).
    /// Fails only when the profile's store cannot be opened at all.
    public func run() async throws(AppError) -> Int32 {
        _ = try context.workspace()
        while await home() == .back {}
        if let status = try? context.status() {
            io.write(status.line)
        }
        return ExitCode.ok.rawValue
    }

    // MARK: Home

    /// The home screen: one pass of drawing it and acting on one choice.
    private func home() async -> Flow {
        let screen: MenuScreen
        do { screen = try homeScreen() } catch {
            fail(error)
            screen = MenuScreen(
                title: "JanitorialQC", lines: ["The profile could not be read."], keys: [MenuScreen.Key("q", "quit")])
        }
        guard let choice = choose(screen) else { return .quit }
        switch choice {
        case .item(0): return assignmentsScreen() == .quit ? .quit : .back
        case .item(1): return reportListScreen(.drafts) == .quit ? .quit : .back
        case .item(2): return reportListScreen(.pendingSync) == .quit ? .quit : .back
        case .item(3): return issuesScreen() == .quit ? .quit : .back
        case .item(4): return facilitiesScreen() == .quit ? .quit : .back
        case .item(5): return await historyScreen() == .quit ? .quit : .back
        case .item(6): return settingsScreen() == .quit ? .quit : .back
        case .item(7): return startFromTemplate() == .quit ? .quit : .back
        case .item(8): return reportListScreen(.all) == .quit ? .quit : .back
        case .item(9): return returnedScreen() == .quit ? .quit : .back
        case .item(10): return actionsScreen() == .quit ? .quit : .back
        default: return .quit
        }
    }

    /// The home screen with live counts and the status line.
    func homeScreen() throws(AppError) -> MenuScreen {
        let workspace = try context.workspace()
        let reports = try workspace.reports()
        let todo = try assignmentsToDo(workspace, reports: reports).count
        let drafts = reports.filter { $0.state == .draft || $0.state == .rejected }.count
        let pending = reports.filter { $0.state == .pending || $0.state == .conflict }.count
        let issues = try workspace.issueCount()
        let facilities = try workspace.facilities().count
        let status = try context.status()
        let returned = status.returned
        return MenuScreen(
            title: "JanitorialQC",
            lines: ["Type a number or a letter and press Enter."],
            items: [
                "Assignments to do (\(todo))", "Drafts to resume (\(drafts))", "Pending sync (\(pending))",
                "Issues (\(issues))", "Facilities (\(facilities))", "History", "Settings",
                "Start from a template", "All reports (\(reports.count))", "Returned to me (\(returned))",
                "My actions (\(status.actionsOpen))",
            ],
            keys: [MenuScreen.Key("q", "quit")],
            footer: [status.line])
    }

    // MARK: Drawing and reading

    /// Draws a screen and reads until a valid choice; an invalid one is
    /// explained and the screen drawn again. Nil when input has ended.
    func choose(_ screen: MenuScreen) -> MenuScreen.Choice? {
        while true {
            io.clear()
            for line in screen.render(width: 80, style: context.style) { io.write(line) }
            flushNotices()
            guard let line = read("> ") else { return nil }
            let choice = screen.parse(line)
            if case .invalid(let message) = choice {
                notices.append(message)
                continue
            }
            return choice
        }
    }

    /// Asks one question and returns the answer, trimmed; nil when input has ended.
    func ask(_ question: String) -> String? {
        read(question).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Asks a yes/no question where only y or yes means yes. Nil when input has ended.
    func confirm(_ question: String) -> Bool? {
        ask(question + " (y/N): ").map { ["y", "yes"].contains($0.lowercased()) }
    }

    /// Reads one line after a prompt.
    func read(_ prompt: String) -> String? {
        if inputEnded { return nil }
        guard let line = io.readLine(prompt) else {
            inputEnded = true
            io.write("")
            return nil
        }
        return line
    }

    /// The input closure the form runner reads from, sharing the end of input with the menu.
    func runnerInput(_ prompt: String) -> String? {
        if inputEnded { return nil }
        guard let line = io.readLine(prompt) else {
            inputEnded = true
            return nil
        }
        return line
    }

    /// Writes what is waiting to be shown.
    func flushNotices() {
        guard !notices.isEmpty else { return }
        io.write("")
        for line in notices { io.write(line) }
        notices.removeAll()
    }

    /// Records an error to show as one line (and the problems it lists).
    func fail(_ error: AppError) {
        notices.append(paint("! \(error.message)"))
        notices += error.problems.prefix(8).map { "  - \($0)" }
        if error.problems.count > 8 { notices.append("  - and \(error.problems.count - 8) more") }
    }

    /// Red when colour is allowed.
    private func paint(_ text: String) -> String {
        context.style.color ? "\u{1B}[31m\(text)\u{1B}[0m" : text
    }

    // MARK: Calling the commands

    /// Assignments still to do: open, and without a completed report (PENDING, SYNCED or CONFLICT).
    func assignmentsToDo(_ workspace: Workspace, reports: [Report]) throws(AppError) -> [Assignment] {
        try workspace.assignmentsToDo()
    }

    /// The standard keys of a list screen.
    static let backKeys = [MenuScreen.Key("b", "back"), MenuScreen.Key("q", "quit")]
}
