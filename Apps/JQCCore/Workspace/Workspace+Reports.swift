import Foundation
import FieldTypes
import FormLogic
import Models
import Scoring
import Storage

/// How `answer` should read its value.
public enum AnswerInput: Sendable {
    /// Typed as a person types it, parsed by the field type.
    case typed(String)
    /// The contract's JSON encoding, checked by the field type.
    case json(String)
    /// One more table row, typed as `Col=value;Col=value`.
    case addRow(String)
    /// Unset the answer.
    case clear
}

extension Workspace {
    // MARK: Starting

    /// Refuses new reports while the server says this app is too old (F10, BR-11).
    /// Uploading what already exists is never blocked.
    public func checkVersionGate() throws(AppError) {
        guard let minimumText = try storage({ () throws(StorageError) in try store.meta(MetaKey.minAppVersion) }),
            let minimum = SemanticVersion(minimumText), let current = SemanticVersion(AppVersion.current),
            current < minimum
        else { return }
        throw AppError.blocked(
            .appVersionUnsupported,
            "Update required to create new reports: this jqc is \(current), the server needs \(minimum) or later. Reports already completed still upload."
        )
    }

    /// Starts a DRAFT for an assignment.
    public func start(assignmentID: String) throws(AppError) -> Report {
        try checkVersionGate()
        let assignments = try storage { () throws(StorageError) in try store.assignments() }
        guard let assignment = assignments.first(where: { $0.id == assignmentID }) else {
            throw AppError.notFound("No assignment '\(assignmentID)' on this device. See 'jqc assignments'.")
        }
        guard assignment.status == .open else {
            throw AppError.blocked(
                .assignmentClosed, "Assignment '\(assignmentID)' is closed; start from a template instead.")
        }
        let existing = try storage { () throws(StorageError) in try store.reports() }
            .first { $0.assignmentID == assignmentID && $0.state != .synced }
        if let existing {
            throw AppError.blocked(
                .assignmentInProgress,
                "Assignment '\(assignmentID)' already has report \(existing.localID.uuidString.lowercased()) (\(existing.state.rawValue)); continue it with 'jqc run \(existing.localID.uuidString.lowercased())'."
            )
        }
        return try start(
            templateID: assignment.templateID, facilityID: assignment.facilityID,
            areaID: assignment.areaID, assignmentID: assignment.id)
    }

    /// Starts a DRAFT from a template at a facility (and optionally an area).
    public func start(
        templateID: String, facilityID: String, areaID: String?, assignmentID: String? = nil,
        parent: Report? = nil, answers: Answers = Answers()
    ) throws(AppError) -> Report {
        try checkVersionGate()
        let template = try template(id: templateID)
        guard try storage({ () throws(StorageError) in try store.facility(id: facilityID) }) != nil else {
            throw AppError.notFound(
                "Facility '\(facilityID)' is not on this device. See 'jqc facilities', or import them with 'jqc facilities import FILE'."
            )
        }
        if let areaID {
            let areas = try storage { () throws(StorageError) in try store.areas(facilityID: facilityID) }
            guard areas.contains(where: { $0.id == areaID }) else {
                throw AppError.notFound(
                    "Facility '\(facilityID)' has no area '\(areaID)'. See 'jqc areas \(facilityID)'.")
            }
        }
        let answers = logic(template).applyingCalculations(to: answers)
        return try storage { () throws(StorageError) in
            try store.createReport(
                templateID: templateID, templateVersion: template.version, facilityID: facilityID, areaID: areaID,
                assignmentID: assignmentID, parentLocalID: parent?.localID,
                parentServerID: parent?.serverID, answers: answers)
        }
    }

    // MARK: Answering

    /// Sets, replaces or clears one answer and saves it at once (autosave, a new revision).
    /// A draft a sync moved onto a newer template version meanwhile is read
    /// again and the input given to its new version, once.
    @discardableResult
    public func answer(_ report: Report, fieldID: String, input: AnswerInput) throws(AppError) -> Report {
        do {
            return try answerOnce(report, fieldID: fieldID, input: input)
        } catch {
            guard let moved = movedMeanwhile(report) else { throw error }
            return try answerOnce(moved, fieldID: fieldID, input: input)
        }
    }

    /// The report as stored now when it is on another template version than
    /// `report` says (a sync moved it meanwhile), else nil.
    func movedMeanwhile(_ report: Report) -> Report? {
        guard let now = (try? store.report(report.localID)) ?? nil, now.templateVersion != report.templateVersion else {
            return nil
        }
        return now
    }

    private func answerOnce(_ report: Report, fieldID: String, input: AnswerInput) throws(AppError) -> Report {
        guard report.lifecycle.isEditable else {
            throw AppError.blocked(.stateNotAllowed, report.lifecycle.refusal(for: .autosave))
        }
        let template = try template(for: report)
        let field = try field(fieldID, of: template)
        let type = registry.resolve(field)
        guard type.isAnswerable else {
            throw AppError.validation(
                "Field '\(field.id)' (\(field.displayName)) is a \(field.type) and takes no answer.",
                code: .answerInvalid)
        }
        let logic = self.logic(template)
        try checkLogicAllows(input, field: field, report: report, logic: logic)
        let value: JSONValue?
        switch input {
        case .clear:
            value = nil
        case .typed(let text):
            value = type.mergingTyped(
                try parse(text, field: field, report: report, template: template),
                into: report.answers[field.id], for: field)
        case .addRow(let text):
            guard type.holdsRows else {
                throw AppError.usage(
                    "'--add-row' is for fields that hold rows, such as tables; field '\(field.id)' is a \(field.type).")
            }
            let row = try parse(text, field: field, report: report, template: template)
            do { value = try type.appendingRows(row, to: report.answers[field.id], for: field) } catch {
                throw AppError.validation(error.message, code: .answerInvalid)
            }
        case .json(let text):
            let parsed: JSONValue
            do { parsed = try JSONValue.parse(text) } catch {
                throw AppError.validation(
                    "The value for field '\(field.id)' is not JSON: \(error.message). Quote strings, for example '\"pass\"'.",
                    code: .answerInvalid)
            }
            if let problem = type.validate(parsed, for: field) {
                throw AppError.validation(
                    "Field '\(field.id)' (\(field.displayName)): \(problem)", code: .answerInvalid)
            }
            value = parsed.isNull ? nil : parsed
        }
        let scorer = self.scorer(template)
        // Calculated answers are recomputed and signatures given before this
        // change are withdrawn, on the answers read inside the transaction.
        let derive: (Answers) -> Answers = { answers in
            let calculated = logic.calculatedFields.isEmpty ? answers : logic.applyingCalculations(to: answers)
            return self.withdrawingStaleSignatures(
                calculated, of: report, template: template, logic: logic, except: field.id)
        }
        return try storage { () throws(StorageError) in
            try store.saveAnswer(
                report.localID, field: field.id, value: value, derive: derive, score: scorer,
                templateVersion: report.templateVersion)
        }
    }

    /// The fields whose signature was answered in `before` and withdrawn in
    /// `after` because another answer changed after signing.
    public func withdrawnSignatures(before: Report, after: Report) throws(AppError) -> [FieldDefinition] {
        let template = try template(for: after)
        return template.schema.fields.filter { field in
            registry.resolve(field).vouchesForReport && before.answers[field.id] != nil
                && after.answers[field.id] == nil
        }
    }

    /// `answers` without the signatures that vouch for another fingerprint
    /// than theirs (the field just answered is kept: it was given now). The
    /// one rule for every path that changes a report's answers: `answer` and
    /// the runner, resolving a conflict, taking the server's revision (which
    /// keeps a signature the server marked as covering an earlier revision,
    /// `keepingMarked`). A merge adopted from the server and a draft moved to
    /// a new template version must pass their answers through here too.
    func withdrawingStaleSignatures(
        _ answers: Answers, of report: Report, template: Template,
        logic: FormLogic, except answered: FieldID?, keepingMarked: Bool = false
    ) -> Answers {
        let signed = template.schema.fields.contains {
            $0.id != answered && answers[$0.id] != nil && registry.resolve($0).vouchesForReport
        }
        guard signed, let current = try? fingerprint(answers, of: report, template: template, logic: logic) else {
            return answers
        }
        var kept = answers
        for field in staleSignatures(in: answers, template: template, current: current) where field.id != answered {
            if keepingMarked, let answer = answers[field.id], registry.resolve(field).coveredRevision(answer) != nil {
                continue
            }
            kept[field.id] = nil
        }
        return kept
    }

    /// The fields whose signature in `answers` vouches for another fingerprint than `current`.
    private func staleSignatures(in answers: Answers, template: Template, current: String) -> [FieldDefinition] {
        template.schema.fields.filter { field in
            guard let answer = answers[field.id], let vouched = registry.resolve(field).vouchedFingerprint(answer)
            else { return false }
            return vouched != current
        }
    }

    /// Refuses what the form logic forbids: typing a calculated answer,
    /// answering a hidden field (clearing it is fine), and typing into a
    /// field whose logic this version cannot evaluate.
    private func checkLogicAllows(_ input: AnswerInput, field: FieldDefinition, report: Report, logic: FormLogic)
        throws(AppError)
    {
        if logic.isCalculated(field.id), logic.unsupportedReason(field.id) == nil {
            let now = logic.evaluate(report.answers).value(field.id)
            throw AppError.validation(
                "Field '\(field.id)' (\(field.displayName)) is calculated from other answers and cannot be set (now: \(now.map { registry.display(field, $0, style: .plain) } ?? "no value")). Answer the fields it is calculated from.",
                code: .fieldCalculated)
        }
        if case .clear = input { return }
        let state = logic.evaluate(report.answers)
        if !state.isVisible(field.id) {
            throw AppError.blocked(
                .fieldHidden,
                "Field '\(field.id)' (\(field.displayName)) is hidden by condition: \(logic.hiddenReason(field.id, in: state) ?? "its condition does not hold"). See 'jqc explain \(short(report)) \(field.id)'."
            )
        }
        if let reason = logic.unsupportedReason(field.id), case .typed = input {
            throw AppError.validation(
                "Field '\(field.id)' (\(field.displayName)) cannot be typed: \(reason); update jqc, or set its JSON with --value-json.",
                code: .answerInvalid)
        }
    }

    private func parse(_ text: String, field: FieldDefinition, report: Report, template: Template) throws(AppError)
        -> JSONValue
    {
        let context = InputContext(
            deviceTime: now(), contentDigest: try contentDigest(of: report, template: template),
            reportLocalID: report.localID.uuidString.lowercased())
        do {
            return try registry.parse(text, for: field, context: context)
        } catch {
            throw AppError.validation(
                "Field '\(field.id)' (\(field.displayName)): \(error.message)", code: .answerInvalid)
        }
    }

    /// The report's fingerprint, what a signature vouches for: the SHA-256 of
    /// the report's identity and its visible answers that the fingerprint
    /// covers (typed and chosen answers; not photos, not signatures), in
    /// canonical JSON.
    public func contentDigest(of report: Report, template: Template) throws(AppError) -> String {
        try fingerprint(report.answers, of: report, template: template, logic: logic(template))
    }

    private func fingerprint(_ answers: Answers, of report: Report, template: Template, logic: FormLogic)
        throws(AppError) -> String
    {
        let visible = logic.evaluate(answers).visibleAnswers
        var covered = Answers()
        for field in template.schema.fields where registry.resolve(field).isFingerprinted {
            if let answer = visible[field.id] { covered[field.id] = answer }
        }
        let content: JSONValue = [
            "local_id": .string(report.localID.uuidString.lowercased()),
            "template_id": .string(report.templateID),
            "facility_id": .string(report.facilityID),
            "answers": covered.json,
        ]
        return try storage { () throws(StorageError) in try SHA256.hex(of: content.canonicalData()) }
    }

    /// Refuses to complete a report whose signature vouches for other answers
    /// than the ones it has now (set as JSON, or signed on another version).
    private func checkSignaturesHold(_ report: Report, template: Template, logic: FormLogic) throws(AppError) {
        let current = try fingerprint(report.answers, of: report, template: template, logic: logic)
        let stale = staleSignatures(in: report.answers, template: template, current: current)
        guard !stale.isEmpty else { return }
        throw AppError.validation(
            "Report \(short(report)) cannot be completed: \(stale.count == 1 ? "a signature vouches" : "signatures vouch") for answers that have changed since.",
            problems: stale.map {
                "Field '\($0.id)' (\($0.displayName)): signed before the answers changed; sign again: jqc answer \(short(report)) \($0.id) NAME"
            },
            code: .signatureStale)
    }

    // MARK: Completing

    /// Marks a DRAFT or REJECTED report complete (PENDING), with no network:
    /// every required answer present and valid, the score stored, the
    /// follow-up flag set when asked for or when a critical field failed.
    /// A draft a sync moved onto a newer template version meanwhile is read
    /// again and judged on its new version, once.
    @discardableResult
    public func complete(_ report: Report, followUp: Bool = false) throws(AppError) -> Report {
        // What is checked and what is stored are the same answers: the store refuses the
        // completion if another process saved an answer (or moved the report) in between,
        // and it is checked again on the report as it is now.
        var current = report
        for _ in 1..<Self.completionAttempts {
            do {
                return try completeOnce(current, followUp: followUp)
            } catch {
                guard let changed = changedMeanwhile(current) else { throw error }
                current = changed
            }
        }
        return try completeOnce(current, followUp: followUp)
    }

    /// Completions tried before another process's stream of saves wins.
    static let completionAttempts = 5

    /// The report as stored now, when its answers or template version are
    /// no longer those of `report`; nil when it is unchanged or gone.
    func changedMeanwhile(_ report: Report) -> Report? {
        guard let now = (try? store.report(report.localID)) ?? nil,
            now.templateVersion != report.templateVersion || now.answers != report.answers
        else { return nil }
        return now
    }

    private func completeOnce(_ report: Report, followUp: Bool) throws(AppError) -> Report {
        guard report.lifecycle.isEditable else {
            throw AppError.blocked(.stateNotAllowed, report.lifecycle.refusal(for: .complete))
        }
        let template = try template(for: report)
        let logic = self.logic(template)
        let problems = logic.completionProblems(report.answers)
        if !problems.isEmpty {
            throw AppError.validation(
                "Report \(short(report)) cannot be completed: \(problems.count) field\(problems.count == 1 ? "" : "s") need\(problems.count == 1 ? "s" : "") an answer or a fix.",
                problems: problems.map(\.message), code: .requiredAnswersMissing)
        }
        try checkSignaturesHold(report, template: template, logic: logic)

        let score = self.score(report, template: template)
        let id = report.localID
        // The score, the follow-up flag and the new state in one transaction:
        // once the report is queued, what is uploaded is all of it.
        let scorer = self.scorer(template)
        // Hidden fields' answers are dropped from the completed report (the
        // revision history keeps them); calculated answers are recomputed.
        let kept = logic.evaluate(report.answers).visibleAnswers
        // Completing a re-inspection answers its parent's follow-up request, in
        // the same transaction: by local id only, never guessed by template and facility.
        return try storage { () throws(StorageError) -> Report in
            try store.apply(
                .complete, to: id, answers: kept, score: scorer,
                followUpRequired: followUp || score.failedCritical || report.followUpRequired,
                clearingFollowUpOf: report.parentLocalID, templateVersion: report.templateVersion,
                basedOn: report.answers)
        }
    }

    // MARK: Retrying, amending

    /// The PENDING reports with failed upload attempts (what `retry` with no report retries).
    public func reportsWithFailedAttempts() throws(AppError) -> [Report] {
        try storage { () throws(StorageError) in try store.pendingReports() }.filter { $0.lifecycle.attemptCount > 0 }
    }

    /// Starts a PENDING report's attempts again, due at once, in one transaction.
    @discardableResult
    public func retry(_ report: Report) throws(AppError) -> Report {
        guard report.state == .pending else {
            throw AppError.blocked(
                .notAllowed, "\(short(report)) is \(report.state.rawValue); only PENDING reports are retried.")
        }
        return try storage { () throws(StorageError) in try store.apply(.retryRequested, to: report.localID) }
    }

    /// Reopens a SYNCED report as a DRAFT to correct it (its server id and base revision kept).
    public func amend(_ report: Report) throws(AppError) -> Report {
        try storage { () throws(StorageError) in try store.apply(.amend, to: report.localID) }
    }

    // MARK: Deleting, re-inspecting

    /// Deletes a draft with its photos and issues; an amended draft goes back to its synced answers.
    /// Returns the report as it is now, or nil when it is gone.
    public func delete(_ report: Report) throws(AppError) -> Report? {
        guard report.state == .draft else {
            throw AppError.blocked(.stateNotAllowed, report.lifecycle.refusal(for: .discard))
        }
        let id = report.localID
        let wasAmendment = report.lifecycle.isAmendment
        let after = try storage { () throws(StorageError) in try store.apply(.discard, to: id) }
        return wasAmendment ? after : nil
    }

    /// Starts a re-inspection of a completed report: a new DRAFT linked to the
    /// parent by local id (and server id when known), pre-filled with the
    /// answers its field types allow to copy.
    public func reinspect(_ parent: Report) throws(AppError) -> Report {
        guard parent.state == .pending || parent.state == .synced || parent.state == .conflict else {
            throw AppError.blocked(
                .stateNotAllowed,
                "Report \(short(parent)) is \(parent.state.rawValue); only completed reports (PENDING or SYNCED) can be re-inspected."
            )
        }
        let existing = try storage { () throws(StorageError) in try store.reports() }
            .first { $0.parentLocalID == parent.localID && $0.lifecycle.isEditable }
        if let existing {
            throw AppError.blocked(
                .reinspectionInProgress,
                "Report \(short(existing)) is already a re-inspection of \(short(parent)); continue it with 'jqc run \(existing.localID.uuidString.lowercased())'."
            )
        }
        // The newest version of the template, the parent's answers mapped onto
        // it from the version they were given to, as a draft moving onto it is.
        let template = try self.template(id: parent.templateID)
        let parentTemplate = try self.template(for: parent)
        // A signature vouches for its own report (the fingerprint names it):
        // none that a field type would copy holds for the new one.
        var answers = registry.prefill(
            from: parent.answers, parentSchema: parentTemplate.schema, schema: template.schema, at: now())
        for field in template.schema.fields where registry.resolve(field).vouchesForReport { answers[field.id] = nil }
        return try start(
            templateID: parent.templateID, facilityID: parent.facilityID, areaID: parent.areaID,
            parent: parent, answers: answers)
    }

    /// Every revision of a report's answers kept on this device, oldest first.
    public func revisions(of report: Report) throws(AppError) -> [ReportRevision] {
        try storage { () throws(StorageError) in try store.revisions(of: report.localID) }
    }

    /// Local reports, newest first, optionally in one state.
    public func reports(state: ReportState? = nil) throws(AppError) -> [Report] {
        try storage { () throws(StorageError) in try store.reports(state: state) }
    }

    /// The first eight characters of a report's id, as shown in lists.
    public func short(_ report: Report) -> String {
        String(report.localID.uuidString.lowercased().prefix(8))
    }
}

extension Workspace {
    /// How many reports this device holds (of one state).
    public func reportCount(state: ReportState?) throws(AppError) -> Int {
        try storage { () throws(StorageError) in try store.reportCount(state: state) }
    }

    /// Reports newest first, each handed to `body` as it is read (see `LocalStore.forEachListing`).
    public func forEachListing(state: ReportState?, limit: Int?, _ body: (ReportListing) -> Bool) throws(AppError) {
        try storage { () throws(StorageError) in try store.forEachListing(state: state, limit: limit, body) }
    }
}
