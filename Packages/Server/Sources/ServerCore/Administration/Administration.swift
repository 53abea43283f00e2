import Foundation
import Models
import ServerStore

/// Who makes an administrative change: an admin signed in over the
/// management API, or the operator at `jqc-server admin`.
public struct AdminActor: Sendable, Equatable {
    /// A user id, or `cli:<login name>` for the command line.
    public var id: String
    /// The name kept in the event log.
    public var name: String

    /// The operator running `jqc-server admin` on the server's machine.
    public static var commandLine: AdminActor {
        let environment = ProcessInfo.processInfo.environment
        let account = getpwuid(getuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } }
        let login = environment["SUDO_USER"] ?? account ?? environment["USER"] ?? "uid \(getuid())"
        return AdminActor(id: "cli:\(login)", name: "\(login) (jqc-server admin)")
    }
}

/// How an import went: the ids added, changed, and left as they were.
public struct ImportOutcome: Sendable, Equatable {
    public var added: [String] = []
    public var updated: [String] = []
    public var unchanged: [String] = []

    /// One line saying what happened.
    public func summary(_ noun: String) -> String {
        "\(noun): \(added.count) added, \(updated.count) updated, \(unchanged.count) unchanged"
    }

    var json: JSONValue {
        [
            "added": .array(added.map { .string($0) }), "updated": .array(updated.map { .string($0) }),
            "unchanged": .array(unchanged.map { .string($0) }),
        ]
    }
}

/// The organisation's administration: sites and areas, assignments,
/// templates and people, the same rules whether a change comes from
/// `jqc-server admin` or the management API. Every change is one
/// transaction that also records who made it, when and what it was.
struct Administration: Sendable {
    let store: any ServerStorage
    /// The field types templates are linted against, as the server judges reports.
    let judge: AnswerJudge
    let now: @Sendable () -> Date

    init(store: any ServerStorage, judge: AnswerJudge, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.judge = judge
        self.now = now
    }

    /// Runs `body` in one write transaction with a recorder of events.
    func change<T>(by actor: AdminActor, _ body: (any StorageSession, EventRecorder) throws -> T) throws(ServerError)
        -> T
    {
        let stamp = RFC3339.string(now())
        return try store.write { session in
            try body(session, EventRecorder(session: session, actor: actor, at: stamp))
        }
    }

    /// The newest events of the log, oldest first.
    func events(limit: Int, before: Int64?) throws(ServerError) -> [AdminEvent] {
        try store.read { try $0.adminEvents(limit: limit, before: before) }
    }
}

/// Records the events of one administrative transaction.
struct EventRecorder {
    let session: any StorageSession
    let actor: AdminActor
    /// The server's time of the change, RFC 3339.
    let at: String

    func record(_ kind: String, _ subject: String, _ detail: JSONValue = .object([:])) throws(ServerError) {
        try session.recordAdminEvent(
            AdminEvent(
                at: at, actorID: actor.id, actorName: actor.name, kind: kind, subject: subject,
                detail: detail))
    }
}

/// Checks of what an admin types, each failure one line.
enum AdminInput {
    /// An id of a site, area, template or assignment: 1 to 100 printable characters (and 400 bytes), no spaces at
    /// the ends.
    static func id(_ value: String, _ what: String) throws(ServerError) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ServerError.badRequest("\(what) needs an id") }
        guard TextLimit.fits(trimmed, 100) else {
            let shown = String(String.UnicodeScalarView(trimmed.unicodeScalars.prefix(40)))
            throw ServerError.badRequest("\(what) id '\(shown)...' is longer than \(TextLimit.words(100))")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "/" }) else {
            throw ServerError.badRequest("\(what) id '\(trimmed.prefix(40))' holds a control character or '/'")
        }
        return trimmed
    }

    /// A name or other text: at most `limit` characters (and 4 bytes a character), no control characters.
    static func text(_ value: String, _ what: String, required: Bool = true, limit: Int = 200) throws(ServerError)
        -> String
    {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if required && trimmed.isEmpty { throw ServerError.badRequest("\(what) must not be empty") }
        guard TextLimit.fits(trimmed, limit) else {
            throw ServerError.badRequest("\(what) is longer than \(TextLimit.words(limit))")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ServerError.badRequest("\(what) holds a control character")
        }
        return trimmed
    }

    /// A due date: RFC 3339, or a plain `YYYY-MM-DD` meaning the end of that day in UTC.
    static func due(_ value: String) throws(ServerError) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed.count == 10, RFC3339.date(trimmed + "T23:59:59Z") != nil { return trimmed + "T23:59:59Z" }
        guard let date = RFC3339.date(trimmed) else {
            throw ServerError.badRequest(
                "due date '\(trimmed.prefix(40))' is neither YYYY-MM-DD nor an RFC 3339 time such as 2026-12-24T17:00:00Z"
            )
        }
        return RFC3339.string(date)
    }
}
