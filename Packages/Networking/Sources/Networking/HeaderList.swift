internal import CCurl

/// Owns one `curl_slist` (request headers, or pinned addresses), freed when the list is released.
///
/// Not `Sendable`: it belongs to the `EasyHandle` it was built for and lives
/// exactly as long as that handle's transfer.
final class HeaderList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?

    /// Builds `Name: value` lines; names or values with line breaks are dropped (header injection).
    init(_ headers: [(name: String, value: String)]) {
        for (name, value) in headers {
            // Checked as UTF-8 bytes: CR, LF and ':' are ASCII, and this runs for every header of every upload.
            guard !name.isEmpty,
                !name.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x3A }),
                !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A })
            else { continue }
            // "Name;" is curl's spelling of a header sent with an empty value.
            let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
            if let appended = curl_slist_append(raw, line) { raw = appended }
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
