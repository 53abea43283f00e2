/// A JSON string written as bytes, escaped exactly as `JSONEncoder` escapes
/// one: quotes, backslashes and control characters (`\b \f \n \r \t` short,
/// the rest as `\u00XX`); everything else, `/` and non-ASCII text included,
/// as it is. For the bodies written without `JSONEncoder`, on either side.
public enum JSONString {
    /// Appends `text`, quoted and escaped, to `out`.
    public static func append(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out += [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
