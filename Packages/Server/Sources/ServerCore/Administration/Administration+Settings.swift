import Documents
import Foundation
import Models
import ServerStore

/// The organisation's settings: its time zone (the days roll-ups and
/// documents count in), its name and its logo (for its documents).
extension Administration {
    /// A setting an admin may set.
    enum Setting: String, CaseIterable, Sendable {
        case timezone
        case orgName = "org-name"
        case logo
        case visitGrace = "visit-grace"

        /// Where the store keeps it.
        var key: String {
            switch self {
            case .timezone: return OrganisationZone.settingKey
            case .orgName: return "org.name"
            case .logo: return "org.logo"
            case .visitGrace: return VisitGrace.settingKey
            }
        }
    }

    /// The largest logo kept.
    static let logoLimit = 512 * 1024

    /// Sets `setting` to `value` (for `logo`, the path of a PNG or JPEG file
    /// of at most 512 KiB, kept as base64); returns what people read of it.
    func set(_ setting: Setting, to value: String, by actor: AdminActor) throws(ServerError) -> String {
        let stored: String
        let shown: String
        switch setting {
        case .timezone:
            let zone = try OrganisationZone.zone(named: value)
            stored = zone.identifier
            shown = zone.identifier
        case .orgName:
            stored = try AdminInput.text(value, "the organisation's name", limit: 120)
            shown = stored
        case .logo:
            let bytes = try AdminCommands.read(value)
            guard bytes.count <= Self.logoLimit else {
                throw ServerError.tooLarge("'\(value)' is \(bytes.count) bytes; a logo may be at most 512 KiB")
            }
            // Checked as the documents will draw it: a logo they cannot draw is refused now.
            if let problem = DocumentImage.problem(bytes) { throw ServerError.badRequest("'\(value)' \(problem)") }
            stored = bytes.base64EncodedString()
            shown = "\(bytes.count) bytes"
        case .visitGrace:
            stored = String(try VisitGrace.hours(value))
            shown = "\(stored) hours"
        }
        try change(by: actor) { session, events in
            try session.setSetting(setting.key, stored)
            try events.record("settings.set", setting.rawValue, ["value": .string(shown)])
        }
        return shown
    }

    /// Every setting with what people read of it; nil for one not set.
    func settings() throws(ServerError) -> [(Setting, String?)] {
        try store.read { session -> [(Setting, String?)] in
            try Setting.allCases.map { setting in
                let value = try session.setting(setting.key)
                guard let value else { return (setting, nil) }
                return (setting, setting == .logo ? "\(Data(base64Encoded: value)?.count ?? 0) bytes" : value)
            }
        }
    }
}
