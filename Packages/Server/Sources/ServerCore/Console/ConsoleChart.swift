import Foundation

/// A line chart of scores over a run of inspections, drawn on the server as
/// SVG (no script, no external file): one point per report, oldest left,
/// 0–100 % up the side.
enum ConsoleChart {
    /// One point: a label for its tooltip and the score ratio.
    struct Point: Sendable {
        var label: String
        var ratio: Double
    }

    /// The `<svg id="score-chart">` of the points; a sentence when there are none.
    static func scores(_ points: [Point], width: Int = 720, height: Int = 240) -> String {
        guard !points.isEmpty else { return "<p class=\"muted\">No scored inspections yet.</p>" }
        let left = 44.0, right = 16.0, top = 16.0, bottom = 28.0
        let plotWidth = Double(width) - left - right
        let plotHeight = Double(height) - top - bottom
        func x(_ index: Int) -> Double {
            points.count == 1 ? left + plotWidth / 2 : left + plotWidth * Double(index) / Double(points.count - 1)
        }
        func y(_ ratio: Double) -> Double { top + plotHeight * (1 - min(max(ratio, 0), 1)) }
        var svg =
            "<svg id=\"score-chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"Scores of the last \(points.count) inspections\">"
        for step in stride(from: 0, through: 100, by: 25) {
            let lineY = y(Double(step) / 100)
            svg +=
                "<line class=\"grid\" x1=\"\(fmt(left))\" y1=\"\(fmt(lineY))\" x2=\"\(fmt(Double(width) - right))\" y2=\"\(fmt(lineY))\"/>"
            svg +=
                "<text class=\"axis\" x=\"\(fmt(left - 6))\" y=\"\(fmt(lineY + 4))\" text-anchor=\"end\">\(step)%</text>"
        }
        let path = points.enumerated().map {
            "\($0.offset == 0 ? "M" : "L")\(fmt(x($0.offset))),\(fmt(y($0.element.ratio)))"
        }.joined(separator: " ")
        svg += "<path class=\"trend\" d=\"\(path)\"/>"
        for (index, point) in points.enumerated() {
            svg +=
                "<circle class=\"point\" cx=\"\(fmt(x(index)))\" cy=\"\(fmt(y(point.ratio)))\" r=\"4\">"
                + "<title>\(HTML.escape(point.label)): \(String(format: "%.0f%%", point.ratio * 100))</title></circle>"
        }
        svg += "<text class=\"axis\" x=\"\(fmt(left))\" y=\"\(height - 8)\">oldest</text>"
        svg +=
            "<text class=\"axis\" x=\"\(fmt(Double(width) - right))\" y=\"\(height - 8)\" text-anchor=\"end\">newest</text>"
        return svg + "</svg>"
    }

    private static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }
}
