import FieldTypes
import Foundation

/// Text made safe for HTML, and the few pieces every console page is built
/// from. Every string that came from a person or a template reaches a page
/// only through `HTML.escape` (or `HTML.attribute`); markup the console
/// writes itself is the only text left unescaped.
enum HTML {
    /// `text` as HTML character data: the product's one escaping (`HTMLText`).
    static func escape(_ text: String) -> String { HTMLText.escape(text) }

    /// `text` inside a double-quoted attribute value.
    static func attribute(_ text: String) -> String { escape(text) }

    /// A query string from pairs whose value is not empty, each part percent-encoded.
    static func query(_ pairs: [(String, String)]) -> String {
        let kept = pairs.filter { !$0.1.isEmpty }
        guard !kept.isEmpty else { return "" }
        return "?" + kept.map { "\(percent($0.0))=\(percent($0.1))" }.joined(separator: "&")
    }

    /// A path segment or query value, percent-encoded (only unreserved characters stay).
    static func percent(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// `<option>`s for a `<select>`, the one whose value is `selected` marked.
    static func options(_ choices: [(value: String, label: String)], selected: String) -> String {
        choices.map { choice in
            "<option value=\"\(attribute(choice.value))\"\(choice.value == selected ? " selected" : "")>\(escape(choice.label))</option>"
        }.joined()
    }
}
