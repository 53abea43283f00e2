/// A site's summary for a period (a month, by default), client-safe by
/// what it holds: the score trend with dates, averages by area, the pass
/// rate, the deficiencies found, the actions closed with their ages and
/// those still open, and every inspection of the period with its score.
public struct SiteSummaryDocument: Sendable {
    public var organisation: String
    public var logo: DocumentImage?
    public var site: String
    public var address: String?
    /// The period in words ("December 2026") and the zone its days are in.
    public var period: String
    public var zone: String
    public var totals: Totals
    /// The scores of the period's inspections in time order, each with its day.
    public var trend: [TrendPoint]
    public var areas: [AreaLine]
    public var deficiencies: [DeficiencyLine]
    public var actionsClosed: [ActionLine]
    public var actionsOpen: [ActionLine]
    public var inspections: [InspectionLine]
    /// The scheduled visits of the period by area, and the areas nobody inspected.
    public var coverage: [CoverageLine]
    /// Photos of the items found deficient, each captioned.
    public var photos: [DocumentImage]

    public struct Totals: Sendable {
        public var inspections: Int
        public var average: Double?
        public var passRate: Double?
        public var deficiencies: Int

        public init(inspections: Int, average: Double?, passRate: Double?, deficiencies: Int) {
            self.inspections = inspections
            self.average = average
            self.passRate = passRate
            self.deficiencies = deficiencies
        }
    }

    public struct TrendPoint: Sendable {
        /// The day, as written under the chart ("7 Dec").
        public var day: String
        /// Seconds since the period began: where the point sits along the axis.
        public var offset: Double
        public var fraction: Double
        public var passed: Bool?

        public init(day: String, offset: Double, fraction: Double, passed: Bool?) {
            self.day = day
            self.offset = offset
            self.fraction = fraction
            self.passed = passed
        }
    }

    public struct AreaLine: Sendable {
        public var name: String
        public var inspections: Int
        public var average: Double?
        public var passRate: Double?

        public init(name: String, inspections: Int, average: Double?, passRate: Double?) {
            self.name = name
            self.inspections = inspections
            self.average = average
            self.passRate = passRate
        }
    }

    public struct DeficiencyLine: Sendable {
        public var form: String
        public var item: String
        public var count: Int

        public init(form: String, item: String, count: Int) {
            self.form = form
            self.item = item
            self.count = count
        }
    }

    public struct ActionLine: Sendable {
        public var title: String
        public var state: String
        /// Its age in words ("3 days").
        public var age: String
        public var overdue: Bool

        public init(title: String, state: String, age: String, overdue: Bool = false) {
            self.title = title
            self.state = state
            self.age = age
            self.overdue = overdue
        }
    }

    public struct InspectionLine: Sendable {
        public var number: String
        public var day: String
        public var area: String
        public var form: String
        public var fraction: Double?
        public var passed: Bool?

        public init(number: String, day: String, area: String, form: String, fraction: Double?, passed: Bool?) {
            self.number = number
            self.day = day
            self.area = area
            self.form = form
            self.fraction = fraction
            self.passed = passed
        }
    }

    /// One area's scheduled visits: expected, on time, late, missed, open; and whether nobody inspected it.
    public struct CoverageLine: Sendable {
        public var area: String
        public var expected: Int
        public var onTime: Int
        public var late: Int
        public var missed: Int
        public var open: Int
        public var uninspected: Bool

        public init(area: String, expected: Int, onTime: Int, late: Int, missed: Int, open: Int, uninspected: Bool) {
            self.area = area
            self.expected = expected
            self.onTime = onTime
            self.late = late
            self.missed = missed
            self.open = open
            self.uninspected = uninspected
        }
    }

    public init(
        organisation: String, logo: DocumentImage?, site: String, address: String?, period: String, zone: String,
        totals: Totals, trend: [TrendPoint], areas: [AreaLine], deficiencies: [DeficiencyLine],
        actionsClosed: [ActionLine], actionsOpen: [ActionLine], inspections: [InspectionLine],
        coverage: [CoverageLine] = [], photos: [DocumentImage] = []
    ) {
        self.organisation = organisation
        self.logo = logo
        self.site = site
        self.address = address
        self.period = period
        self.zone = zone
        self.totals = totals
        self.trend = trend
        self.areas = areas
        self.deficiencies = deficiencies
        self.actionsClosed = actionsClosed
        self.actionsOpen = actionsOpen
        self.inspections = inspections
        self.coverage = coverage
        self.photos = photos
    }
}
