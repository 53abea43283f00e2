import Foundation
import Models

/// The answers of the photo routes, `{"data":{"upload":…},"ok":true}` and
/// `{"data":{"photo":…},"ok":true}`, written as bytes in exactly the form
/// `JSONBody.encode` gives them (keys sorted, slashes not escaped, strings
/// escaped as `JSONEncoder` escapes them). Every photo is answered once or
/// twice, and `JSONEncoder` cost about as much as the rest of a `POST
/// /uploads` handler's own work.
enum UploadReplies {
    static func envelope(_ response: UploadStartResponse) -> Data {
        var out = JSONBytes()
        out.open("data")
        var first = true
        if let photo = response.photo {
            out.member("photo", first: first)
            write(photo, to: &out)
            first = false
        }
        if let upload = response.upload {
            out.member("upload", first: first)
            out.raw("{")
            out.member("expires_at", first: true)
            out.string(upload.expiresAt)
            out.member("offset", first: false)
            out.number(upload.offset)
            out.member("url", first: false)
            out.string(upload.url)
            out.raw("}")
        }
        return out.closingEnvelope()
    }

    static func envelope(_ response: PhotoUploadResponse) -> Data {
        var out = JSONBytes()
        out.open("data")
        out.member("photo", first: true)
        write(response.photo, to: &out)
        return out.closingEnvelope()
    }

    private static func write(_ photo: PhotoUploadResponse.UploadedPhoto, to out: inout JSONBytes) {
        out.raw("{")
        out.member("byte_size", first: true)
        out.number(photo.byteSize)
        out.member("local_id", first: false)
        out.string(photo.localID.wireString)
        out.member("url", first: false)
        out.string(photo.url)
        out.raw("}")
    }
}

/// A JSON text built byte by byte, for the few answers written without `JSONEncoder`.
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
