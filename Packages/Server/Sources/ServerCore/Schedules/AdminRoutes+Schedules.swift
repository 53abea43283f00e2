import Foundation
import Models
import ServerStore

/// The management API's schedules: list, add, change (pause and resume with
/// `"paused"`), remove. A change makes the horizon's visits before it answers.
extension AdminRoutes {
    func schedules(_ admin: Administration) throws(ServerError) -> Reply {
        let now = admin.now()
        let list = try admin.schedules().map { schedule in
            let words = ScheduleWords(schedule, after: now)
            return AdminWire.schedule(schedule).merging([
                "words": .string(words.rule), "next": .array(words.next.map(JSONValue.string)),
            ])
        }
        return .ok(["schedules": .array(list)] as JSONValue)
    }

    /// A new schedule from the body; 201 with the visits made.
    func addSchedule(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor) throws(ServerError) -> Reply {
        let body = try input.decode(JSONValue.self)
        let request = Administration.ScheduleRequest(
            id: try Self.text(body, "id", optional: true), templateID: try Self.text(body, "template_id"),
            facilityID: try Self.text(body, "facility_id"), areaIDs: try Self.names(body, "area_ids") ?? [],
            inspectors: try Self.names(body, "inspectors") ?? [], rule: try Self.text(body, "rrule"),
            window: try Self.text(body, "window"), start: try Self.text(body, "start"),
            end: try Self.text(body, "end", optional: true), zone: try Self.text(body, "zone", optional: true))
        let schedule = try admin.createSchedule(request, by: actor)
        return .ok(
            ["schedule": AdminWire.schedule(schedule), "visits_made": try makeVisits(admin)] as JSONValue, status: 201)
    }

    /// A schedule changed, paused or resumed (`"paused"` alone), one version on.
    func changeSchedule(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor) throws(ServerError)
        -> Reply
    {
        let id = try input.parameter("id")
        let body = try input.decode(JSONValue.self)
        let edit = Administration.ScheduleChange(
            templateID: try Self.text(body, "template_id", optional: true),
            facilityID: try Self.text(body, "facility_id", optional: true), areaIDs: try Self.names(body, "area_ids"),
            inspectors: try Self.names(body, "inspectors"), rule: try Self.text(body, "rrule", optional: true),
            window: try Self.text(body, "window", optional: true), start: try Self.text(body, "start", optional: true),
            end: try Self.text(body, "end", optional: true, nullClears: true),
            zone: try Self.text(body, "zone", optional: true))
        var schedule: StoredSchedule
        if let paused = try Self.flag(body, "paused") {
            guard body.objectValue?.count == 1 else {
                throw ServerError.badRequest(
                    "pause or resume a schedule with {\"paused\": true|false} alone; nothing was changed")
            }
            schedule = try admin.pauseSchedule(id: id, paused: paused, by: actor)
        } else {
            schedule = try admin.changeSchedule(id: id, edit, by: actor)
        }
        return .ok(["schedule": AdminWire.schedule(schedule), "visits_made": try makeVisits(admin)] as JSONValue)
    }

    /// A schedule removed; its visits not yet begun cancelled.
    func removeSchedule(_ input: RouteInput, _ admin: Administration, _ actor: AdminActor) throws(ServerError)
        -> Reply
    {
        let id = try input.parameter("id")
        let cancelled = try admin.removeSchedule(id: id, by: actor)
        return .ok(["removed": .string(id), "visits_cancelled": .integer(Int64(cancelled))] as JSONValue)
    }

    /// Makes the visits this server's horizon holds now; how many were new.
    private func makeVisits(_ admin: Administration) throws(ServerError) -> JSONValue {
        .integer(
            Int64(
                try VisitMaking(store: admin.store, horizonDays: context.config.scheduleHorizonDays).pass(
                    now: admin.now(), log: context.log)))
    }

    /// A list of names or ids at `key` (at most 100); nil when absent.
    private static func names(_ body: JSONValue, _ key: String) throws(ServerError) -> [String]? {
        guard let value = body[key], !value.isNull else { return nil }
        guard let items = value.arrayValue, items.count <= 100 else {
            throw ServerError.badRequest("'\(key)' must be a list of at most 100 names or ids")
        }
        var out: [String] = []
        for item in items {
            guard let text = item.stringValue else {
                throw ServerError.badRequest("'\(key)' must be a list of names or ids")
            }
            out.append(try AdminInput.id(text, "'\(key)'"))
        }
        return out
    }
}
