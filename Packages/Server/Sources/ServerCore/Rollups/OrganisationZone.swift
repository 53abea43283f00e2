import FieldTypes
import Foundation
import ServerStore

/// The organisation's time zone (an IANA name such as `Europe/Paris`): the
/// days, weeks, months and quarters of roll-ups begin at its midnight.
/// Checked against the system's zone database; UTC until an admin sets one.
enum OrganisationZone {
    /// The setting that holds the name.
    static let settingKey = "org.timezone"
    /// Where the system keeps its zone database.
    static let databaseFolder = "/usr/share/zoneinfo"

    /// The zone named `name`, or a 422 naming the fix: the name must be a
    /// zone of the system's database, as `ls /usr/share/zoneinfo` lists them.
    static func zone(named name: String) throws(ServerError) -> TimeZone {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        let safe =
            !trimmed.isEmpty && trimmed.count <= 64 && !trimmed.hasPrefix("/") && !trimmed.contains("..")
            && trimmed.unicodeScalars.allSatisfy {
                $0.isASCII && (Self.nameMarks.contains($0) || CharacterSet.alphanumerics.contains($0))
            }
        var isFolder: ObjCBool = false
        guard safe, FileManager.default.fileExists(atPath: databaseFolder + "/" + trimmed, isDirectory: &isFolder),
            !isFolder.boolValue, let zone = TimeZone(identifier: trimmed)
        else {
            throw ServerError.badRequest(
                "\(OneLine.quote(name, limit: 64)) is not a time zone of this system's zone database; give an IANA name such as Europe/Paris or America/New_York"
            )
        }
        return zone
    }

    /// The organisation's zone as stored (UTC when none is set, or when the
    /// stored name has since left the zone database).
    static func current(in session: any StorageSession) throws(ServerError) -> TimeZone {
        guard let name = try session.setting(settingKey) else { return utc }
        return (try? zone(named: name)) ?? utc
    }

    /// What a zone name may hold besides letters and digits.
    private static let nameMarks: Set<Unicode.Scalar> = ["/", "_", "-", "+"]

    static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current

    /// A zone's name as people read it: its IANA name, and "UTC" for UTC
    /// (which Foundation names "GMT").
    static func name(_ zone: TimeZone) -> String { zone.identifier == "GMT" ? "UTC" : zone.identifier }
}
