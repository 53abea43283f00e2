import Models

/// `table`: rows of cells under the field's `columns`, stored as a list of
/// rows, each an object from column name to string. Typed one row at a time
/// as `Column=value;Column=value`.
public struct TableField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"table"`.
    public var name: String { "table" }
    /// Conditions can only ask whether it is answered: there is no value to compare.
    public var logicKind: LogicKind? { nil }

    /// Needs a non-empty list of distinct, non-blank `columns`.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        guard let columns = field.columns else {
            return [field.problem("a table field needs a 'columns' list; add the column names as strings")]
        }
        guard !columns.isEmpty else {
            return [field.problem("the 'columns' list of a table field is empty; add at least one column")]
        }
        var problems: [SchemaProblem] = []
        var seen: Set<String> = []
        var reported: Set<String> = []
        for (index, column) in columns.enumerated() {
            let key = OptionList.normalized(column)
            if key.isEmpty {
                problems.append(field.problem("column \(index + 1) has a blank name; name every column"))
            } else if !seen.insert(key).inserted, reported.insert(key).inserted {
                problems.append(
                    field.problem(
                        "column \(OneLine.quote(column)) appears more than once (columns are matched ignoring case); keep one"
                    ))
            }
        }
        return problems
    }

    /// A list of non-empty rows, each an object whose keys are columns and whose values are strings.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        guard case .array(let rows) = answer else {
            return "a table answer "
                + Refusal.wrongKind(answer, expected: "a list of rows (objects from column name to text)")
        }
        let columns = field.columns ?? []
        for (index, row) in rows.enumerated() {
            guard case .object(let cells) = row else {
                return
                    "row \(index + 1) of the table must be an object from column name to text, not \(Refusal.describe(row))"
            }
            guard !cells.isEmpty else { return "row \(index + 1) of the table is empty; give at least one cell" }
            for (column, value) in cells.sorted(by: { $0.key < $1.key }) {
                guard columns.contains(column) else {
                    return
                        "row \(index + 1) has column \(OneLine.quote(column)), which is not one of the table's columns (\(Self.columnList(columns)))"
                }
                guard case .string = value else {
                    return
                        "row \(index + 1), column \(OneLine.quote(column)) must be text, not \(Refusal.describe(value))"
                }
            }
        }
        return nil
    }

    /// One row: `Column=value;Column=value`. Column names match ignoring case;
    /// a value may contain `=`; write `\;` for a semicolon inside a value.
    /// The answer is a list holding that one row; `appendingRows` adds it to existing rows.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let columns = field.columns ?? []
        let example = columns.prefix(2).map { "\($0)=..." }.joined(separator: ";")
        let expected = "one row as \(example.isEmpty ? "Column=value" : example) (columns: \(Self.columnList(columns)))"
        guard !Refusal.trimmed(input).isEmpty else { throw Refusal.blankInput(input, expected: expected) }
        var row: [String: JSONValue] = [:]
        for cell in Self.cells(input) where !Refusal.trimmed(cell).isEmpty {
            guard let equals = cell.firstIndex(of: "=") else {
                throw AnswerInputError(
                    input: input, message: "\(OneLine.quote(Refusal.trimmed(cell))) has no '='; type \(expected)")
            }
            let name = Refusal.trimmed(String(cell[..<equals]))
            guard let column = columns.first(where: { OptionList.normalized($0) == name.lowercased() }) else {
                throw AnswerInputError(
                    input: input,
                    message:
                        "\(OneLine.quote(name)) is not a column of this table; the columns are \(Self.columnList(columns))"
                )
            }
            guard row[column] == nil else {
                throw AnswerInputError(
                    input: input,
                    message:
                        "column \(OneLine.quote(column)) is given twice in \(OneLine.quote(input)); give each column once"
                )
            }
            row[column] = .string(Refusal.trimmed(String(cell[cell.index(after: equals)...])))
        }
        guard !row.isEmpty else { throw Refusal.blankInput(input, expected: expected) }
        return .array([.object(row)])
    }

    /// A table's answer is rows; `--add-row` adds to them.
    public var holdsRows: Bool { true }

    /// The existing rows followed by the new ones.
    public func appendingRows(_ rows: JSONValue, to existing: JSONValue?, for field: FieldDefinition)
        throws(AnswerInputError) -> JSONValue
    {
        try Self.appendingRows(rows, to: existing)
    }

    /// The template's columns, then any other column a row holds, and each row's cells as text.
    public func layout(_ answer: JSONValue, for field: FieldDefinition) -> AnswerLayout {
        let rows = answer.arrayValue ?? []
        var columns = field.columns ?? []
        for row in rows {
            for key in (row.objectValue ?? [:]).keys.sorted() where !columns.contains(key) { columns.append(key) }
        }
        return .table(
            columns: columns,
            rows: rows.map { row in
                let object = row.objectValue ?? [:]
                return columns.map { column in object[column].map { $0.stringValue ?? $0.canonicalString() } ?? "" }
            })
    }

    /// The existing rows followed by the new ones (for `--add-row`). Nil or a
    /// blank existing answer starts a new table; anything that is not a list
    /// of rows is refused rather than overwritten.
    public static func appendingRows(_ newRows: JSONValue, to existing: JSONValue?) throws(AnswerInputError)
        -> JSONValue
    {
        guard case .array(let added) = newRows else {
            throw AnswerInputError(
                input: newRows.canonicalString(),
                message: "the new rows \(Refusal.wrongKind(newRows, expected: "a list of rows"))")
        }
        switch existing {
        case nil, .null?: return .array(added)
        case .array(let rows)?: return .array(rows + added)
        case .string(let s)? where Refusal.trimmed(s).isEmpty: return .array(added)
        case let other?:
            throw AnswerInputError(
                input: other.canonicalString(),
                message:
                    "the table's current answer is not a list of rows (\(Refusal.describe(other))); use --clear first, then add rows"
            )
        }
    }

    /// The columns and how to type a row.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        let columns = field.columns ?? []
        return [
            "Columns: \(OneLine.display(Self.columnList(columns), style: style))",
            "Type one row as \(OneLine.display(columns.map { "\($0)=..." }.joined(separator: ";"), style: style)) (\\; for a semicolon in a value).",
        ]
    }

    /// `2 rows: Area=Lobby, Count=3 | Area=Hall, Count=1`, cut when long.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer) else { return AnswerDisplay.noAnswer(style) }
        guard case .array(let rows) = answer else { return AnswerDisplay.unreadable(answer, style) }
        let columns = field.columns ?? []
        var shown: [String] = []
        for row in rows {
            guard case .object(let cells) = row else { return AnswerDisplay.unreadable(answer, style) }
            let known = columns.filter { cells[$0] != nil }
            let others = cells.keys.filter { !columns.contains($0) }.sorted()
            shown.append(
                (known + others).map { column in
                    let value = cells[column]?.stringValue ?? cells[column]?.canonicalString() ?? ""
                    return "\(column)=\(value)"
                }.joined(separator: ", "))
        }
        let count = rows.count == 1 ? "1 row" : "\(rows.count) rows"
        return OneLine.display("\(count): " + shown.joined(separator: " | "), style: style)
    }

    /// Input split at unescaped semicolons, `\;` turned into `;`.
    static func cells(_ input: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var escaping = false
        for char in input {
            if escaping {
                current.append(char == ";" ? ";" : "\\\(char)")
                escaping = false
            } else if char == "\\" {
                escaping = true
            } else if char == ";" {
                cells.append(current)
                current = ""
            } else {
                current.append(char)
            }
        }
        if escaping { current.append("\\") }
        cells.append(current)
        return cells
    }

    static func columnList(_ columns: [String]) -> String {
        columns.isEmpty
            ? "none defined"
            : columns.map { OneLine.cut(OneLine.flatten($0, lineBreak: " "), limit: 30, ellipsis: "...") }.joined(
                separator: ", ")
    }
}
