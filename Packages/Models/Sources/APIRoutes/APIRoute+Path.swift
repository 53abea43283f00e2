import Foundation

extension APIRoute {
    /// The names of the template's parameters, in order (`server_id`, `local_id`).
    public var parameters: [String] {
        template.split(separator: "/").compactMap { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? String(segment.dropFirst().dropLast()) : nil
        }
    }

    /// The path under `basePath` with `values` in the template's parameters,
    /// in order, each percent-encoded as one path segment: `getReport.path("R 7")`
    /// is `/reports/R%207`. Giving more or fewer values than the template has
    /// parameters is a programming error.
    public func path(_ values: String...) -> String { path(filling: values) }

    /// `path(_:)` with the values as an array. Written byte by byte, since
    /// every request the device makes and every upload url the server gives
    /// is built here.
    public func path(filling values: [String]) -> String {
        var out: [UInt8] = []
        var remaining = values[...]
        var inParameter = false
        var missing = false
        for byte in template.utf8 {
            switch byte {
            case UInt8(ascii: "{"):
                inParameter = true
            case UInt8(ascii: "}"):
                inParameter = false
                guard let value = remaining.popFirst() else {
                    missing = true
                    break
                }
                Self.appendEscaped(value, to: &out)
            default:
                if !inParameter { out.append(byte) }
            }
        }
        precondition(
            remaining.isEmpty && !missing,
            "\(template) takes \(parameters.count) parameters, not \(values.count)")
        return String(decoding: out, as: UTF8.self)
    }

    /// The whole path as sent, `basePath` included: `getReport.fullPath("R7")` is `/api/v1/reports/R7`.
    public func fullPath(_ values: String...) -> String { Self.basePath + path(filling: values) }

    /// `text` percent-encoded as one path segment: every byte of its UTF-8 but
    /// letters, digits and `-._~!$&'()*+,=:@` as `%XX` (uppercase hex), as
    /// Foundation encodes for `CharacterSet.urlPathAllowed` less `/;?#`.
    public static func escapeSegment(_ text: String) -> String {
        var out: [UInt8] = []
        appendEscaped(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            if segmentAllowed[Int(byte)] {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(upperHex[Int(byte >> 4)])
                out.append(upperHex[Int(byte & 0xF)])
            }
        }
    }

    /// Which bytes stand for themselves in a path segment.
    private static let segmentAllowed: [Bool] = {
        var allowed = [Bool](repeating: false, count: 256)
        for byte in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._~!$&'()*+,=:@".utf8 {
            allowed[Int(byte)] = true
        }
        return allowed
    }()

    private static let upperHex = Array("0123456789ABCDEF".utf8)
}
