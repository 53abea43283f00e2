import Foundation
import Models
import Storage
import Sync

/// What `jqc status` and the status line show: the state of this device's work.
public struct StatusSummary: Sendable, Hashable {
    /// Whether the last network attempt reached the server (no polling: the outcome of the last try).
    public var online: Bool
    public var drafts: Int
    public var pending: Int
    public var conflicts: Int
    public var rejected: Int
    /// PENDING reports whose automatic retries reached the ceiling: a person should run 'jqc retry'.
    public var needsAttention: Int
    public var photosPending: Int
    public var photosFailed: Int
    /// RFC 3339 time of the last finished sync, if any.
    public var lastSyncAt: String?
    /// False when the server's minimum app version is above this one.
    public var appVersionSupported: Bool
    /// False when this profile has no saved session: nothing can sync until someone signs in.
    public var signedIn = true
    /// Reports a supervisor returned for changes that are not sent again yet (contract 1.1's review).
    public var returned = 0
    /// Actions assigned to the signed-in person, open or in progress, and those of them overdue (contract 1.2).
    public var actionsOpen = 0
    public var actionsOverdue = 0

    /// The persistent one-line status (docs/user-guide.md, "The home menu").
    public var line: String {
        var parts = [
            signedIn ? (online ? "online" : "offline") : "not signed in", "\(pending) pending",
            "\(conflicts) conflict\(conflicts == 1 ? "" : "s")",
            "\(rejected + needsAttention) failed",
        ]
        if returned > 0 { parts.append("\(returned) returned for changes") }
        if actionsOpen > 0 {
            parts.append(
                "\(actionsOpen) action\(actionsOpen == 1 ? "" : "s") to do"
                    + (actionsOverdue > 0 ? " (\(actionsOverdue) overdue)" : ""))
        }
        if !appVersionSupported { parts.append("update required") }
        return parts.joined(separator: " · ")
    }

    /// The `status --json` document.
    public var json: JSONValue {
        [
            "online": .bool(online),
            "signed_in": .bool(signedIn),
            "drafts": .integer(Int64(drafts)),
            "pending": .integer(Int64(pending)),
            "conflicts": .integer(Int64(conflicts)),
            "rejected": .integer(Int64(rejected)),
            "needs_attention": .integer(Int64(needsAttention)),
            "photos_pending": .integer(Int64(photosPending)),
            "photos_failed": .integer(Int64(photosFailed)),
            "last_sync_at": lastSyncAt.map { .string($0) } ?? .null,
            "app_version_supported": .bool(appVersionSupported),
            "returned": .integer(Int64(returned)),
            "actions_open": .integer(Int64(actionsOpen)),
            "actions_overdue": .integer(Int64(actionsOverdue)),
        ]
    }
}

extension Workspace {
    /// Counts this device's work by state.
    public func status(policy: RetryPolicy = RetryPolicy()) throws(AppError) -> StatusSummary {
        try storage { () throws(StorageError) -> StatusSummary in
            // Counted by the store: status runs before every cycle and after every command.
            let counts = try store.reportCounts()
            var supported = true
            if let text = try store.meta(MetaKey.minAppVersion), let minimum = SemanticVersion(text),
                let current = SemanticVersion(AppVersion.current)
            {
                supported = current >= minimum
            }
            return StatusSummary(
                online: try store.meta(MetaKey.online) == "true",
                drafts: counts[.draft] ?? 0,
                pending: counts[.pending] ?? 0,
                conflicts: counts[.conflict] ?? 0,
                rejected: counts[.rejected] ?? 0,
                needsAttention: try store.pendingCount(failedAtLeast: policy.attemptCeiling),
                photosPending: try store.photoCount(uploadState: .pending),
                photosFailed: try store.photoCount(uploadState: .failed),
                lastSyncAt: try store.meta(MetaKey.lastSyncAt),
                appVersionSupported: supported,
                returned: try store.returnedCount())
        }
    }
}

extension Workspace {
    /// The PENDING reports alone, for the agent's log: counted by state, without the
    /// rest of `status` (which reads every PENDING report's attempts for `needsAttention`).
    public func pendingCount() throws(AppError) -> Int {
        try storage { () throws(StorageError) -> Int in try store.reportCounts()[.pending] ?? 0 }
    }
}

extension Workspace {
    /// The agent's cycles on this profile and when one last finished against the server.
    public func agentCycles() throws(AppError) -> (cycles: Int64, lastSuccess: Date?) {
        let cycles = try storage { () throws(StorageError) in try store.meta(MetaKey.agentCycles) }
        let last = try storage { () throws(StorageError) in try store.meta(MetaKey.agentLastSuccess) }
        return (Int64(cycles ?? "0") ?? 0, last.flatMap(Double.init).map(Date.init(timeIntervalSince1970:)))
    }

    /// Counts one agent cycle (and its finish time when it reached the server); returns the totals.
    public func countAgentCycle(succeededAt: Date?) throws(AppError) -> (cycles: Int64, lastSuccess: Date?) {
        let cycles = try storage { () throws(StorageError) in try store.incrementCounter(MetaKey.agentCycles) }
        if let succeededAt {
            try storage { () throws(StorageError) in
                try store.setMeta(MetaKey.agentLastSuccess, String(Int64(succeededAt.timeIntervalSince1970)))
            }
        }
        return (cycles, try agentCycles().lastSuccess)
    }
}
