import Foundation

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Each kind tried and refused costs a thrown error; text, the commonest
        // scalar (answers, ids), is tried first: a JSON string is never read
        // as anything else, nor anything else as a string.
        if container.decodeNil() {
            self = .null
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int64.self) {
            self = .integer(i)
        } else if let d = try? container.decode(Double.self) {
            self = .double(d)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else if let o = try? container.decode([String: JSONValue].self) {
            self = .object(o)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .integer(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}

extension JSONValue {
    /// Parses UTF-8 JSON text; any top-level value is accepted.
    public static func parse(_ data: Data) throws(ModelsError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ModelsError(.invalidJSON, "the text is not valid JSON: \(Self.guessWhy(data))")
        }
    }

    /// Parses JSON text given as a string.
    public static func parse(_ text: String) throws(ModelsError) -> JSONValue {
        try parse(Data(text.utf8))
    }

    /// The canonical encoding: UTF-8, keys sorted, no insignificant whitespace.
    /// Two equal values always encode to the same bytes, which is what payload
    /// comparisons and content hashes rely on.
    public func canonicalData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to JSON, and
        // non-finite doubles are written as null below.
        return (try? encoder.encode(self.finite())) ?? Data("null".utf8)
    }

    /// The canonical encoding as a string.
    public func canonicalString() -> String {
        String(decoding: canonicalData(), as: UTF8.self)
    }

    private func finite() -> JSONValue {
        switch self {
        case .double(let d) where !d.isFinite: return .null
        case .array(let a): return .array(a.map { $0.finite() })
        case .object(let o): return .object(o.mapValues { $0.finite() })
        default: return self
        }
    }

    /// A person's reading of why text is not JSON: empty, an HTML page, or cut short or malformed.
    static func guessWhy(_ data: Data) -> String {
        let text = String(decoding: data.prefix(512), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return "it is empty" }
        if text.hasPrefix("<") { return "it looks like an HTML or XML page" }
        guard let place = JSONTextPosition.firstError(in: Array(data)) else { return "it is cut short or malformed" }
        let at = "line \(place.line), column \(place.column)"
        if place.atEnd { return "it is cut short: it ends at \(at) before the JSON is complete" }
        let shown =
            place.found.map { $0.isLetter || $0.isNumber || $0.isPunctuation || $0.isSymbol ? " '\($0)'" : "" } ?? ""
        return "it is malformed at \(at): unexpected character\(shown) there"
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
        case DecodingError.keyNotFound(let key, let context):
            return "missing \(pathString(context.codingPath + [key]))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(pathString(context.codingPath)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    static func pathString(_ path: [any CodingKey]) -> String {
        let parts = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return parts.isEmpty
            ? "the document" : "'" + parts.joined(separator: ".").replacingOccurrences(of: ".[", with: "[") + "'"
    }
}
