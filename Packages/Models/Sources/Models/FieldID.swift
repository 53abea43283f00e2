/// A form field's id, always a string.
///
/// Schemas from the server write ids as JSON integers (`"id": 5`) or strings
/// (`"id": "5"`); both become the string `"5"`, the key of the answer. This is
/// the one place that conversion happens (the seed's `Optional(5)` pitfall
/// cannot recur: there is no other path from a JSON id to a key).
public struct FieldID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The id as it is used for answer keys.
    public let rawValue: String

    /// Wraps an id that is already a string.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Reads an id written as a JSON integer or string; nil for anything else
    /// (booleans, fractions, objects, empty strings).
    public init?(json: JSONValue) {
        switch json {
        case .string(let s) where !s.isEmpty: self.rawValue = s
        case .integer(let i): self.rawValue = String(i)
        case .double(let d):
            guard let i = JSONValue.double(d).integerValue else { return nil }
            self.rawValue = String(i)
        default: return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard let id = FieldID(json: value) else {
            let container = try decoder.singleValueContainer()
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "an id must be an integer or a non-empty string, not \(value.kindDescription)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: FieldID, rhs: FieldID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// A server-assigned id (facility, area, template, assignment, report, user):
/// opaque to the device, read from a JSON integer or string and kept as a string.
struct LenientID: Decodable {
    let value: String

    init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        guard let id = FieldID(json: json) else {
            let container = try decoder.singleValueContainer()
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "an id must be an integer or a non-empty string, not \(json.kindDescription)")
        }
        value = id.rawValue
    }
}

extension KeyedDecodingContainer {
    /// Decodes an opaque server id written as an integer or a string.
    func decodeID(forKey key: Key) throws -> String {
        try decode(LenientID.self, forKey: key).value
    }

    /// Decodes an optional opaque server id; null and absent are both nil.
    func decodeIDIfPresent(forKey key: Key) throws -> String? {
        try decodeIfPresent(LenientID.self, forKey: key)?.value
    }
}
