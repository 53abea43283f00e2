import Foundation
import Models

/// JSON with sorted keys: the form payloads are stored and compared in.
public enum CanonicalJSON {
    /// The canonical text of a value ("null" if it cannot be encoded).
    public static func string<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// The value stored text holds (null if it is not JSON).
    public static func value(_ text: String) -> JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .null
    }
}
