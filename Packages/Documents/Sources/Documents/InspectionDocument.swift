/// What an inspection report says, filled by the server or the device
/// from its own records, already in words (dates in the organisation's
/// time zone, answers as the console shows them). The client-safe variant
/// is filled without private fields, review or events: this type draws
/// what it is given and decides nothing about who may read it.
public struct InspectionDocument: Sendable {
    /// The organisation's name and logo, at the top of the first page.
    public var organisation: String
    public var logo: DocumentImage?
    /// The form's name.
    public var form: String
    /// The report's number as people quote it.
    public var number: String
    public var site: String
    public var area: String?
    /// The local date and time, with the zone's name.
    public var when: String
    public var inspector: String?
    public var score: Score?
    public var sections: [Section]
    public var issues: [Issue]
    public var signature: Signature?
    /// The review and the report's events (internal variant only); empty leaves the part out.
    public var review: [String]
    /// Said under the title ("Internal copy", "Prepared for ...").
    public var note: String?

    public struct Score: Sendable {
        /// 0...1; nil when nothing was scored.
        public var fraction: Double?
        /// nil when the form has no pass mark.
        public var passed: Bool?
        /// 0...1.
        public var threshold: Double?
        /// The labels of the deficient items.
        public var deficiencies: [String]

        public init(fraction: Double?, passed: Bool?, threshold: Double?, deficiencies: [String]) {
            self.fraction = fraction
            self.passed = passed
            self.threshold = threshold
            self.deficiencies = deficiencies
        }
    }

    public struct Section: Sendable {
        /// nil for the fields before the form's first section.
        public var title: String?
        public var answers: [Answer]

        public init(title: String?, answers: [Answer]) {
            self.title = title
            self.answers = answers
        }
    }

    /// One answer; an empty `label` makes it a note of the form (its words in `value`).
    public struct Answer: Sendable {
        public var label: String
        public var value: String
        public var deficient: Bool
        /// Shown after the value, smaller: "critical", "not applicable", a field's comment.
        public var notes: [String]
        public var photos: [DocumentImage]

        public init(
            label: String, value: String, deficient: Bool = false, notes: [String] = [], photos: [DocumentImage] = []
        ) {
            self.label = label
            self.value = value
            self.deficient = deficient
            self.notes = notes
            self.photos = photos
        }
    }

    public struct Issue: Sendable {
        public var severity: String
        public var description: String
        /// The state of the action the issue became, if it did.
        public var action: String?
        public var photos: [DocumentImage]

        public init(severity: String, description: String, action: String?, photos: [DocumentImage] = []) {
            self.severity = severity
            self.description = description
            self.action = action
            self.photos = photos
        }
    }

    public struct Signature: Sendable {
        public var label: String
        public var name: String
        public var image: DocumentImage?

        public init(label: String, name: String, image: DocumentImage?) {
            self.label = label
            self.name = name
            self.image = image
        }
    }

    public init(
        organisation: String, logo: DocumentImage?, form: String, number: String, site: String, area: String?,
        when: String, inspector: String?, score: Score?, sections: [Section], issues: [Issue],
        signature: Signature? = nil, review: [String] = [], note: String? = nil
    ) {
        self.organisation = organisation
        self.logo = logo
        self.form = form
        self.number = number
        self.site = site
        self.area = area
        self.when = when
        self.inspector = inspector
        self.score = score
        self.sections = sections
        self.issues = issues
        self.signature = signature
        self.review = review
        self.note = note
    }
}
