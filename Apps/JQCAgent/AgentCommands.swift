import ArgumentParsing
import Foundation
import JQCCore

/// `jqc-agent run`: headless sync for cron and systemd.
enum AgentCommands {
    static let run = Command(
        CommandSpec(
            "run",
            summary: "sync this profile: one cycle (--once, for cron) or a loop (--interval SECONDS, for a service)",
            options: [
                .flag(
                    "once",
                    help: "run one cycle and exit: 0 done, 75 offline (try later), 73 another agent runs, 6 sign in"),
                .value(
                    "interval", "SECONDS",
                    help: "run a cycle every SECONDS until SIGTERM/SIGINT (longer pauses while offline)"),
                .value("log-file", "FILE", help: "append the JSON-lines log to FILE instead of stderr"),
                .value("metrics-file", "FILE", help: "write Prometheus text metrics to FILE after each cycle"),
                .value("cacert", "FILE", help: "trust the certificate authorities in FILE"),
            ],
            discussion: """
                cron:    */15 * * * *  jqc-agent run --once --log-file ~/.local/state/jqc-agent.log
                systemd: ExecStart=/usr/local/bin/jqc-agent run --interval 300 --metrics-file /var/lib/node_exporter/jqc.prom
                """)
    ) { (inv) throws(AppError) -> CommandOutput in
        let args = inv.arguments
        let once = args.flag("once")
        let interval = args.value("interval")
        guard once != (interval != nil) else {
            throw AppError.usage("Give either --once or --interval SECONDS.")
        }
        var seconds = 0.0
        if let interval {
            guard let value = Double(interval), value >= 1, value <= 86_400 else {
                throw AppError.usage("'--interval \(interval)' must be a number of seconds from 1 to 86400.")
            }
            seconds = value
        }
        // The profile's store must open (a newer or damaged one stops the agent here, in one line).
        _ = try inv.context.workspace()
        let lock = try ProfileLock.agent(profileDirectory: inv.context.profile.dataDirectory)
        let log = try AgentLog(file: args.value("log-file"))
        let loop = AgentLoop(
            context: inv.context, log: log, metrics: args.value("metrics-file").map(MetricsFile.init(path:)),
            caFile: args.value("cacert"))
        try loop.checkMetricsFile()
        let code = once ? loop.runOnce() : loop.runLoop(interval: seconds)
        withExtendedLifetime(lock) {}
        return CommandOutput(lines: [], json: .null, showsStatusLine: false, exitCode: code)
    }
}
