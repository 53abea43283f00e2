import Foundation
import Models
import SQLite

/// A user as the server stores them.
struct StoredUser: Sendable, Equatable {
    var id: String
    var username: String
    var role: UserRole
    var displayName: String
    var passwordHash: String

    var wire: WireUser { WireUser(id: id, username: username, role: role, displayName: displayName) }
}

/// A report's record: the latest state plus what links it.
struct StoredReport: Sendable, Equatable {
    var serverID: String
    var localID: UUID
    var ownerID: String
    var templateID: String
    var facilityID: String
    var areaID: String?
    var assignmentID: String?
    var parentLocalID: UUID?
    var parentServerID: String?
    var completedAtDevice: String?
    var currentRevision: Int
    var score: Double?
    /// The flag of the current payload, cleared once a re-inspection is accepted.
    var followUpRequired: Bool
    /// RFC 3339 server time of the first acceptance.
    var acceptedAt: String
}

/// One revision of a report; every revision is kept.
struct StoredRevision: Sendable, Equatable {
    var revision: Int
    var baseRevision: Int?
    /// The payload as canonical JSON (sorted keys), compared byte for byte for replays.
    var payloadJSON: String
    var issuesJSON: String
    /// `device`, `supervisor` or `admin`.
    var source: String
}

/// A stored photo's record; the bytes live in the `PhotoVault` by hash.
struct StoredPhoto: Sendable, Equatable {
    var localID: UUID
    var serverID: String
    var fieldID: String?
    var issueLocalID: UUID?
    var sha256: String
    var byteSize: Int64
}

/// The server's database: one connection, one owner.
///
/// Every access goes through `read` or `write`, which hold a lock for the
/// whole closure (waiting at most `lockWait` for it, then answering 503
/// with `Retry-After`), so exactly one request thread at a time touches the
/// connection; `write` also wraps the closure in an immediate transaction
/// that rolls back on a throw. That makes the non-Sendable connection safe
/// to share (`@unchecked Sendable`): it is never used outside the lock.
/// Other processes (the admin command) open their own connection; SQLite's
/// file locks, WAL and the busy timeout order them against this one.
final class ServerStore: @unchecked Sendable {
    private let lock = NSLock()
    private let database: Database
    /// How long a request waits for the connection before it is answered 503.
    private let lockWait: TimeInterval = 3

    /// Opens (creating if needed) and migrates the database at `path`.
    init(path: String) throws(ServerError) {
        do throws(SQLiteError) {
            database = try Database(path: path)
            database.setBusyTimeout(milliseconds: 3_000)
            try database.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
        } catch {
            throw ServerError.database(error)
        }
        try migrate()
    }

    /// Runs `body` with the session, alone.
    func read<T>(_ body: (StoreSession) throws -> T) throws(ServerError) -> T {
        guard lock.lock(before: Date().addingTimeInterval(lockWait)) else { throw ServerError.busy() }
        defer { lock.unlock() }
        return try Self.run(body, StoreSession(db: database))
    }

    /// Runs `body` alone, in one transaction.
    func write<T>(_ body: (StoreSession) throws -> T) throws(ServerError) -> T {
        guard lock.lock(before: Date().addingTimeInterval(lockWait)) else { throw ServerError.busy() }
        defer { lock.unlock() }
        return try database.serverTransaction { () throws(ServerError) -> T in try Self.run(body, StoreSession(db: database)) }
    }

    /// Runs `body`, passing a `ServerError` through and turning anything else into a 500.
    private static func run<T>(_ body: (StoreSession) throws -> T, _ session: StoreSession) throws(ServerError) -> T {
        do {
            return try body(session)
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError.internal("the database failed: \(error)")
        }
    }

    private func migrate() throws(ServerError) {
        do throws(SQLiteError) {
            try ServerMigrations.migrator.migrate(database)
        } catch where error.code == .newerSchema {
            throw ServerError.internal("the database was written by a newer jqc-server (\(error.context.map { "migration '\($0)'" } ?? "a newer schema")); use that version")
        } catch {
            throw ServerError.database(error)
        }
    }
}

/// RFC 3339 UTC timestamps.
enum Timestamp {
    static func string(_ date: Date) -> String { date.formatted(.iso8601) }
    static func now() -> String { string(Date()) }
    /// The moment a string written by `string` names.
    static func date(_ text: String) -> Date? { try? Date(text, strategy: .iso8601) }
}

/// The intent-named operations on the database, valid inside `read` or `write`.
struct StoreSession {
    let db: Database

    // MARK: Settings

    func setting(_ key: String) throws(ServerError) -> String? {
        try db.query("SELECT value FROM settings WHERE key = ?", [.text(key)]).first?.string(0)
    }

    func setSetting(_ key: String, _ value: String) throws(ServerError) {
        try db.update("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [.text(key), .text(value)])
    }

    // MARK: Users and sessions

    private static let userColumns = "id, username, role, display_name, password_hash"

    private func user(_ row: Row) -> StoredUser? { user(row, from: 0) }

    /// The user in the five columns of `row` starting at `first`.
    private func user(_ row: Row, from first: Int) -> StoredUser? {
        guard let id = row.string(first), let name = row.string(first + 1),
              let role = row.string(first + 2).flatMap(UserRole.init(rawValue:)),
              let display = row.string(first + 3), let hash = row.string(first + 4) else { return nil }
        return StoredUser(id: id, username: name, role: role, displayName: display, passwordHash: hash)
    }

    func user(username: String) throws(ServerError) -> StoredUser? {
        try db.query("SELECT \(Self.userColumns) FROM users WHERE username = ?", [.text(username)]).first.flatMap(user)
    }

    func user(id: String) throws(ServerError) -> StoredUser? {
        try db.query("SELECT \(Self.userColumns) FROM users WHERE id = ?", [.text(id)]).first.flatMap(user)
    }

    func users(role: UserRole) throws(ServerError) -> [StoredUser] {
        try db.query("SELECT \(Self.userColumns) FROM users WHERE role = ? ORDER BY username", [.text(role.rawValue)])
            .compactMap(user)
    }

    /// Adds a user, or updates the password, role and name of an existing one.
    func upsertUser(id: String, username: String, passwordHash: String, role: UserRole, displayName: String) throws(ServerError) {
        try db.update("""
            INSERT INTO users (id, username, password_hash, role, display_name) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(username) DO UPDATE SET password_hash = excluded.password_hash, role = excluded.role,
                display_name = excluded.display_name
            """, [.text(id), .text(username), .text(passwordHash), .text(role.rawValue), .text(displayName)])
    }

    /// Starts a session with its first refresh token; returns the session id.
    func createSession(userID: String, refreshHash: String, now: Date) throws(ServerError) -> String {
        let id = UUID().uuidString.lowercased()
        try db.update("INSERT INTO sessions (id, user_id, created_at) VALUES (?, ?, ?)", [.text(id), .text(userID), .text(Timestamp.string(now))])
        try db.update("INSERT INTO refresh_tokens (token_hash, session_id, issued_at) VALUES (?, ?, ?)", [.text(refreshHash), .text(id), .text(Timestamp.string(now))])
        return id
    }

    /// Spends a live refresh token and issues its successor in the same
    /// session; nil when the token is unknown, spent, expired or its session
    /// revoked. A spent token presented again means it was copied: the whole
    /// session (every token rotated from the same sign-in) is revoked. A
    /// token unused for `idleLifetime`, or a session older than `maximumAge`,
    /// ends the session too.
    func rotateRefreshToken(presentedHash: String, nextHash: String, now: Date, idleLifetime: TimeInterval,
                            maximumAge: TimeInterval) throws(ServerError) -> (StoredUser, String)? {
        let rows = try db.query("""
            SELECT s.id, s.user_id, t.spent_at, t.issued_at, s.created_at, s.revoked_at
            FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id WHERE t.token_hash = ?
            """, [.text(presentedHash)])
        guard let row = rows.first, let sessionID = row.string(0), let userID = row.string(1),
              row.string(5) == nil else { return nil }
        let issued = row.string(3).flatMap(Timestamp.date) ?? .distantPast
        let created = row.string(4).flatMap(Timestamp.date) ?? .distantPast
        if row.string(2) != nil || now.timeIntervalSince(issued) > idleLifetime || now.timeIntervalSince(created) > maximumAge {
            try revokeSession(id: sessionID, now: now)
            return nil
        }
        guard let user = try user(id: userID) else { return nil }
        let stamp = Timestamp.string(now)
        try db.update("UPDATE refresh_tokens SET spent_at = ? WHERE token_hash = ?", [.text(stamp), .text(presentedHash)])
        try db.update("INSERT INTO refresh_tokens (token_hash, session_id, issued_at) VALUES (?, ?, ?)", [.text(nextHash), .text(sessionID), .text(stamp)])
        return (user, sessionID)
    }

    /// Whether session `id` is live and belongs to user `userID`.
    func isSessionLive(_ id: String, userID: String) throws(ServerError) -> Bool {
        try !db.query("SELECT 1 FROM sessions WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
                      [.text(id), .text(userID)]).isEmpty
    }

    /// Ends one session: its refresh tokens and access tokens stop working.
    func revokeSession(id: String, now: Date) throws(ServerError) {
        try db.update("UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                      [.text(Timestamp.string(now)), .text(id)])
    }

    /// Ends every session of a user (after a password change).
    func revokeSessions(userID: String, now: Date) throws(ServerError) {
        try db.update("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
                      [.text(Timestamp.string(now)), .text(userID)])
    }

    /// Revokes the session a refresh token belongs to, when it is the user's own.
    func revokeSession(refreshHash: String, userID: String) throws(ServerError) {
        try db.update("""
            UPDATE sessions SET revoked_at = ? WHERE revoked_at IS NULL AND user_id = ?
              AND id = (SELECT session_id FROM refresh_tokens WHERE token_hash = ?)
            """, [.text(Timestamp.now()), .text(userID), .text(refreshHash)])
    }

    // MARK: Reference data

    func facilities() throws(ServerError) -> [Facility] {
        try db.query("SELECT id, name, address, project_name FROM facilities ORDER BY position, id").map {
            Facility(id: $0.string(0) ?? "", name: $0.string(1) ?? "", address: $0.string(2) ?? "", projectName: $0.string(3) ?? "")
        }
    }

    func facilityExists(_ id: String) throws(ServerError) -> Bool {
        try !db.query("SELECT 1 FROM facilities WHERE id = ?", [.text(id)]).isEmpty
    }

    func areas(facilityID: String) throws(ServerError) -> [Area] {
        try db.query("SELECT id, facility_id, name, area_type FROM areas WHERE facility_id = ? ORDER BY position, id",
                     [.text(facilityID)]).map {
            Area(id: $0.string(0) ?? "", facilityID: $0.string(1) ?? "", name: $0.string(2) ?? "", areaType: $0.string(3) ?? "")
        }
    }

    func area(id: String) throws(ServerError) -> Area? {
        try db.query("SELECT id, facility_id, name, area_type FROM areas WHERE id = ?", [.text(id)]).first.map {
            Area(id: $0.string(0) ?? "", facilityID: $0.string(1) ?? "", name: $0.string(2) ?? "", areaType: $0.string(3) ?? "")
        }
    }

    func templates() throws(ServerError) -> [Template] {
        try db.query("SELECT id, name, version, form_schema FROM templates ORDER BY position, id").compactMap(template)
    }

    func template(id: String) throws(ServerError) -> Template? {
        try db.query("SELECT id, name, version, form_schema FROM templates WHERE id = ?", [.text(id)]).first.flatMap(template)
    }

    private func template(_ row: Row) -> Template? {
        guard let id = row.string(0), let name = row.string(1), let text = row.string(3),
              let raw = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return nil }
        let json: JSONValue = .object(["id": .string(id), "name": .string(name),
                                       "version": .integer(row.int(2) ?? 1), "form_schema": raw])
        guard case .success(let template) = Template.decode(json) else { return nil }
        return template
    }

    func insertFacility(_ facility: Facility, position: Int) throws(ServerError) {
        try db.update("INSERT OR REPLACE INTO facilities (id, name, address, project_name, position) VALUES (?, ?, ?, ?, ?)", [.text(facility.id), .text(facility.name), .text(facility.address), .text(facility.projectName),
                        .integer(Int64(position))])
    }

    func insertArea(_ area: Area, position: Int) throws(ServerError) {
        try db.update("INSERT OR REPLACE INTO areas (id, facility_id, name, area_type, position) VALUES (?, ?, ?, ?, ?)", [.text(area.id), .text(area.facilityID), .text(area.name), .text(area.areaType), .integer(Int64(position))])
    }

    func insertTemplate(_ template: Template, position: Int) throws(ServerError) {
        try db.update("INSERT OR REPLACE INTO templates (id, name, version, form_schema, position) VALUES (?, ?, ?, ?, ?)", [.text(template.id), .text(template.name), .integer(Int64(template.version)),
                        .text(CanonicalJSON.string(template.rawSchema)), .integer(Int64(position))])
    }

    // MARK: Assignments

    private func nextChangeSequence() throws(ServerError) -> Int64 {
        (try db.query("SELECT COALESCE(MAX(change_seq), 0) FROM assignments").first?.int(0) ?? 0) + 1
    }

    func insertAssignment(_ assignment: Assignment, inspectorID: String) throws(ServerError) {
        let seq = try nextChangeSequence()
        try db.update("""
            INSERT OR REPLACE INTO assignments (id, inspector_id, template_id, facility_id, area_id, due_at, status, change_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(assignment.id), .text(inspectorID), .text(assignment.templateID), .text(assignment.facilityID),
                  assignment.areaID.map(SQLValue.text) ?? .null, assignment.dueAt.map(SQLValue.text) ?? .null,
                  .text(assignment.status.rawValue), .integer(seq)])
    }

    /// Assignments of one inspector (nil: all); open ones without `since`,
    /// every one changed after it with. Also the sequence to use as the next cursor.
    func assignments(inspectorID: String?, since: Int64?) throws(ServerError) -> ([Assignment], Int64) {
        var sql = "SELECT id, template_id, facility_id, area_id, due_at, status, change_seq FROM assignments WHERE 1 = 1"
        var arguments: [SQLValue] = []
        if let inspectorID {
            sql += " AND inspector_id = ?"
            arguments.append(.text(inspectorID))
        }
        if let since {
            sql += " AND change_seq > ?"
            arguments.append(.integer(since))
        } else {
            sql += " AND status = 'open'"
        }
        sql += " ORDER BY due_at IS NULL, due_at, id"
        let rows = try db.query(sql, arguments)
        let latest = try db.query("SELECT COALESCE(MAX(change_seq), 0) FROM assignments").first?.int(0) ?? 0
        let list = rows.map {
            Assignment(id: $0.string(0) ?? "", templateID: $0.string(1) ?? "", facilityID: $0.string(2) ?? "",
                       areaID: $0.string(3), dueAt: $0.string(4),
                       status: AssignmentStatus(rawValue: $0.string(5) ?? "open") ?? .open)
        }
        return (list, max(latest, since ?? 0))
    }

    /// Closes an inspector's open assignment once a report for it is accepted.
    func closeAssignment(id: String, inspectorID: String) throws(ServerError) {
        let seq = try nextChangeSequence()
        try db.update("UPDATE assignments SET status = 'closed', change_seq = ? WHERE id = ? AND inspector_id = ? AND status = 'open'", [.integer(seq), .text(id), .text(inspectorID)])
    }

    // MARK: Reports

    private static let reportColumns = """
        server_id, local_id, owner_id, template_id, facility_id, area_id, assignment_id, parent_local_id,
        parent_server_id, completed_at_device, current_revision, score, follow_up_required, follow_up_cleared_by, accepted_at
        """

    private func report(_ row: Row) -> StoredReport? {
        guard let serverID = row.string(0), let local = row.string(1).flatMap(UUID.init(uuidString:)),
              let owner = row.string(2), let template = row.string(3), let facility = row.string(4) else { return nil }
        let flagged = (row.int(12) ?? 0) != 0 && row.string(13) == nil
        return StoredReport(serverID: serverID, localID: local, ownerID: owner, templateID: template, facilityID: facility,
                            areaID: row.string(5), assignmentID: row.string(6),
                            parentLocalID: row.string(7).flatMap(UUID.init(uuidString:)), parentServerID: row.string(8),
                            completedAtDevice: row.string(9), currentRevision: Int(row.int(10) ?? 1), score: row.double(11),
                            followUpRequired: flagged, acceptedAt: row.string(14) ?? "")
    }

    func report(localID: UUID) throws(ServerError) -> StoredReport? {
        try db.query("SELECT \(Self.reportColumns) FROM reports WHERE local_id = ?", [.text(localID.uuidString.lowercased())])
            .first.flatMap(report)
    }

    func report(serverID: String) throws(ServerError) -> StoredReport? {
        try db.query("SELECT \(Self.reportColumns) FROM reports WHERE server_id = ?", [.text(serverID)]).first.flatMap(report)
    }

    /// One revision, read alone.
    func revision(serverID: String, revision: Int) throws(ServerError) -> StoredRevision? {
        try db.query("""
            SELECT revision, base_revision, payload, issues, source FROM report_revisions WHERE server_id = ? AND revision = ?
            """, [.text(serverID), .integer(Int64(revision))]).first.map {
            StoredRevision(revision: Int($0.int(0) ?? 0), baseRevision: $0.int(1).map { Int($0) },
                           payloadJSON: $0.string(2) ?? "{}", issuesJSON: $0.string(3) ?? "[]", source: $0.string(4) ?? "device")
        }
    }

    /// The first revision accepted from a device with this base and this
    /// canonical payload (a replay), found without reading the others.
    func deviceRevision(serverID: String, baseRevision: Int?, payloadJSON: String) throws(ServerError) -> Int? {
        try db.query("""
            SELECT revision FROM report_revisions
            WHERE server_id = ? AND source = 'device' AND base_revision IS ? AND payload = ? ORDER BY revision LIMIT 1
            """, [.text(serverID), baseRevision.map { .integer(Int64($0)) } ?? .null, .text(payloadJSON)])
            .first?.int(0).map { Int($0) }
    }

    /// Stores a new report at revision 1; returns its server id.
    func insertReport(_ report: WireReport, ownerID: String, payloadJSON: String, issuesJSON: String, score: Double?,
                      now: Date) throws(ServerError) -> String {
        let seq = (try db.query("SELECT COALESCE(MAX(seq), 0) FROM reports").first?.int(0) ?? 0) + 1
        let serverID = ServerID.make()
        let stamp = Timestamp.string(now)
        try db.update("""
            INSERT INTO reports (server_id, seq, local_id, owner_id, template_id, facility_id, area_id, assignment_id,
                parent_local_id, parent_server_id, completed_at_device, current_revision, score, follow_up_required, accepted_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
            """, [.text(serverID), .integer(seq), .text(report.localID.uuidString.lowercased()), .text(ownerID),
                  .text(report.templateID), .text(report.facilityID), report.areaID.map(SQLValue.text) ?? .null,
                  report.assignmentID.map(SQLValue.text) ?? .null,
                  report.parentLocalID.map { .text($0.uuidString.lowercased()) } ?? .null,
                  report.parentServerID.map(SQLValue.text) ?? .null, report.completedAtDevice.map(SQLValue.text) ?? .null,
                  score.map(SQLValue.real) ?? .null, .integer(report.payload.followUpRequired ? 1 : 0), .text(stamp)])
        try db.update("""
            INSERT INTO report_revisions (server_id, revision, base_revision, payload, issues, source, author_id, created_at)
            VALUES (?, 1, ?, ?, ?, 'device', ?, ?)
            """, [.text(serverID), report.baseRevision.map { .integer(Int64($0)) } ?? .null, .text(payloadJSON),
                  .text(issuesJSON), .text(ownerID), .text(stamp)])
        return serverID
    }

    /// Adds the next revision of a report and makes it current; returns its
    /// number. Refused past `limit` revisions. A payload that asks for a
    /// follow-up raises the flag again, even if a re-inspection had cleared it.
    func appendRevision(serverID: String, baseRevision: Int?, payload: WirePayload, issuesJSON: String?, score: Double?,
                        source: String, authorID: String?, limit: Int, now: Date) throws(ServerError) -> Int {
        guard let current = try report(serverID: serverID) else { throw ServerError.notFound("no report '\(serverID)'") }
        guard current.currentRevision < limit else { throw ServerError.revisionLimit(serverID, limit: limit) }
        let issues: String
        if let issuesJSON {
            issues = issuesJSON
        } else {
            issues = try revision(serverID: serverID, revision: current.currentRevision)?.issuesJSON ?? "[]"
        }
        let next = current.currentRevision + 1
        try db.update("""
            INSERT INTO report_revisions (server_id, revision, base_revision, payload, issues, source, author_id, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(serverID), .integer(Int64(next)), baseRevision.map { .integer(Int64($0)) } ?? .null,
                  .text(CanonicalJSON.string(payload)), .text(issues), .text(source), authorID.map(SQLValue.text) ?? .null,
                  .text(Timestamp.string(now))])
        try db.update("""
            UPDATE reports SET current_revision = ?, score = ?, follow_up_required = ?,
                follow_up_cleared_by = CASE WHEN ? THEN NULL ELSE follow_up_cleared_by END
            WHERE server_id = ?
            """, [.integer(Int64(next)), score.map(SQLValue.real) ?? .null, .integer(payload.followUpRequired ? 1 : 0),
                  .integer(payload.followUpRequired ? 1 : 0), .text(serverID)])
        return next
    }

    /// Marks the parent's follow-up as done by `childServerID`, once.
    func clearFollowUp(parentServerID: String, childServerID: String) throws(ServerError) {
        try db.update("UPDATE reports SET follow_up_cleared_by = ? WHERE server_id = ? AND follow_up_cleared_by IS NULL", [.text(childServerID), .text(parentServerID)])
    }

    // MARK: Photos

    func photo(localID: UUID) throws(ServerError) -> StoredPhoto? {
        try db.query("SELECT local_id, server_id, field_id, issue_local_id, sha256, byte_size FROM photos WHERE local_id = ?",
                     [.text(localID.uuidString.lowercased())]).first.flatMap(photo)
    }

    func photos(serverID: String) throws(ServerError) -> [StoredPhoto] {
        try db.query("""
            SELECT local_id, server_id, field_id, issue_local_id, sha256, byte_size FROM photos WHERE server_id = ?
            ORDER BY created_at, local_id
            """, [.text(serverID)]).compactMap(photo)
    }

    private func photo(_ row: Row) -> StoredPhoto? {
        guard let local = row.string(0).flatMap(UUID.init(uuidString:)), let serverID = row.string(1),
              let sha = row.string(4) else { return nil }
        return StoredPhoto(localID: local, serverID: serverID, fieldID: row.string(2),
                           issueLocalID: row.string(3).flatMap(UUID.init(uuidString:)), sha256: sha, byteSize: row.int(5) ?? 0)
    }

    func insertPhoto(_ photo: StoredPhoto, uploadedBy: String) throws(ServerError) {
        try db.update("""
            INSERT INTO photos (local_id, server_id, field_id, issue_local_id, sha256, byte_size, uploaded_by, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(photo.localID.uuidString.lowercased()), .text(photo.serverID), photo.fieldID.map(SQLValue.text) ?? .null,
                  photo.issueLocalID.map { .text($0.uuidString.lowercased()) } ?? .null, .text(photo.sha256),
                  .integer(photo.byteSize), .text(uploadedBy), .text(Timestamp.now())])
    }

    // MARK: History and roll-up

    /// One page of reports, newest first: the owner's (nil: everyone's), and the total.
    func history(ownerID: String?, limit: Int, offset: Int) throws(ServerError) -> ([(StoredReport, StoredUser)], Int) {
        let filter = ownerID == nil ? "" : "WHERE r.owner_id = ?"
        let arguments: [SQLValue] = ownerID.map { [.text($0)] } ?? []
        let total = try db.query("SELECT COUNT(*) FROM reports r \(filter)", arguments).first?.int(0) ?? 0
        let columns = Self.reportColumns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .joined(separator: ", ")
        let rows = try db.query("""
            SELECT \(columns), u.id, u.username, u.role, u.display_name, u.password_hash
            FROM reports r JOIN users u ON u.id = r.owner_id \(filter) ORDER BY r.seq DESC LIMIT ? OFFSET ?
            """, arguments + [.integer(Int64(limit)), .integer(Int64(offset))])
        let page = rows.compactMap { row -> (StoredReport, StoredUser)? in
            guard let report = report(row), let owner = user(row, from: 15) else { return nil }
            return (report, owner)
        }
        return (page, Int(total))
    }

    /// Per inspector: completed reports, open follow-ups, average score.
    func rollup() throws(ServerError) -> [(StoredUser, completed: Int, pendingFollowUp: Int, averageScore: Double?)] {
        try users(role: .inspector).map { user throws(ServerError) in
            let row = try db.query("""
                SELECT COUNT(*), COALESCE(SUM(follow_up_required = 1 AND follow_up_cleared_by IS NULL), 0), AVG(score)
                FROM reports WHERE owner_id = ?
                """, [.text(user.id)]).first
            return (user, Int(row?.int(0) ?? 0), Int(row?.int(1) ?? 0), row?.double(2))
        }
    }
}

/// JSON with sorted keys: the form payloads are stored and compared in.
enum CanonicalJSON {
    static func string<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    static func value(_ text: String) -> JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .null
    }
}

/// The server's use of SQLite's `Database`: errors as `ServerError`.
extension Database {
    /// Every row of a parameterised query.
    func query(_ sql: String, _ values: [SQLValue] = []) throws(ServerError) -> [Row] {
        do throws(SQLiteError) { return try rows(sql, values) } catch { throw ServerError.database(error) }
    }

    /// Runs one parameterised statement that changes rows.
    func update(_ sql: String, _ values: [SQLValue]) throws(ServerError) {
        do throws(SQLiteError) { _ = try run(sql, values) } catch { throw ServerError.database(error) }
    }

    /// Runs SQL text that takes no values (schema).
    func script(_ sql: String) throws(ServerError) {
        do throws(SQLiteError) { try execute(sql) } catch { throw ServerError.database(error) }
    }

    /// `transaction` for a body that throws `ServerError`: rolled back on any throw.
    func serverTransaction<T>(_ body: () throws(ServerError) -> T) throws(ServerError) -> T {
        try transaction(mapping: ServerError.database, body)
    }
}

extension Row {
    func string(_ index: Int) -> String? { self[index].stringValue }
    func int(_ index: Int) -> Int64? { self[index].int64Value }
    func double(_ index: Int) -> Double? { self[index].doubleValue }
}
