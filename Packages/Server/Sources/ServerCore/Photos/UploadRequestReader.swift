import Foundation
import Models

/// Reads the body of `POST /reports/{server_id}/uploads` without
/// `JSONDecoder`, which was most of the server's own work for each one.
///
/// It reads only the plain shape clients send: one object holding
/// `local_id`, `sha256` and `byte_size`, maybe `field_id` and
/// `issue_local_id` (or `null`), each key once, strings of printable ASCII
/// without escapes, `byte_size` as digits. For such a body it answers
/// exactly what `JSONDecoder` would. Anything else (another key, an escape,
/// a fraction, a repeated key, bad JSON) it leaves to `JSONBody.decode`,
/// which accepts or refuses it with its one-line reason as before.
enum UploadRequestReader {
    static func read(_ data: Data) -> UploadRequest? {
        data.withUnsafeBytes { raw in
            var reader = Cursor(bytes: raw.bindMemory(to: UInt8.self))
            return reader.request()
        }
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        mutating func request() -> UploadRequest? {
            var localID: UUID?
            var fieldID: String??
            var issueLocalID: UUID??
            var sha256: String?
            var byteSize: Int64?
            guard take(UInt8(ascii: "{")) else { return nil }
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")) else { return nil }
                switch key {
                case "local_id":
                    guard localID == nil, let text = string(), let id = UUID(uuidString: text) else { return nil }
                    localID = id
                case "sha256":
                    guard sha256 == nil, let text = string() else { return nil }
                    sha256 = text
                case "byte_size":
                    guard byteSize == nil, let number = integer() else { return nil }
                    byteSize = number
                case "field_id":
                    guard fieldID == nil, let value = stringOrNull() else { return nil }
                    fieldID = value
                case "issue_local_id":
                    guard issueLocalID == nil, let value = stringOrNull() else { return nil }
                    let id = value.flatMap { UUID(uuidString: $0) }
                    guard value == nil || id != nil else { return nil }
                    issueLocalID = .some(id)
                default:
                    return nil
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
            skipSpace()
            guard at == bytes.count, let localID, let sha256, let byteSize else { return nil }
            return UploadRequest(
                localID: localID, fieldID: fieldID ?? nil, issueLocalID: issueLocalID ?? nil, sha256: sha256,
                byteSize: byteSize)
        }

        private mutating func skipSpace() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x09, 0x0A, 0x0D: at += 1
                default: return
                }
            }
        }

        /// `byte` after any white space, taken; false (nothing taken) when another comes.
        private mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        /// `null` as `.some(nil)`, or a string as `string()` reads one; nil for anything else.
        private mutating func stringOrNull() -> String?? {
            skipSpace()
            let null = "null".utf8
            if bytes.count - at >= null.count, bytes[at..<at + null.count].elementsEqual(null) {
                at += null.count
                return .some(nil)
            }
            return string().map { .some($0) }
        }

        /// A string of printable ASCII without escapes; nil for anything else.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = at
            while at < bytes.count {
                let byte = bytes[at]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
                    at += 1
                    return text
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                at += 1
            }
            return nil
        }

        /// Digits without a sign, a leading zero, a fraction or an exponent, within `Int64`; nil otherwise.
        private mutating func integer() -> Int64? {
            skipSpace()
            let start = at
            var value: Int64 = 0
            while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
                let (times, over1) = value.multipliedReportingOverflow(by: 10)
                let (sum, over2) = times.addingReportingOverflow(Int64(bytes[at] - UInt8(ascii: "0")))
                guard !over1, !over2 else { return nil }
                value = sum
                at += 1
            }
            let digits = at - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            // What follows must end the number: a fraction or an exponent is the decoder's to judge.
            if at < bytes.count {
                switch bytes[at] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
                default: break
                }
            }
            return value
        }
    }
}
