import Dispatch
import Foundation
import JQCCore
import Models
import Sync
import Synchronization

/// Runs sync cycles for `jqc-agent run`: one (`--once`) or a loop with a
/// pause between cycles that grows while the server cannot be reached.
/// SIGTERM and SIGINT end the loop after the cycle in flight has finished,
/// so a stop never cuts a batch in half on this side.
public final class AgentLoop {
    let context: AppContext
    let log: AgentLog
    let metrics: MetricsFile?
    let caFile: String?
    private var cycles: Int64 = 0
    private var lastSuccess: Date?

    /// Set by SIGTERM/SIGINT; read between cycles and while pausing.
    static let stopRequested = Atomic<Bool>(false)

    public init(context: AppContext, log: AgentLog, metrics: MetricsFile?, caFile: String?) {
        self.context = context
        self.log = log
        self.metrics = metrics
        self.caFile = caFile
    }

    /// Writes the metrics file once before any cycle, so a file the agent
    /// cannot write is found at start (exit 1) rather than after every cycle.
    public func checkMetricsFile() throws(AppError) {
        guard let metrics else { return }
        let stored = try? context.workspace().agentCycles()
        cycles = stored?.cycles ?? 0
        lastSuccess = stored?.lastSuccess
        try metrics.write(samples(summary: nil, duration: 0))
    }

    /// One cycle; returns its exit code (docs/commands.md: 0 done, 75 offline, 6 sign in).
    public func runOnce() async -> ExitCode {
        let started = Date()
        log.log(.info, "cycle_started", ["pending": .integer(Int64((try? context.workspace().pendingCount()) ?? 0))])
        let code: ExitCode
        do {
            let summary = try await SyncService(context: context, caFile: caFile).sync(
                waitingForOtherSync: {
                    log.log(
                        .info, "waiting_for_other_sync",
                        ["message": "Another sync of this profile is running; waiting for it to finish."])
                }, progress: { _ in })
            countCycle(succeeded: summary.outcome == .done)
            for back in summary.returned {
                // Ids only: a supervisor's comment stays out of the log (it is read with 'jqc show').
                let short = back.localID.wireString.prefix(8)
                log.log(
                    .info, "report_returned",
                    [
                        "local_id": .string(back.localID.wireString), "server_id": .string(back.serverID),
                        "message": .string(
                            "A supervisor returned report \(short) for changes; 'jqc show \(short)' shows the comments."
                        ),
                    ])
            }
            if let restore = summary.serverRestore {
                log.log(
                    .warn, "server_restored",
                    [
                        "reports_sent_again": .integer(Int64(restore.reportsSentAgain)),
                        "photos_sent_again": .integer(Int64(restore.photosSentAgain)),
                        "message": .string(
                            "The server was restored from a backup: \(counted(restore.reportsSentAgain, "report")) sent again, \(counted(restore.photosSentAgain, "photo")) uploaded again."
                        ),
                    ])
            }
            for problem in summary.leftoverPhotoProblems {
                log.log(.warn, "leftover_photo_file", ["message": .string(problem)])
            }
            for moved in summary.moved {
                // Ids and counts only: answers (and the reasons, which may quote them) stay out of the log.
                let aside = moved.setAside.count
                log.log(
                    .info, "drafts_moved",
                    [
                        "template_id": .string(moved.templateID), "version": .integer(Int64(moved.version)),
                        "local_ids": .array(moved.reports.map { .string($0.localID.wireString) }),
                        "set_aside": .integer(Int64(aside)),
                        "message": .string(
                            "\(moved.reports.count) draft\(moved.reports.count == 1 ? "" : "s") moved to version \(moved.version) of template \(moved.templateID); \(aside) answer\(aside == 1 ? "" : "s") set aside ('jqc show ID --history' lists them)."
                        ),
                    ])
            }
            var fields = summary.json.objectValue ?? [:]
            fields["duration_seconds"] = .double(Date().timeIntervalSince(started))
            switch summary.outcome {
            case .done:
                log.log(summary.conflicts.isEmpty && summary.rejected.isEmpty ? .info : .warn, "cycle_finished", fields)
                code = ExitCode.ok
            case .offline:
                let pending = (try? context.workspace().pendingCount()) ?? 0
                fields["message"] = .string(
                    "Waiting for \(summary.waitingFor). \(pending) report\(pending == 1 ? "" : "s") pending.")
                log.log(.warn, "offline", fields)
                code = ExitCode.temporary
            case .authRequired:
                log.log(
                    .error, "auth_required",
                    ["message": "Sign in again with 'jqc login'; nothing on this device was lost."])
                code = ExitCode.authRequired
            }
            writeMetrics(summary: summary, duration: Date().timeIntervalSince(started))
        } catch {
            countCycle(succeeded: false)
            log.log(
                error.exitCode == ExitCode.temporary ? .warn : .error, "cycle_failed",
                ["code": .string(error.code.rawValue), "message": .string(error.message)])
            writeMetrics(summary: nil, duration: Date().timeIntervalSince(started))
            code = error.exitCode
        }
        return code
    }

    /// Cycles until SIGTERM or SIGINT, pausing `interval` seconds between them
    /// (doubling up to an hour while offline). Returns 0 after a clean stop.
    public func runLoop(interval: Double) async -> ExitCode {
        Self.installStopHandlers()
        log.log(.info, "agent_started", ["interval_seconds": .double(interval)])
        var pause = interval
        while !Self.stopRequested.load(ordering: .relaxed) {
            let code = await runOnce()
            if code == ExitCode.authRequired {
                log.log(.error, "agent_stopped", ["reason": "sign-in needed"])
                return code
            }
            // A saved session no cycle can use (plain http:// to another host): trying again cannot help.
            if code == ExitCode.usage {
                log.log(.error, "agent_stopped", ["reason": "the saved session cannot be used"])
                return code
            }
            pause = code == ExitCode.temporary ? min(max(pause * 2, interval), 3600) : interval
            let until = Date().addingTimeInterval(pause)
            while Date() < until, !Self.stopRequested.load(ordering: .relaxed) {
                try? await Task.sleep(nanoseconds: 100_000_000)
            }
        }
        log.log(.info, "agent_stopped", ["reason": "signal"])
        return ExitCode.ok
    }

    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []

    /// SIGTERM and SIGINT set `stopRequested` instead of ending the process.
    private static func installStopHandlers() {
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { AgentLoop.stopRequested.store(true, ordering: .relaxed) }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Counts a cycle in the profile's store, so the counter carries over
    /// from one `--once` run to the next as a Prometheus counter must.
    private func countCycle(succeeded: Bool) {
        let now = Date()
        if let counted = try? context.workspace().countAgentCycle(succeededAt: succeeded ? now : nil) {
            cycles = counted.cycles
            lastSuccess = counted.lastSuccess
        } else {
            cycles += 1
            if succeeded { lastSuccess = now }
        }
    }

    private func writeMetrics(summary: SyncSummary?, duration: Double) {
        guard let metrics else { return }
        do { try metrics.write(samples(summary: summary, duration: duration)) } catch {
            log.log(.error, "metrics_unwritable", ["message": .string(error.message)])
        }
    }

    private func samples(summary: SyncSummary?, duration: Double) -> [MetricsFile.Sample] {
        let status = try? context.status()
        var samples: [MetricsFile.Sample] = [
            .init(
                "jqc_sync_cycles_total", Double(cycles), help: "Sync cycles agents have run on this profile.",
                type: "counter"),
            .init("jqc_sync_last_duration_seconds", duration, help: "How long the last cycle took."),
            .init(
                "jqc_sync_last_cycle_ok", summary?.outcome == .done ? 1 : 0,
                help: "1 when the last cycle reached the server and finished."),
            .init("jqc_reports_pending", Double(status?.pending ?? 0), help: "Reports waiting to upload."),
            .init(
                "jqc_reports_conflict", Double(status?.conflicts ?? 0),
                help: "Reports in conflict, waiting for a person."),
            .init(
                "jqc_reports_rejected", Double(status?.rejected ?? 0),
                help: "Reports the server refused, waiting for correction."),
            .init(
                "jqc_reports_returned", Double(status?.returned ?? 0),
                help: "Reports a supervisor returned for changes, not sent again yet."),
            .init(
                "jqc_reports_needs_attention", Double(status?.needsAttention ?? 0),
                help: "Reports past the retry ceiling, waiting for 'jqc retry'."),
            .init("jqc_photos_pending", Double(status?.photosPending ?? 0), help: "Photos waiting to upload."),
            .init(
                "jqc_actions_open", Double(status?.actionsOpen ?? 0),
                help: "Corrective actions assigned to the signed-in person, open or in progress."),
            .init(
                "jqc_actions_overdue", Double(status?.actionsOverdue ?? 0),
                help: "Of those, the ones past their due time."),
            .init(
                "jqc_agent_log_lines_dropped_total", Double(log.droppedLines),
                help: "Log lines this agent could not write (a full disk, a failing device); syncing went on.",
                type: "counter"),
            .init(
                "jqc_sync_last_accepted", Double(summary?.accepted ?? 0),
                help: "Reports the server accepted in the last cycle."),
            .init(
                "jqc_sync_last_photos_uploaded", Double(summary?.photosUploaded ?? 0),
                help: "Photos uploaded in the last cycle."),
        ]
        if let lastSuccess {
            samples.append(
                .init(
                    "jqc_sync_last_success_timestamp_seconds", lastSuccess.timeIntervalSince1970.rounded(),
                    help: "When the last cycle finished (device clock, for alerting only)."))
        }
        return samples
    }
}
