import Models

/// What the server's own scoring says of one revision (contract 1.2): the
/// score, whether the report passed its template's threshold (nil when the
/// template sets none), and the ids of its deficient fields in form order.
/// Kept with every revision, and the current one's on the report itself for
/// the queue and the roll-ups.
public struct ReportGrade: Sendable, Hashable {
    /// Earned over possible in 0...1; nil when nothing scoreable is answered.
    public var score: Double?
    /// Passed the template's `pass_threshold`; nil when it has none.
    public var passed: Bool?
    /// The deficient fields' ids, in the template's order.
    public var deficiencies: [String]

    /// A grade of nothing: no score, no threshold, no deficiency.
    public static let none = ReportGrade(score: nil, passed: nil, deficiencies: [])

    /// Makes a grade.
    public init(score: Double?, passed: Bool?, deficiencies: [String]) {
        self.score = score
        self.passed = passed
        self.deficiencies = deficiencies
    }

    /// `{"score", "passed"?, "deficiencies"}` as a document carries them.
    public var members: [String: JSONValue] {
        var out: [String: JSONValue] = [
            "score": score.map(JSONValue.double) ?? .null,
            "deficiencies": .array(deficiencies.map(JSONValue.string)),
        ]
        if let passed { out["passed"] = .bool(passed) }
        return out
    }

    /// The grade as stored with a revision (canonical JSON).
    public var json: String { CanonicalJSON.string(JSONValue.object(members)) }

    /// A grade stored with a revision; nil for text that holds none.
    public init?(json: String?) {
        guard let json, case .object(let members) = CanonicalJSON.value(json) else { return nil }
        score = members["score"]?.numberValue
        passed = members["passed"]?.boolValue
        deficiencies = members["deficiencies"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}

/// A report whose current revision has no grade yet: one kept from before
/// the server graded reports.
public struct UngradedReport: Sendable, Equatable {
    public var serverID: String
    public var templateID: String
    public var revision: Int
    public var payloadJSON: String
    /// The score kept with it, kept when its template is gone.
    public var score: Double?

    /// Makes the record.
    public init(serverID: String, templateID: String, revision: Int, payloadJSON: String, score: Double?) {
        self.serverID = serverID
        self.templateID = templateID
        self.revision = revision
        self.payloadJSON = payloadJSON
        self.score = score
    }
}
