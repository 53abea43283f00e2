/// Left-aligned columns for human lists, cut to a width that fits an 80-column terminal.
public enum TextTable {
    /// Renders a header row and data rows; columns wider than `maxColumn` are cut with "…".
    /// Columns in `whole` are never cut (an id another command needs).
    public static func render(_ header: [String], _ rows: [[String]], maxColumn: Int = 32, whole: Set<Int> = [])
        -> [String]
    {
        let all = [header] + rows
        let count = header.count
        var widths = Array(repeating: 0, count: count)
        for row in all {
            for (i, cell) in row.prefix(count).enumerated() {
                widths[i] = whole.contains(i) ? max(widths[i], cell.count) : min(max(widths[i], cell.count), maxColumn)
            }
        }
        return all.map { row in
            var cells: [String] = []
            for i in 0..<count {
                let cell = i < row.count ? row[i] : ""
                let fitted = cell.count > widths[i] ? String(cell.prefix(max(widths[i] - 1, 0))) + "…" : cell
                cells.append(i == count - 1 ? fitted : fitted.padding(toLength: widths[i], withPad: " ", startingAt: 0))
            }
            return cells.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
