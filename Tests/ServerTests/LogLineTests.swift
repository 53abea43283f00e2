import Foundation
import ServerHTTP
import Testing

@Suite("Log lines")
struct LogLineTests {
    @Test("a log line is one JSON object on one line, whatever text it carries; the text reads back as it was")
    func hostileText() throws {
        let texts = [
            "", "plain", "quote \" and backslash \\", "tab\tcr\rlf\n", "nul \u{0} bell \u{7} esc \u{1B} del \u{7F}",
            "separators \u{2028} and \u{2029}", "é, combining e\u{301}, 東京, 🧹",
        ]
        for text in texts {
            var line = LogLine()
            line.add("message", .string(text))
            line.add("count", .integer(-42))
            line.add("duration_ms", .milliseconds(12.5))
            line.add("user_id", .null)
            let written = line.line
            #expect(written.hasSuffix("}\n"))
            let bytes = Array(written.utf8.dropLast())
            #expect(!bytes.contains { $0 < 0x20 || $0 == 0x7F }, "a raw control character in \(written)")
            #expect(!written.contains("\u{2028}") && !written.contains("\u{2029}"), "\(written)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], "not an object: \(written)")
            #expect(object["message"] as? String == text, "\(written)")
            #expect((object["count"] as? NSNumber)?.intValue == -42)
            #expect((object["duration_ms"] as? NSNumber)?.doubleValue == 12.5)
            #expect(object["user_id"] is NSNull)
            #expect(written.hasPrefix(#"{"message":"#), "members keep their order: \(written)")
        }
    }
}
