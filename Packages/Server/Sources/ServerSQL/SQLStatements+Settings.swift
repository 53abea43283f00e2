import ServerStore

/// Server settings, a key and a value each.
extension SQLStatements {
    public func setting(_ key: String) throws(ServerError) -> String? {
        try firstRow("SELECT value FROM settings WHERE key = ?", [.text(key)])?.text("value")
    }

    public func setSetting(_ key: String, _ value: String) throws(ServerError) {
        try run(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [.text(key), .text(value)])
    }
}
