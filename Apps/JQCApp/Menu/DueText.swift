import Foundation
import Models

/// When an assignment is due, as an inspector reads it in a menu: the
/// machine's local day and time (`2027-01-12 11:00`), `-` for none; a due
/// time that cannot be read is shown as it came, cut to fit.
enum DueText {
    static let width = 16

    static func of(_ dueAt: String?) -> String {
        guard let dueAt else { return "-" }
        guard let date = RFC3339.date(dueAt) else { return MenuScreen.cell(dueAt, width) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
