import Foundation
import Models

/// The "not applicable" answer every scoreable type accepts: typed `n/a`,
/// `na` or `not applicable`, stored as the string `"N/A"`, excluded from the score.
public enum NotApplicable {
    /// The contract's encoding.
    public static let answer: JSONValue = .string(encoded)
    /// The stored string.
    public static let encoded = "N/A"

    /// True when typed input means not applicable (any case, surrounding spaces ignored).
    public static func isTyped(_ input: String) -> Bool {
        let word = input.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return word == "n/a" || word == "na" || word == "not applicable"
    }

    /// True when a stored answer means not applicable. Exactly `"N/A"` is the
    /// contract; other spellings from elsewhere are read leniently for scoring.
    public static func isAnswer(_ answer: JSONValue) -> Bool {
        guard case .string(let s) = answer else { return false }
        return isTyped(s)
    }
}
