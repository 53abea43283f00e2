import Foundation
import JQCCore
import Models

extension HomeMenu {
    /// The settings table; choosing one changes it through `jqc settings NAME VALUE`,
    /// with the same checks. Reference-data imports live here too.
    func settingsScreen() -> Flow {
        while true {
            let current: CommandOutput
            do { current = StatusCommands.settingsTable(try context.workspace().settings) } catch {
                fail(error); return .back
            }
            let table = current.lines
            let screen = MenuScreen(
                title: "Settings",
                lines: ["Choose a setting to change it."],
                header: table.first, items: Array(table.dropFirst()),
                keys: [
                    MenuScreen.Key("t", "import templates"), MenuScreen.Key("f", "import facilities"),
                    MenuScreen.Key("a", "import assignments"),
                ] + Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            switch choice {
            case .item(let index):
                guard Settings.entries.indices.contains(index) else { continue }
                let entry = Settings.entries[index]
                let now =
                    current.json[entry.name.replacingOccurrences(of: "-", with: "_")].map { $0.canonicalString() }
                    ?? "?"
                guard
                    let value = ask(
                        "New \(entry.name) (\(entry.range.lowerBound)-\(entry.range.upperBound), now \(now); Enter keeps it): "
                    )
                else {
                    return .quit
                }
                if value.isEmpty { continue }
                do throws(AppError) {
                    try context.workspace().saveSetting(entry, typed: value)
                    notices.append("\(entry.name) is now \(value).")
                } catch { fail(error) }
            case .key("t"):
                if importFile(
                    "templates",
                    { path throws(AppError) in
                        ReferenceCommands.importedTemplates(try context.workspace().importTemplates(path: path))
                    }) == .quit
                {
                    return .quit
                }
            case .key("f"):
                if importFile(
                    "facilities",
                    { path throws(AppError) in
                        ReferenceCommands.importedFacilities(try context.workspace().importFacilities(path: path))
                    }) == .quit
                {
                    return .quit
                }
            case .key("a"):
                if importFile(
                    "assignments",
                    { path throws(AppError) in
                        ReferenceCommands.importedAssignments(try context.workspace().importAssignments(path: path))
                    }) == .quit
                {
                    return .quit
                }
            case .key("q"): return .quit
            default: return .back
            }
        }
    }

    /// Asks for a file of `what` and imports it as the command of the same name does.
    private func importFile(_ what: String, _ importing: (String) throws(AppError) -> CommandOutput) -> Flow {
        guard let path = ask("JSON file of \(what) (Enter to cancel): ") else { return .quit }
        guard !path.isEmpty else { return .back }
        do {
            notices += try importing(path).lines
        } catch { fail(error) }
        return .back
    }
}
