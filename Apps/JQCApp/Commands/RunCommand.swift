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
        let out = FileHandle.standardOutput
        let echoed = inv.context.stdinIsTerminal
        let session = try RunSession(
            workspace: workspace, report: report, style: inv.context.style,
            readLine: {
                let line = Swift.readLine(strippingNewline: true)
                // Piped answers are not echoed by a terminal: echo them so the transcript reads well.
                if !echoed, let line { out.write(Data((line + "\n").utf8)) }
                return line
            },
            write: { out.write(Data(($0 + "\n").utf8)) },
            prompt: { out.write(Data("> ".utf8)) })
        _ = try session.run()
        return CommandOutput(lines: [], json: .null)
    }
}
