import FieldTypes
import Models

/// A field id quoted for a message: one line, at most 60 characters.
func quoted(_ id: FieldID) -> String { OneLine.quote(id.rawValue) }

/// Text from a template quoted for a message: one line, at most 60 characters.
func quoted(_ text: String) -> String { OneLine.quote(text) }

/// Text from a template as one unquoted line of at most `limit` characters (type names).
func plain(_ text: String, limit: Int = 60) -> String {
    OneLine.cut(OneLine.flatten(text, lineBreak: "\\n"), limit: limit, ellipsis: "...")
}

/// A JSON value from a template or an answer, as one line of at most 80 characters.
func shown(_ value: JSONValue) -> String { plain(value.canonicalString(), limit: 80) }
