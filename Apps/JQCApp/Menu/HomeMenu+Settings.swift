import Foundation
import Models

extension HomeMenu {
    /// The settings table; choosing one changes it through `jqc settings NAME VALUE`,
    /// with the same checks. Reference-data imports live here too.
    func settingsScreen() -> Flow {
        while true {
            let current: CommandOutput
            do { current = try command(StatusCommands.settings, []) } catch { fail(error); return .back }
            let table = current.lines
            let screen = MenuScreen(
                title: "Settings",
                lines: ["Choose a setting to change it."],
                header: table.first, items: Array(table.dropFirst()),
                keys: [MenuScreen.Key("t", "import templates"), MenuScreen.Key("f", "import facilities"),
                       MenuScreen.Key("a", "import assignments")] + Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            switch choice {
            case .item(let index):
                guard Settings.entries.indices.contains(index) else { continue }
                let entry = Settings.entries[index]
                let now = current.json[entry.name.replacingOccurrences(of: "-", with: "_")].map { $0.canonicalString() } ?? "?"
                guard let value = ask("New \(entry.name) (\(entry.range.lowerBound)-\(entry.range.upperBound), now \(now); Enter keeps it): ") else {
                    return .quit
                }
                if value.isEmpty { continue }
                do {
                    _ = try command(StatusCommands.settings, [entry.name, value])
                    notices.append("\(entry.name) is now \(value).")
                } catch { fail(error) }
            case .key("t"): if importFile(ReferenceCommands.templatesImport, what: "templates") == .quit { return .quit }
            case .key("f"): if importFile(ReferenceCommands.facilitiesImport, what: "facilities") == .quit { return .quit }
            case .key("a"): if importFile(ReferenceCommands.assignmentsImport, what: "assignments") == .quit { return .quit }
            case .key("q"): return .quit
            default: return .back
            }
        }
    }

    private func importFile(_ command: Command, what: String) -> Flow {
        guard let path = ask("JSON file of \(what) (Enter to cancel): ") else { return .quit }
        guard !path.isEmpty else { return .back }
        do {
            notices += try self.command(command, [path]).lines
        } catch { fail(error) }
        return .back
    }
}
