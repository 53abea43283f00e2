extension StringProtocol {
    /// The text without the spaces and tabs around it (HTTP's optional white
    /// space around a header value or a list item), found byte by byte from
    /// each end: Foundation's `trimmingCharacters(in:)` goes through
    /// `NSString` and costs tens of thousands of instructions a call, and so
    /// does walking every byte of a long value (a bearer token) by index.
    public func trimmingHTTPSpace() -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let whole = String(self)
        var bytes = whole[...].utf8
        while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isSpace(last) { bytes = bytes.dropLast() }
        let untouched = bytes.startIndex == whole.startIndex && bytes.endIndex == whole.endIndex
        return untouched ? whole : String(Substring(bytes))
    }
}
