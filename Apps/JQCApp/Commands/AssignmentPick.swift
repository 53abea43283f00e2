import ArgumentParsing
import Foundation
import JQCCore
import Models

/// Which open assignment `jqc start --template --facility` takes: the one
/// that matches; of several, the one a person picks at a terminal; off a
/// terminal (or with --json), none, and the command stops listing them (exit 2).
enum AssignmentPick {
    static func pick(_ inv: Invocation, _ workspace: Workspace, template: String, facility: String, area: String?)
        throws(AppError) -> String?
    {
        let matches = try workspace.assignmentsMatching(templateID: template, facilityID: facility, areaID: area)
        guard matches.count > 1 else { return matches.first?.id }
        let lines = matches.enumerated().map { index, assignment in
            "  \(index + 1). \(flatLine(assignment.id)), due \(flatLine(assignment.dueAt ?? "-"))"
        }
        guard inv.context.stdinIsTerminal, !inv.context.json else {
            throw AppError.usage(
                "\(matches.count) open assignments match: "
                    + matches.map { "\(flatLine($0.id)) (due \(flatLine($0.dueAt ?? "-")))" }.joined(separator: ", ")
                    + "; give one with --assignment ID, or --no-assignment for none.")
        }
        standardOutput.write(
            (["\(matches.count) open assignments match this inspection:"] + lines).joined(separator: "\n") + "\n")
        while true {
            standardOutput.write("Which one (1-\(matches.count), or n for none)? ")
            guard let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased()
            else { throw AppError.usage("No assignment was chosen; nothing was started.") }
            if answer == "n" || answer == "none" { return nil }
            if let number = Int(answer), (1...matches.count).contains(number) { return matches[number - 1].id }
        }
    }
}
