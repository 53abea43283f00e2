import Foundation
import Models

/// The form-level operations the apps and the server call: each asks every
/// field's type and gathers every answer, never stopping at the first.
extension FieldTypeRegistry {
    /// The widest a layout may be: the seed's 12-column grid.
    public static let gridColumns = 12

    /// Every problem of a schema's definitions: each known type's own checks,
    /// `critical` on a type that is not scored, and layout values outside the
    /// 12-column grid. Fields of unknown types are not problems: they degrade
    /// to `UnsupportedFieldType`.
    public func check(_ schema: FormSchema) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        for (index, field) in schema.fields.enumerated() {
            var found: [SchemaProblem] = []
            // An unavailable type cannot check its own keys; `lint` says why it is unavailable.
            if let type = type(named: field.type), type.unavailableReason == nil {
                found += type.checkDefinition(field)
                if field.critical, !type.isScoreable {
                    let scored = names.filter { self.type(named: $0)?.isScoreable == true }.joined(separator: ", ")
                    found.append(
                        SchemaProblem(
                            fieldID: field.id,
                            message:
                                "'critical' applies only to scored types (\(scored)), not \(field.type); remove 'critical' or change the type"
                        ))
                }
            }
            found += layoutProblems(field)
            problems += found.map { SchemaProblem(fieldIndex: index, fieldID: field.id, message: $0.message) }
        }
        return problems
    }

    /// Everything `check` finds, plus what a careful author wants to hear
    /// before publishing (`jqc templates lint`): fields of types this registry
    /// does not know, fields reaching past the 12-column grid, and fields
    /// covering a cell another field covers. In field order, every problem.
    ///
    /// A field is placed on the grid when it has a `row`; columns and rows
    /// count from 0, `col` defaults to 0, `col_span` to the rest of the row
    /// and `row_span` to 1. Fields without a `row` flow in order and cannot overlap.
    /// With `reportingUnavailable` false, a registered type whose program is
    /// unavailable right now (an external type that did not answer) is not a
    /// problem of the template: its answers degrade until the program is fixed.
    public func lint(_ schema: FormSchema, reportingUnavailable: Bool = true) -> [SchemaProblem] {
        let checked = check(schema)
        var extra: [Int: [SchemaProblem]] = [:]
        var placed: [(field: FieldDefinition, cols: Range<Int>, rows: Range<Int>)] = []
        let grid = Self.gridColumns
        for (index, field) in schema.fields.enumerated() {
            func report(_ message: String) {
                extra[index, default: []].append(SchemaProblem(fieldIndex: index, fieldID: field.id, message: message))
            }
            if let type = type(named: field.type) {
                if reportingUnavailable, let reason = type.unavailableReason {
                    report("\(reason); fix the field type's program")
                }
            } else {
                if let near = nearestName(to: field.type) {
                    report(
                        "field type \(OneLine.quote(field.type)) is not registered in this jqc; did you mean '\(near)'?"
                    )
                } else {
                    report(
                        "field type \(OneLine.quote(field.type)) is not registered in this jqc; register the type or fix the name"
                    )
                }
            }
            let col = field.col ?? 0
            if col == grid {
                report(
                    "'col' is \(grid), past the last column of the \(grid)-column grid (columns count from 0 to \(grid - 1)); use 0 to \(grid - 1)"
                )
            }
            guard let row = field.row, (0..<grid).contains(col), row >= 0 else { continue }
            let colSpan = field.colSpan ?? (grid - col)
            let rowSpan = field.rowSpan ?? 1
            guard (1...grid).contains(colSpan), rowSpan >= 1 else { continue }
            if col + colSpan > grid {
                report(
                    "'col' \(col) with 'col_span' \(colSpan) reaches column \(col + colSpan - 1), past the \(grid)-column grid (columns 0 to \(grid - 1)); make 'col_span' at most \(grid - col) or move the field left"
                )
            }
            // A row far down with a long span ends at the last representable row rather than trapping.
            let (end, overflowed) = row.addingReportingOverflow(rowSpan)
            let cols = col..<min(col + colSpan, grid), rows = row..<(overflowed ? Int.max : end)
            for other in placed where other.cols.overlaps(cols) && other.rows.overlaps(rows) {
                let cell = (
                    row: max(rows.lowerBound, other.rows.lowerBound), col: max(cols.lowerBound, other.cols.lowerBound)
                )
                report(
                    "covers row \(cell.row), column \(cell.col), which field '\(other.field.id)' also covers (rows and columns count from 0); move one of them or shrink its span"
                )
            }
            placed.append((field, cols, rows))
        }
        var problems: [SchemaProblem] = []
        for index in schema.fields.indices {
            problems += checked.filter { $0.fieldIndex == index } + (extra[index] ?? [])
        }
        return problems + checked.filter { $0.fieldIndex == nil }
    }

    /// The registered type nearest to a mistyped name ("ratin" for "rating"),
    /// when it is a slip of the keyboard: at most one edit in four characters,
    /// two in longer names (letters swapped count as one).
    func nearestName(to typed: String) -> String? {
        let word = typed.lowercased()
        let allowed = max(1, min(2, word.count / 3))
        let scored = names.map { ($0, Self.editDistance($0, word)) }.filter { $0.1 <= allowed }
        return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
    }

    /// Edit distance with adjacent transpositions (the same measure the
    /// command line uses for a mistyped command).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = Swift.min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = Swift.min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// Every reason `answers` cannot complete the form, in field order:
    /// required answerable fields left unanswered (nil, blank string, empty
    /// list, rating 0), with a message naming the type when this version does
    /// not support it, and every answer its type refuses. A required field of
    /// an unavailable type blocks completion, answered or not, because its
    /// answer cannot be judged. Sections and labels
    /// are skipped; stray answers to them are `validateAnswers`' business.
    public func completionProblems(_ schema: FormSchema, answers: Answers) -> [CompletionProblem] {
        var problems: [CompletionProblem] = []
        for field in schema.fields {
            let type = resolve(field)
            if let reason = type.unavailableReason {
                if field.required {
                    problems.append(
                        CompletionProblem(
                            fieldID: field.id, kind: .unsupportedRequired,
                            message: "\(field.messageName) is required, but \(reason)"))
                }
                continue
            }
            guard type.isAnswerable else { continue }
            guard let answer = answers[field.id], !type.isBlank(answer) else {
                guard field.required else { continue }
                if type is UnsupportedFieldType {
                    problems.append(
                        CompletionProblem(
                            fieldID: field.id, kind: .unsupportedRequired,
                            message: "\(UnsupportedFieldType.unsupported(field)); update jqc to answer it"))
                } else {
                    problems.append(
                        CompletionProblem(
                            fieldID: field.id, kind: .missingRequired,
                            message: "\(field.messageName) is required and has no answer"))
                }
                continue
            }
            if let reason = type.validate(answer, for: field) {
                problems.append(
                    CompletionProblem(
                        fieldID: field.id, kind: .invalidAnswer, message: "\(field.messageName): \(reason)"))
            }
        }
        return problems
    }

    /// Every answer that does not fit the form, for the server: answers whose
    /// type refuses them, answers to sections and labels, and answers keyed by
    /// an id the form does not have. Fields in form order, then unknown ids
    /// sorted. A field of an unavailable type that is answered or required is
    /// a problem too: nothing here can judge it. Otherwise missing answers are
    /// not problems here (see `completionProblems`).
    public func validateAnswers(_ schema: FormSchema, answers: Answers) -> [AnswerProblem] {
        var problems: [AnswerProblem] = []
        for field in schema.fields {
            let answer = answers[field.id]
            let type = resolve(field)
            if let reason = type.unavailableReason {
                if field.required || answer.map({ !type.isBlank($0) }) == true {
                    problems.append(
                        AnswerProblem(
                            fieldID: field.id, kind: .unavailableType,
                            message: "\(field.messageName) cannot be judged: \(reason)"))
                }
                continue
            }
            guard let answer else { continue }
            if !type.isAnswerable {
                problems.append(
                    AnswerProblem(
                        fieldID: field.id, kind: .notAnswerable,
                        message: "\(field.messageName) is a \(field.type) field and takes no answer; remove the answer")
                )
            } else if !type.isBlank(answer), let reason = type.validate(answer, for: field) {
                problems.append(
                    AnswerProblem(fieldID: field.id, kind: .invalidAnswer, message: "\(field.messageName): \(reason)"))
            }
        }
        let known = Set(schema.fields.map(\.id))
        for id in answers.answeredIDs where !known.contains(id) {
            problems.append(
                AnswerProblem(
                    fieldID: id, kind: .unknownField,
                    message: "field \(OneLine.quote(id.rawValue)) is not in this form; remove its answer"))
        }
        return problems
    }

    /// The answers a re-inspection starts with: the parent's answer for each
    /// field of `schema` whose type copies on re-inspection, when it is
    /// present, not blank and still valid for the field (a template that
    /// changed since must not carry stale answers in). Ratings, pass/fail,
    /// photos and signatures are never copied; neither are answers of unknown
    /// types, whose meaning this version cannot judge, nor answers to ids the
    /// schema no longer has. The parent's answers go through `mapAnswers`
    /// first, from `parentSchema` (the version the parent answered; nil when
    /// it is not known here) to `schema`, as a draft moving onto a new
    /// version does: a retyped field's answer is read by its new type.
    public func prefill(from parent: Answers, schema: FormSchema) -> Answers {
        prefill(from: parent, parentSchema: schema, schema: schema, at: Date(timeIntervalSince1970: 0))
    }

    /// The answers a re-inspection starts with when the parent answered
    /// `parentSchema` (see `prefill(from:schema:)`).
    public func prefill(from parent: Answers, parentSchema: FormSchema?, schema: FormSchema, at now: Date) -> Answers {
        let mapped = mapAnswers(parent, from: parentSchema, to: schema, at: now).kept
        var copied = Answers()
        for field in schema.fields {
            let type = resolve(field)
            guard type.isAnswerable, type.copiesOnReinspection, let answer = mapped[field.id],
                !type.isBlank(answer), type.validate(answer, for: field) == nil
            else { continue }
            copied[field.id] = answer
        }
        return copied
    }

    /// What one field's answer contributes to the score, as its type judges it.
    public func score(_ field: FieldDefinition, _ answer: JSONValue?) -> FieldScore {
        resolve(field).score(answer, for: field)
    }

    /// One field's answer as one terminal line.
    public func display(_ field: FieldDefinition, _ answer: JSONValue?, style: TerminalStyle) -> String {
        resolve(field).display(answer, for: field, style: style)
    }

    /// Typed input for one field, read by its type.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        try resolve(field).parse(input, for: field, context: context)
    }

    private func layoutProblems(_ field: FieldDefinition) -> [SchemaProblem] {
        let grid = Self.gridColumns
        var problems: [SchemaProblem] = []
        func report(_ message: String) { problems.append(SchemaProblem(fieldID: field.id, message: message)) }
        if let col = field.col, !(0...grid).contains(col) {
            report("'col' is \(col), outside the \(grid)-column grid; use 0 to \(grid)")
        }
        if let row = field.row, row < 0 {
            report("'row' is \(row); rows start at 0, use 0 or more")
        }
        if let span = field.colSpan, !(1...grid).contains(span) {
            report("'col_span' is \(span); a field spans 1 to \(grid) columns")
        }
        if let span = field.rowSpan, span < 1 {
            report("'row_span' is \(span); a field spans at least 1 row")
        }
        return problems
    }
}
