import FieldTypes
import Foundation
import Models
import ServerStore

/// People: inspectors, supervisors and admins; disabled ones keep their
/// reports but can neither sign in nor use a token they hold.
extension Administration {
    /// The shortest password accepted, in characters (SECURITY.md says why).
    static let shortestPassword = 10

    /// What a change of a user sets; nil leaves a value as it is.
    struct UserChange: Sendable {
        var role: UserRole?
        var displayName: String?
        /// A new password: the user is signed out everywhere.
        var password: String?
        /// Disable (true) or enable (false) them.
        var disabled: Bool?
        /// For a client, exactly the facilities they may see.
        var facilities: [String]?
    }

    func users() throws(ServerError) -> [StoredUser] {
        try store.read { try $0.allUsers() }
    }

    /// Every user, each client with the facilities they see (nil for every other role), read together.
    func usersAndFacilities() throws(ServerError) -> [(user: StoredUser, facilities: [String]?)] {
        try store.read { session in
            try session.allUsers().map { (user) throws(ServerError) in
                (user, user.role == .client ? try session.clientFacilities(userID: user.id) : nil)
            }
        }
    }

    /// Adds a user; 409 when the user name is taken: an existing user is
    /// never reset here (their role and name change with `user update`,
    /// their password with `user set-password`).
    func addUser(
        username rawName: String, password: String, role: UserRole, displayName: String?, facilities: [String] = [],
        by actor: AdminActor
    ) throws(ServerError) -> StoredUser {
        try Self.checkFacilities(facilities, role: role)
        let username = try Self.username(rawName)
        let name = try AdminInput.text(displayName ?? username, "the display name", limit: 120)
        let hash = try Self.hash(password)
        return try change(by: actor) { session, events in
            try session.lockUsers()
            guard try session.user(username: username) == nil else {
                throw ServerError.conflict(
                    "user '\(username)' exists already; change them with 'user update', their password with 'user set-password'"
                )
            }
            let key = Self.nameKey(username)
            if let twin = try session.allUsers().first(where: { Self.nameKey($0.username) == key }) {
                throw ServerError.conflict(
                    "the user name '\(username)' reads the same as the existing '\(twin.username)'; choose another")
            }
            let id = "U-" + UUID().uuidString.prefix(8).lowercased()
            try session.upsertUser(id: id, username: username, passwordHash: hash, role: role, displayName: name)
            try events.record(
                "user.added", id,
                ["username": .string(username), "role": .string(role.rawValue), "display_name": .string(name)])
            if role == .client { try Self.name(facilities, forClient: id, in: session, events: events) }
            return StoredUser(id: id, username: username, role: role, displayName: name, passwordHash: hash)
        }
    }

    /// Changes a user's role, display name and password, and disables or
    /// enables them, all in one transaction after every value is checked:
    /// one refusal changes nothing. A role takes effect on their next request.
    /// `who` is a user name or id, or with `byID` an id only (see `user(_:byID:in:)`).
    func updateUser(_ who: String, _ edit: UserChange, byID: Bool = false, by actor: AdminActor) throws(ServerError)
        -> StoredUser
    {
        let name = try edit.displayName.map { (text) throws(ServerError) in
            try AdminInput.text(text, "the display name", limit: 120)
        }
        let hash = try edit.password.map { (text) throws(ServerError) in try Self.hash(text) }
        return try change(by: actor) { session, events in
            try session.lockUsers()
            guard var user = try Self.user(who, byID: byID, in: session) else {
                throw ServerError.notFound("no user '\(who.prefix(60))'; add them with 'admin user add'")
            }
            try Self.refuseOwn(edit, of: user, by: actor)
            let wasAdmin = user.role == .admin && !user.isDisabled
            var detail: [String: JSONValue] = [:]
            if let role = edit.role, role != user.role { user.role = role; detail["role"] = .string(role.rawValue) }
            if let name, name != user.displayName { user.displayName = name; detail["display_name"] = .string(name) }
            if let hash { user.passwordHash = hash }
            if !detail.isEmpty || hash != nil {
                try session.upsertUser(
                    id: user.id, username: user.username, passwordHash: user.passwordHash, role: user.role,
                    displayName: user.displayName)
            }
            if !detail.isEmpty { try events.record("user.changed", user.id, .object(detail)) }
            if hash != nil {
                try session.revokeSessions(userID: user.id, now: now())
                try events.record("user.password_set", user.id, ["username": .string(user.username)])
            }
            if let facilities = edit.facilities {
                try Self.checkFacilities(facilities, role: user.role)
                try Self.name(facilities, forClient: user.id, in: session, events: events)
            }
            if let disabled = edit.disabled, user.isDisabled != disabled {
                user.disabledAt = disabled ? events.at : nil
                try session.setUserDisabled(id: user.id, at: user.disabledAt)
                if disabled { try session.revokeSessions(userID: user.id, now: now()) }
                try events.record(
                    disabled ? "user.disabled" : "user.enabled", user.id, ["username": .string(user.username)])
            }
            if wasAdmin && (user.role != .admin || user.isDisabled) { try Self.keepAnAdmin(in: session) }
            return user
        }
    }

    /// Changes a user's role or display name; takes effect on their next request.
    func changeUser(
        _ who: String, role: UserRole?, displayName: String?, byID: Bool = false, by actor: AdminActor
    ) throws(ServerError) -> StoredUser {
        try updateUser(who, UserChange(role: role, displayName: displayName), byID: byID, by: actor)
    }

    /// Disables a user and ends every session of theirs at once, on every
    /// instance (each request reads the account), or enables them again.
    func setUserDisabled(_ who: String, disabled: Bool, byID: Bool = false, by actor: AdminActor)
        throws(ServerError) -> StoredUser
    {
        try updateUser(who, UserChange(disabled: disabled), byID: byID, by: actor)
    }

    /// Sets a password and signs the user out everywhere.
    func setPassword(_ who: String, password: String, byID: Bool = false, by actor: AdminActor)
        throws(ServerError) -> StoredUser
    {
        try updateUser(who, UserChange(password: password), byID: byID, by: actor)
    }

    // MARK: Checks

    /// 409 when an admin would take the admin role from themselves or disable their own account.
    static func refuseOwn(_ edit: UserChange, of user: StoredUser, by actor: AdminActor) throws(ServerError) {
        guard user.id == actor.id else { return }
        if let role = edit.role, role != .admin {
            throw ServerError.conflict(
                "you cannot take the admin role from yourself; another admin, or 'jqc-server admin', can")
        }
        if edit.disabled == true { throw ServerError.conflict("you cannot disable your own account") }
    }

    /// 409 when no enabled admin is left: read in the writing transaction,
    /// after `lockUsers`, so two admins demoting each other at once cannot both succeed.
    static func keepAnAdmin(in session: any StorageSession) throws(ServerError) {
        guard try session.users(role: .admin).contains(where: { !$0.isDisabled }) else {
            throw ServerError.conflict(
                "that would leave no enabled admin; make another user an admin first")
        }
    }

    static func username(_ value: String) throws(ServerError) -> String {
        let name = value.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw ServerError.badRequest("the user name must not be empty") }
        guard name.utf8.count <= AuthRoutes.longestUsername else {
            throw ServerError.badRequest("the user name is longer than \(AuthRoutes.longestUsername) bytes")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) else {
            throw ServerError.badRequest("the user name '\(name.prefix(40))' holds a space or a control character")
        }
        guard
            !name.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .format || $0.properties.isDefaultIgnorableCodePoint
                    || $0.properties.isWhitespace
            })
        else {
            throw ServerError.badRequest(
                "the user name '\(name.prefix(40))' holds an invisible character (zero-width, format or a space)")
        }
        let scripts = Set(name.precomposedStringWithCompatibilityMapping.unicodeScalars.compactMap(script))
        guard scripts.count <= 1 else {
            throw ServerError.badRequest(
                "the user name '\(name.prefix(40))' mixes letters of \(scripts.sorted().joined(separator: " and ")); use one script"
            )
        }
        guard !isUserID(name) else {
            throw ServerError.badRequest(
                "the user name '\(name.prefix(40))' has the form of a user id (U-...); choose a name without 'U-' first"
            )
        }
        return name
    }

    /// What two user names that read the same share: NFKC, case folded
    /// (upper then lower case, so `ß` meets `ss`), NFKC again. Two users may not share it.
    static func nameKey(_ name: String) -> String {
        name.precomposedStringWithCompatibilityMapping.uppercased().lowercased()
            .precomposedStringWithCompatibilityMapping
    }

    /// The script of a letter, among those whose letters look alike
    /// (Latin, Greek, Cyrillic, Armenian, Cherokee; "another" for the rest); nil for what is no letter.
    static func script(_ scalar: Unicode.Scalar) -> String? {
        guard scalar.properties.isAlphabetic else { return nil }
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF,
            0xAB30...0xAB6F:
            return "Latin"
        case 0x370...0x3FF, 0x1F00...0x1FFF: return "Greek"
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return "Cyrillic"
        case 0x530...0x58F: return "Armenian"
        case 0x13A0...0x13FF, 0xAB70...0xABBF: return "Cherokee"
        default: return "another script"
        }
    }

    /// The argon2id hash of a password that is long enough and more than whitespace.
    static func hash(_ password: String) throws(ServerError) -> String {
        guard password.contains(where: { !$0.isWhitespace }) else {
            throw ServerError.badRequest("the password must be more than spaces and other whitespace")
        }
        guard password.count >= shortestPassword else {
            throw ServerError.badRequest("the password must be at least \(shortestPassword) characters long")
        }
        guard password.utf8.count <= AuthRoutes.longestPassword else {
            throw ServerError.badRequest("the password is longer than \(AuthRoutes.longestPassword) bytes")
        }
        guard PasswordHasher.prepare(), let hash = PasswordHasher.hash(password) else {
            throw ServerError.internal("could not hash the password")
        }
        return hash
    }

    /// Facilities are named for clients only, and a client needs at least one.
    static func checkFacilities(_ facilities: [String], role: UserRole) throws(ServerError) {
        if role == .client && facilities.isEmpty {
            throw ServerError.badRequest(
                "a client needs the facilities they may see: give --facility ID (repeat it for more)")
        }
        if role != .client && !facilities.isEmpty {
            throw ServerError.badRequest(
                "only a client is limited to facilities; \(role.withArticle) sees what the role allows")
        }
    }

    /// Names exactly `facilities` for the client `userID`: each must exist (404 naming it).
    static func name(
        _ facilities: [String], forClient userID: String, in session: any StorageSession, events: EventRecorder
    ) throws(ServerError) {
        for id in facilities where try !session.facilityExists(id) {
            throw ServerError.notFound("no facility \(OneLine.quote(id, limit: 60)); add it with 'admin facility add'")
        }
        try session.setClientFacilities(userID: userID, facilities)
        try events.record("user.facilities", userID, ["facilities": .array(facilities.map(JSONValue.string))])
    }

    /// The facilities named for a client; empty for anyone else.
    func clientFacilities(_ user: StoredUser) throws(ServerError) -> [String] {
        guard user.role == .client else { return [] }
        return try store.read { try $0.clientFacilities(userID: user.id) }
    }
}
