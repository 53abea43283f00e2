import Foundation
import Models
import Networking
import Storage
import Sync

/// Sign-in and sync for the commands: the API client built from the saved
/// session (tokens rotated by a refresh are saved at once), and one sync
/// cycle run to the end. The only place the app reaches the server.
public struct SyncService {
    /// The invocation's context.
    public let context: AppContext
    /// A CA bundle to trust instead of the system's (`--cacert`).
    public let caFile: String?

    /// A service for one invocation.
    public init(context: AppContext, caFile: String? = nil) {
        self.context = context
        self.caFile = caFile
    }

    /// Where the session is kept.
    public var credentials: CredentialStore { context.credentials }

    /// Signs in and saves the session; returns the user. Wrong credentials exit 6.
    public func login(serverURL: String, username: String, password: String) async throws(AppError) -> WireUser {
        let store = credentials
        let ca = caFile
        let client = try makeClient(
            serverURL: serverURL, saved: nil, onChange: Self.keeping(in: store, serverURL: serverURL, caFile: ca))
        let result: Result<Credentials, APIError>
        do throws(APIError) {
            result = .success(try await client.login(username: username, password: password))
        } catch { result = .failure(error) }
        switch result {
        case .success(let granted):
            // Kept by the client's callback, which failed the sign-in if it could not.
            // Signing in reached the server: the status line says online until an attempt fails.
            let local = try context.store()
            do throws(StorageError) { try local.setMeta(MetaKey.online, "true") } catch {
                throw AppError(storage: error)
            }
            return granted.user
        case .failure(let error):
            throw AppError(api: error)
        }
    }

    /// Revokes the refresh token (best effort) and deletes the saved session.
    /// Returns whether the server was told. Reports, photos and issues stay.
    public func logout() async throws(AppError) -> (signedIn: Bool, serverTold: Bool) {
        let store = credentials
        guard let saved = try store.load() else { return (false, false) }
        defer { store.delete() }
        guard
            let client = try? makeClient(serverURL: saved.serverURL, saved: saved, onChange: { _ throws(APIError) in })
        else {
            return (true, false)
        }
        do throws(APIError) { try await client.logout() } catch { return (true, false) }
        return (true, true)
    }

    /// Runs one sync cycle with the saved session, after any cycle already
    /// running on this profile has finished (`waitingForOtherSync` is called
    /// once if it has to wait).
    /// `askedByPerson`: `jqc sync` (reports in backoff are due now); the agent leaves it false.
    public func sync(
        askedByPerson: Bool = false, waitingForOtherSync: () -> Void = {},
        progress: @escaping @Sendable (SyncProgress) -> Void
    ) async throws(AppError) -> SyncSummary {
        let store = credentials
        guard let saved = try store.load() else {
            throw AppError(
                code: .authRequired,
                "Sign in with 'jqc login --server URL --username NAME' first; nothing on this device was lost.",
                exitCode: ExitCode.authRequired)
        }
        let local = try context.store()
        let settings = try context.workspace().settings
        let lock = try await ProfileLock.syncCycle(
            profileDirectory: context.profile.dataDirectory, waiting: waitingForOtherSync)
        defer { withExtendedLifetime(lock) {} }
        let client = try makeClient(
            serverURL: saved.serverURL, saved: saved,
            onChange: Self.keeping(in: store, serverURL: saved.serverURL, caFile: saved.caFile))
        let engine = SyncEngine(
            store: local, client: client,
            configuration: .init(
                retentionDays: settings.retentionDays, appVersion: AppVersion.current,
                askedByPerson: askedByPerson),
            progress: progress)
        let now = context.now()
        let result: Result<SyncSummary, StorageError>
        do throws(StorageError) { result = .success(try await engine.run(now: now)) } catch { result = .failure(error) }
        switch result {
        case .success(var summary):
            // Templates the cycle brought: drafts on an older version move onto the newest,
            // all of a template in one transaction (PENDING reports upload as they were completed).
            summary.moved = try context.workspace().moveDraftsToNewestVersions()
            return summary
        case .failure(let error): throw AppError(storage: error)
        }
    }

    /// Keeps tokens the server granted or rotated in `store`, at once. A
    /// failed save is an error of the request that brought them (the old
    /// refresh token is spent): the person is told now, with what to do.
    public static func keeping(in store: CredentialStore, serverURL: String, caFile: String?) -> APIClient.TokensChanged
    {
        { new throws(APIError) in
            guard let new else { return }
            do throws(AppError) {
                try store.save(.init(serverURL: serverURL, credentials: new, caFile: caFile))
            } catch {
                throw APIError(
                    .sessionNotSaved,
                    "The server renewed this device's sign-in but it could not be kept: \(error.message) Fix that, then sign in again with 'jqc login'; nothing on this device was lost."
                )
            }
        }
    }

    /// The API client for a server, over libcurl; `onChange` keeps rotated tokens.
    func makeClient(
        serverURL: String, saved: CredentialStore.Saved?,
        onChange: @escaping APIClient.TokensChanged
    ) throws(AppError) -> APIClient {
        let deviceID: UUID
        let local = try context.store()
        do throws(StorageError) { deviceID = try local.deviceID() } catch { throw AppError(storage: error) }
        let transport = CurlTransport(
            options: .init(
                caCertificatePath: caFile ?? saved?.caFile,
                userAgent: "jqc/\(AppVersion.current)"))
        do throws(APIError) {
            return try APIClient(
                configuration: .init(serverURL: serverURL, appVersion: AppVersion.current, deviceID: deviceID),
                transport: transport, credentials: saved?.credentials, onTokensChanged: onChange)
        } catch {
            throw AppError.usage(error.message)
        }
    }
}

extension AppError {
    /// The app's reading of an API failure: sign in again (6), try later (75), or a failure (1).
    public init(api error: APIError) {
        switch error.code {
        case .authRequired:
            self.init(code: .authRequired, error.message, exitCode: ExitCode.authRequired)
        case .sessionNotSaved:
            self.init(code: .sessionNotSaved, error.message, exitCode: ExitCode.authRequired)
        case .offline, .connectionLost, .rateLimited, .unavailable, .storageFull, .serverError:
            self.init(code: .serverUnavailable, error.message, exitCode: ExitCode.temporary)
        default:
            self.init(code: Code(carrying: error.code.rawValue), error.message, exitCode: ExitCode.failure)
        }
    }
}
