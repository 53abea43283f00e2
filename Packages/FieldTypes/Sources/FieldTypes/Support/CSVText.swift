import Foundation

/// One cell of a CSV the product writes (the server's exports and
/// `jqc export --format csv` alike): RFC 4180 with a comma between cells,
/// and safe to open in a spreadsheet.
///
/// Formula injection: a spreadsheet runs a cell that starts with `=`, `+`,
/// `-` or `@` (some treat a leading tab or CR the same way), so such a cell
/// gets a leading `'`. A spreadsheet that splits on `;` or a tab would find
/// a new cell, unguarded, inside one that holds either, so a cell is quoted
/// whenever it holds a comma, a `;`, a tab, a quote or a line break (inner
/// quotes doubled): quoted, it is one cell whatever the separator.
public enum CSVText {
    /// One record of `cells` with its CRLF.
    public static func line(_ cells: [String], keepingNumbers: Bool = false) -> String {
        cells.map { cell($0, keepingNumbers: keepingNumbers) }.joined(separator: ",") + "\r\n"
    }

    /// One cell: guarded against formulas, then quoted when it holds a
    /// separator, a quote or a line break. With `keepingNumbers`, a number
    /// as JSON writes one (a negative score) is left a number.
    public static func cell(_ raw: String, keepingNumbers: Bool = false) -> String {
        var text = raw
        if let first = text.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first),
            !(keepingNumbers && isNumber(text))
        {
            text = "'" + text
        }
        guard text.unicodeScalars.contains(where: { [",", ";", "\"", "\t", "\r", "\n"].contains($0) }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether `text` is a number as JSON writes one (`-2`, `-0.5`, `1e-3`).
    public static func isNumber(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        func digits() -> Int {
            var count = 0
            while let next = scalars.first, ("0"..."9").contains(next) {
                scalars.removeFirst()
                count += 1
            }
            return count
        }
        if scalars.first == "-" { scalars.removeFirst() }
        guard digits() > 0 else { return false }
        if scalars.first == "." {
            scalars.removeFirst()
            guard digits() > 0 else { return false }
        }
        if scalars.first == "e" || scalars.first == "E" {
            scalars.removeFirst()
            if scalars.first == "+" || scalars.first == "-" { scalars.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return scalars.isEmpty
    }
}
