import Foundation
import Models
import ServerStore

/// The JSON of administered records, the same in the management API and
/// in `jqc-server admin ... --json`. A password hash never appears.
enum AdminWire {
    static func facility(_ record: ManagedFacility) -> JSONValue {
        Administration.json(record.facility).merging(["retired_at": optional(record.retiredAt)])
    }

    static func area(_ record: ManagedArea) -> JSONValue {
        Administration.json(record.area).merging(["retired_at": optional(record.retiredAt)])
    }

    static func assignment(_ record: ManagedAssignment) -> JSONValue {
        let state = record.cancelledAt != nil ? "cancelled" : (record.assignment.status == .open ? "open" : "done")
        return Administration.json(record).merging([
            "status": .string(record.assignment.status.rawValue), "state": .string(state),
            "cancelled_at": optional(record.cancelledAt),
        ])
    }

    static func schedule(_ schedule: StoredSchedule) -> JSONValue {
        [
            "id": .string(schedule.id), "template_id": .string(schedule.templateID),
            "facility_id": .string(schedule.facilityID), "area_ids": .array(schedule.areaIDs.map(JSONValue.string)),
            "inspector_ids": .array(schedule.inspectorIDs.map(JSONValue.string)), "rrule": .string(schedule.rule),
            "window": .string(schedule.window), "zone": .string(schedule.zone), "start": .string(schedule.startDate),
            "end": optional(schedule.endDate), "paused_at": optional(schedule.pausedAt),
            "version": .integer(Int64(schedule.version)), "created_at": .string(schedule.createdAt),
            "updated_at": .string(schedule.updatedAt),
        ]
    }

    static func template(_ record: ManagedTemplate) -> JSONValue {
        [
            "id": .string(record.template.id), "name": .string(record.template.name),
            "version": .integer(Int64(record.template.version)),
            "versions": .array(record.versions.map { .integer(Int64($0)) }),
            "fields": .integer(Int64(record.template.schema.fields.count)), "retired_at": optional(record.retiredAt),
        ]
    }

    static func user(_ user: StoredUser, facilities: [String]? = nil) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(user.id), "username": .string(user.username), "role": .string(user.role.rawValue),
            "display_name": .string(user.displayName), "disabled_at": optional(user.disabledAt),
        ]
        if let facilities { object["facilities"] = .array(facilities.map(JSONValue.string)) }
        return .object(object)
    }

    static func event(_ event: AdminEvent) -> JSONValue {
        [
            "seq": .integer(event.sequence), "at": .string(event.at),
            "actor": [
                "id": .string(event.actorID), "kind": .string(event.byCommandLine ? "command_line" : "user"),
                "username": optional(event.actorUsername), "name": .string(event.actorName),
            ],
            "kind": .string(event.kind), "subject": .string(event.subject), "detail": event.detail,
        ]
    }

    static func publication(_ publication: Administration.Publication) -> JSONValue {
        switch publication {
        case .published(let id, let version):
            ["id": .string(id), "version": .integer(Int64(version)), "published": true]
        case .unchanged(let id, let version):
            ["id": .string(id), "version": .integer(Int64(version)), "published": false]
        }
    }

    static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
}
