import Foundation

/// UUIDs as text, hyphenated, written and read byte by byte: Foundation goes
/// through the C library's printf and scanf for each one, and a sync writes
/// and reads thousands.
public enum UUIDText {
    private static let lowercaseDigits = Array("0123456789abcdef".utf8)
    private static let uppercaseDigits = Array("0123456789ABCDEF".utf8)

    /// Lowercase, as RFC 4122 recommends: the form ids take on the wire and on screen.
    public static func lowercase(_ id: UUID) -> String { write(id, lowercaseDigits) }

    /// Uppercase, as Foundation's `uuidString` writes it.
    public static func uppercase(_ id: UUID) -> String { write(id, uppercaseDigits) }

    /// The UUID in `text` (either case, hyphenated), as `UUID(uuidString:)` reads it; nil for anything else.
    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let ok = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard utf8[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                    }
                    guard let high = value(utf8[at]), let low = value(utf8[at + 1]) else { return false }
                    out[index] = high << 4 | low
                    at += 2
                }
                return true
            }
            return ok ? UUID(uuid: bytes) : nil
        }
    }

    private static func write(_ id: UUID, _ digits: [UInt8]) -> String {
        withUnsafeBytes(of: id.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    out[at] = digits[Int(byte >> 4)]
                    out[at + 1] = digits[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
