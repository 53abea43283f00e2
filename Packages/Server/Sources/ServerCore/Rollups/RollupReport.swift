import FieldTypes
import Foundation
import Models
import ServerStore

/// One line of a roll-up: a group's sums with what people call it.
struct RollupLine: Sendable, Equatable {
    var sums: RollupSums
    /// The group's name (a site's, an area's, a person's, a form's); the
    /// area type itself; for `item`, the form's name.
    var name: String
    /// For `item`, the field's label.
    var fieldLabel: String?
}

/// A roll-up answered: the period, what it groups by, and its lines, the
/// groups by name (by item, those deficient most often first); read in one
/// snapshot, written as CSV or as a table.
struct RollupReport: Sendable {
    var period: RollupPeriod
    var by: RollupKey
    var lines: [RollupLine]
    /// The time zone the period's days are counted in.
    var zoneName = "UTC"

    /// Reads the roll-up `query` asks for over `period`, with the names of its groups.
    static func read(
        by: RollupKey, period: RollupPeriod, facilityID: String? = nil, templateID: String? = nil,
        in session: any StorageSession
    ) throws(ServerError) -> RollupReport {
        let sums = try session.gradeRollup(
            RollupQuery(by: by, from: period.from, to: period.to, facilityID: facilityID, templateID: templateID))
        let names = try Names(by: by, in: session)
        var lines = sums.map { names.line($0) }
        if by == .item {
            lines.sort {
                let (a, b) = ($0.sums.deficienciesPerInspection ?? 0, $1.sums.deficienciesPerInspection ?? 0)
                return a != b ? a > b : ($0.name, $0.fieldLabel ?? "") < ($1.name, $1.fieldLabel ?? "")
            }
        } else {
            lines.sort { ($0.name.lowercased(), $0.sums.key) < ($1.name.lowercased(), $1.sums.key) }
        }
        return RollupReport(
            period: period, by: by, lines: lines,
            zoneName: OrganisationZone.name(try OrganisationZone.current(in: session)))
    }

    /// The header of the CSV.
    var header: [String] {
        by == .item
            ? ["period", "template_id", "template", "field_id", "field", "inspections", "deficient", "deficient_share"]
            : [
                "period", "id", "name", "inspections", "scored", "average_score", "graded", "passed", "pass_rate",
                "deficiencies", "deficiencies_per_inspection",
            ]
    }

    /// Each line's cells, in the header's order.
    var rows: [[String]] {
        lines.map { line in
            let s = line.sums
            if by == .item {
                return [
                    period.name, s.key, line.name, s.field ?? "", line.fieldLabel ?? "", String(s.inspections),
                    String(s.deficiencies), Self.number(s.deficienciesPerInspection),
                ]
            }
            return [
                period.name, s.key, line.name, String(s.inspections), String(s.scored), Self.number(s.averageScore),
                String(s.graded), String(s.passed), Self.number(s.passRate), String(s.deficiencies),
                Self.number(s.deficienciesPerInspection),
            ]
        }
    }

    /// The CSV (RFC 4180, CRLF), the product's one cell rule.
    var csv: String {
        ([header] + rows).map { CSVText.line($0, keepingNumbers: true) }.joined()
    }

    /// A share or mean to four places; empty when there is none.
    static func number(_ value: Double?) -> String {
        guard let value else { return "" }
        return String(format: "%.4f", value)
    }

    /// What each key of a group is called, read once.
    private struct Names {
        let by: RollupKey
        var names: [String: String] = [:]
        var labels: [String: [String: String]] = [:]

        init(by: RollupKey, in session: any StorageSession) throws(ServerError) {
            self.by = by
            switch by {
            case .site:
                for f in try session.managedFacilities() { names[f.facility.id] = f.facility.name }
            case .area:
                for a in try session.managedAreas(facilityID: nil) { names[a.area.id] = a.area.name }
                names[""] = "(no area)"
            case .areaType:
                names[""] = "(no type)"
            case .inspector:
                for u in try session.allUsers() { names[u.id] = u.displayName.isEmpty ? u.username : u.displayName }
            case .template, .item:
                for t in try session.managedTemplates() {
                    names[t.template.id] = t.template.name
                    var fields: [String: String] = [:]
                    for field in t.template.schema.fields { fields[field.id.rawValue] = field.displayName }
                    labels[t.template.id] = fields
                }
            }
        }

        func line(_ sums: RollupSums) -> RollupLine {
            let name = names[sums.key] ?? sums.key
            guard by == .item else { return RollupLine(sums: sums, name: name, fieldLabel: nil) }
            let field = sums.field ?? ""
            return RollupLine(sums: sums, name: name, fieldLabel: labels[sums.key]?[field] ?? "field \(field)")
        }
    }
}
