import Foundation
import Models
import Storage

/// The JSON body of one `POST /reports/sync`, written straight from the
/// stored reports: the shape of `SyncRequest` (every key of `WireReport`,
/// nulls included), with each report's answers copied as the canonical JSON
/// text the store keeps instead of being parsed and encoded again.
struct SyncRequestBody: Sendable {
    /// The request's bytes.
    let data: Data

    /// The body for `reports`, sent by `deviceID`.
    init(
        deviceID: UUID, appVersion: String, schemaVersion: Int, reports: [OutgoingReport],
        merge: String? = SyncRequest.mergeFields
    ) {
        var out: [UInt8] = []
        out.reserveCapacity(256 + reports.reduce(0) { $0 + $1.answersJSON.utf8.count + 640 })
        out.append(contentsOf: #"{"device_id":"#.utf8)
        Self.string(deviceID.wireString, &out)
        out.append(contentsOf: #","app_version":"#.utf8)
        Self.string(appVersion, &out)
        out.append(contentsOf: #","schema_version":"#.utf8)
        out.append(contentsOf: String(schemaVersion).utf8)
        out.append(contentsOf: #","reports":["#.utf8)
        for (index, report) in reports.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            Self.report(report, &out)
        }
        out.append(UInt8(ascii: "]"))
        if let merge {
            out.append(contentsOf: #","merge":"#.utf8)
            Self.string(merge, &out)
        }
        out.append(UInt8(ascii: "}"))
        data = Data(out)
    }

    private static func report(_ report: OutgoingReport, _ out: inout [UInt8]) {
        key("local_id", first: true, &out); string(report.localID.wireString, &out)
        key("server_id", &out); optional(report.serverID, &out)
        key("base_revision", &out); integer(report.baseRevision, &out)
        key("assignment_id", &out); optional(report.assignmentID, &out)
        key("template_id", &out); string(report.templateID, &out)
        if let version = report.templateVersion { key("template_version", &out); integer(version, &out) }
        key("facility_id", &out); string(report.facilityID, &out)
        key("area_id", &out); optional(report.areaID, &out)
        key("parent_local_id", &out); optional(report.parentLocalID?.wireString, &out)
        key("parent_server_id", &out); optional(report.parentServerID, &out)
        key("completed_at_device", &out); optional(report.completedAtDevice.map(ReportPayload.rfc3339), &out)
        key("payload", &out)
        // The stored answers are canonical JSON of an object, written by the store itself.
        key("answers", first: true, &out); out.append(contentsOf: report.answersJSON.utf8)
        key("score", &out); number(report.score, &out)
        key("follow_up_required", &out); out.append(contentsOf: (report.followUpRequired ? "true" : "false").utf8)
        out.append(UInt8(ascii: "}"))
        key("issues", &out)
        out.append(UInt8(ascii: "["))
        for (index, issue) in report.issues.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            key("local_id", first: true, &out); string(issue.localID.wireString, &out)
            key("severity", &out); string(issue.severity.rawValue, &out)
            key("description", &out); string(issue.description, &out)
            key("photo_local_ids", &out)
            out.append(UInt8(ascii: "["))
            for (at, photo) in issue.photoLocalIDs.enumerated() {
                if at > 0 { out.append(UInt8(ascii: ",")) }
                string(photo.wireString, &out)
            }
            out.append(contentsOf: "]}".utf8)
        }
        out.append(contentsOf: "]}".utf8)
    }

    /// `"name":`, opening an object first when `first`.
    private static func key(_ name: StaticString, first: Bool = false, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: first ? "{" : ","))
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out += $0 }
        out.append(contentsOf: "\":".utf8)
    }

    private static func optional(_ text: String?, _ out: inout [UInt8]) {
        if let text { string(text, &out) } else { out.append(contentsOf: "null".utf8) }
    }

    private static func integer(_ value: Int?, _ out: inout [UInt8]) {
        if let value { out.append(contentsOf: String(value).utf8) } else { out.append(contentsOf: "null".utf8) }
    }

    /// A number as JSON writes it: whole numbers without a fraction; null for
    /// one JSON cannot hold (not finite), as the store's canonical JSON does.
    private static func number(_ value: Double?, _ out: inout [UInt8]) {
        guard let value, value.isFinite else { out.append(contentsOf: "null".utf8); return }
        if value == value.rounded(), abs(value) < 1e15 {
            out.append(contentsOf: String(Int64(value)).utf8)
        } else {
            out.append(contentsOf: "\(value)".utf8)
        }
    }

    /// A JSON string, escaped as `JSONEncoder` escapes one (`JSONString`).
    static func string(_ text: String, _ out: inout [UInt8]) { JSONString.append(text, to: &out) }
}
