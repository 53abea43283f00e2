import APIRoutes
import Foundation
import Models
import ServerStore

/// One JSON Lines record of an export: the report as `GET /reports/{id}`
/// shows its current revision, plus `template_version`, `review_state` and
/// `change`; keys sorted. Written straight into bytes from the stored
/// canonical JSON (the payload and issues are copied, not decoded), because
/// an export writes millions of them.
enum ExportLine {
    /// Appends the record of `row` and its line feed.
    static func write(_ row: ExportedReport, templateVersion: Int?, generation: String, into out: inout JSONText) {
        writeReport(row, templateVersion: templateVersion, generation: generation, exportKeys: true, into: &out)
        out.newline()
    }

    /// Appends the report object of `row`: as `GET /reports/{id}` shows it
    /// with `template_version`, and with the export's `change` and
    /// `review_state` when `exportKeys` (a webhook event leaves them out).
    static func writeReport(
        _ row: ExportedReport, templateVersion: Int?, generation: String, exportKeys: Bool, into out: inout JSONText
    ) {
        let change = ReviewCursor.encode(row.review.change, generation: generation)
        out.beginObject()
        if let v = row.areaID { out.key("area_id"); out.string(v) }
        if let v = row.assignmentID { out.key("assignment_id"); out.string(v) }
        if let v = row.baseRevision { out.key("base_revision"); out.integer(Int64(v)) }
        if exportKeys { out.key("change"); out.string(change) }
        out.key("completed_at"); out.string(row.acceptedAt)
        if let v = row.completedAtDevice { out.key("completed_at_device"); out.string(v) }
        let grade = ReportGrade(json: row.gradeJSON)
        out.key("deficiencies")
        out.beginArray()
        for id in grade?.deficiencies ?? [] { out.string(id) }
        out.endArray()
        out.key("facility_id"); out.string(row.facilityID)
        out.key("issues"); out.raw(row.issuesJSON[...].utf8)
        out.key("local_id"); out.string(row.localID)
        if let v = row.parentLocalID { out.key("parent_local_id"); out.string(v) }
        if let v = row.parentServerID { out.key("parent_server_id"); out.string(v) }
        if let passed = grade?.passed { out.key("passed"); out.bool(passed) }
        out.key("payload"); writePayload(row.payloadJSON, followUp: row.followUpRequired, into: &out)
        out.key("photos")
        out.beginArray()
        for photo in row.photos { writePhoto(photo, into: &out) }
        out.endArray()
        out.key("review"); writeReview(row, change: change, into: &out)
        if exportKeys { out.key("review_state"); out.string(row.review.state.rawValue) }
        out.key("revision"); out.integer(Int64(row.revision))
        out.key("score")
        let score: Double? = grade.map { $0.score } ?? row.score
        if let score { out.number(score) } else { out.null() }
        out.key("server_id"); out.string(row.serverID)
        out.key("template_id"); out.string(row.templateID)
        if let templateVersion { out.key("template_version"); out.integer(Int64(templateVersion)) }
        out.endObject()
    }

    /// The last line: `{"change": C, "count": N, "end": true}`.
    static func writeEnd(count: Int, change: String, into out: inout JSONText) {
        out.beginObject()
        out.key("change"); out.string(change)
        out.key("count"); out.integer(Int64(count))
        out.key("end"); out.bool(true)
        out.endObject()
        out.newline()
    }

    /// The stored payload with `follow_up_required` as the report stands
    /// (a re-inspection clears it). The canonical payload ends with that key
    /// and `score` (keys sorted, `answers` first), so its last occurrence is
    /// the top-level one; any other shape is decoded and encoded instead.
    static func writePayload(_ stored: String, followUp: Bool, into out: inout JSONText) {
        var stored = stored
        let patched: Bool = stored.withUTF8 { bytes in
            guard let at = lastFlag(in: bytes) else { return false }
            let rest = UnsafeBufferPointer(rebasing: bytes[at...])
            let current = rest.starts(with: "true".utf8) ? 4 : rest.starts(with: "false".utf8) ? 5 : 0
            guard current > 0 else { return false }
            out.raw(UnsafeBufferPointer(rebasing: bytes[..<at]))
            out.appendContinuing((followUp ? "true" : "false").utf8)
            out.appendContinuing(UnsafeBufferPointer(rebasing: bytes[(at + current)...]))
            return true
        }
        if patched { return }
        var payload = CanonicalJSON.value(stored)
        if case .object(var members) = payload {
            members["follow_up_required"] = .bool(followUp)
            payload = .object(members)
        }
        out.raw(payload.canonicalString()[...].utf8)
    }

    /// Where the value of the last `"follow_up_required":` begins, searched from the end.
    private static func lastFlag(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let key = Array("\"follow_up_required\":".utf8)
        guard bytes.count >= key.count else { return nil }
        var start = bytes.count - key.count
        while start >= 0 {
            if bytes[start] == key[0] {
                var matched = true
                for offset in 1..<key.count where bytes[start + offset] != key[offset] {
                    matched = false
                    break
                }
                if matched { return start + key.count }
            }
            start -= 1
        }
        return nil
    }

    private static func writePhoto(_ photo: StoredPhoto, into out: inout JSONText) {
        let local = photo.localID.uuidString.lowercased()
        out.beginObject()
        out.key("byte_size"); out.integer(photo.byteSize)
        if let v = photo.fieldID { out.key("field_id"); out.string(v) }
        if let v = photo.issueLocalID { out.key("issue_local_id"); out.string(v.uuidString.lowercased()) }
        out.key("local_id"); out.string(local)
        out.key("sha256"); out.string(photo.sha256)
        out.key("url"); out.string(APIRoute.downloadPhoto.fullPath(photo.serverID, local))
        out.endObject()
    }

    private static func writeReview(_ row: ExportedReport, change: String, into out: inout JSONText) {
        let review = row.review
        out.beginObject()
        out.key("change"); out.string(change)
        if let v = review.comment { out.key("comment"); out.string(v) }
        if let v = review.decidedAt { out.key("decided_at"); out.string(v) }
        if let id = review.decidedByID {
            out.key("decided_by")
            out.beginObject()
            out.key("display_name"); out.string(review.decidedByName ?? "")
            out.key("id"); out.string(id)
            out.endObject()
        }
        out.key("field_comments"); out.raw(review.fieldCommentsJSON[...].utf8)
        out.key("local_id"); out.string(row.localID)
        out.key("revision"); out.integer(Int64(review.revision))
        out.key("server_id"); out.string(row.serverID)
        out.key("state"); out.string(review.state.rawValue)
        out.endObject()
    }
}
