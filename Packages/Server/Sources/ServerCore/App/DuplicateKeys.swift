import Foundation

/// Finds a key that appears twice in one JSON object. Foundation's decoder
/// silently keeps one of them, so `{"username": "inspector", "username": "x"}`
/// would mean different things to different readers; the server refuses it.
/// Keys are compared after their escapes are decoded (`"a"` and `"\u0061"`
/// are the same key). Malformed JSON is left to the decoder to describe.
enum DuplicateKeys {
    /// The first repeated key, or nil.
    static func first(in data: Data) -> String? {
        data.withUnsafeBytes { raw in first(in: raw.bindMemory(to: UInt8.self)) }
    }

    private struct Frame { var isObject: Bool; var keys: Set<String> = []; var expectKey = true }

    private static func first(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var stack: [Frame] = []
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "{"): stack.append(Frame(isObject: true))
            case UInt8(ascii: "["): stack.append(Frame(isObject: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                if !stack.isEmpty, stack[stack.count - 1].isObject { stack[stack.count - 1].expectKey = true }
            case UInt8(ascii: ":"): if !stack.isEmpty { stack[stack.count - 1].expectKey = false }
            case UInt8(ascii: "\""):
                guard let (text, end) = string(in: bytes, from: i + 1) else { return nil }
                if !stack.isEmpty, stack[stack.count - 1].isObject, stack[stack.count - 1].expectKey {
                    if !stack[stack.count - 1].keys.insert(text).inserted { return text }
                    stack[stack.count - 1].expectKey = false
                }
                i = end
            default: break
            }
            i += 1
        }
        return nil
    }

    /// The decoded string starting after its opening quote, and the index of its closing quote.
    private static func string(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (String, Int)? {
        var i = start
        var escaped = false
        while i < bytes.count && bytes[i] != UInt8(ascii: "\"") {
            if bytes[i] == UInt8(ascii: "\\") { escaped = true; i += 1 }
            i += 1
        }
        guard i < bytes.count else { return nil }
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<i])
        if !escaped { return (String(decoding: slice, as: UTF8.self), i) }
        // Let the JSON decoder undo the escapes of this one string.
        var quoted = Data([UInt8(ascii: "\"")])
        quoted.append(contentsOf: slice)
        quoted.append(UInt8(ascii: "\""))
        guard let text = try? JSONDecoder().decode(String.self, from: quoted) else { return nil }
        return (text, i)
    }
}
