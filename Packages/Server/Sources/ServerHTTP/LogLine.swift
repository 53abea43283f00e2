/// A value in a JSON log line.
public enum LogValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    /// A number with at most three decimals (durations in milliseconds).
    case milliseconds(Double)
    case null
}

/// One JSON object on one line, its members in the order given, so every
/// line of a kind reads the same way (`time`, `level`, `kind` first).
///
/// Written as bytes: every request writes a line, and building it from
/// small `String`s, a Unicode scalar at a time, cost as much as routing it.
public struct LogLine: Sendable {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    /// An empty object.
    public init() {}

    /// Adds the member `name` (a fixed key of ours, never escaped) with `value`.
    public mutating func add(_ name: String, _ value: LogValue) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: "\":".utf8)
        switch value {
        case .string(let string): Self.appendQuoted(string, to: &bytes)
        case .integer(let number): bytes.append(contentsOf: String(number).utf8)
        case .milliseconds(let number): bytes.append(contentsOf: Self.decimal(number).utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        }
    }

    /// The object and its line break.
    public var line: String { String(decoding: bytes + "}\n".utf8, as: UTF8.self) }

    /// Appends `value` as a JSON string: quotes and backslashes escaped, and
    /// every control character, DEL, and the line and paragraph separators
    /// (U+2028, U+2029, which some readers take for line breaks) as `\uXXXX`
    /// or its short form.
    private static func appendQuoted(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let text = Array(value.utf8)
        var index = 0
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
            case 0..<0x20, 0x7F: appendEscape(UInt32(byte), to: &out)
            case 0xE2 where index + 2 < text.count && text[index + 1] == 0x80 && (text[index + 2] & 0xFE) == 0xA8:
                // U+2028 or U+2029, encoded E2 80 A8 / E2 80 A9.
                appendEscape(0x2000 | UInt32(text[index + 2] & 0x3F), to: &out)
                index += 2
            default: out.append(byte)
            }
            index += 1
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `\u` and four lowercase hex digits.
    private static func appendEscape(_ scalar: UInt32, to out: inout [UInt8]) {
        out.append(contentsOf: "\\u".utf8)
        for shift in stride(from: 12, through: 0, by: -4) {
            out.append(hexDigits[Int((scalar >> UInt32(shift)) & 0xF)])
        }
    }

    /// A non-negative number with at most three decimals, never in exponent form.
    static func decimal(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return "0" }
        let thousandths = Int((value * 1000).rounded())
        let fraction = thousandths % 1000
        guard fraction != 0 else { return String(thousandths / 1000) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return String(thousandths / 1000) + "." + digits
    }
}
