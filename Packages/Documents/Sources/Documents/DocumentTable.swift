/// A table of a document: its columns and rows of plain text. It breaks
/// across pages between rows, its header drawn again at the top of each
/// page; a cell shows at most `TextStyle.cell.limit` scalars, so a row
/// always fits a page.
public struct DocumentTable: Sendable {
    public struct Column: Sendable {
        public var title: String
        /// The column's share of the page's width (the shares need not sum to one).
        public var share: Double
        public var numeric: Bool

        public init(_ title: String, share: Double, numeric: Bool = false) {
            self.title = title
            self.share = share
            self.numeric = numeric
        }
    }

    public struct Row: Sendable {
        public var cells: [String]
        /// A row to notice: a failed inspection, an overdue action.
        public var marked: Bool

        public init(_ cells: [String], marked: Bool = false) {
            self.cells = cells
            self.marked = marked
        }
    }

    public var columns: [Column]
    public var rows: [Row]

    public init(columns: [Column], rows: [Row]) {
        self.columns = columns
        self.rows = rows
    }
}

extension PDFCanvas {
    static let cellPadding = 4.0

    /// Draws `table` from the cursor down, across as many pages as it needs.
    func draw(_ table: DocumentTable) {
        let total = table.columns.map(\.share).reduce(0, +)
        let widths = table.columns.map { width * $0.share / max(total, 0.0001) }
        let header = DocumentTable.Row(table.columns.map(\.title))
        let before = onNewPage
        onNewPage = { [unowned self] in
            before?()
            self.row(header, table, widths: widths, isHeader: true)
        }
        defer { onNewPage = before }
        ensure(40)
        row(header, table, widths: widths, isHeader: true)
        for line in table.rows { row(line, table, widths: widths, isHeader: false) }
        y += 8
    }

    private func row(_ row: DocumentTable.Row, _ table: DocumentTable, widths: [Double], isHeader: Bool) {
        let pad = Self.cellPadding
        var height = 0.0
        for (index, text) in row.cells.enumerated() where index < widths.count {
            height = max(height, measure(text, style: style(table, index, isHeader), width: widths[index] - 2 * pad))
        }
        height += 2 * pad
        if !isHeader { ensure(height) }
        if isHeader {
            fill(x: 0, top: y, width: width, height: height, color: .headerBand)
        } else if row.marked {
            fill(x: 0, top: y, width: width, height: height, color: .deficientBand)
        }
        var x = 0.0
        for (index, text) in row.cells.enumerated() where index < widths.count {
            block(text, style: style(table, index, isHeader), x: x + pad, top: y + pad, width: widths[index] - 2 * pad)
            x += widths[index]
        }
        y += height
    }

    private func style(_ table: DocumentTable, _ index: Int, _ isHeader: Bool) -> TextStyle {
        let base = isHeader ? TextStyle.cellHeader : TextStyle.cell
        return table.columns[index].numeric ? base.right : base
    }
}
