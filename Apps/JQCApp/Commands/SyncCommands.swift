import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models
import ProgramOutput
import Sync

/// sync, retry, amend (F8, F9, BR-08).
enum SyncCommands {
    static var all: [Command] { [sync, retry, amend] }

    static let caFile = Option(
        "cacert", "FILE", help: "trust the certificate authorities in FILE instead of the system's")
    static let pendingReport = Argument(
        optional: "LOCAL_ID", help: "the report (all pending reports with failed attempts when omitted)")
    static let syncedReport = Argument("LOCAL_ID", help: "the report")

    static let sync = Command(
        CommandSpec(
            "sync", summary: "one sync cycle in the foreground: reference data down, reports and photos up",
            options: [caFile.spec],
            discussion: """
                Exit codes: 0 done; 75 offline or server unavailable (nothing lost, try later); 6 sign in again;
                7 new conflicts a person must resolve ('jqc conflicts'); 1 the server refused the request or answered
                something that is not the JQC API (reports stay PENDING and are retried), or DISK_FULL: this device's disk
                is full (nothing saved is lost; free some space and sync again: nothing is sent twice).
                While another sync of this profile runs (jqc-agent, say), it waits for that one to finish, then runs.
                """)
    ) { (inv) async throws(AppError) -> CommandOutput in
        let showProgress = !inv.context.json && isatty(STDERR_FILENO) == 1
        let summary = try await SyncService(context: inv.context, caFile: try inv[Self.caFile])
            .sync(
                askedByPerson: true,
                waitingForOtherSync: {
                    OutputChannel.standardError.write(
                        "Another sync of this profile is running; waiting for it to finish…\n")
                }, progress: { event in if showProgress { SyncPresenter.progress(event) } })
        if showProgress { OutputChannel.standardError.write("\r\u{1B}[K") }
        if summary.outcome == .authRequired {
            throw AppError(
                code: .authRequired, "Sign in again with 'jqc login'; nothing on this device was lost.",
                exitCode: ExitCode.authRequired)
        }
        let status = try inv.context.status()
        var output = SyncPresenter.output(summary, pending: status.pending)
        if !status.appVersionSupported {
            output.diagnostics.append(
                "UPDATE_REQUIRED: this app (\(AppVersion.current)) is older than the server accepts; update it to start new reports. "
                    + "Reports already completed still upload.")
        }
        return output
    }

    static let retry = Command(
        CommandSpec(
            "retry", summary: "try again at the next sync: reset the retry count of one pending report, or of all",
            positionals: [pendingReport.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let reports: [Report]
        if let reference = try inv[Self.pendingReport] {
            reports = [try workspace.report(reference)]
        } else {
            reports = try workspace.reportsWithFailedAttempts()
        }
        for report in reports { try workspace.retry(report) }
        let count = reports.count
        return CommandOutput(
            lines: [
                count == 0
                    ? "Nothing to retry." : "\(count) report\(count == 1 ? "" : "s") will be sent at the next sync."
            ],
            json: ["retried": .array(reports.map { .string($0.localID.wireString) })])
    }

    static let amend = Command(
        CommandSpec(
            "amend",
            summary:
                "reopen a SYNCED report as a DRAFT to correct it, or to change one returned for changes (keeps its server id and base revision)",
            positionals: [syncedReport.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let report = try workspace.report(try inv[Self.syncedReport])
        let amended = try workspace.amend(report)
        var lines = [
            "\(workspace.short(amended)) is a DRAFT again; change answers, then 'jqc complete' to send the correction."
        ]
        if amended.lifecycle.review?.isReturned == true {
            // What the supervisor asked for, where the inspector is about to change it (server text: one line each).
            lines += ReviewNotes.lines(amended, in: workspace, style: inv.context.style).map {
                OneLine.flatten($0, lineBreak: " ")
            }
        }
        return CommandOutput(
            lines: lines,
            json: [
                "local_id": .string(amended.localID.wireString), "state": .string(amended.state.rawValue),
                "server_id": amended.serverID.map { .string($0) } ?? .null,
                "base_revision": amended.lifecycle.baseRevision.map { .integer(Int64($0)) } ?? .null,
            ])
    }
}

/// How a sync cycle is shown: progress on a terminal, summary lines, `--json`, the exit code.
enum SyncPresenter {
    static func progress(_ event: SyncProgress) {
        let text: String =
            switch event {
            case .pullingReference: "Pulling reference data…"
            case .reports(let sent): "Reports sent: \(sent)"
            case .photos(let done, let total, let bytes, let totalBytes):
                "Photos: \(done)/\(total) (\(megabytes(bytes)) of \(megabytes(totalBytes)))"
            }
        OutputChannel.standardError.write("\r\u{1B}[K\(text)")
    }

    /// The summary on stdout; errors and what waits for a person (a conflict, a rejection, the
    /// network) on stderr. Offline with nothing done, there is no summary: only why it waits.
    /// What a device did when it found its server restored from a backup.
    static func restoreLine(_ restore: ServerRestore) -> String {
        var parts: [String] = []
        if restore.reportsSentAgain > 0 || restore.photosSentAgain == 0 {
            parts.append(counted(restore.reportsSentAgain, "report") + " sent again")
        }
        if restore.photosSentAgain > 0 { parts.append(counted(restore.photosSentAgain, "photo") + " uploaded again") }
        return "The server was restored from a backup: " + parts.joined(separator: ", ") + "."
    }

    static func output(_ summary: SyncSummary, pending: Int) -> CommandOutput {
        var lines: [String] = []
        var notices: [String] = []
        if let pulled = summary.reference {
            lines.append(
                "Pulled \(counted(pulled.facilities, "facility", "facilities")), \(counted(pulled.areas, "area")), "
                    + "\(counted(pulled.templates, "template")), \(counted(pulled.assignments, "assignment change")).")
            for skipped in pulled.skippedTemplates {
                // The server's id and what its schema got wrong: through OneLine.
                lines.append(
                    "Skipped template '\(oneLine(skipped.id))' (SCHEMA_UNSUPPORTED): \(flatLine(skipped.reason))")
            }
        }
        let somethingHappened =
            summary.accepted + summary.synced + summary.photosUploaded > 0
            || !summary.conflicts.isEmpty || !summary.rejected.isEmpty || summary.reference != nil
        if summary.outcome != .offline || somethingHappened {
            lines.append(
                "Reports: \(summary.accepted) accepted by the server, \(summary.synced) now SYNCED (with every photo), "
                    + "\(summary.conflicts.count) in conflict, \(summary.rejected.count) rejected, "
                    + "\(summary.failed) not delivered (sent again later).")
        }
        if let restore = summary.serverRestore {
            lines.append(restoreLine(restore))
        }
        // Drafts the cycle's templates moved (each outside string in the line went through the one sanitiser).
        lines += summary.moved.map(\.message)
        if summary.photosUploaded + summary.photosFailed > 0 {
            lines.append(
                "Photos: \(summary.photosUploaded) uploaded (\(megabytes(summary.photoBytes))), \(summary.photosFailed) failed."
            )
        }
        lines += mergedLines(summary.merged)
        for id in summary.conflicts {
            notices.append(
                "REPORT_CONFLICT \(id.wireString.prefix(8)): the server has a newer revision; see 'jqc diff \(id.wireString.prefix(8))'."
            )
        }
        for rejection in summary.rejected {
            notices.append(
                "REPORT_REJECTED \(rejection.localID.wireString.prefix(8)): \(rejection.code): \(rejection.message) Correct it and complete it again."
            )
        }
        if summary.waiting > 0 {
            lines.append("\(summary.waiting) report\(summary.waiting == 1 ? "" : "s") wait for their next retry.")
        }
        if summary.needsPerson > 0 {
            lines.append(
                "\(summary.needsPerson) report\(summary.needsPerson == 1 ? "" : "s") stopped retrying; run 'jqc retry'."
            )
        }
        for back in summary.returned {
            let short = back.localID.wireString.prefix(8)
            lines.append(
                "REPORT_RETURNED \(short): a supervisor returned it for changes; see 'jqc show \(short)', then 'jqc amend \(short)'."
            )
        }
        if let failure = summary.reviewsError {
            notices.append("Reviews not pulled this time (\(failure.code)): \(failure.message)")
        }
        if summary.expired > 0 {
            lines.append(
                "Removed \(summary.expired) synced report\(summary.expired == 1 ? "" : "s") past the retention window.")
        }
        notices += summary.leftoverPhotoProblems

        var json = summary.json.objectValue ?? [:]
        json["pending"] = .integer(Int64(pending))
        var exitCode = ExitCode.ok
        if summary.outcome == .offline {
            // Why: no connection at all, or an answer that is not usable (a proxy's 5xx page, 503).
            // One line: why, then that it waits.
            let message = "Waiting for \(summary.waitingFor). \(pending) report\(pending == 1 ? "" : "s") pending."
            if let error = summary.error ?? summary.referenceError {
                notices.append("\(error.code): \(error.message) \(message)")
            } else {
                notices.append(message)
            }
            json["error"] = ["code": .string(SyncFailure.Code.offline.rawValue), "message": .string(message)]
            exitCode = ExitCode.temporary
        } else if !summary.conflicts.isEmpty {
            exitCode = ExitCode.conflict
        } else if let error = summary.error {
            // A batch the server refused as a request (4xx, or an answer that is not the API):
            // those reports were not sent, so the cycle failed (1); they are retried with backoff.
            notices.append("\(error.code): \(error.message)")
            exitCode = ExitCode.failure
        } else if let failure = summary.referenceError, !summary.online {
            // Nothing in this cycle reached the server usefully (the reference pull failed and no
            // report was due): not a success. Transient (5xx) is 75, anything else 1.
            notices.append("\(failure.code): \(failure.message)")
            json["error"] = ["code": .string(failure.code), "message": .string(failure.message)]
            exitCode = failure.kind == .transient ? ExitCode.temporary : ExitCode.failure
        }
        return CommandOutput(lines: lines, json: .object(json), exitCode: exitCode, diagnostics: notices)
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}

/// What `sync` says of reports the server merged with its own changes.
func mergedLines(_ merged: [MergedReport]) -> [String] {
    func described(_ report: MergedReport) -> String {
        report.fields.isEmpty ? "" : " (\(MergedFieldNames.phrase(report.fields)))"
    }
    guard let first = merged.first else { return [] }
    if merged.count == 1 {
        return [
            "1 report merged with the server's changes\(described(first)): see 'jqc show \(first.localID.wireString.prefix(8))'."
        ]
    }
    return ["\(merged.count) reports merged with the server's changes:"]
        + merged.map { "  \($0.localID.wireString.prefix(8))\(described($0))" }
}

/// The names of merged fields as a person reads them.
enum MergedFieldNames {
    /// "fields 7, 9", "field 7 and the follow-up flag", "issue 1a2b3c4d".
    static func phrase(_ names: [String]) -> String {
        var fields: [String] = []
        var others: [String] = []
        for name in names {
            if name == AnswerMerge.followUpField {
                others.append("the follow-up flag")
            } else if name.hasPrefix("issue:") {
                others.append("issue \(oneLine(String(name.dropFirst(6).prefix(8))))")
            } else {
                fields.append(oneLine(name))
            }
        }
        var parts: [String] = []
        if !fields.isEmpty { parts.append((fields.count == 1 ? "field " : "fields ") + fields.joined(separator: ", ")) }
        parts += others
        return parts.joined(separator: ", ")
    }
}
