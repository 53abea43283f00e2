import Foundation
import Models

/// One JSON Lines record of an export: the report as `GET /reports/{id}`
/// shows its current revision, plus `template_version`, `review_state` and
/// `change`; keys sorted. Written straight into bytes from the stored
/// canonical JSON (the payload and issues are copied, not decoded), because
/// an export writes millions of them.
enum ExportLine {
    /// Appends the record of `row` and its line feed.
    static func write(_ row: ExportedReport, templateVersion: Int?, generation: String, into out: inout JSONText) {
        let report = row.report
        let change = ReviewCursor.encode(row.review.change, generation: generation)
        out.beginObject()
        if let v = report.areaID { out.key("area_id"); out.string(v) }
        if let v = report.assignmentID { out.key("assignment_id"); out.string(v) }
        if let v = row.revision.baseRevision { out.key("base_revision"); out.integer(Int64(v)) }
        out.key("change"); out.string(change)
        out.key("completed_at"); out.string(report.acceptedAt)
        if let v = report.completedAtDevice { out.key("completed_at_device"); out.string(v) }
        out.key("facility_id"); out.string(report.facilityID)
        out.key("issues"); out.raw(row.revision.issuesJSON[...].utf8)
        out.key("local_id"); out.string(report.localID.uuidString.lowercased())
        if let v = report.parentLocalID { out.key("parent_local_id"); out.string(v.uuidString.lowercased()) }
        if let v = report.parentServerID { out.key("parent_server_id"); out.string(v) }
        out.key("payload"); writePayload(row.revision.payloadJSON, followUp: report.followUpRequired, into: &out)
        out.key("photos")
        out.beginArray()
        for photo in row.photos { writePhoto(photo, into: &out) }
        out.endArray()
        out.key("review"); writeReview(row.review, change: change, into: &out)
        out.key("review_state"); out.string(row.review.state.rawValue)
        out.key("revision"); out.integer(Int64(report.currentRevision))
        out.key("server_id"); out.string(report.serverID)
        out.key("template_id"); out.string(report.templateID)
        if let templateVersion { out.key("template_version"); out.integer(Int64(templateVersion)) }
        out.endObject()
        out.newline()
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
        let key = "\"follow_up_required\":"
        if let found = stored.range(of: key, options: .backwards) {
            let rest = stored[found.upperBound...]
            let current = rest.hasPrefix("true") ? "true" : rest.hasPrefix("false") ? "false" : nil
            if let current {
                let after = rest.index(rest.startIndex, offsetBy: current.count)
                out.raw(stored[..<found.upperBound].utf8)
                out.bytesAppend(followUp ? "true" : "false")
                out.bytesAppend(stored[after...])
                return
            }
        }
        var payload = CanonicalJSON.value(stored)
        if case .object(var members) = payload {
            members["follow_up_required"] = .bool(followUp)
            payload = .object(members)
        }
        out.raw(payload.canonicalString()[...].utf8)
    }

    private static func writePhoto(_ photo: StoredPhoto, into out: inout JSONText) {
        let local = photo.localID.uuidString.lowercased()
        out.beginObject()
        out.key("byte_size"); out.integer(photo.byteSize)
        if let v = photo.fieldID { out.key("field_id"); out.string(v) }
        if let v = photo.issueLocalID { out.key("issue_local_id"); out.string(v.uuidString.lowercased()) }
        out.key("local_id"); out.string(local)
        out.key("sha256"); out.string(photo.sha256)
        out.key("url"); out.string("\(Router.basePath)/reports/\(photo.serverID)/photos/\(local)")
        out.endObject()
    }

    private static func writeReview(_ review: StoredReview, change: String, into out: inout JSONText) {
        out.beginObject()
        out.key("change"); out.string(change)
        if let v = review.comment { out.key("comment"); out.string(v) }
        if let v = review.decidedAt { out.key("decided_at"); out.string(v) }
        if let person = review.decidedBy {
            out.key("decided_by")
            out.beginObject()
            out.key("display_name"); out.string(person.displayName)
            out.key("id"); out.string(person.id)
            out.endObject()
        }
        out.key("field_comments")
        out.beginArray()
        for item in review.fieldComments {
            out.beginObject()
            out.key("comment"); out.string(item.comment)
            out.key("field_id"); out.string(item.fieldID)
            out.endObject()
        }
        out.endArray()
        out.key("local_id"); out.string(review.localID.uuidString.lowercased())
        out.key("revision"); out.integer(Int64(review.revision))
        out.key("server_id"); out.string(review.serverID)
        out.key("state"); out.string(review.state.rawValue)
        out.endObject()
    }
}
