import Models

/// One case of `Tests/Fixtures/scoring/vectors.json`: a template, answers,
/// and what contract 1.2 says of them (score, deficiencies, passed), read by
/// the device's and the server's tests alike.
public struct ScoringVector: Sendable, CustomStringConvertible {
    public var name: String
    /// The template object as the file writes it (the contract's shape).
    public var templateJSON: JSONValue
    public var template: Template
    public var answers: Answers
    /// The expected score; nil when nothing scoreable is answered.
    public var score: Double?
    /// The expected deficient field ids, in form order.
    public var deficiencies: [String]
    /// The expected pass; nil when the template has no threshold.
    public var passed: Bool?

    public var description: String { name }

    /// Every case of the shared file.
    public static func all() throws -> [ScoringVector] {
        let document = try Fixtures.json("scoring/vectors.json")
        return try (document["cases"]?.arrayValue ?? []).map { item in
            let raw = item["template"] ?? .null
            let expect = item["expect"]?.objectValue ?? [:]
            return ScoringVector(
                name: item["name"]?.stringValue ?? "?", templateJSON: raw, template: try Template.decode(raw).get(),
                answers: Answers(json: item["answers"] ?? [:]) ?? Answers(), score: expect["score"]?.numberValue,
                deficiencies: (expect["deficiencies"]?.arrayValue ?? []).compactMap(\.stringValue),
                passed: expect["passed"]?.boolValue)
        }
    }

    /// Whether `score` is the expected one (within 1e-9).
    public func scoreMatches(_ score: Double?) -> Bool {
        switch (score, self.score) {
        case (nil, nil): return true
        case (let got?, let want?): return abs(got - want) < 1e-9
        default: return false
        }
    }
}
