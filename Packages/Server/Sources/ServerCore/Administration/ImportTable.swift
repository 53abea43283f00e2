import FieldTypes
import Foundation
import Models
import ServerStore

/// One row of an import file, its values by column name.
struct ImportRow: Sendable {
    /// Where the row is, as a person finds it: "row 3" of a spreadsheet
    /// (its header is row 1), or "item 2" of a JSON list.
    var label: String
    var values: [String: String]

    /// The value of `column`, trimmed; empty when absent.
    subscript(_ column: String) -> String { values[column]?.trimmingCharacters(in: .whitespaces) ?? "" }
}

/// Reads the rows of an import: CSV (RFC 4180: a header row naming the
/// columns, quoted cells, CRLF or LF, an optional UTF-8 BOM) or JSON (a
/// list under `listKey`, possibly inside an `{"ok", "data"}` envelope).
/// A column or key the import does not know is refused, never dropped.
enum ImportTable {
    /// The columns an import takes: `required` ones and `optional` ones; a
    /// JSON item may also carry `listed`, the read-only members a listing
    /// writes (`retired_at`), which are not imported.
    struct Columns: Sendable {
        var required: [String]
        var optional: [String]
        var listed: [String] = []

        /// How a person is told the columns: "id, name (required) and address, project_name (optional)".
        var described: String {
            let needed = "\(required.joined(separator: ", ")) (required)"
            return optional.isEmpty ? needed : "\(needed) and \(optional.joined(separator: ", ")) (optional)"
        }

        /// The names of `given` that are not columns of this import, in their order.
        func unknown(_ given: [String], json: Bool) -> [String] {
            let known = Set(required + optional + (json ? listed : []))
            return given.filter { !known.contains($0) }
        }

        /// `names` quoted for a message: 'a', 'b'.
        static func quoted(_ names: [String]) -> String {
            names.map { OneLine.quote($0, limit: 40) }.joined(separator: ", ")
        }
    }

    /// The rows of `data`, which names its columns: a CSV header must name
    /// every required column, and no file may name one `columns` lacks.
    static func rows(_ data: Data, listKey: String, columns: Columns, source: String) throws(ServerError)
        -> [ImportRow]
    {
        guard let text = String(data: data, encoding: .utf8) else {
            throw ServerError.badRequest("'\(source)' is not UTF-8 text; save the spreadsheet as CSV UTF-8")
        }
        let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let first = body.first { !$0.isWhitespace }
        if first == "{" || first == "[" { return try json(body, listKey: listKey, columns: columns, source: source) }
        let (header, rows) = try csv(body, source: source)
        guard !header.isEmpty else { return rows }
        let missing = columns.required.filter { !header.contains($0) }
        let unknown = columns.unknown(header, json: false)
        if !missing.isEmpty || !unknown.isEmpty {
            let named = "the column\(unknown.count == 1 ? "" : "s") \(Columns.quoted(unknown))"
            let fault =
                missing.isEmpty
                ? "has \(named), which this import does not take" : "has no column \(Columns.quoted(missing))"
            throw ServerError.badRequest(
                "'\(source)' \(fault); the columns are \(columns.described), and its header names "
                    + "\(Columns.quoted(header)); nothing was imported")
        }
        return rows
    }

    /// JSON: each item an object whose values are text, numbers or booleans.
    /// A key `columns` lacks refuses the file, naming the item, the key and the keys taken.
    static func json(_ text: String, listKey: String, columns: Columns, source: String) throws(ServerError)
        -> [ImportRow]
    {
        guard let document = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            throw ServerError.badRequest("'\(source)' is not valid JSON")
        }
        let unwrapped = document["ok"] != nil ? (document["data"] ?? .null) : document
        guard let list = unwrapped.arrayValue ?? unwrapped[listKey]?.arrayValue else {
            throw ServerError.badRequest("'\(source)' has no \"\(listKey)\" list")
        }
        var rows: [ImportRow] = []
        for (index, item) in list.enumerated() {
            guard let object = item.objectValue else {
                throw ServerError.badRequest("'\(source)' item \(index + 1) of \"\(listKey)\" is not an object")
            }
            let unknown = columns.unknown(object.keys.sorted(), json: true)
            guard unknown.isEmpty else {
                throw ServerError.badRequest(
                    "'\(source)' item \(index + 1) of \"\(listKey)\" has \(Columns.quoted(unknown)), which this import "
                        + "does not take; the keys are \(columns.described); nothing was imported")
            }
            var values: [String: String] = [:]
            for (key, value) in object {
                switch value {
                case .string(let text): values[key] = text
                case .integer(let number): values[key] = String(number)
                case .double(let number): values[key] = String(number)
                case .bool(let flag): values[key] = flag ? "true" : "false"
                case .null: values[key] = ""
                default:
                    throw ServerError.badRequest(
                        "'\(source)' item \(index + 1): '\(key)' must be text, a number or a boolean")
                }
            }
            rows.append(ImportRow(label: "item \(index + 1)", values: values))
        }
        return rows
    }

    /// CSV by RFC 4180: the header's column names (trimmed, lower case) and
    /// the rows; blank lines are skipped; row numbers are those a spreadsheet shows.
    static func csv(_ text: String, source: String) throws(ServerError) -> (header: [String], rows: [ImportRow]) {
        var records: [(line: Int, cells: [String])] = []
        var cells: [String] = [], cell = "", quoted = false, afterQuote = false
        var line = 1, recordLine = 1
        var iterator = Array(text.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = nil
        func endRecord() {
            cells.append(cell)
            if !(cells.count == 1 && cells[0].isEmpty) { records.append((recordLine, cells)) }
            cells = []; cell = ""; afterQuote = false
        }
        while let scalar = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" {
                            cell.unicodeScalars.append("\"")
                        } else {
                            quoted = false; afterQuote = true; pending = next
                        }
                    } else {
                        quoted = false; afterQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    cell.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                guard cell.isEmpty && !afterQuote else {
                    throw ServerError.badRequest(
                        "'\(source)' row \(line): a quote inside a cell that does not start with one; quote the whole cell"
                    )
                }
                quoted = true
            case ",":
                cells.append(cell); cell = ""; afterQuote = false
            case "\r":
                break
            case "\n":
                endRecord()
                line += 1
                recordLine = line
            default:
                guard !afterQuote else {
                    throw ServerError.badRequest(
                        "'\(source)' row \(line): text after a closing quote; quote the whole cell")
                }
                cell.unicodeScalars.append(scalar)
            }
        }
        guard !quoted else {
            throw ServerError.badRequest("'\(source)' row \(recordLine): a quoted cell is never closed")
        }
        if !cell.isEmpty || !cells.isEmpty { endRecord() }
        guard let header = records.first else { return ([], []) }
        let names = header.cells.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for name in names where names.filter({ $0 == name }).count > 1 {
            throw ServerError.badRequest("'\(source)' names the column '\(name)' twice")
        }
        var rows: [ImportRow] = []
        for record in records.dropFirst() {
            guard record.cells.count <= names.count else {
                throw ServerError.badRequest(
                    "'\(source)' row \(record.line) has \(record.cells.count) cells but the header names \(names.count) columns"
                )
            }
            var values: [String: String] = [:]
            for (index, name) in names.enumerated() {
                values[name] = index < record.cells.count ? record.cells[index] : ""
            }
            rows.append(ImportRow(label: "row \(record.line)", values: values))
        }
        return (names, rows)
    }
}
