extension StringProtocol {
    /// The text without the spaces and tabs around it (HTTP's optional white
    /// space around a header value or a list item), found byte by byte:
    /// Foundation's `trimmingCharacters(in:)` goes through `NSString` and
    /// costs tens of thousands of instructions a call, several a request.
    public func trimmingHTTPSpace() -> String {
        let bytes = utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
        var last = first
        var index = first
        while index < bytes.endIndex {
            if !isSpace(bytes[index]) { last = index }
            index = bytes.index(after: index)
        }
        return String(self[first...last])
    }
}
