internal import CCurl
import Foundation

/// Owns one `curl_slist` (request headers, or pinned addresses), freed when the list is released.
///
/// Not `Sendable`: it belongs to the `EasyHandle` it was built for and lives
/// exactly as long as that handle's transfer.
final class HeaderList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?

    /// Builds `Name: value` lines; names or values with line breaks are dropped (header injection).
    init(_ headers: [(name: String, value: String)]) {
        for (name, value) in headers where !name.isEmpty {
            // "Name;" is curl's spelling of a header sent with an empty value. The line is written
            // as the C string libcurl copies and checked with memchr: every request builds its list,
            // and a bearer token is hundreds of bytes.
            let nameLength = name.utf8.count
            var line: [UInt8] = []
            line.reserveCapacity(nameLength + value.utf8.count + 3)
            line.append(contentsOf: name.utf8)
            line.append(contentsOf: value.isEmpty ? [UInt8(ascii: ";")] : [UInt8(ascii: ":"), UInt8(ascii: " ")])
            line.append(contentsOf: value.utf8)
            guard Self.isSafe(line, nameLength: nameLength) else { continue }
            line.append(0)
            let appended = line.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { curl_slist_append(raw, $0.baseAddress) }
            }
            if let appended { raw = appended }
        }
    }

    /// No CR or LF anywhere in `line`, and no ':' in its first `nameLength` bytes (the name).
    private static func isSafe(_ line: [UInt8], nameLength: Int) -> Bool {
        line.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0x0D, bytes.count) == nil && memchr(base, 0x0A, bytes.count) == nil
                && memchr(base, 0x3A, nameLength) == nil
        }
    }

    /// A list of lines as they are (libcurl's `CURLOPT_RESOLVE` entries); lines with line breaks are dropped.
    init(lines: [String]) {
        for line in lines where !line.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
            if let appended = curl_slist_append(raw, line) { raw = appended }
        }
    }

    deinit { curl_slist_free_all(raw) }
}
