import Documents
import Foundation
import Models
import ServerStore

/// What heads the organisation's documents: its name and logo (admin
/// settings `org-name` and `logo`), and the time zone their days are in.
struct OrganisationLook: Sendable {
    var name: String
    var logo: Data?
    var zone: TimeZone

    /// Read in `session`; a name not set is "Inspection report".
    static func current(in session: any StorageSession) throws(ServerError) -> OrganisationLook {
        let name = try session.setting("org.name").flatMap { $0.isEmpty ? nil : $0 } ?? "Inspection report"
        let logo = try session.setting("org.logo").flatMap { Data(base64Encoded: $0) }
        return OrganisationLook(name: name, logo: logo, zone: try OrganisationZone.current(in: session))
    }

    /// The zone's name as people read it.
    var zoneName: String { OrganisationZone.name(zone) }

    /// The logo as a document draws it.
    var logoImage: DocumentImage? { logo.map { bytes in DocumentImage { bytes } } }

    /// An RFC 3339 time as people read it here: "7 Dec 2026, 09:41 (Europe/Paris)".
    func time(_ text: String?) -> String {
        guard let text, let date = RFC3339.date(text) else { return "—" }
        return Self.format(date, "d MMM yyyy, HH:mm", zone: zone) + " (\(zoneName))"
    }

    /// An RFC 3339 time's day here: "7 Dec".
    func day(_ text: String) -> String {
        guard let date = RFC3339.date(text) else { return "—" }
        return Self.format(date, "d MMM", zone: zone)
    }

    /// `date` in `zone` by a `DateFormatter` pattern, in British English.
    static func format(_ date: Date, _ pattern: String, zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}

extension DocumentImage {
    /// A stored photo, read from the photo store when its page is drawn.
    static func stored(sha256: String, byteSize: Int64, photos: any PhotoStore, caption: String? = nil)
        -> DocumentImage
    {
        DocumentImage(caption: caption) {
            guard let descriptor = try? photos.open(sha256: sha256, byteSize: byteSize) else { return nil }
            defer { close(descriptor) }
            var bytes = Data(count: Int(byteSize))
            var done = 0
            while done < bytes.count {
                let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, $0.count - done) }
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return nil }
                done += got
            }
            return bytes
        }
    }
}
