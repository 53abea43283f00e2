import ArgumentParsing
import Foundation
import JQCCore
import LineEditing
import Models
import ProgramOutput

/// `jqc run`: the interactive step-by-step form runner.
enum RunCommand {
    static let report = Argument("LOCAL_ID", help: "the report (DRAFT or REJECTED)")

    static let run = Command(
        CommandSpec(
            "run", summary: "answer a report field by field in the terminal; every answer is saved at once",
            positionals: [report.spec],
            discussion:
                "On a terminal or with answers piped in, one per line. /help inside lists the commands (back, skip, jump, clear, done, quit)."
        )
    ) { (inv) throws(AppError) -> CommandOutput in
        if inv.context.json {
            throw AppError.usage(
                "'run' is interactive and has no --json form; use 'answer', 'show' and 'complete' in scripts.")
        }
        let workspace = try inv.workspace()
        let report = try workspace.report(try inv[Self.report])
        let echoed = inv.context.stdinIsTerminal
        // Ctrl-C: every answer was saved when it was typed; say so, and how to go on.
        let interrupt = InterruptExit(
            "\nInterrupted: every answer typed so far is saved. Continue with 'jqc run \(workspace.short(report))'.")
        defer { withExtendedLifetime(interrupt) {} }
        let reader = LineReader(writePrompt: { standardOutput.write($0) })
        let session = try RunSession(
            workspace: workspace, report: report, style: inv.context.style,
            readLine: { prompt in
                // A runner whose screen is gone has nobody to answer it: what is saved stays saved.
                guard standardOutput.failure == nil else { return nil }
                let line = reader.readLine(prompt: prompt)
                // Piped answers are not echoed by a terminal: echo them so the transcript reads well.
                if !echoed, let line { standardOutput.line(line) }
                return line
            },
            write: { standardOutput.line($0) })
        _ = try session.run()
        return CommandOutput(lines: [], json: .null)
    }
}
