import Foundation
import Models
import SQLite

/// A person's change of an action, or a new action, waiting for the next
/// sync (or refused by the server, kept so the person sees why).
public struct QueuedActionChange: Sendable, Hashable {
    /// What is to be sent.
    public enum Content: Sendable, Hashable {
        /// `POST /actions`.
        case new(WireNewAction)
        /// `POST /actions/{id}/updates`.
        case update(actionID: String, WireActionChange)
    }

    /// Its place in the queue: changes are sent in this order.
    public var seq: Int64
    public var content: Content
    /// When it was queued, by the device's clock.
    public var queuedAt: Date
    /// Why the server refused it; nil while it waits.
    public var refusal: String?

    /// A queued change.
    public init(seq: Int64, content: Content, queuedAt: Date, refusal: String? = nil) {
        self.seq = seq
        self.content = content
        self.queuedAt = queuedAt
        self.refusal = refusal
    }

    /// The id that makes it count once on the server.
    public var requestID: UUID {
        switch content {
        case .new(let action): action.id
        case .update(_, let change): change.id
        }
    }

    /// The action it changes; nil for a new one.
    public var actionID: String? {
        if case .update(let id, _) = content { return id }
        return nil
    }
}

/// Corrective actions (contract 1.2) on this device: what the server last
/// sent of each action this person may see, pulled by the sync cycle, and
/// the changes made here, queued until the server records them. A queued
/// change survives a killed program and is sent exactly once: the server
/// records an id once, and the store forgets a change only in the
/// transaction that stores the server's answer to it.
extension LocalStore {
    /// Queues a change of an action, to send at the next sync.
    public func queueActionChange(_ change: WireActionChange, on actionID: String, at date: Date) throws(StorageError) {
        try queue(kind: "update", requestID: change.id, actionID: actionID, body: try Self.json(change), at: date)
    }

    /// Queues a new action, to send at the next sync.
    public func queueNewAction(_ action: WireNewAction, at date: Date) throws(StorageError) {
        try queue(kind: "new", requestID: action.id, actionID: nil, body: try Self.json(action), at: date)
    }

    private func queue(kind: String, requestID: UUID, actionID: String?, body: String, at date: Date)
        throws(StorageError)
    {
        try write { db throws(StorageError) in
            _ = try db.run(
                "INSERT INTO action_outbox (request_id, action_id, kind, body, queued_at) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(requestID.uuidString.lowercased()), SQLValue(actionID), .text(kind), .text(body),
                    SQLValue(date),
                ])
        }
    }

    /// The queued changes in the order they were made; refused ones too when asked.
    public func queuedActionChanges(includingRefused: Bool = false) throws(StorageError) -> [QueuedActionChange] {
        try read { db throws(StorageError) in
            try db.rows(
                """
                SELECT seq, action_id, kind, body, queued_at, refusal FROM action_outbox
                \(includingRefused ? "" : "WHERE refusal IS NULL") ORDER BY seq
                """
            ).compactMap(Self.queuedChange)
        }
    }

    /// The server recorded a queued change: it leaves the queue and the
    /// action it answered is kept, in one transaction.
    public func actionChangeSent(_ seq: Int64, answer: WireAction) throws(StorageError) {
        try write { db throws(StorageError) in
            _ = try db.run("DELETE FROM action_outbox WHERE seq = ?", [.integer(seq)])
            try Self.keep(answer, db)
        }
    }

    /// The server refused a queued change: it stays, marked with why, and is
    /// never sent again; the action as the server now holds it is kept, and
    /// `comment` (the words of a move the action's state no longer allowed)
    /// is queued as a comment of its own, so nothing the person wrote is lost.
    public func actionChangeRefused(
        _ seq: Int64, reason: String, current: WireAction?, keeping comment: WireActionChange?, at date: Date
    ) throws(StorageError) {
        try write { db throws(StorageError) in
            let requestID = try db.firstRow("SELECT request_id FROM action_outbox WHERE seq = ?", [.integer(seq)])?[0]
                .stringValue
            _ = try db.run("UPDATE action_outbox SET refusal = ? WHERE seq = ?", [.text(reason), .integer(seq)])
            if let current { try Self.keep(current, db) }
            var kept = comment
            if kept == nil, current != nil, let requestID,
                try db.firstRow(
                    "SELECT 1 FROM action_photos WHERE request_id = ? AND state = 'pending'", [.text(requestID)]) != nil
            {
                // Photos of a move the action no longer allowed go as a comment of their own.
                kept = WireActionChange(id: UUID(), comment: Self.photosKeptComment)
            }
            if let kept, let actionID = current?.id {
                _ = try db.run(
                    "INSERT INTO action_outbox (request_id, action_id, kind, body, queued_at) VALUES (?, ?, 'update', ?, ?)",
                    [
                        .text(kept.id.uuidString.lowercased()), .text(actionID), .text(try Self.json(kept)),
                        SQLValue(date),
                    ])
            }
            if let requestID {
                try Self.movePhotos(of: requestID, to: current == nil ? nil : kept?.id, reason: reason, db)
            }
        }
    }

    /// The words of the comment that carries the photos of a refused move which had none.
    public static let photosKeptComment = "Photos of a change the action's state no longer allowed."

    /// Stores one page of `GET /actions` and the cursor after it in one transaction.
    public func recordActions(_ actions: [WireAction], cursor: String) throws(StorageError) {
        try write { db throws(StorageError) in
            for action in actions { try Self.keep(action, db) }
            try Self.setMeta(MetaKey.actionsCursor, cursor, db)
        }
    }

    /// Forgets the actions cursor: the next pull starts from the beginning.
    public func dropActionsCursor() throws(StorageError) {
        try setMeta(MetaKey.actionsCursor, nil)
    }

    /// Every action held, the soonest due first (none due last), then by id.
    public func heldActions() throws(StorageError) -> [WireAction] {
        try read { db throws(StorageError) in
            try db.rows("SELECT body FROM actions ORDER BY (due_at IS NULL), due_at, id").compactMap(Self.action)
        }
    }

    /// The held actions made from the report the server knows as `serverID`, in the order they were made.
    public func heldActions(reportServerID serverID: String) throws(StorageError) -> [WireAction] {
        try read { db throws(StorageError) in
            try db.rows("SELECT body FROM actions WHERE report_server_id = ? ORDER BY rowid", [.text(serverID)])
                .compactMap(Self.action)
        }
    }

    /// The held actions whose id, without its `A-`, starts with `prefix` (any case); at most `limit`.
    public func heldActions(idStartingWith prefix: String, limit: Int = 100) throws(StorageError) -> [WireAction] {
        let escaped = prefix.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        return try read { db throws(StorageError) in
            try db.rows(
                "SELECT body FROM actions WHERE lower(substr(id, 3)) LIKE ? ESCAPE '\\' ORDER BY id LIMIT ?",
                [.text(escaped + "%"), .integer(Int64(limit))]
            ).compactMap(Self.action)
        }
    }

    /// The held action `id`.
    public func heldAction(id: String) throws(StorageError) -> WireAction? {
        try read { db throws(StorageError) in
            try db.firstRow("SELECT body FROM actions WHERE id = ?", [.text(id)]).flatMap(Self.action)
        }
    }

    // MARK: Rows

    /// Keeps `action` unless the one held is newer (a page pulled again may bring an older version).
    private static func keep(_ action: WireAction, _ db: StoreDatabase) throws(StorageError) {
        if let held = try db.firstRow("SELECT body FROM actions WHERE id = ?", [.text(action.id)]).flatMap(Self.action),
            held.version > action.version
        {
            return
        }
        _ = try db.run(
            """
            INSERT INTO actions (id, body, state, facility_id, assignee_id, due_at, report_server_id, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET body = excluded.body, state = excluded.state,
                facility_id = excluded.facility_id, assignee_id = excluded.assignee_id, due_at = excluded.due_at,
                report_server_id = excluded.report_server_id, updated_at = excluded.updated_at
            """,
            [
                .text(action.id), .text(try json(action)), .text(action.state.rawValue), .text(action.facilityID),
                SQLValue(action.assignee?.id), SQLValue(action.dueAt), SQLValue(action.source.reportServerID),
                .text(action.updatedAt),
            ])
    }

    private static func action(_ row: Row) -> WireAction? {
        guard let text = row["body"].stringValue else { return nil }
        return try? JSONDecoder().decode(WireAction.self, from: Data(text.utf8))
    }

    private static func queuedChange(_ row: Row) -> QueuedActionChange? {
        guard let seq = row["seq"].int64Value, let body = row["body"].stringValue.map({ Data($0.utf8) }) else {
            return nil
        }
        let content: QueuedActionChange.Content
        if row["kind"].stringValue == "new" {
            guard let action = try? JSONDecoder().decode(WireNewAction.self, from: body) else { return nil }
            content = .new(action)
        } else {
            guard let id = row["action_id"].stringValue,
                let change = try? JSONDecoder().decode(WireActionChange.self, from: body)
            else { return nil }
            content = .update(actionID: id, change)
        }
        return QueuedActionChange(
            seq: seq, content: content,
            queuedAt: Date(timeIntervalSince1970: row["queued_at"].doubleValue ?? 0),
            refusal: row["refusal"].stringValue)
    }

    /// A value as the store keeps it: JSON with sorted keys.
    static func json(_ value: some Encodable) throws(StorageError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else {
            throw StorageError(.corruptStore, "an action could not be written as JSON")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

extension LocalStore {
    /// Whether this device holds the report the server knows as `serverID` (an inspector's own report).
    public func hasReport(serverID: String) throws(StorageError) -> Bool {
        try read { db throws(StorageError) in
            try db.firstRow("SELECT 1 AS found FROM reports WHERE server_id = ?", [.text(serverID)]) != nil
        }
    }
}

extension LocalStore {
    /// How many held actions assigned to `assigneeID` are open or in progress, and
    /// how many of those were due before `now`: counted by the store, as status runs often.
    public func actionCounts(assigneeID: String, now: Date) throws(StorageError) -> (open: Int, overdue: Int) {
        try read { db throws(StorageError) in
            let row = try db.firstRow(
                """
                SELECT COUNT(*) AS open, COALESCE(SUM(due_at IS NOT NULL AND due_at < ?), 0) AS overdue
                FROM actions WHERE assignee_id = ? AND state IN ('open', 'in_progress')
                """, [.text(RFC3339.string(now)), .text(assigneeID)])
            return (Int(row?["open"].int64Value ?? 0), Int(row?["overdue"].int64Value ?? 0))
        }
    }
}
