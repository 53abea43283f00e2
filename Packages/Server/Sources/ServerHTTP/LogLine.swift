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
public struct LogLine: Sendable {
    private var text = "{"

    /// An empty object.
    public init() {}

    /// Adds the member `name` (a fixed key of ours, never escaped) with `value`.
    public mutating func add(_ name: String, _ value: LogValue) {
        if text.utf8.count > 1 { text += "," }
        text += "\"" + name + "\":"
        switch value {
        case .string(let string): text += Self.quoted(string)
        case .integer(let number): text += String(number)
        case .milliseconds(let number): text += Self.decimal(number)
        case .null: text += "null"
        }
    }

    /// The object and its line break.
    public var line: String { text + "}\n" }

    /// `value` as a JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
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
