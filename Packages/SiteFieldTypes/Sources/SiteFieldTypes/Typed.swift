import FieldTypes
import Foundation

/// Typed input shown back in messages.
enum Typed {
    /// `'input'`: trimmed, on one line (line and paragraph separators shown
    /// as spaces), control characters and direction overrides dropped, at
    /// most 60 characters (`OneLine.quote`).
    static func quote(_ input: String) -> String {
        OneLine.quote(input.trimmingCharacters(in: .whitespacesAndNewlines), lineBreak: " ")
    }
}
