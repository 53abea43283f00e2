import Foundation

/// Typed input shown back in messages.
enum Typed {
    /// `'input'`: trimmed, on one line (Unicode line and paragraph separators
    /// shown as spaces), control characters and direction overrides dropped,
    /// at most 60 characters.
    static func quote(_ input: String) -> String {
        var visible = String.UnicodeScalarView()
        for scalar in input.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars {
            switch scalar.value {
            case 0x2028, 0x2029: visible.append(" ")
            case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: continue
            default: visible.append(scalar)
            }
        }
        var text = String(visible)
        if text.count > 60 { text = String(text.prefix(57)) + "..." }
        return "'" + text + "'"
    }
}
