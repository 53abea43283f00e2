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

    /// `path(_:)` with the values as an array.
    public func path(filling values: [String]) -> String {
        precondition(
            values.count == parameters.count, "\(template) takes \(parameters.count) parameters, not \(values.count)")
        var remaining = values[...]
        return template.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix("{") && segment.hasSuffix("}") else { return String(segment) }
            return Self.escapeSegment(remaining.removeFirst())
        }.joined(separator: "/")
    }

    /// The whole path as sent, `basePath` included: `getReport.fullPath("R7")` is `/api/v1/reports/R7`.
    public func fullPath(_ values: String...) -> String { Self.basePath + path(filling: values) }

    /// Characters left as they are in one path segment.
    public static let pathSegmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;?#"))

    /// `text` percent-encoded as one path segment.
    public static func escapeSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: pathSegmentAllowed) ?? text
    }
}
