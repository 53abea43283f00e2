import Foundation
import FieldTypes
import Models
import Storage

/// What one invocation runs with: the profile, the store (opened on first
/// use), the field-type registry built at the composition root, the output
/// style and the clock. Commands, the menu and the runner all receive it.
public final class AppContext {
    /// The status of this profile's work, and whether it has a saved session.
    public func status() throws(AppError) -> StatusSummary {
        let workspace = try workspace()
        var summary = try workspace.status()
        summary.signedIn = FileManager.default.fileExists(atPath: credentials.fileURL.path)
        if summary.signedIn, let saved = try? credentials.load() {
            (summary.actionsOpen, summary.actionsOverdue) = try workspace.actionCounts(assignedTo: saved.user.id)
        }
        return summary
    }

    /// Where the store, photos and credentials live: the core's own, so the
    /// programs above it reach the profile's files only through the context
    /// (`credentials`, `agentLock()`, `workspace()`).
    let profile: Profile
    /// The field types this build knows; built once at the composition root.
    public let registry: FieldTypeRegistry
    /// Terminal style for human output.
    public let style: TerminalStyle
    /// Machine output was asked for.
    public let json: Bool
    /// Whether standard input is a terminal.
    public let stdinIsTerminal: Bool
    /// The environment the program was started with.
    public let environment: [String: String]
    /// The device clock; diagnostic timestamps only, never ordering.
    public let now: @Sendable () -> Date

    private var openedStore: LocalStore?

    public init(
        profile: Profile, registry: FieldTypeRegistry, style: TerminalStyle, json: Bool,
        stdinIsTerminal: Bool, environment: [String: String], now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.profile = profile
        self.registry = registry
        self.style = style
        self.json = json
        self.stdinIsTerminal = stdinIsTerminal
        self.environment = environment
        self.now = now
    }

    /// The profile's store, created with its folders on first use.
    func store() throws(AppError) -> LocalStore {
        if let openedStore { return openedStore }
        do {
            try profile.createDirectories()
            let photoFiles = try PhotoFileStore(directory: profile.photosDirectory)
            let store = try LocalStore.open(at: profile.storePath, photoFiles: photoFiles)
            openedStore = store
            return store
        } catch {
            throw AppError(storage: error)
        }
    }

    /// Where this profile's session is kept.
    public var credentials: CredentialStore { CredentialStore(profile: profile) }

    /// The agent's lock on this profile, or exit 73 when another agent holds it.
    public func agentLock() throws(AppError) -> ProfileLock {
        try ProfileLock.agent(profileDirectory: profile.dataDirectory)
    }

    /// The whole inspection workflow over this context's store.
    public func workspace() throws(AppError) -> Workspace {
        let store = try store()
        let settings: Settings
        do { settings = try Settings.load(from: store) } catch { throw AppError(storage: error) }
        return Workspace(store: store, registry: registry, settings: settings, now: now)
    }
}

extension AppError {
    /// The app's reading of a Storage failure: same message, the CLI's exit code.
    init(storage error: StorageError) {
        switch error.code {
        case .notFound:
            self.init(code: .notFound, error.message, exitCode: ExitCode.notFound)
        case .notAllowed:
            self.init(code: .notAllowed, error.message, exitCode: ExitCode.blocked)
        case .photoCapExceeded:
            self.init(code: .photoCapExceeded, error.message, exitCode: ExitCode.blocked)
        case .newerStore:
            self.init(code: .storeTooNew, error.message, exitCode: ExitCode.failure)
        case .corruptStore:
            self.init(code: .storeCorrupt, error.message, exitCode: ExitCode.failure)
        case .diskFull:
            self.init(code: .diskFull, error.message, exitCode: ExitCode.failure)
        case .permission:
            self.init(code: .permission, error.message, exitCode: ExitCode.failure)
        default:
            // `.io`, `.busy`, and any failure the store's catalogue gains later.
            self.init(code: .storageError, error.message, exitCode: ExitCode.failure)
        }
    }
}
