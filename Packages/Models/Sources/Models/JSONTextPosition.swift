/// Where JSON text first goes wrong, as a person finds it in an editor: the
/// line and column (both from 1; columns count characters) of the first
/// character that cannot be there, or of the end when the text stops early.
struct JSONTextPosition: Equatable {
    var line: Int
    var column: Int
    /// True when the text ended before the value did.
    var atEnd: Bool
    /// The character found there, when there is one.
    var found: Character?

    /// The first place `bytes` stops being one JSON value; nil when it is one.
    static func firstError(in bytes: [UInt8]) -> JSONTextPosition? {
        var scanner = Scanner(bytes: bytes)
        do {
            scanner.skipSpace()
            try scanner.value(depth: 0)
            scanner.skipSpace()
            if scanner.index < bytes.count { throw Scanner.Stop() }
            return nil
        } catch {
            return position(of: scanner.index, in: bytes)
        }
    }

    private static func position(of offset: Int, in bytes: [UInt8]) -> JSONTextPosition {
        let before = bytes[..<min(offset, bytes.count)]
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        let found = offset < bytes.count ? String(decoding: bytes[offset...].prefix(4), as: UTF8.self).first : nil
        return JSONTextPosition(line: line, column: column, atEnd: offset >= bytes.count, found: found)
    }

    /// A recursive-descent reader that only follows the grammar; `index` is where it stopped.
    private struct Scanner {
        struct Stop: Error {}
        let bytes: [UInt8]
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(Stop) {
            guard current == byte else { throw Stop() }
            index += 1
        }

        mutating func value(depth: Int) throws(Stop) {
            guard depth < 512, let byte = current else { throw Stop() }
            switch byte {
            case UInt8(ascii: "{"):
                index += 1
                skipSpace()
                if current == UInt8(ascii: "}") { index += 1; return }
                while true {
                    skipSpace()
                    try string()
                    skipSpace()
                    try expect(UInt8(ascii: ":"))
                    skipSpace()
                    try value(depth: depth + 1)
                    skipSpace()
                    if current == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "}"))
                    return
                }
            case UInt8(ascii: "["):
                index += 1
                skipSpace()
                if current == UInt8(ascii: "]") { index += 1; return }
                while true {
                    skipSpace()
                    try value(depth: depth + 1)
                    skipSpace()
                    if current == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "]"))
                    return
                }
            case UInt8(ascii: "\""):
                try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try number()
            default:
                throw Stop()
            }
        }

        mutating func literal(_ word: String) throws(Stop) {
            for byte in word.utf8 { try expect(byte) }
        }

        mutating func digits() throws(Stop) {
            guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw Stop() }
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }

        mutating func number() throws(Stop) {
            if current == UInt8(ascii: "-") { index += 1 }
            try digits()
            if current == UInt8(ascii: ".") { index += 1; try digits() }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                try digits()
            }
        }

        mutating func string() throws(Stop) {
            try expect(UInt8(ascii: "\""))
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current, Array("\"\\/bfnrtu".utf8).contains(escaped) else { throw Stop() }
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let hex = current, hex.isHexDigit else { throw Stop() }
                            index += 1
                        }
                    }
                case 0x00..<0x20:
                    throw Stop()
                default:
                    index += 1
                }
            }
            throw Stop()
        }
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
