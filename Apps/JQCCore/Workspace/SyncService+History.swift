import Foundation
import Models
import Storage
import Sync

/// The supervisor team view as shown: the server's roll-up, fresh or the
/// copy saved on this device the last time it was fetched.
public struct TeamView: Sendable, Equatable {
    /// The server's roll-up.
    public var rollup: Rollup
    /// Device time the roll-up was fetched, when this is the saved copy (nil when fresh).
    public var cachedAt: String?

    /// A fresh or saved team view.
    public init(rollup: Rollup, cachedAt: String? = nil) {
        self.rollup = rollup
        self.cachedAt = cachedAt
    }

    /// Whether this is the saved copy shown because the server could not be reached.
    public var isCached: Bool { cachedAt != nil }
}

/// History and the team roll-up (F11): read-only server views. History is
/// online only; the roll-up falls back to the copy saved at its last fetch.
/// Neither touches reports, photos or the sync queue.
extension SyncService {
    /// The meta key holding the last roll-up fetched, with who fetched it and when (device time).
    static let rollupCacheKey = "rollup_cache"

    /// One page of the server's completed inspections (the user's own; everyone's for a supervisor).
    /// Offline exits 75 (`HISTORY_REQUIRES_NETWORK`); signed out or an ended session exits 6.
    /// `filter` narrows it by facility, inspector, template and completion time (contract 1.1).
    public func history(limit: Int, offset: Int, filter: HistoryFilter = HistoryFilter()) async throws(AppError)
        -> HistoryPage
    {
        let saved = try signedInSession()
        let client = try sessionClient(saved)
        let result: Result<HistoryPage, APIError>
        do throws(APIError) {
            result = .success(try await client.history(limit: limit, offset: offset, filter: filter))
        } catch { result = .failure(error) }
        switch result {
        case .success(let page):
            return page
        case .failure(let error) where Self.isUnreachable(error):
            throw AppError(
                code: .historyRequiresNetwork, "History needs a connection; try again when online.",
                exitCode: ExitCode.temporary)
        case .failure(let error):
            throw AppError(api: error)
        }
    }

    /// The team roll-up: fetched and saved when the server answers; the saved
    /// copy of the same user when it cannot be reached; `ROLLUP_REQUIRES_NETWORK`
    /// (75) with no saved copy. An account that is not a supervisor is refused (5).
    public func teamView() async throws(AppError) -> TeamView {
        let saved = try signedInSession()
        let client = try sessionClient(saved)
        let result: Result<Rollup, APIError>
        do throws(APIError) { result = .success(try await client.rollup()) } catch { result = .failure(error) }
        let store = try context.store()
        switch result {
        case .success(let rollup):
            // A cache that cannot be written costs only the offline copy; the view is still shown.
            try? saveCache(rollup, userID: saved.user.id, store: store)
            return TeamView(rollup: rollup)
        case .failure(let error) where error.code == .forbidden:
            throw AppError.blocked(
                .rollupForbidden, "The team view is for supervisors; you are \(saved.user.signedInAs).")
        case .failure(let error) where Self.isUnreachable(error) || error.isTransient:
            if let cached = cachedView(userID: saved.user.id, store: store) { return cached }
            throw AppError(code: .rollupRequiresNetwork, "Team view needs a connection.", exitCode: ExitCode.temporary)
        case .failure(let error):
            throw AppError(api: error)
        }
    }

    /// The saved session, or `AUTH_REQUIRED` (6).
    func signedInSession() throws(AppError) -> CredentialStore.Saved {
        guard let saved = try credentials.load() else {
            throw AppError(
                code: .authRequired,
                "Sign in with 'jqc login --server URL --username NAME' first; nothing on this device was lost.",
                exitCode: ExitCode.authRequired)
        }
        return saved
    }

    /// A client for the saved session that keeps rotated tokens.
    func sessionClient(_ saved: CredentialStore.Saved) throws(AppError) -> APIClient {
        let store = credentials
        return try makeClient(
            serverURL: saved.serverURL, saved: saved,
            onChange: Self.keeping(in: store, serverURL: saved.serverURL, caFile: saved.caFile))
    }

    /// No answer from the server at all: no route, refused, timed out, or the connection broke.
    static func isUnreachable(_ error: APIError) -> Bool {
        error.code == .offline || error.code == .connectionLost
    }

    private struct CachedRollup: Codable {
        var userID: String
        var fetchedAt: String
        var rollup: Rollup

        enum CodingKeys: String, CodingKey {
            case rollup
            case userID = "user_id"
            case fetchedAt = "fetched_at"
        }
    }

    private func saveCache(_ rollup: Rollup, userID: String, store: LocalStore) throws {
        let fetchedAt = RFC3339.string(context.now())
        let data = try JSONEncoder().encode(CachedRollup(userID: userID, fetchedAt: fetchedAt, rollup: rollup))
        try store.setMeta(Self.rollupCacheKey, String(decoding: data, as: UTF8.self))
    }

    /// The saved roll-up, only when the same user fetched it (a shared device never shows another account's team).
    private func cachedView(userID: String, store: LocalStore) -> TeamView? {
        guard let text = try? store.meta(Self.rollupCacheKey),
            let cached = try? JSONDecoder().decode(CachedRollup.self, from: Data(text.utf8)),
            cached.userID == userID
        else { return nil }
        return TeamView(rollup: cached.rollup, cachedAt: cached.fetchedAt)
    }
}
