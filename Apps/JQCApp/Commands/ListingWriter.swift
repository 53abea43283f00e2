import JQCCore
import Models

/// Writes `jqc list` as its rows are read from the store: a fixed-width
/// table for a person, or one JSON document, built as bytes and written
/// 64 KiB at a time. Nothing but the current row and the pending bytes is
/// held, so 100,000 reports list in the memory of ten (BENCHMARKS.md). Stops
/// at the first failed write (a closed pipe, a full disk); `ProgramExit`
/// reports it.
final class ListingWriter {
    private let json: Bool
    /// The server answers the reviews feed: a SYNCED report with no review yet reads as awaiting one.
    private let serverHasReviews: Bool
    private var bytes: [UInt8] = []
    private var written = 0
    private var failed = false

    init(json: Bool, serverHasReviews: Bool = false) {
        self.json = json
        self.serverHasReviews = serverHasReviews
        bytes.reserveCapacity(Self.flushAt + 4096)
    }

    private static let flushAt = 64 * 1024
    /// ID, STATE, TEMPLATE, FACILITY, SCORE, REVIEW; the follow-up mark last, unpadded.
    private static let widths = [8, 9, 24, 12, 5, 8]

    /// Adds one report; false once output has failed (the store stops reading).
    func add(_ listing: ReportListing) -> Bool {
        if json {
            append(written == 0 ? "{\"reports\":[" : ",")
            appendObject(listing)
        } else {
            if written == 0 { appendRow(["ID", "STATE", "TEMPLATE", "FACILITY", "SCORE", "REVIEW", ""]) }
            // The template's name and the ids came from the server or a file: through OneLine (the JSON keeps them exact).
            appendRow([
                Self.shortID(listing.localID), listing.state,
                listing.templateName.map(flatLine) ?? oneLine(listing.templateID),
                oneLine(listing.facilityID),
                listing.score.map { String(Int(($0 * 100).rounded())) + "%" } ?? "-",
                reviewState(listing).map(Self.reviewWord) ?? "-",
                listing.followUpRequired ? "follow-up" : "",
            ])
        }
        written += 1
        if bytes.count >= Self.flushAt { flush() }
        return !failed
    }

    /// The review state a listed report reads as (see `Workspace.reviewState(of:stored:serverHasReviews:)`).
    private func reviewState(_ listing: ReportListing) -> ReviewState? {
        Workspace.reviewState(
            of: ReportState(rawValue: listing.state) ?? .draft,
            stored: listing.reviewState.flatMap(ReviewState.init(rawValue:)), serverHasReviews: serverHasReviews)
    }

    /// The review column's word: `awaiting`, `approved`, `returned`, `rejected`.
    private static func reviewWord(_ state: ReviewState) -> String {
        state == .awaitingReview ? "awaiting" : state.rawValue
    }

    /// Ends the document or the table; says how many were left out.
    func finish(total: Int, state: ReportState?) {
        if json {
            if written == 0 { append("{\"reports\":[") }
            append("],\"total\":\(total)}\n")
        } else if written == 0 {
            append(
                "No reports\(state.map { " in state \($0.rawValue)" } ?? "") on this device. Start one with 'jqc start'.\n"
            )
        } else if total > written {
            append(
                "Showing the newest \(written) of \(total); 'jqc list --all' lists every one, '--limit N' the newest N.\n"
            )
        }
        flush()
    }

    private func flush() {
        guard !failed, !bytes.isEmpty else { return }
        if !standardOutput.write(String(decoding: bytes, as: UTF8.self)) { failed = true }
        bytes.removeAll(keepingCapacity: true)
    }

    private func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    private func spaces(_ count: Int) {
        for _ in 0..<max(0, count) { bytes.append(0x20) }
    }

    /// The first eight characters of an id, lowercase.
    private static func shortID(_ id: String) -> String { lowercase(String(id.prefix(8))) }

    private func appendRow(_ cells: [String]) {
        let start = bytes.count
        for (index, cell) in cells.enumerated() {
            guard index < Self.widths.count else {
                append(cell)
                break
            }
            let width = Self.widths[index]
            // Plain ASCII (ids, states, most names) is measured in bytes; anything else in characters.
            if cell.utf8.allSatisfy({ $0 < 0x80 }) {
                let length = cell.utf8.count
                if length > width {
                    bytes.append(contentsOf: cell.utf8.prefix(width - 1))
                    append("…")
                    spaces(2)
                } else {
                    append(cell)
                    spaces(width - length + 2)
                }
            } else {
                let length = cell.count
                append(length > width ? String(cell.prefix(width - 1)) + "…" : cell)
                spaces(length > width ? 2 : width - length + 2)
            }
        }
        while bytes.count > start, bytes.last == 0x20 { bytes.removeLast() }
        bytes.append(0x0A)
    }

    /// The report as JSON, keys sorted as in every other `--json` document.
    private func appendObject(_ listing: ReportListing) {
        append("{\"area_id\":")
        appendJSON(listing.areaID)
        append(",\"facility_id\":")
        appendJSON(listing.facilityID)
        append(",\"follow_up_required\":")
        append(listing.followUpRequired ? "true" : "false")
        append(",\"local_id\":")
        appendJSON(Self.lowercase(listing.localID))
        append(",\"parent_local_id\":")
        appendJSON(listing.parentLocalID.map(Self.lowercase))
        append(",\"review_state\":")
        appendJSON(reviewState(listing)?.rawValue)
        append(",\"score\":")
        if let score = listing.score { append(JSONValue.double(score).canonicalString()) } else { append("null") }
        append(",\"server_id\":")
        appendJSON(listing.serverID)
        append(",\"state\":")
        appendJSON(listing.state)
        append(",\"template_id\":")
        appendJSON(listing.templateID)
        append("}")
    }

    private static func lowercase(_ id: String) -> String {
        String(decoding: id.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// A JSON string (or null), escaped as JSON requires.
    private func appendJSON(_ text: String?) {
        guard let text else { return append("null") }
        bytes.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                append("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }
}
