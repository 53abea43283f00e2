import Foundation

/// The numbers of an export without the noise of binary arithmetic. A score
/// is a sum of fractions divided by another, so `0.1 + 0.7` of `1.0` comes
/// out as `0.7999999999999999`, which a spreadsheet shows and a reader takes
/// for a real difference. A double holds 15 significant decimal digits
/// faithfully (`DBL_DIG`): any decimal of up to 15 digits, such as an answer
/// typed as `0.1`, reads back as itself; only the digits past them are noise.
/// So a number is rounded to 15 significant digits, then written in the
/// shortest form that reads back as that double.
enum ExportNumber {
    /// Significant decimal digits a double holds faithfully.
    static let digits = 15

    /// `value` rounded to 15 significant digits; a value already that short
    /// (almost every one) is returned as it is without formatting it twice.
    static func clean(_ value: Double) -> Double {
        guard value.isFinite, value != 0 else { return value }
        guard significantDigits(of: String(value)) > digits else { return value }
        return Double(String(format: "%.\(digits)g", value)) ?? value
    }

    /// A score in 0...1 as a percent, cleaned: `0.875` is `87.5`, `0.7999999999999999` is `80`.
    static func percent(_ score: Double) -> Double { clean(score * 100) }

    /// How many significant digits Swift's shortest form of a double spells
    /// (`0.7999999999999999` has 16, `1.5e-07` has 2).
    static func significantDigits(of text: String) -> Int {
        var count = 0
        var leading = true
        for character in text.utf8 {
            if character == UInt8(ascii: "e") || character == UInt8(ascii: "E") { break }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) else { continue }
            if leading && character == UInt8(ascii: "0") { continue }
            leading = false
            count += 1
        }
        return count
    }
}
