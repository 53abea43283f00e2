import Foundation

/// The fields of an `application/x-www-form-urlencoded` body, as browsers
/// send the console's forms: `+` is a space, `%XX` a byte, the last value of
/// a repeated name wins. Bytes that are not UTF-8 make the form unreadable.
struct ConsoleForm: Sendable, Equatable {
    /// The fields by name.
    var fields: [String: String]

    /// An empty form (a page opened with GET).
    static let empty = ConsoleForm(fields: [:])

    /// The form in `data`; nil when it is not URL-encoded UTF-8 text.
    static func decode(_ data: Data) -> ConsoleForm? {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decodeComponent(parts[0]) else { return nil }
            guard let value = parts.count > 1 ? decodeComponent(parts[1]) : "" else { return nil }
            fields[name] = value
        }
        return ConsoleForm(fields: fields)
    }

    /// One field, trimmed; nil when absent or blank.
    func text(_ name: String) -> String? {
        guard let value = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }

    /// One field exactly as sent (a password keeps its spaces).
    func raw(_ name: String) -> String? { fields[name] }

    private static func decodeComponent(_ part: Substring) -> String? {
        String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
