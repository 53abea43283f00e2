import Foundation

/// An answer a move onto another version of a template could not keep: the
/// field it answered, the answer itself and why. Never lost: the report's
/// revision history keeps it.
public struct SetAsideAnswer: Sendable, Hashable {
    /// The field the answer was given to.
    public var fieldID: FieldID
    /// The answer, as it was.
    public var answer: JSONValue
    /// Why it was set aside, in words ("field 7 was removed").
    public var reason: String

    /// A set-aside answer.
    public init(fieldID: FieldID, answer: JSONValue, reason: String) {
        self.fieldID = fieldID
        self.answer = answer
        self.reason = reason
    }

    /// `{"field_id", "answer", "reason"}`, as the store, `show --json` and `--history` keep it.
    public var json: JSONValue {
        ["field_id": .string(fieldID.rawValue), "answer": answer, "reason": .string(reason)]
    }

    /// Reads what `json` wrote; nil for anything else.
    public init?(json: JSONValue) {
        guard let id = json["field_id"].flatMap(FieldID.init(json:)), let answer = json["answer"],
            let reason = json["reason"]?.stringValue
        else { return nil }
        self.init(fieldID: id, answer: answer, reason: reason)
    }
}

/// What moving a report onto a newer version of its template did: from and
/// to which version, the answers set aside and the required fields the new
/// version added, left unanswered. A draft keeps it as a note until it is
/// completed.
public struct TemplateMove: Sendable, Hashable {
    /// The version the report was on (nil when the device never knew it).
    public var fromVersion: Int?
    /// The version it is on now.
    public var toVersion: Int
    /// Answers the new version could not take.
    public var setAside: [SetAsideAnswer]
    /// Required fields of the new version the report does not answer yet.
    public var newRequired: [FieldID]

    /// A move.
    public init(fromVersion: Int?, toVersion: Int, setAside: [SetAsideAnswer], newRequired: [FieldID]) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.setAside = setAside
        self.newRequired = newRequired
    }

    /// `{"from_version", "to_version", "set_aside": [...], "new_required": [...]}`.
    public var json: JSONValue {
        [
            "from_version": fromVersion.map { .integer(Int64($0)) } ?? .null,
            "to_version": .integer(Int64(toVersion)),
            "set_aside": .array(setAside.map(\.json)),
            "new_required": .array(newRequired.map { .string($0.rawValue) }),
        ]
    }

    /// Reads what `json` wrote; nil for anything else.
    public init?(json: JSONValue) {
        guard let to = json["to_version"]?.integerValue, let setAside = json["set_aside"]?.arrayValue,
            let required = json["new_required"]?.arrayValue
        else { return nil }
        let answers = setAside.compactMap(SetAsideAnswer.init(json:))
        let ids = required.compactMap(FieldID.init(json:))
        guard answers.count == setAside.count, ids.count == required.count else { return nil }
        self.init(
            fromVersion: json["from_version"]?.integerValue.map(Int.init), toVersion: Int(to),
            setAside: answers, newRequired: ids)
    }
}

/// The drafts of one template a sync or an import moved onto its newest
/// version: what `jqc` tells the person, and `--json` carries.
public struct DraftsMoved: Sendable, Hashable {
    /// One report's move.
    public struct Moved: Sendable, Hashable {
        /// The report.
        public var localID: UUID
        /// What the move did.
        public var move: TemplateMove

        /// A report's move.
        public init(localID: UUID, move: TemplateMove) {
            self.localID = localID
            self.move = move
        }
    }

    /// The template.
    public var templateID: String
    /// Its name.
    public var templateName: String
    /// The version the drafts are on now.
    public var version: Int
    /// The reports moved, in creation order.
    public var reports: [Moved]

    /// Drafts moved.
    public init(templateID: String, templateName: String, version: Int, reports: [Moved]) {
        self.templateID = templateID
        self.templateName = templateName
        self.version = version
        self.reports = reports
    }

    /// Every answer set aside, with its report.
    public var setAside: [(localID: UUID, answer: SetAsideAnswer)] {
        reports.flatMap { moved in moved.move.setAside.map { (localID: moved.localID, answer: $0) } }
    }

    /// `{"template_id", "template_name", "version", "reports": [{"local_id", "from_version", "to_version", "set_aside", "new_required"}]}`,
    /// `set_aside` naming the fields only: a sync's summary (and the agent's
    /// log) holds no answer; `jqc show ID` has them.
    public var json: JSONValue {
        [
            "template_id": .string(templateID),
            "template_name": .string(templateName),
            "version": .integer(Int64(version)),
            "reports": .array(
                reports.map { moved in
                    [
                        "local_id": .string(moved.localID.uuidString.lowercased()),
                        "from_version": moved.move.fromVersion.map { .integer(Int64($0)) } ?? .null,
                        "to_version": .integer(Int64(moved.move.toVersion)),
                        "set_aside": .array(moved.move.setAside.map { .string($0.fieldID.rawValue) }),
                        "new_required": .array(moved.move.newRequired.map { .string($0.rawValue) }),
                    ]
                }),
        ]
    }
}
