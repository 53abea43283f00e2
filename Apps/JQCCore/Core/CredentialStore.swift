import Foundation
import Models
import ProgramOutput
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

    /// The saved session, or nil when signed out (no file, or a file that is
    /// not a saved session). A file that is there but cannot be read is an
    /// I/O error, not a signed-out profile: signing in again would not help.
    public func load() throws(AppError) -> Saved? {
        let path = fileURL.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw Self.unreadable(path, code)
        }
        defer { close(descriptor) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        var transient = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: chunk[0..<count])
                guard data.count <= Self.largestFile else { return nil }
                transient = 0
            } else if count == 0 {
                break
            } else if (errno == EINTR || errno == EAGAIN) && transient < 100 {
                transient += 1
            } else {
                throw Self.unreadable(path, errno)
            }
        }
        return try? JSONDecoder().decode(Saved.self, from: data)
    }

    /// A saved session is a few hundred bytes; anything far larger is not one.
    private static let largestFile = 1 << 20

    private static func unreadable(_ path: String, _ code: Int32) -> AppError {
        AppError.failure(
            .credentialsUnreadable,
            "Cannot read the sign-in at '\(path)' (\(String(cString: strerror(code)))); check the disk and the file's permissions. Nothing on this device was lost."
        )
    }

    /// Writes the session: a 0600 temporary file in the 0700 folder, flushed
    /// and renamed over the old one; a failure leaves the old one as it was.
    public func save(_ saved: Saved) throws(AppError) {
        do {
            try profile.createDirectories()
        } catch {
            throw AppError(storage: error)
        }
        let data: Data
        do { data = try JSONEncoder().encode(saved) } catch {
            throw AppError.failure(.credentialsWriteFailed, "The sign-in could not be saved; sign in again.")
        }
        do throws(OutputError) {
            try AtomicFile.replace(fileURL.path, with: Array(data), mode: 0o600)
        } catch {
            throw AppError.failure(
                .credentialsWriteFailed,
                "The sign-in could not be saved in '\(directory.path)' (\(error.reason)); check free space and permissions."
            )
        }
    }

    /// Deletes the file; signed out. Reports and photos are untouched.
    public func delete() {
        unlink(fileURL.path)
    }
}
