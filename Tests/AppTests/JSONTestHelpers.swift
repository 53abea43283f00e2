import Models

extension JSONValue {
    /// The error code of a `--json` error document.
    var errorCode: String? { self["error"]?["code"]?.stringValue }
    /// The item at `index`, when this is an array that long.
    subscript(_ index: Int) -> JSONValue? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
    /// The message of a `--json` error document.
    var errorMessage: String { self["error"]?["message"]?.stringValue ?? "" }
}
