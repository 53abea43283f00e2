import Documents
import FieldTypes
import Foundation
import Models
import ServerStore

/// What a digest attaches for a client: the site summary, drawn as the
/// console draws it (client-safe, past the review gate).
struct DigestDocuments: Sendable {
    var registry: FieldTypeRegistry
    var photos: any PhotoStore
    var gate: ClientScope.ReportGate
}

/// The digests of one pass: for each frequency, the latest period whose
/// sending time has come, made for a few people at a time in the order of
/// their ids, from a cursor (`mail.digest.daily`, `mail.digest.weekly`:
/// the period and the last person done). A person's digest is made only
/// when their sites had activity in the period, and at most once: its
/// Message-ID is made from the period and the person.
struct MailDigests {
    /// People whose digests one pass makes (a client's carries PDFs).
    static let batch = 10
    /// The most site summaries one digest attaches.
    static let attachmentLimit = 3

    let session: any StorageSession
    let settings: MailSettings
    let documents: DigestDocuments
    let now: Date
    let look: OrganisationLook

    /// Makes this pass's digests; how many people it went through.
    func make(for people: [MailRecipient], into alerts: inout MailAlerts, plan: inout MailPlan) throws(ServerError)
        -> Int
    {
        var work = 0
        for frequency in [DigestFrequency.daily, .weekly] {
            guard let period = DigestPeriod.due(frequency, zone: look.zone, now: now) else { continue }
            let key = "mail.digest." + frequency.rawValue
            // Mail turned on (or first run): this period's sending time has passed; the next one is sent.
            let stored = try plan.cursor(key, in: session, start: period.key + "|done")
            let parts = stored.split(separator: "|", maxSplits: 1).map(String.init)
            let last = parts.first == period.key ? (parts.count > 1 ? parts[1] : "") : ""
            guard last != "done" else { continue }
            let due = people.filter { $0.preferences.digest == frequency && $0.userID > last }.sorted {
                $0.userID < $1.userID
            }
            let taken = Array(due.prefix(Self.batch))
            for person in taken {
                if let notice = try digest(for: person, period: period) { alerts.send(notice, to: [person]) }
            }
            let next = due.count <= Self.batch ? "done" : taken.last?.userID ?? "done"
            plan.move(key, to: period.key + "|" + next)
            work += max(taken.count, 1)
        }
        return work
    }

    /// A person's digest for `period`, or nil when their sites had no activity in it.
    func digest(for person: MailRecipient, period: DigestPeriod) throws(ServerError) -> MailNotice? {
        let isClient = person.role == .client
        let sites = try DigestReading(session: session, person: person, period: period, gate: documents.gate, now: now)
            .read()
        guard sites.contains(where: \.hadActivity) else { return nil }
        var lines: [String] = []
        for site in sites where site.hadActivity || !site.overdue.isEmpty {
            lines += site.lines(look: look)
        }
        var notice = MailNotice(
            kind: "digest-" + period.frequency.rawValue, about: period.key,
            subject: "\(period.frequency == .daily ? "Daily" : "Weekly") digest: \(period.name)",
            heading: "What happened at your sites: \(period.name)", lines: lines,
            page: isClient ? "/buildings" : "/queue", pageLabel: isClient ? "Open My buildings" : "Open the console")
        if isClient {
            notice.attachments = try summaries(of: sites.filter(\.hadActivity), period: period)
        }
        return notice
    }

    /// The site summaries of a client's active sites for the period, drawn as PDFs.
    private func summaries(of sites: [DigestSite], period: DigestPeriod) throws(ServerError) -> [MailAttachment] {
        var files: [MailAttachment] = []
        for site in sites.prefix(Self.attachmentLimit) {
            let document = try SiteSummary(
                facilityID: site.facility.id, period: RollupPeriod(from: period.from, to: period.to, name: period.name),
                periodName: period.name, gate: documents.gate, registry: documents.registry, photos: documents.photos,
                now: now
            ).read(in: session)
            let bytes: [UInt8]
            do throws(DocumentsError) {
                let file = try DocumentFile.unnamed { (descriptor) throws(DocumentsError) in
                    try document.write(to: descriptor)
                }
                defer { close(file.descriptor) }
                bytes = Self.read(file.descriptor, count: Int(file.byteSize))
            } catch {
                throw ServerError.internal("the site summary could not be drawn: \(error.message)")
            }
            files.append(
                MailAttachment(
                    fileName: "summary-\(site.facility.id)-\(period.key).pdf", contentType: "application/pdf",
                    bytes: bytes))
        }
        return files
    }

    /// The `count` bytes of an unnamed file, from its start.
    private static func read(_ descriptor: Int32, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return Array(bytes.prefix(done))
    }
}
