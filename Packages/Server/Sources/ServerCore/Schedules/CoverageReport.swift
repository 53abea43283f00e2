import FieldTypes
import Foundation
import Models
import ServerStore

/// Coverage for a period: for each site and area, the scheduled visits
/// whose window began in it and what became of them (on time, late,
/// missed, still open), the inspections accepted, and whether the area had
/// no inspection at all. Every live area of every live site is a line, so
/// an area nobody inspected shows, scheduled or not.
struct CoverageReport: Sendable {
    /// One site's area (or the site as a whole, for visits naming no area).
    struct Line: Sendable, Equatable {
        var facilityID: String
        var facilityName: String
        var areaID: String?
        var areaName: String
        var expected = 0
        var onTime = 0
        var late = 0
        var missed = 0
        var open = 0
        var inspections = 0

        /// Whether no inspection of it was accepted in the period.
        var uninspected: Bool { inspections == 0 }
    }

    var period: RollupPeriod
    var lines: [Line]

    /// The columns of the CSV.
    static let header = [
        "facility_id", "facility", "area_id", "area", "visits_expected", "on_time", "late", "missed", "open",
        "inspections", "no_inspection",
    ]

    /// Reads the coverage of `period` (of one site, or all) at `now`.
    static func read(
        period: RollupPeriod, facilityID: String?, now: Date, grace: TimeInterval, in session: any StorageSession
    ) throws(ServerError) -> CoverageReport {
        var lines: [String: Line] = [:]
        let facilities = try session.managedFacilities().filter {
            $0.retiredAt == nil && (facilityID == nil || $0.facility.id == facilityID)
        }
        let names = Dictionary(facilities.map { ($0.facility.id, $0.facility.name) }, uniquingKeysWith: { a, _ in a })
        for area in try session.managedAreas(facilityID: facilityID) where area.retiredAt == nil {
            guard let site = names[area.area.facilityID] else { continue }
            lines[key(area.area.facilityID, area.area.id)] = Line(
                facilityID: area.area.facilityID, facilityName: site, areaID: area.area.id, areaName: area.area.name)
        }
        for record in try session.visits(from: period.from, to: period.to, facilityID: facilityID) {
            let outcome = VisitOutcome(record, now: now, grace: grace)
            guard outcome != .cancelled else { continue }
            let visit = record.visit
            var line =
                lines[key(visit.facilityID, visit.areaID)]
                ?? Line(
                    facilityID: visit.facilityID, facilityName: names[visit.facilityID] ?? visit.facilityID,
                    areaID: visit.areaID, areaName: visit.areaID == nil ? "(whole site)" : (visit.areaID ?? ""))
            line.expected += 1
            switch outcome {
            case .onTime: line.onTime += 1
            case .late: line.late += 1
            case .missed: line.missed += 1
            case .open, .cancelled: line.open += 1
            }
            lines[key(visit.facilityID, visit.areaID)] = line
        }
        for count in try session.inspectionCounts(from: period.from, to: period.to, facilityID: facilityID) {
            lines[key(count.facilityID, count.areaID)]?.inspections += count.count
        }
        let sorted = lines.values.sorted {
            ($0.facilityName, $0.facilityID, $0.areaID == nil ? "" : $0.areaName, $0.areaID ?? "")
                < ($1.facilityName, $1.facilityID, $1.areaID == nil ? "" : $1.areaName, $1.areaID ?? "")
        }
        return CoverageReport(period: period, lines: sorted)
    }

    private static func key(_ facility: String, _ area: String?) -> String { facility + "\u{1F}" + (area ?? "") }

    /// The lines as cells, in the header's order.
    var rows: [[String]] {
        lines.map { line in
            [
                line.facilityID, line.facilityName, line.areaID ?? "", line.areaName, String(line.expected),
                String(line.onTime), String(line.late), String(line.missed), String(line.open),
                String(line.inspections), line.uninspected ? "yes" : "no",
            ]
        }
    }

    /// The CSV (RFC 4180, CRLF), the product's one cell rule.
    var csv: String {
        ([Self.header] + rows).map { CSVText.line($0, keepingNumbers: true) }.joined()
    }
}
