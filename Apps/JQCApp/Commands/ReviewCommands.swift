import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models
import Sync

/// review list, show, approve, return and reject (contract 1.1): a
/// supervisor's queue and decisions, on the server, online only like
/// history. Nothing read here is stored on the device; the inspector sees a
/// decision at their next sync.
enum ReviewCommands {
    static var all: [Command] { [list, show, approve, returnToInspector, reject] }

    static let state = Option(
        "state", "STATE", help: "awaiting_review (default), approved, returned or rejected",
        as: .checked(
            { ReviewState(rawValue: $0.trimmingCharacters(in: .whitespaces).lowercased()) },
            otherwise: { word, label in
                "\(label) takes \(ReviewState.allCases.map(\.rawValue).joined(separator: ", ")); got \(OneLine.quote(word))."
            }))
    static let facility = Option("facility", "ID", help: "only reports of this facility", as: .id)
    static let inspector = Option(
        "inspector", "ID", help: "only this inspector's reports (a user id, as in 'jqc rollup --json')", as: .id)
    static let limit = Option(
        "limit", "N", default: 30, help: "how many to show, 1-100", as: .count(in: 1...100))

    /// The report decided on or shown, trimmed.
    static func serverIDArgument(help: String) -> Argument<String> {
        Argument(
            "SERVER_ID", help: help,
            as: .checked(
                { word in
                    let id = word.trimmingCharacters(in: .whitespaces)
                    return id.isEmpty ? nil : id
                }, otherwise: { _, _ in "Give the report's server id, as 'jqc review list' shows it." }))
    }
    static let listedReport = serverIDArgument(help: "the report's server id, as 'jqc review list' shows it")
    static let decidedReport = serverIDArgument(help: "the report's server id")

    static let onlineNote =
        "Online only: offline it says so in one line and exits 75 (REVIEW_REQUIRES_NETWORK); 6 sign in again."

    static let list = Command(
        CommandSpec(
            "review list", summary: "supervisors: the review queue on the server, newest first (online only)",
            options: [state.spec, facility.spec, inspector.spec, limit.spec],
            discussion: """
                Completed reports whose current revision is in the review state asked for. Supervisors and admins see
                everyone's; an inspector sees their own. Decide with 'jqc review approve|return|reject SERVER_ID'.
                Examples:
                  jqc review list
                  jqc review list --state returned --facility F-100
                Exit codes: 0 shown; 2 a bad option.
                \(onlineNote)
                """)
    ) { (inv) async throws(AppError) -> CommandOutput in
        let state = try inv[Self.state] ?? .awaitingReview
        let limit = try inv[Self.limit]
        let filter = ReviewQueueFilter(
            state: state, facilityID: try inv[Self.facility], inspectorID: try inv[Self.inspector])
        let page = try await SyncService(context: inv.context).reviewQueue(filter, limit: limit)
        let workspace = try? inv.context.workspace()
        let rows = page.items.map { item -> [String] in
            let template: String = workspace?.templateName(item.templateID) ?? item.templateID
            let facility: String = workspace?.facilityName(item.facilityID) ?? item.facilityID
            let inspector: String = item.inspector.displayName.isEmpty ? item.inspector.id : item.inspector.displayName
            let completed: String = String(item.completedAt.prefix(16)).replacingOccurrences(of: "T", with: " ")
            let score: String = item.score.map { "\(Int(($0 * 100).rounded()))%" } ?? "-"
            let revision: String = item.revision.map { String($0) } ?? "-"
            let review: String = item.reviewState.map { label($0) } ?? "-"
            // Text from the server reaches the terminal only through OneLine.
            // The server id is never cut (it is what the next command takes); the other columns are.
            return [item.serverID]
                + [template, facility, inspector, completed, score, revision, review].map(cut)
                .map { OneLine.flatten($0, lineBreak: " ") }
        }
        let what = label(state)
        let narrowed = filter.facilityID != nil || filter.inspectorID != nil
        var lines: [String]
        if page.items.isEmpty {
            lines = [narrowed ? "No reports \(what) match these filters." : "No reports \(what)."]
        } else {
            lines = TextTable.render(
                ["SERVER ID", "TEMPLATE", "FACILITY", "INSPECTOR", "COMPLETED", "SCORE", "REVISION", "REVIEW"],
                rows, maxColumn: Int.max)
            lines.append(
                page.items.count < page.total
                    ? "\(page.items.count) of \(page.total) \(what); show more with --limit (up to 100) or narrow with --facility and --inspector."
                    : "\(page.total) \(what).")
            if page.items.contains(where: { $0.reviewState == nil }) {
                lines.append(
                    "This server keeps no reviews (it is older than contract 1.1): these are all its completed reports."
                )
            }
        }
        return CommandOutput(lines: lines, json: HistoryCommands.encoded(page), showsStatusLine: false)
    }

    static let show = Command(
        CommandSpec(
            "review show", summary: "a report as the server holds it, its review and its events (online only)",
            positionals: [listedReport.spec],
            discussion: """
                The answers, score, issues and photos as 'jqc show SERVER_ID' shows them, then the review of the current
                revision (its state, who decided, the comment and the comments on fields) and the report's events, oldest
                first: who uploaded, amended, approved, returned or rejected which revision, and when (server time).
                '--json' is the 'jqc show --json' document with "revision", "review" and "events" as the server sends them.
                Exit codes: 0 shown; 3 no such report on the server for this account.
                \(onlineNote)
                """)
    ) { (inv) async throws(AppError) -> CommandOutput in
        let serverID = try inv[Self.listedReport]
        let workspace = try inv.workspace()
        let service = SyncService(context: inv.context)
        let reviewed = try await service.reviewedReport(serverID)
        // A server that sends no review is older than contract 1.1: it has no events route either.
        let events = reviewed.review == nil ? nil : try await service.reportEvents(serverID)
        var output = ReportLookup.shown(reviewed.fetched, in: workspace, style: inv.context.style)
        let presenter = ReviewPresenter(
            workspace: workspace, style: inv.context.style,
            template: try? workspace.template(for: reviewed.fetched.report))
        output.lines +=
            [""] + presenter.reviewLines(reviewed.review, serverID: serverID) + [""] + presenter.eventLines(events)
        var json = output.json.objectValue ?? [:]
        json["revision"] = .integer(Int64(reviewed.revision))
        json["review"] = reviewed.review.map(HistoryCommands.encoded) ?? .null
        json["events"] = events.map(HistoryCommands.encoded) ?? .null
        output.json = .object(json)
        output.showsStatusLine = false
        return output
    }

    static let approve = Command(
        CommandSpec(
            "review approve", summary: "supervisors: approve a report's revision (online only)",
            positionals: [decidedReport.spec],
            options: [revision.spec, approvalComment.spec],
            discussion: decisionDiscussion(
                "approve", example: "jqc review approve R-8f2c --comment 'Spotless, thank you'"))
    ) { (inv) async throws(AppError) -> CommandOutput in
        try await decide(.approve, inv, comment: approvalComment)
    }

    static let returnToInspector = Command(
        CommandSpec(
            "review return", summary: "supervisors: send a report back to its inspector for changes (online only)",
            positionals: [decidedReport.spec],
            options: [revision.spec, returnComment.spec, fieldComment.spec],
            discussion: decisionDiscussion(
                "return",
                example: "jqc review return R-8f2c --comment 'Photos too dark' --field 14='Retake in daylight'"))
    ) { (inv) async throws(AppError) -> CommandOutput in
        try await decide(.return, inv, comment: returnComment)
    }

    static let reject = Command(
        CommandSpec(
            "review reject", summary: "supervisors: reject a report's revision (online only)",
            positionals: [decidedReport.spec],
            options: [revision.spec, rejectionComment.spec, fieldComment.spec],
            discussion: decisionDiscussion(
                "reject", example: "jqc review reject R-8f2c --comment 'Wrong site: this is F-200'"))
    ) { (inv) async throws(AppError) -> CommandOutput in
        try await decide(.reject, inv, comment: rejectionComment)
    }

    static let revision = Option(
        "revision", "N",
        help: "the revision you looked at (default: the current one, fetched first); a stale one is refused",
        as: .checked(
            { Int($0.trimmingCharacters(in: .whitespaces)).flatMap { $0 >= 1 ? $0 : nil } },
            otherwise: { word, label in "\(label) takes a revision number from 1 up; got \(OneLine.quote(word))." }))
    static let fieldComment = Option(
        repeating: "field", "FIELD_ID=TEXT", help: "a comment on one field of the report's template (repeatable)",
        as: .checked(
            { given in
                let parts = given.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let id = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                let text = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespacesAndNewlines) : ""
                return id.isEmpty || text.isEmpty ? nil : FieldComment(fieldID: id, comment: text)
            },
            otherwise: { word, label in
                "\(label) takes FIELD_ID=TEXT, such as --field 14='Retake in daylight'; got \(OneLine.quote(word))."
            }))
    /// `--comment`, trimmed; given empty, a usage error.
    static func comment(help: String) -> Option<String?> {
        Option(
            "comment", "TEXT", help: help,
            as: .checked(
                { word in
                    let trimmed = word.trimmingCharacters(in: .whitespacesAndNewlines)
                    return trimmed.isEmpty ? nil : trimmed
                }, otherwise: { _, label in "\(label) needs some text." }))
    }
    static let approvalComment = comment(help: "a comment for the inspector (optional)")
    static let returnComment = comment(help: "what to change (this or at least one --field)")
    static let rejectionComment = comment(help: "why (this or at least one --field)")

    static func decisionDiscussion(_ verb: String, example: String) -> String {
        """
        Fetches the report's current revision, then posts the decision on it (or on --revision N). 'return' and
        'reject' need a --comment or at least one --field (exit 2 before anything is sent); a --field naming no
        field of the report's template is refused (exit 4) before sending when the template is on this device.
        When the report changed since the revision decided on, nothing is recorded: exit 7 (REVISION_STALE),
        naming the current revision and showing what changed. The inspector sees the decision at their next sync.
        '--json' prints {"review": ...} as the server sends it.
        Example:
          \(example)
        Exit codes: 0 recorded; 2 a bad option; 3 no such report on the server; 4 the server refused the decision;
        5 the account is not a supervisor or admin (REVIEW_FORBIDDEN), or the server keeps no reviews
        (REVIEW_UNSUPPORTED, a server older than contract 1.1); 7 the revision is stale.
        \(onlineNote)
        """
    }

    /// Posts one decision after checking its options and the report's fields.
    static func decide(_ decision: ReviewDecision, _ inv: Invocation, comment option: Option<String?>)
        async throws(AppError) -> CommandOutput
    {
        let serverID = try inv[Self.decidedReport]
        let comment = try inv[option]
        let fieldComments = try inv[Self.fieldComment]
        let pinned = try inv[Self.revision]
        if decision != .approve && comment == nil && fieldComments.isEmpty {
            throw AppError.usage(
                "'review \(decision.rawValue)' needs --comment TEXT or at least one --field FIELD_ID=TEXT saying why.")
        }
        let workspace = try inv.workspace()
        let service = SyncService(context: inv.context)
        let current = try await service.reviewedReport(serverID)
        guard current.review != nil else {
            throw AppError.blocked(
                .reviewUnsupported,
                "The server keeps no reviews of reports (it is older than contract 1.1), so report '\(serverID)' cannot be decided on; nothing was sent."
            )
        }
        let template = try? workspace.template(for: current.fetched.report)
        if let template, current.templateVersion == nil || current.templateVersion == template.version {
            let unknown = fieldComments.map(\.fieldID).filter { template.schema.field(FieldID($0)) == nil }
            if !unknown.isEmpty {
                let ids = template.schema.fields.filter { workspace.registry.resolve($0).isAnswerable }.map(
                    \.id.rawValue)
                throw AppError.validation(
                    "Template '\(OneLine.flatten(template.name, lineBreak: " "))' has no field \(unknown.map { OneLine.quote($0) }.joined(separator: ", ")); its fields: \(ids.joined(separator: ", ")). Nothing was sent.",
                    code: .reviewInvalid)
            }
        }
        let decided = pinned ?? current.revision
        let request = ReviewRequest(
            decision: decision, revision: decided, comment: comment,
            fieldComments: fieldComments.isEmpty ? nil : fieldComments)
        let presenter = ReviewPresenter(workspace: workspace, style: inv.context.style, template: template)
        switch try await service.decide(serverID, request) {
        case .decided(let review):
            return CommandOutput(
                lines: [presenter.decidedLine(review, decision: decision, report: current)],
                json: ["review": HistoryCommands.encoded(review)], showsStatusLine: false)
        case .stale(let review, _):
            return await stale(
                serverID, decided: decided, currentReview: review, service: service, presenter: presenter)
        }
    }

    /// The refusal of a stale revision: one line naming the current revision,
    /// then what changed from the revision decided on (exit 7).
    static func stale(
        _ serverID: String, decided: Int, currentReview: WireReview?, service: SyncService,
        presenter: ReviewPresenter
    ) async -> CommandOutput {
        // The report as it is now, and as it was when decided on; either may fail (the connection went): the line still stands.
        let now = try? await service.reviewedReport(serverID, revision: currentReview?.revision)
        let currentRevision = currentReview?.revision ?? now?.revision
        let before = try? await service.reviewedReport(serverID, revision: decided)
        let headline: String
        if let currentRevision, currentRevision < decided {
            headline =
                "Report \(serverID) has no revision \(decided): revision \(currentRevision) is current; nothing was recorded. Look at it with 'jqc review show \(serverID)' and decide on revision \(currentRevision)."
        } else {
            headline =
                "Report \(serverID) changed: revision \(currentRevision.map(String.init) ?? "newer than \(decided)") is current, not revision \(decided); nothing was recorded. Look again with 'jqc review show \(serverID)' and decide on the current revision."
        }
        var lines = [headline]
        var json: [String: JSONValue] = [
            "error": ["code": .string(AppError.Code.revisionStale.rawValue), "message": .string(headline)],
            "decided_revision": .integer(Int64(decided)),
            "current_revision": currentRevision.map { .integer(Int64($0)) } ?? .null,
            "review": currentReview.map(HistoryCommands.encoded) ?? .null,
            "changes": .null,
        ]
        if let now, let before, before.revision == decided, now.revision != decided {
            let changes = presenter.changes(from: before.fetched.report, to: now.fetched.report)
            lines += presenter.changeLines(changes, from: decided, to: now.revision)
            json["changes"] = .array(changes.map(\.json))
        } else if let currentRevision, currentRevision > decided {
            lines.append(
                "The server does not show earlier revisions, so what changed cannot be listed; revision \(currentRevision) is current."
            )
        }
        return CommandOutput(
            lines: lines.map { OneLine.flatten($0, lineBreak: " ") }, json: .object(json),
            showsStatusLine: false, exitCode: ExitCode.conflict)
    }

    /// A table cell cut to 24 characters.
    static func cut(_ text: String) -> String {
        text.count > 24 ? String(text.prefix(23)) + "…" : text
    }

    /// A review state as a person reads it.
    static func label(_ state: ReviewState) -> String {
        switch state {
        case .awaitingReview: "awaiting review"
        case .approved: "approved"
        case .returned: "returned"
        case .rejected: "rejected"
        }
    }
}
