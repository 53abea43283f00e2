import Foundation
import ServerStore

/// The JSON coding the server uses, with one-line messages for bad input.
enum JSONBody {
    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value))
            ?? Data(
                #"{"ok":false,"error":"the response could not be encoded","code":"\#(ServerError.Code.internal.rawValue)"}"#
                    .utf8)
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(ServerError) -> T {
        if let key = DuplicateKeys.first(in: data) {
            throw ServerError.badRequest("the key '\(key.prefix(80))' appears twice in one object; send it once")
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw ServerError.badRequest(describe(error))
        } catch {
            throw ServerError.badRequest("the body is not valid JSON")
        }
    }

    /// One line naming the offending key path and what was wrong.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "the body" : text)
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "the body is not valid JSON" }
            return "'\(path(context.codingPath))' is invalid: \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "'\(path(context.codingPath + [key]))' is missing"
        case .typeMismatch(let type, let context):
            return "'\(path(context.codingPath))' has the wrong type; expected \(describe(type))"
        case .valueNotFound(let type, let context):
            return "'\(path(context.codingPath))' is null; expected \(describe(type))"
        @unknown default:
            return "the body does not have the expected shape"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "an object"
        }
    }
}

/// `{}`: the data of a response that has nothing to say.
struct EmptyData: Codable, Sendable {}
