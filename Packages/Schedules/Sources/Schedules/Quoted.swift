extension String {
    /// The text as it may appear in a one-line message: printable ASCII only
    /// (anything else becomes `?`), cut to at most 80 characters.
    var printableForMessage: String {
        let printable = unicodeScalars.map { (0x20...0x7E).contains($0.value) ? Character($0) : "?" }
        return printable.count > 80 ? String(printable.prefix(77)) + "..." : String(printable)
    }

    /// The printable text in double quotes, for quoting what someone wrote.
    var quotedForMessage: String {
        "\"" + printableForMessage + "\""
    }
}
