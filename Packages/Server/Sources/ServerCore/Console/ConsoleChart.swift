import Foundation

/// A line chart of scores over time, drawn on the server as SVG (no script,
/// no external file): one point per report at the time it was received,
/// oldest left, 0–100 % up the side, dates along the bottom; a point that
/// failed its pass mark is marked so.
enum ConsoleChart {
    /// One point: a label for its tooltip, the score ratio, when the report
    /// was received, and whether it passed its pass mark (nil without one).
    struct Point: Sendable {
        var label: String
        var ratio: Double
        var date: Date
        var passed: Bool? = nil
    }

    /// How many dates the bottom axis names at most.
    static let dateTicks = 5

    /// The `<svg id="score-chart">` of the points; a sentence when there are none.
    static func scores(
        _ points: [Point], zone: TimeZone = TimeZone(identifier: "UTC") ?? .current, width: Int = 720, height: Int = 240
    ) -> String {
        guard !points.isEmpty else { return "<p class=\"muted\">No scored inspections yet.</p>" }
        let points = points.sorted { $0.date < $1.date }
        let left = 44.0, right = 16.0, top = 16.0, bottom = 28.0
        let plotWidth = Double(width) - left - right
        let plotHeight = Double(height) - top - bottom
        let first = points[0].date.timeIntervalSince1970
        let span = (points[points.count - 1].date.timeIntervalSince1970) - first
        func x(_ date: Date) -> Double {
            span <= 0 ? left + plotWidth / 2 : left + plotWidth * (date.timeIntervalSince1970 - first) / span
        }
        func y(_ ratio: Double) -> Double { top + plotHeight * (1 - min(max(ratio, 0), 1)) }
        var svg =
            "<svg id=\"score-chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"Scores of the last \(points.count) inspections over time\">"
        for step in stride(from: 0, through: 100, by: 25) {
            let lineY = y(Double(step) / 100)
            svg +=
                "<line class=\"grid\" x1=\"\(fmt(left))\" y1=\"\(fmt(lineY))\" x2=\"\(fmt(Double(width) - right))\" y2=\"\(fmt(lineY))\"/>"
            svg +=
                "<text class=\"axis\" x=\"\(fmt(left - 6))\" y=\"\(fmt(lineY + 4))\" text-anchor=\"end\">\(step)%</text>"
        }
        let path = points.enumerated().map {
            "\($0.offset == 0 ? "M" : "L")\(fmt(x($0.element.date))),\(fmt(y($0.element.ratio)))"
        }.joined(separator: " ")
        svg += "<path class=\"trend\" d=\"\(path)\"/>"
        for point in points {
            let outcome = point.passed.map { $0 ? " passed" : " failed" } ?? ""
            svg +=
                "<circle class=\"point\(outcome)\" cx=\"\(fmt(x(point.date)))\" cy=\"\(fmt(y(point.ratio)))\" r=\"4\">"
                + "<title>\(HTML.escape(point.label)): \(String(format: "%.0f%%", point.ratio * 100))</title></circle>"
        }
        for (date, anchor) in ticks(points.map(\.date)) {
            svg +=
                "<text class=\"axis date\" x=\"\(fmt(x(date)))\" y=\"\(height - 8)\" text-anchor=\"\(anchor)\">\(day(date, zone: zone))</text>"
        }
        return svg + "</svg>"
    }

    /// The dates the bottom axis names: the first and last, and evenly
    /// spaced ones between, at most `dateTicks`, each with its anchor.
    static func ticks(_ dates: [Date]) -> [(Date, String)] {
        guard let first = dates.first, let last = dates.last else { return [] }
        guard last > first else { return [(first, "middle")] }
        let count = dateTicks - 1
        return (0...count).map { index in
            let date = first.addingTimeInterval(last.timeIntervalSince(first) * Double(index) / Double(count))
            return (date, index == 0 ? "start" : index == count ? "end" : "middle")
        }
    }

    /// `2026-11-03`, in the organisation's time zone.
    static func day(_ date: Date, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    private static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }
}
