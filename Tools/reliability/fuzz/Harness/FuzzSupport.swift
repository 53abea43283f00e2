import Foundation

/// Stops the run when a promise of the product is broken. libFuzzer sees the
/// trap as a crash and keeps the input that caused it.
func expect(_ condition: @autoclosure () -> Bool, _ promise: @autoclosure () -> String) {
    if !condition() { fatalError("broken promise: \(promise())") }
}

/// The house rule for anything a person reads: one non-empty line.
func isOneLine(_ text: String) -> Bool {
    !text.trimmingCharacters(in: .whitespaces).isEmpty
        && !text.unicodeScalars.contains {
            $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{85}"
        }
}

/// `text` as JSON, so a failure message shows control characters plainly.
func shown(_ text: String) -> String {
    let data = (try? JSONEncoder().encode(text)) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

/// The fuzzer's input read front to back: a few selector bytes, then the rest.
struct FuzzBytes {
    private let bytes: [UInt8]
    private var position = 0

    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The next byte, or 0 past the end.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return Array(bytes[min(position, bytes.count)...])
    }
}
