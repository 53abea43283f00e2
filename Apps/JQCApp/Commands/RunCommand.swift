import ArgumentParsing
import Foundation
import Models

/// `jqc run`: the interactive step-by-step form runner.
enum RunCommand {
    static let run = Command(CommandSpec(
        "run", summary: "answer a report field by field in the terminal; every answer is saved at once",
        positionals: [PositionalSpec("LOCAL_ID", help: "the report (DRAFT or REJECTED)")],
        discussion: "On a terminal or with answers piped in, one per line. /help inside lists the commands (back, skip, jump, clear, done, quit).")
    ) { (inv) throws(AppError) -> CommandOutput in
        if inv.context.json {
            throw AppError.usage("'run' is interactive and has no --json form; use 'answer', 'show' and 'complete' in scripts.")
        }
        let workspace = try inv.workspace()
        let report = try workspace.report(inv.positional(0))
        let echoed = inv.context.stdinIsTerminal
        let session = try RunSession(
            workspace: workspace, report: report, style: inv.context.style,
            readLine: {
                // A runner whose screen is gone has nobody to answer it: what is saved stays saved.
                guard standardOutput.failure == nil else { return nil }
                let line = Swift.readLine(strippingNewline: true)
                // Piped answers are not echoed by a terminal: echo them so the transcript reads well.
                if !echoed, let line { standardOutput.line(line) }
                return line
            },
            write: { standardOutput.line($0) },
            prompt: { standardOutput.write("> ") })
        _ = try session.run()
        return CommandOutput(lines: [], json: .null)
    }
}
