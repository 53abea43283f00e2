import Foundation
import FieldTypes
import FormLogic
import Models
import Storage

/// One field of a conflict, both sides side by side.
public struct ConflictField: Sendable, Hashable {
    public var field: FieldDefinition
    public var mine: JSONValue?
    public var server: JSONValue?
    /// The side already taken without asking: a field only one side changed,
    /// when the server named the fields both changed (contract 1.1 merges).
    public var settled: ConflictSide?
    /// True when the two sides differ.
    public var differs: Bool { mine != server }
    /// True when a person must choose: the sides differ and no merge settled it.
    public var open: Bool { differs && settled == nil }
}

/// Which side a person chose for a field.
public enum ConflictSide: String, Sendable {
    case mine
    case server
}

extension Workspace {
    /// Reports in CONFLICT, oldest first (the order they will upload in).
    public func conflicts() throws(AppError) -> [Report] {
        try reports(state: .conflict).sorted { $0.creationSequence < $1.creationSequence }
    }

    /// Both revisions of a conflicting report, field by field in form order
    /// (fields only one side knows are listed after the form's).
    public func conflictFields(_ report: Report) throws(AppError) -> [ConflictField] {
        guard let conflict = report.lifecycle.conflict else {
            throw AppError.blocked(.stateNotAllowed, report.lifecycle.refusal(for: .keepMine))
        }
        let template = try template(for: report)
        let server = Answers(json: conflict.payload["answers"] ?? .object([:])) ?? Answers()
        var fields = template.schema.fields.filter { registry.resolve($0).isAnswerable }.map {
            ConflictField(field: $0, mine: report.answers[$0.id], server: server[$0.id])
        }
        let known = Set(fields.map(\.field.id))
        let extra = Set(report.answers.answeredIDs + server.answeredIDs).subtracting(known).sorted()
        fields += extra.map {
            ConflictField(field: FieldDefinition(id: $0, type: "unknown"), mine: report.answers[$0], server: server[$0])
        }
        // A server that merges named the fields both sides changed: every other
        // field takes the side that changed it since the base revision.
        if let named = conflict.fields.map(Set.init),
            let base = try revisions(of: report).last(where: {
                $0.serverRevision != nil && $0.serverRevision == report.lifecycle.baseRevision
            })?.answers
        {
            for index in fields.indices where fields[index].differs && !named.contains(fields[index].field.id.rawValue)
            {
                let id = fields[index].field.id
                fields[index].settled = AnswerMerge.same(fields[index].mine, base[id]) ? .server : .mine
            }
        }
        return fields
    }

    /// Resolves a conflict by keeping this device's answers: PENDING again on the server's revision.
    public func resolveKeepingMine(_ report: Report) throws(AppError) -> Report {
        try resolve(report, event: .keepMine, answers: nil)
    }

    /// Resolves a conflict by taking the server's revision: SYNCED with its answers; ours stay in the history.
    public func resolveTakingServer(_ report: Report) throws(AppError) -> Report {
        try resolve(report, event: .takeServer, answers: nil)
    }

    /// Resolves a conflict field by field. Every field whose sides differ must be chosen
    /// (but those a merge settled, which take their settled side unless chosen);
    /// fields that agree keep their answer. The merge goes up as a new revision on the server's.
    public func resolve(_ report: Report, picks: [String: ConflictSide]) throws(AppError) -> Report {
        let fields = try conflictFields(report)
        let ids = Set(fields.map(\.field.id.rawValue))
        if let unknown = picks.keys.sorted().first(where: { !ids.contains($0) }) {
            throw AppError.notFound(
                "Report \(short(report)) has no field '\(unknown)'. Fields: \(fields.map(\.field.id.rawValue).joined(separator: ", "))."
            )
        }
        let open = fields.filter { $0.open && picks[$0.field.id.rawValue] == nil }.map(\.field.id.rawValue)
        guard open.isEmpty else {
            throw AppError.validation(
                "Choose mine or server for every field that differs: \(open.joined(separator: ", ")) still open. See 'jqc diff \(short(report))'.",
                code: .conflictUnresolved)
        }
        var merged = Answers()
        for field in fields {
            let side = picks[field.field.id.rawValue] ?? field.settled ?? .mine
            merged[field.field.id] = side == .mine ? field.mine : field.server
        }
        return try resolve(report, event: .keepMine, answers: merged)
    }

    /// The signatures a resolution withdrew: answered on the side it kept
    /// (the server's when it took them), gone from the result.
    public func withdrawnSignatures(resolving report: Report, resolved: Report) throws(AppError) -> [FieldDefinition] {
        var before = report
        if resolved.state == .synced, let payload = report.lifecycle.conflict?.payload {
            before.answers = Answers(json: payload["answers"] ?? .object([:])) ?? Answers()
        }
        return try withdrawnSignatures(before: before, after: resolved)
    }

    private func resolve(_ report: Report, event: ReportEvent, answers: Answers?) throws(AppError) -> Report {
        guard report.state == .conflict else {
            throw AppError.blocked(.stateNotAllowed, report.lifecycle.refusal(for: event))
        }
        let id = report.localID
        // The score of the kept answers is stored with them: a running agent
        // must never upload the kept answers with the conflicting score.
        let template = try? template(for: report)
        let scorer = template.map { self.scorer($0) }
        guard let template else {
            return try storage { () throws(StorageError) in
                try store.apply(event, to: id, answers: answers, score: scorer)
            }
        }
        let logic = self.logic(template)
        if case .takeServer = event {
            // The server's answers are adopted inside the transaction; a
            // signature among them that vouches for other answers is withdrawn
            // there (one the server marked as covering an earlier revision says
            // so itself, and is kept).
            let derive: (Answers) -> Answers = { adopted in
                self.withdrawingStaleSignatures(
                    adopted, of: report, template: template, logic: logic, except: nil, keepingMarked: true)
            }
            return try storage { () throws(StorageError) in
                try store.apply(event, to: id, score: scorer, derive: derive)
            }
        }
        // Queued again: a signature that does not vouch for the answers kept
        // is withdrawn, and a report that then lacks an answer it needs (the
        // signature itself, when required) is not queued.
        let kept = answers ?? report.answers
        let held = withdrawingStaleSignatures(kept, of: report, template: template, logic: logic, except: nil)
        let withdrawn = template.schema.fields.filter { kept[$0.id] != nil && held[$0.id] == nil }
        if !withdrawn.isEmpty {
            let problems = logic.completionProblems(held)
            if !problems.isEmpty {
                throw AppError.validation(
                    "Report \(short(report)) was not queued: \(withdrawn.map { "signature '\($0.id)' (\($0.displayName))" }.joined(separator: ", ")) vouches for other answers than the ones chosen. Nothing was changed. Keep your answers (--keep-mine), or take the server's (--take-server), then 'jqc amend \(short(report))', change what you need and sign again.",
                    problems: problems.map(\.message), code: .signatureStale)
            }
        }
        let stored = held
        return try storage { () throws(StorageError) in try store.apply(event, to: id, answers: stored, score: scorer) }
    }
}
