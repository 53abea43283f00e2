import Foundation
import Models

/// A JSON text built byte by byte, for the few answers written without
/// `JSONEncoder` (`UploadReplies`, `ReviewReplies`), in exactly the form
/// `JSONBody.encode` gives them.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(256) }

    /// `{"name":` and an object's opening brace, the start of an envelope.
    mutating func open(_ name: StaticString) {
        raw("{")
        member(name, first: true)
        raw("{")
    }

    /// Closes the payload and the envelope with `"ok":true`.
    mutating func closingEnvelope() -> Data {
        raw("},\"ok\":true}")
        return Data(bytes)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `,"name":` (no comma for the first member); names are ours and need no escaping.
    mutating func member(_ name: StaticString, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        raw("\":")
    }

    mutating func number(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A JSON string, escaped as `JSONEncoder` escapes one (`JSONString`).
    mutating func string(_ value: String) { JSONString.append(value, to: &bytes) }

    /// `{"first":…,"second":…}`, an object of two strings; the caller names them in sorted order.
    mutating func object(_ first: StaticString, _ firstValue: String, _ second: StaticString, _ secondValue: String) {
        raw("{")
        member(first, first: true)
        string(firstValue)
        member(second, first: false)
        string(secondValue)
        raw("}")
    }
}
