import Foundation
import Models
import Storage
import Sync

/// The signed-in session on disk (F1): `credentials.json` in the profile's
/// credentials folder, mode 0600 in a 0700 folder, replaced atomically.
/// Never printed, never logged, never in `--json`.
public struct CredentialStore: Sendable {
    /// What is kept: where the server is, the tokens and who they belong to.
    public struct Saved: Sendable, Hashable, Codable {
        /// The server signed in to.
        public var serverURL: String
        /// The session's tokens and user.
        public var accessToken: String
        /// The refresh token (rotates at every refresh).
        public var refreshToken: String
        /// Who is signed in.
        public var user: WireUser
        /// A CA bundle given with `--cacert` at sign-in, used for every later request.
        public var caFile: String?

        /// Saved credentials.
        public init(serverURL: String, credentials: Credentials, caFile: String? = nil) {
            self.serverURL = serverURL
            self.caFile = caFile
            accessToken = credentials.accessToken
            refreshToken = credentials.refreshToken
            user = credentials.user
        }

        /// The tokens and user, for the API client.
        public var credentials: Credentials {
            Credentials(accessToken: accessToken, refreshToken: refreshToken, user: user)
        }

        enum CodingKeys: String, CodingKey {
            case user
            case serverURL = "server_url"
            case caFile = "ca_file"
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
        }

        /// Encodes the user too (WireUser decodes the contract's shape; this writes it back).
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(serverURL, forKey: .serverURL)
            try c.encode(accessToken, forKey: .accessToken)
            try c.encode(refreshToken, forKey: .refreshToken)
            try c.encodeIfPresent(caFile, forKey: .caFile)
            var user = c.nestedContainer(keyedBy: UserKeys.self, forKey: .user)
            try user.encode(self.user.id, forKey: .id)
            try user.encode(self.user.username, forKey: .username)
            try user.encode(self.user.role, forKey: .role)
            try user.encode(self.user.displayName, forKey: .displayName)
        }

        private enum UserKeys: String, CodingKey {
            case id, username, role
            case displayName = "display_name"
        }
    }

    /// The profile whose credentials these are.
    public let profile: Profile

    /// The credentials of a profile.
    public init(profile: Profile) {
        self.profile = profile
    }

    /// The folder holding the file.
    public var directory: URL { profile.credentialsDirectory }

    /// `credentials.json` in the folder.
    public var fileURL: URL { directory.appendingPathComponent("credentials.json") }

    /// The saved session, or nil when signed out. A file that cannot be read counts as signed out.
    public func load() -> Saved? {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return nil }
        return try? JSONDecoder().decode(Saved.self, from: data)
    }

    /// Writes the session: a 0600 temporary file in the 0700 folder, renamed over the old one.
    public func save(_ saved: Saved) throws(AppError) {
        do {
            try profile.createDirectories()
        } catch {
            throw AppError(storage: error)
        }
        let data: Data
        do { data = try JSONEncoder().encode(saved) } catch {
            throw AppError.failure("CREDENTIALS_WRITE_FAILED", "The sign-in could not be saved; sign in again.")
        }
        let temporary = directory.appendingPathComponent(".credentials-\(UUID().uuidString).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw AppError.failure("CREDENTIALS_WRITE_FAILED", "The sign-in could not be saved in '\(directory.path)' (\(String(cString: strerror(errno)))).")
        }
        let written = data.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return write(fd, base, buffer.count)
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, rename(temporary, fileURL.path) == 0 else {
            unlink(temporary)
            throw AppError.failure("CREDENTIALS_WRITE_FAILED", "The sign-in could not be saved in '\(directory.path)'; check free space and permissions.")
        }
    }

    /// Deletes the file; signed out. Reports and photos are untouched.
    public func delete() {
        unlink(fileURL.path)
    }
}
