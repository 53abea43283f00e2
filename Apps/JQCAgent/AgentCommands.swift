import ArgumentParsing
import Foundation
import JQCCore

/// `jqc-agent run`: headless sync for cron and systemd.
enum AgentCommands {
    /// One cycle, for cron.
    static let once = Flag(
        "once", help: "run one cycle and exit: 0 done, 75 offline (try later), 73 another agent runs, 6 sign in")
    /// The seconds a loop's cycles are apart.
    static let intervals = 1.0...86_400.0
    static let interval = Option(
        "interval", "SECONDS", help: "run a cycle every SECONDS until SIGTERM/SIGINT (longer pauses while offline)",
        as: .number(in: intervals) { word, label in
            "'\(label) \(word)' must be a number of seconds from \(Int(intervals.lowerBound)) to \(Int(intervals.upperBound))."
        })
    static let logFile = Option("log-file", "FILE", help: "append the JSON-lines log to FILE instead of stderr")
    static let metricsFile = Option(
        "metrics-file", "FILE", help: "write Prometheus text metrics to FILE after each cycle")
    static let caFile = Option("cacert", "FILE", help: "trust the certificate authorities in FILE")

    static let run = Command(
        CommandSpec(
            "run",
            summary: "sync this profile: one cycle (--once, for cron) or a loop (--interval SECONDS, for a service)",
            options: [once.spec, interval.spec, logFile.spec, metricsFile.spec, caFile.spec],
            discussion: """
                cron:    */15 * * * *  jqc-agent run --once --log-file ~/.local/state/jqc-agent.log
                systemd: ExecStart=/usr/local/bin/jqc-agent run --interval 300 --metrics-file /var/lib/node_exporter/jqc.prom
                """)
    ) { (inv) async throws(AppError) -> CommandOutput in
        let once = inv[Self.once]
        guard once != inv.isGiven(Self.interval) else {
            throw AppError.usage("Give either --once or --interval SECONDS.")
        }
        let seconds = try inv[Self.interval] ?? 0
        // The profile's store must open (a newer or damaged one stops the agent here, in one line).
        _ = try inv.context.workspace()
        let lock = try inv.context.agentLock()
        let log = try AgentLog(file: try inv[Self.logFile])
        let loop = AgentLoop(
            context: inv.context, log: log, metrics: try inv[Self.metricsFile].map(MetricsFile.init(path:)),
            caFile: try inv[Self.caFile])
        try loop.checkMetricsFile()
        let code = once ? await loop.runOnce() : await loop.runLoop(interval: seconds)
        withExtendedLifetime(lock) {}
        return CommandOutput(lines: [], json: .null, showsStatusLine: false, exitCode: code)
    }
}
