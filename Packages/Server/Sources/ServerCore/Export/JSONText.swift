import Foundation

/// JSON written straight into bytes, for the export's many lines: strings
/// escaped as JSONEncoder escapes them (without escaping `/`), numbers in
/// their shortest form, stored canonical JSON copied as it is. Keys are
/// written in the order given; the export gives them sorted, as the rest of
/// the server's documents are.
struct JSONText {
    private(set) var bytes: [UInt8] = []
    /// One bit per open container (innermost lowest is `depth - 1`): whether its next member needs a comma.
    private var commas: UInt64 = 0
    private var depth = 0

    init(capacity: Int = 64 * 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// Forgets what was written, keeping the memory.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        commas = 0
        depth = 0
    }

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        open()
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        depth -= 1
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        open()
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        depth -= 1
    }

    /// A key; the value written next is its value.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        if depth > 0 { commas &= ~(1 << UInt64(depth - 1)) }
    }

    mutating func string(_ value: String) {
        separate()
        Self.escape(value, into: &bytes)
    }

    mutating func integer(_ value: Int64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func number(_ value: Double) {
        separate()
        bytes.append(contentsOf: Self.number(value).utf8)
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// JSON text already well formed (a stored canonical payload), copied as it is.
    mutating func raw(_ json: Substring.UTF8View) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// JSON text already well formed, copied as it is.
    mutating func raw(_ json: UnsafeBufferPointer<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// Bytes continuing the value just written, with no separator.
    mutating func appendContinuing<C: Collection>(_ more: C) where C.Element == UInt8 {
        bytes.append(contentsOf: more)
    }

    /// A line feed, ending a JSON Lines record.
    mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// A comma before a value or key that is not the first of its container.
    private mutating func separate() {
        guard depth > 0 else { return }
        let bit: UInt64 = 1 << UInt64(depth - 1)
        if commas & bit != 0 {
            bytes.append(UInt8(ascii: ","))
        } else {
            commas |= bit
        }
    }

    /// A container begins: its first member needs no comma (at most 64 deep, far beyond any export line).
    private mutating func open() {
        precondition(depth < 64, "JSONText nests at most 64 containers")
        depth += 1
        commas &= ~(1 << UInt64(depth - 1))
    }

    /// A number as JSON writes it, without the noise of binary arithmetic
    /// (`ExportNumber`): whole numbers without a fraction, others in Swift's
    /// shortest round-tripping form (`0.8`, not `0.7999999999999999`); NaN and
    /// infinities (which JSON cannot hold) as null.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let value = ExportNumber.clean(value)
        if value == value.rounded(), abs(value) < 9.0e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `value` as a JSON string literal, quotes included.
    static func escape(_ value: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        let plain = value.withUTF8 { text -> Bool in
            // Most values (ids, times, states) need no escape: copied whole.
            guard !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            bytes.append(contentsOf: text)
            return true
        }
        if plain {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    hex[Int(byte >> 4)], hex[Int(byte & 0x0F)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONText {
    /// Bytes continuing the value just begun (no separator): the rest of a copied payload.
    mutating func bytesAppend<S: StringProtocol>(_ text: S) {
        appendContinuing(text.utf8)
    }
}
