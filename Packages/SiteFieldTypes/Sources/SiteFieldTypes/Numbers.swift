import Foundation
import Models

/// Locale-free number reading and writing shared by the site types.
enum Numbers {
    /// The value of decimal text such as `4.5`, `-18`, `+2`, `.5`; nil for
    /// anything else (no commas, exponents, `inf` or `nan`).
    static func decimal(_ text: Substring) -> Double? {
        var body = text
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        let pieces = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard pieces.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            pieces.contains(where: { !$0.isEmpty }), body.count <= 40
        else { return nil }
        guard let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    /// The value of decimal text.
    static func decimal(_ text: String) -> Double? { decimal(Substring(text)) }

    /// A finite JSON number's value, or nil.
    static func finite(_ value: JSONValue?) -> Double? {
        switch value {
        case .integer(let i)?: return Double(i)
        case .double(let d)? where d.isFinite: return d
        default: return nil
        }
    }

    /// `value` as JSON: an integer when whole, else a double.
    static func json(_ value: Double) -> JSONValue {
        if value == value.rounded(), abs(value) < 1e15 { return .integer(Int64(value)) }
        return .double(value)
    }

    /// `value` rounded to `places` decimals.
    static func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    /// `value` for people: no trailing `.0`, at most `places` decimals.
    static func text(_ value: Double, places: Int = 4) -> String {
        let r = rounded(value, places: places)
        if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
        return String(r)
    }
}
