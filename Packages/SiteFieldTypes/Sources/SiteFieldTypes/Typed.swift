import Foundation

/// Typed input shown back in messages.
enum Typed {
    /// `'input'`: trimmed, control characters dropped, at most 60 characters.
    static func quote(_ input: String) -> String {
        let visible = input.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars
            .filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) && !(0x202A...0x202E).contains($0.value) && !(0x2066...0x2069).contains($0.value) }
        var text = String(String.UnicodeScalarView(visible))
        if text.count > 60 { text = String(text.prefix(57)) + "..." }
        return "'" + text + "'"
    }
}
