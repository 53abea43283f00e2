/// Roles a user can hold.
public enum UserRole: String, Sendable, Hashable, Codable, CaseIterable {
    case inspector
    case supervisor
    /// May do what a supervisor may, and administer the organisation's
    /// sites, assignments, templates and people (contract 1.1).
    case admin
    /// Does the work corrective actions ask for: reads reference data and
    /// the actions they may see, and updates them; sends no reports
    /// (contract 1.2).
    case crew
    /// A person of the organisation's customer: sees the facilities an
    /// admin named for them in the console, and requests service there;
    /// sends no reports (contract 1.2).
    case client

    /// Whether the role may read everyone's reports and decide on them.
    public var supervises: Bool { self == .supervisor || self == .admin }

    /// The role in a sentence: "an inspector", "a crew member".
    public var withArticle: String {
        switch self {
        case .inspector: "an inspector"
        case .supervisor: "a supervisor"
        case .admin: "an admin"
        case .crew: "a crew member"
        case .client: "a client"
        }
    }
}

/// A signed-in user as the server describes them.
public struct WireUser: Sendable, Hashable, Codable {
    public var id: String
    public var username: String
    public var role: UserRole
    public var displayName: String

    public init(id: String, username: String, role: UserRole, displayName: String) {
        self.id = id
        self.username = username
        self.role = role
        self.displayName = displayName
    }

    enum CodingKeys: String, CodingKey {
        case id, username, role
        case displayName = "display_name"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeID(forKey: .id)
        username = try c.decode(String.self, forKey: .username)
        role = try c.decode(UserRole.self, forKey: .role)
        displayName = try c.decodeIfPresent(String.self, forKey: .displayName) ?? username
    }
}

/// `POST /auth/login` body.
public struct LoginRequest: Sendable, Hashable, Codable {
    public var username: String
    public var password: String
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// `POST /auth/refresh` and `POST /auth/logout` body.
public struct RefreshRequest: Sendable, Hashable, Codable {
    public var refreshToken: String
    public init(refreshToken: String) { self.refreshToken = refreshToken }
    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// Login and refresh response data.
public struct TokenGrant: Sendable, Hashable, Codable {
    public var accessToken: String
    public var refreshToken: String
    /// Seconds the access token lives.
    public var expiresIn: Int
    public var user: WireUser

    public init(accessToken: String, refreshToken: String, expiresIn: Int, user: WireUser) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.user = user
    }

    enum CodingKeys: String, CodingKey {
        case user
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
    }
}

/// `GET /auth/me` response data.
public struct MeResponse: Sendable, Hashable, Codable {
    public var user: WireUser
    public init(user: WireUser) { self.user = user }
}
