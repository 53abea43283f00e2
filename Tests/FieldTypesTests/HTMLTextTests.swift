import FieldTypes
import Testing

@Suite("HTML text")
struct HTMLTextTests {
    @Test(
        "markup typed into a template or an answer comes out as text, in content and in either kind of quoted attribute"
    )
    func escapes() {
        #expect(HTMLText.escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(HTMLText.escape("\"><img src=x onerror=alert(2)>") == "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;")
        #expect(HTMLText.escape("' onmouseover='x") == "&#39; onmouseover=&#39;x")
        #expect(HTMLText.escape("Tom & Jerry") == "Tom &amp; Jerry")
    }

    @Test("control characters invalid in HTML are replaced; line breaks, tabs and other text are kept")
    func controls() {
        #expect(HTMLText.escape("a\u{0}b\u{1B}[31mc\u{7F}") == "a\u{FFFD}b\u{FFFD}[31mc\u{FFFD}")
        #expect(HTMLText.escape("line one\nline two\tend\r") == "line one\nline two\tend\r")
        #expect(HTMLText.escape("Café ★ 清洁") == "Café ★ 清洁")
    }
}
