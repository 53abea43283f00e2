import Models
import ServerStore

/// Users as rows hold them.
extension SQLRecords {
    /// The user in `row`, its columns named with `prefix` (for joins). An
    /// admin kept as a supervisor marked `is_admin` (SQLite's migration 005)
    /// is read as an admin, a role kept in `later_role` (SQLite's migration
    /// 012) as that role; a row without those columns keeps its role.
    public static func user(_ row: some SQLRow, prefix: String = "") -> StoredUser? {
        guard let id = row.text(prefix + "id"), let name = row.text(prefix + "username"),
            let role = row.text(prefix + "role").flatMap(UserRole.init(rawValue:)),
            let display = row.text(prefix + "display_name"), let hash = row.text(prefix + "password_hash")
        else { return nil }
        let administers = (row.integer(prefix + "is_admin") ?? 0) != 0
        let later = row.text(prefix + "later_role").flatMap(UserRole.init(rawValue:))
        return StoredUser(
            id: id, username: name, role: administers ? .admin : (later ?? role), displayName: display,
            passwordHash: hash,
            disabledAt: row.text(prefix + "disabled_at"))
    }
}
