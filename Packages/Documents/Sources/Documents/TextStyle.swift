import CPangoCairo

/// A colour of the documents, in 0...1 components.
struct DocumentColor: Sendable {
    var red: Double
    var green: Double
    var blue: Double

    static let text = DocumentColor(red: 0.1, green: 0.1, blue: 0.12)
    static let muted = DocumentColor(red: 0.42, green: 0.42, blue: 0.45)
    static let failed = DocumentColor(red: 0.725, green: 0.11, blue: 0.11)
    static let passed = DocumentColor(red: 0.08, green: 0.5, blue: 0.24)
    static let deficientBand = DocumentColor(red: 0.99, green: 0.92, blue: 0.92)
    static let headerBand = DocumentColor(red: 0.93, green: 0.94, blue: 0.96)
    static let accent = DocumentColor(red: 0.16, green: 0.33, blue: 0.6)

    func set(_ cr: OpaquePointer) { cairo_set_source_rgb(cr, red, green, blue) }
}

/// How a run of text is drawn: a Pango font description, a colour, the
/// space after it, and the most scalars of outside text it shows.
struct TextStyle: Sendable {
    var font: String
    var color: DocumentColor = .text
    var spaceAfter: Double = 4
    var limit: Int = 20_000
    /// Lines set against the right edge (numbers in a table).
    var alignRight = false

    static let title = TextStyle(font: "DejaVu Sans Bold 17", spaceAfter: 4)
    static let heading = TextStyle(font: "DejaVu Sans Bold 12", color: .accent, spaceAfter: 6)
    static let subheading = TextStyle(font: "DejaVu Sans Bold 10", spaceAfter: 3)
    static let body = TextStyle(font: "DejaVu Sans 9.5")
    static let label = TextStyle(font: "DejaVu Sans Bold 9", spaceAfter: 1)
    static let small = TextStyle(font: "DejaVu Sans 7.5", color: .muted, spaceAfter: 2)
    static let caption = TextStyle(font: "DejaVu Sans 7.5", color: .muted, spaceAfter: 2, limit: 160)
    static let cell = TextStyle(font: "DejaVu Sans 8.5", spaceAfter: 0, limit: 400)
    static let cellHeader = TextStyle(font: "DejaVu Sans Bold 8.5", spaceAfter: 0, limit: 120)
    static let score = TextStyle(font: "DejaVu Sans Bold 30", spaceAfter: 0)

    var right: TextStyle {
        var copy = self
        copy.alignRight = true
        return copy
    }

    func colored(_ color: DocumentColor) -> TextStyle {
        var copy = self
        copy.color = color
        return copy
    }
}
