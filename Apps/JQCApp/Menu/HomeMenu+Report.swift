import Foundation
import JQCCore
import Models

extension HomeMenu {
    /// One report: the `show` view, then what can be done to it, by letter.
    /// Every action runs the command of the same name in this menu's context.
    func reportScreen(_ id: UUID) -> Flow {
        let reference = id.uuidString.lowercased()
        while true {
            let report: Report, shown: CommandOutput
            do {
                let workspace = try context.workspace()
                report = try workspace.report(reference)
                shown = try ReportCommands.shown(report, in: workspace, style: context.style)
            } catch {
                if error.exitCode != ExitCode.notFound { fail(error) }
                return .back
            }
            let keys = Self.actions(for: report)
            let screen = MenuScreen(
                title: "Report \(reference.prefix(8)) · \(report.state.rawValue)",
                lines: shown.lines, keys: keys)
            guard let choice = choose(screen) else { return .quit }
            guard case .key(let letter) = choice else { continue }
            let flow: Flow?
            switch letter {
            case "r": flow = runForm(id)
            case "c": flow = completeReport(report)
            case "p": flow = addPhotos(report)
            case "i": flow = flagIssue(report)
            case "e": flow = export(report)
            case "n": flow = reinspect(report)
            case "v": flow = showConflict(report)
            case "k": flow = keepMine(report)
            case "s": flow = takeServer(report)
            case "f": flow = pickFields(report)
            case "a":
                _ = amendReturned(report)
                flow = nil
            case "d":
                guard let yes = confirm("Delete draft \(reference.prefix(8)) with its photos and issues?") else {
                    return .quit
                }
                guard yes else { notices.append("Not deleted."); continue }
                do {
                    let workspace = try context.workspace()
                    notices +=
                        ReportCommands.deleted(report, leaving: try workspace.delete(report), in: workspace).lines
                } catch { fail(error) }
                flow = nil
            case "q": return .quit
            default: return .back
            }
            if flow == .quit { return .quit }
        }
    }

    /// The letters a report's state allows.
    static func actions(for report: Report) -> [MenuScreen.Key] {
        var keys: [MenuScreen.Key] = []
        if report.lifecycle.isEditable {
            keys += [
                MenuScreen.Key("r", report.answers.answeredIDs.isEmpty ? "run the form" : "continue the form"),
                MenuScreen.Key("c", "complete"), MenuScreen.Key("p", "add photos"),
                MenuScreen.Key("i", "flag an issue"),
            ]
        }
        if report.state == .conflict {
            keys += [
                MenuScreen.Key("v", "view the differences"), MenuScreen.Key("k", "keep mine"),
                MenuScreen.Key("s", "take the server's"), MenuScreen.Key("f", "choose field by field"),
            ]
        }
        if report.state == .synced, report.lifecycle.awaitsChanges {
            keys.append(MenuScreen.Key("a", "amend (returned for changes)"))
        }
        keys.append(MenuScreen.Key("e", "export"))
        if [.pending, .synced, .conflict].contains(report.state) { keys.append(MenuScreen.Key("n", "re-inspect")) }
        if report.state == .draft { keys.append(MenuScreen.Key("d", "delete draft")) }
        return keys + backKeys
    }

    /// Opens the form runner on a report, reading from the menu's input.
    func runForm(_ id: UUID) -> Flow {
        do {
            let workspace = try context.workspace()
            let report = try workspace.report(id.uuidString.lowercased())
            io.clear()
            let session = try RunSession(
                workspace: workspace, report: report, style: context.style,
                readLine: { [unowned self] in self.runnerInput($0) },
                write: io.write)
            let (saved, completed) = try session.run()
            notices.append(
                completed
                    ? "Report \(workspace.short(saved)) is complete (PENDING); it uploads at the next sync."
                    : "Report \(workspace.short(saved)) saved as \(saved.state.rawValue).")
        } catch { fail(error) }
        return .back
    }

    private func completeReport(_ report: Report) -> Flow {
        guard let followUp = confirm("Mark it for a follow-up re-inspection?") else { return .quit }
        do {
            let workspace = try context.workspace()
            let completed = try workspace.complete(report, followUp: followUp)
            notices += try ReportCommands.completed(completed, in: workspace, style: context.style).lines
        } catch { fail(error) }
        return .back
    }

    private func addPhotos(_ report: Report) -> Flow {
        io.write("Photo files (JPEG or PNG), separated by spaces or one per line; an empty line ends.")
        var files: [String] = []
        while true {
            guard let line = ask("photo> ") else { return .quit }
            if line.isEmpty { break }
            files += Self.paths(in: line)
        }
        guard !files.isEmpty else { notices.append("No photos added."); return .back }
        let workspace: Workspace
        do { workspace = try context.workspace() } catch { fail(error); return .back }
        var field: String?
        let imageFields = ((try? workspace.template(for: report))?.schema.fields ?? []).filter {
            workspace.registry.resolve($0).takesPhotos
        }
        if !imageFields.isEmpty {
            let ids = imageFields.map { "\($0.id) (\($0.displayName))" }.joined(separator: ", ")
            guard let typed = ask("Attach to an image field [\(ids)], or Enter for the report itself: ") else {
                return .quit
            }
            if !typed.isEmpty { field = typed }
        }
        do {
            let result = try workspace.addPhotos(to: report, fieldID: field, issueLocalID: nil, files: files)
            notices += PhotoIssueCommands.photosAdded(result, to: report, field: field, issue: nil, in: workspace).lines
        } catch { fail(error) }
        return .back
    }

    /// The paths in a typed line: the whole line when it names an existing
    /// file (a path with spaces), otherwise the words separated by spaces.
    static func paths(in line: String) -> [String] {
        if FileManager.default.fileExists(atPath: line) { return [line] }
        return line.split(separator: " ").map(String.init)
    }

    private func flagIssue(_ report: Report) -> Flow {
        // The severity is checked as it is typed, before the description and photo are asked for.
        var severity: String
        while true {
            guard let typed = ask("Severity (\(Workspace.severityList)): ") else { return .quit }
            if IssueSeverity(typed: typed) != nil {
                severity = typed
                break
            }
            io.write(paintedError("'\(typed)' is not a severity; use \(Workspace.severityList)."))
        }
        guard let description = ask("Description: "),
            let photo = ask("Photo file (Enter for none): ")
        else { return .quit }
        let photoFile = photo.isEmpty ? nil : photo
        do {
            let workspace = try context.workspace()
            let (issue, saved) = try workspace.addIssue(
                to: report, severity: severity, description: description, photoFile: photoFile)
            notices +=
                PhotoIssueCommands.issueAdded(issue, photo: saved, from: photoFile, on: report, in: workspace).lines
        } catch { fail(error) }
        return .back
    }

    private func export(_ report: Report) -> Flow {
        let reference = report.localID.uuidString.lowercased()
        guard let typed = ask("Format (json, csv or html): ") else { return .quit }
        guard let format = ExportFormat(typed: typed) else {
            notices.append(paintedError("'\(typed)' is not an export format; use \(ExportFormat.choices)."))
            return .back
        }
        let suggested = "report-\(reference.prefix(8)).\(format.rawValue)"
        guard let path = ask("File to write (Enter for \(suggested)): ") else { return .quit }
        do {
            let target = try ExportFile.target(path.isEmpty ? suggested : path)
            notices += try ExportCommand.exported(
                report, as: format, to: target, in: try context.workspace(), now: context.now(),
                inspector: ExportCommand.inspector(context)
            ).lines
        } catch { fail(error) }
        return .back
    }

    private func reinspect(_ report: Report) -> Flow {
        let output: CommandOutput
        do {
            let workspace = try context.workspace()
            output = ReportCommands.reinspected(try workspace.reinspect(report), of: report, in: workspace)
        } catch { fail(error); return .back }
        notices.append(output.lines.first ?? "Re-inspection started.")
        guard let child = output.json["local_id"]?.stringValue, let id = UUID(uuidString: child) else { return .back }
        if runForm(id) == .quit { return .quit }
        return reportScreen(id)
    }

    // MARK: A report in CONFLICT: the same workspace and presenter as 'diff' and 'resolve'

    private func showConflict(_ report: Report) -> Flow {
        do {
            let workspace = try context.workspace()
            let presenter = ConflictPresenter(workspace: workspace, style: context.style)
            notices += presenter.diffLines(report, fields: try workspace.conflictFields(report))
        } catch { fail(error) }
        return .back
    }

    private func keepMine(_ report: Report) -> Flow {
        resolveWhole(report, asking: "Upload your answers on top of the server's revision?") {
            workspace throws(AppError) in
            try workspace.resolveKeepingMine(report)
        }
    }

    private func takeServer(_ report: Report) -> Flow {
        resolveWhole(report, asking: "Take the server's revision? Your answers stay in the report's history.") {
            workspace throws(AppError) in
            try workspace.resolveTakingServer(report)
        }
    }

    /// Asks `question`; on yes, resolves the whole report one way and says where it left it.
    private func resolveWhole(
        _ report: Report, asking question: String,
        _ resolve: (Workspace) throws(AppError) -> Report
    ) -> Flow {
        guard let yes = confirm(question) else { return .quit }
        guard yes else { notices.append("Still in CONFLICT."); return .back }
        do {
            let workspace = try context.workspace()
            notices.append(
                ConflictPresenter(workspace: workspace, style: context.style).resolvedLine(try resolve(workspace)))
        } catch { fail(error) }
        return .back
    }

    /// Asks for each differing field in turn which side to keep, then resolves with those picks.
    private func pickFields(_ report: Report) -> Flow {
        do {
            let workspace = try context.workspace()
            let presenter = ConflictPresenter(workspace: workspace, style: context.style)
            var picks: [String: ConflictSide] = [:]
            for field in try workspace.conflictFields(report) where field.open {
                io.write("\(field.field.displayName) [\(field.field.id)]")
                io.write("  m) mine:   \(presenter.mine(field))")
                io.write("  s) server: \(presenter.server(field))")
                while picks[field.field.id.rawValue] == nil {
                    guard let typed = ask("Keep (m/s): ") else { return .quit }
                    switch typed.lowercased() {
                    case "m", "mine": picks[field.field.id.rawValue] = .mine
                    case "s", "server": picks[field.field.id.rawValue] = .server
                    default: io.write(paintedError("Type m for yours or s for the server's."))
                    }
                }
            }
            let resolved = try workspace.resolve(report, picks: picks)
            notices.append(presenter.resolvedLine(resolved))
        } catch { fail(error) }
        return .back
    }

    /// A one-line error made here rather than by a command.
    private func paintedError(_ message: String) -> String {
        context.style.color ? "\u{1B}[31m! \(message)\u{1B}[0m" : "! \(message)"
    }
}
