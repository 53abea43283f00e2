internal import CCurl

/// Owns one `curl_slist` of request headers, freed when the list is released.
///
/// Not `Sendable`: it belongs to the `EasyHandle` it was built for and lives
/// exactly as long as that handle's transfer.
final class HeaderList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?

    /// Builds `Name: value` lines; names or values with line breaks are dropped (header injection).
    init(_ headers: [(name: String, value: String)]) {
        for (name, value) in headers {
            guard !name.isEmpty,
                  !name.contains(where: { $0 == "\r" || $0 == "\n" || $0 == ":" }),
                  !value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
            // "Name;" is curl's spelling of a header sent with an empty value.
            let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
            if let appended = curl_slist_append(raw, line) { raw = appended }
        }
    }

    deinit { curl_slist_free_all(raw) }
}
