import Foundation
@testable import JQCApp
import Testing

/// The cells of `jqc export --format csv`: the rule of the server's exports.
@Suite("CSV cells of the device's export")
struct CSVCellGuardTests {
    @Test("a cell holding ';' or a tab is quoted, so `x;=cmd|' /C calc'!A0` stays one cell in a ';' spreadsheet")
    func csvSemicolonFormula() {
        let cases: [(String, String)] = [
            ("x;=cmd|' /C calc'!A0", "\"x;=cmd|' /C calc'!A0\""), ("a;b", "\"a;b\""), ("a\tb", "\"a\tb\""),
            ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\nlines", "\"two\nlines\""),
            ("=1+1", "'=1+1"), ("@SUM(A1)", "'@SUM(A1)"), ("+1;2", "\"'+1;2\""), ("\t=1", "\"'\t=1\""),
            ("plain", "plain"),
        ]
        for (raw, written) in cases {
            #expect(CSVExport.cell(raw) == written, "\(raw.debugDescription)")
        }
        #expect(CSVExport.line(["a;b", "c"]) == "\"a;b\",c\r\n")
    }
}
