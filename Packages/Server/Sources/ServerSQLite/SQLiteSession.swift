import Foundation
import ServerStore
import SQLite

/// `StorageSession` on one SQLite connection, valid inside a `read` or
/// `write` of `SQLiteServerStorage`. Its operations live one concern a file:
/// accounts, reference data, reports, photos, history.
struct SQLiteSession: StorageSession {
    let db: Database

    func setting(_ key: String) throws(ServerError) -> String? {
        try db.query("SELECT value FROM settings WHERE key = ?", [.text(key)]).first?.text("value")
    }

    func setSetting(_ key: String, _ value: String) throws(ServerError) {
        try db.update(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [.text(key), .text(value)])
    }
}
