import Foundation

/// Text from outside (a template, an answer, a comment) made safe to lay
/// out: it is always set as plain text, never markup, so a string cannot
/// change a document's structure; control characters other than line
/// breaks and tabs, and noncharacters, become U+FFFD, and a text longer than `limit` scalars
/// is cut with an ellipsis (a table cell must fit a page).
enum OutsideText {
    static func clean(_ text: String, limit: Int = 20_000) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        for scalar in text.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars {
            if count == limit {
                out.append("…")
                break
            }
            switch scalar.value {
            case 0x0A, 0x09: out.append(scalar)
            case 0x0D: out.append("\n")
            case 0x00..<0x20, 0x7F..<0xA0: out.append("\u{FFFD}")
            // Noncharacters: no font or shaper is asked to draw them.
            case 0xFDD0...0xFDEF: out.append("\u{FFFD}")
            case _ where scalar.value & 0xFFFE == 0xFFFE: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
            count += 1
        }
        return String(out)
    }
}
