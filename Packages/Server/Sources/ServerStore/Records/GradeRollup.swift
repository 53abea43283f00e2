import Models

/// What a roll-up groups reports by.
public enum RollupKey: String, CaseIterable, Sendable {
    case site, area
    case areaType = "area-type"
    case inspector, template, item
}

/// One roll-up's question: reports received in `[from, to)` (RFC 3339 UTC
/// text, compared as the store writes `accepted_at`), grouped by `by`,
/// narrowed to one site or one template when given.
public struct RollupQuery: Sendable, Equatable {
    public var by: RollupKey
    public var from: String
    public var to: String
    public var facilityID: String?
    public var templateID: String?
    /// Only reports whose review is in one of these states (a client's view); nil for every one.
    /// Not for `item`, whose rows know no review.
    public var reviewStates: [ReviewState]?

    /// Makes a query.
    public init(by: RollupKey, from: String, to: String, facilityID: String? = nil, templateID: String? = nil) {
        self.by = by
        self.from = from
        self.to = to
        self.facilityID = facilityID
        self.templateID = templateID
    }
}

/// The sums of one group of a roll-up, from which its figures are made.
public struct RollupSums: Sendable, Equatable {
    /// The group's key: a site's, area's, inspector's or template's id, an
    /// area type; for `item` the template's id. Empty for reports with none
    /// (no area).
    public var key: String
    /// For `item`, the field's id.
    public var field: String?
    /// Reports received (for `item`: reports of its template).
    public var inspections: Int
    /// Of them, those with a score, and the sum of their scores.
    public var scored: Int
    public var scoreSum: Double
    /// Of them, those whose template has a pass mark, and those that passed it.
    public var graded: Int
    public var passed: Int
    /// Deficient answers among them (for `item`: times the item was deficient).
    public var deficiencies: Int

    /// Makes the sums of a group.
    public init(
        key: String, field: String? = nil, inspections: Int, scored: Int, scoreSum: Double, graded: Int, passed: Int,
        deficiencies: Int
    ) {
        self.key = key
        self.field = field
        self.inspections = inspections
        self.scored = scored
        self.scoreSum = scoreSum
        self.graded = graded
        self.passed = passed
        self.deficiencies = deficiencies
    }

    /// The mean score of the scored reports; nil when none was scored.
    public var averageScore: Double? { scored > 0 ? scoreSum / Double(scored) : nil }
    /// The share of graded reports that passed; nil when none had a pass mark.
    public var passRate: Double? { graded > 0 ? Double(passed) / Double(graded) : nil }
    /// Deficiencies per report received; nil when there is none.
    public var deficienciesPerInspection: Double? {
        inspections > 0 ? Double(deficiencies) / Double(inspections) : nil
    }
}
