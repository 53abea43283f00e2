import Foundation
@testable import ServerCore
import Testing

/// The cells of every CSV the server writes: quoted whenever a spreadsheet
/// could split them (comma, semicolon, tab, quote, line break), and guarded
/// against formulas at their start.
@Suite("Security trial: CSV cells quoted and guarded")
struct CSVCellTests {
    /// The cases both writers (the server's exports and the device's) must answer alike.
    static let cases: [(String, String)] = [
        ("x;=cmd|' /C calc'!A0", "\"x;=cmd|' /C calc'!A0\""),
        ("a;b", "\"a;b\""),
        ("a\tb", "\"a\tb\""),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("=1+1", "'=1+1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("+1;2", "\"'+1;2\""),
        ("\t=1", "\"'\t=1\""),
        ("plain", "plain"),
    ]

    @Test("a cell holding ';' or a tab is quoted, so `x;=cmd|' /C calc'!A0` stays one cell in a ';' spreadsheet")
    func csvSemicolonFormula() {
        for (raw, written) in Self.cases {
            #expect(ExportCSV.cell(raw) == written, "\(raw.debugDescription)")
        }
        #expect(ExportCSV.cell("-2") == "-2", "a negative number stays a number")
        #expect(ExportCSV.line(["a;b", "c"]) == "\"a;b\",c\r\n")
    }
}
