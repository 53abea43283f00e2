import Foundation
import Models
import ServerStore

/// Schedules: recurring inspections an admin adds, changes, pauses and
/// removes. Every change is checked whole (template, facility, areas,
/// inspectors, rule, window, zone, days) before anything is stored, and a
/// change cancels the schedule's visits not yet begun: the visits of the
/// new version are made in their place.
extension Administration {
    /// What an admin asks for when adding a schedule.
    struct ScheduleRequest: Sendable {
        /// The organisation's own id for it; nil makes one.
        var id: String?
        var templateID: String
        var facilityID: String
        /// Areas of the facility; empty: the whole facility.
        var areaIDs: [String]
        /// Inspectors by user name or id, each visit given to the next in turn.
        var inspectors: [String]
        var rule: String
        var window: String
        /// `YYYY-MM-DD`, the first day it may occur on.
        var start: String
        var end: String?
        /// An IANA zone; nil: the organisation's.
        var zone: String?
    }

    /// What a change of a schedule sets; nil leaves it; an empty end date clears it.
    struct ScheduleChange: Sendable {
        var templateID: String?
        var facilityID: String?
        var areaIDs: [String]?
        var inspectors: [String]?
        var rule: String?
        var window: String?
        var start: String?
        var end: String?
        var zone: String?
    }

    /// Every schedule, by id.
    func schedules() throws(ServerError) -> [StoredSchedule] {
        try store.read { session in try session.schedules() }
    }

    /// Adds a schedule; 409 when its id is taken.
    func createSchedule(_ request: ScheduleRequest, by actor: AdminActor) throws(ServerError) -> StoredSchedule {
        let stamp = RFC3339.string(now())
        return try change(by: actor) { session, events in
            let id =
                try request.id.map { (text) throws(ServerError) in try AdminInput.id(text, "a schedule") }
                ?? "SCH-" + UUID().uuidString.prefix(8).lowercased()
            guard try session.schedule(id: id) == nil else {
                throw ServerError.conflict("schedule '\(id)' exists already; change it with 'admin schedule update'")
            }
            let zone = try request.zone ?? OrganisationZone.name(OrganisationZone.current(in: session))
            let schedule = try Self.checked(
                StoredSchedule(
                    id: id, templateID: request.templateID, facilityID: request.facilityID, areaIDs: request.areaIDs,
                    inspectorIDs: request.inspectors, rule: request.rule, window: request.window, zone: zone,
                    startDate: request.start, endDate: request.end, createdAt: stamp, updatedAt: stamp),
                in: session)
            try session.saveSchedule(schedule)
            try events.record("schedule.created", id, AdminWire.schedule(schedule))
            return schedule
        }
    }

    /// Changes a schedule: its visits not yet begun are cancelled and the new version's made from now.
    func changeSchedule(id: String, _ edit: ScheduleChange, by actor: AdminActor) throws(ServerError)
        -> StoredSchedule
    {
        try revise(id, kind: "schedule.changed", by: actor) { current, session throws(ServerError) in
            var next = current
            next.templateID = edit.templateID ?? current.templateID
            next.facilityID = edit.facilityID ?? current.facilityID
            next.areaIDs = edit.areaIDs ?? (edit.facilityID == nil ? current.areaIDs : [])
            next.inspectorIDs = edit.inspectors ?? current.inspectorIDs
            next.rule = edit.rule ?? current.rule
            next.window = edit.window ?? current.window
            next.startDate = edit.start ?? current.startDate
            next.endDate = edit.end.map { $0.isEmpty ? nil : $0 } ?? current.endDate
            next.zone = edit.zone ?? current.zone
            return try Self.checked(next, in: session)
        }
    }

    /// Pauses a schedule (its visits not yet begun cancelled) or resumes it.
    func pauseSchedule(id: String, paused: Bool, by actor: AdminActor) throws(ServerError) -> StoredSchedule {
        let stamp = RFC3339.string(now())
        return try revise(id, kind: paused ? "schedule.paused" : "schedule.resumed", by: actor) { current, _ in
            var next = current
            next.pausedAt = paused ? (current.pausedAt ?? stamp) : nil
            return next
        }
    }

    /// Removes a schedule: its visits not yet begun are cancelled; those
    /// begun or done stay, and coverage still counts them. How many were cancelled.
    func removeSchedule(id: String, by actor: AdminActor) throws(ServerError) -> Int {
        let stamp = RFC3339.string(now())
        return try change(by: actor) { session, events in
            guard try session.schedule(id: id) != nil else { throw ServerError.notFound("no schedule '\(id)'") }
            let cancelled = try session.cancelVisits(scheduleID: id, startingAfter: stamp, at: stamp)
            _ = try session.deleteSchedule(id: id)
            try events.record("schedule.removed", id, ["visits_cancelled": .integer(Int64(cancelled))])
            return cancelled
        }
    }

    /// Replaces schedule `id` with what `body` makes of it, one version on:
    /// its visits not yet begun are cancelled and the new version's are made
    /// from now on. Nothing changes when `body` returns it as it was.
    private func revise(
        _ id: String, kind: String, by actor: AdminActor,
        _ body: (StoredSchedule, any StorageSession) throws(ServerError) -> StoredSchedule
    ) throws(ServerError) -> StoredSchedule {
        let stamp = RFC3339.string(now())
        return try change(by: actor) { session, events in
            guard let current = try session.schedule(id: id) else {
                throw ServerError.notFound("no schedule '\(id.prefix(60))'; see 'admin schedule list'")
            }
            var next = try body(current, session)
            guard next != current else { return current }
            next.version = current.version + 1
            next.madeUntil = stamp
            next.updatedAt = stamp
            _ = try session.cancelVisits(scheduleID: id, startingAfter: stamp, at: stamp)
            try session.saveSchedule(next)
            try events.record(kind, id, AdminWire.schedule(next))
            return next
        }
    }

    /// `schedule` with every reference checked and its inspectors by id: a
    /// live template and facility, areas of that facility, enabled
    /// inspectors, and a rule that occurs at least once.
    static func checked(_ schedule: StoredSchedule, in session: any StorageSession) throws(ServerError)
        -> StoredSchedule
    {
        var checked = schedule
        guard let template = try session.managedTemplates().first(where: { $0.template.id == schedule.templateID }),
            template.retiredAt == nil
        else {
            throw ServerError.notFound(
                "no template '\(schedule.templateID.prefix(60))' (or it is retired); see 'admin template list'")
        }
        guard let facility = try session.managedFacility(id: schedule.facilityID), facility.retiredAt == nil else {
            throw ServerError.notFound(
                "no facility '\(schedule.facilityID.prefix(60))' (or it is retired); see 'admin facility list'")
        }
        for areaID in schedule.areaIDs {
            guard let area = try session.area(id: areaID), area.facilityID == facility.facility.id else {
                throw ServerError.badRequest(
                    "area '\(areaID.prefix(60))' is not an area of facility '\(facility.facility.id)'")
            }
        }
        guard Set(schedule.areaIDs).count == schedule.areaIDs.count else {
            throw ServerError.badRequest("an area is named twice; name each once")
        }
        checked.inspectorIDs = try inspectorIDs(schedule.inspectorIDs, in: session)
        checked.zone = OrganisationZone.name(try OrganisationZone.zone(named: schedule.zone))
        _ = try ScheduleRule(checked)
        return checked
    }

    /// The ids of the inspectors `names` names, in order: each an enabled inspector, none twice.
    private static func inspectorIDs(_ names: [String], in session: any StorageSession) throws(ServerError)
        -> [String]
    {
        guard !names.isEmpty else {
            throw ServerError.badRequest("a schedule needs an inspector (--inspector USER, once for each in turn)")
        }
        var ids: [String] = []
        for name in names {
            let key = name.trimmingCharacters(in: .whitespaces)
            guard let user = try user(key, in: session) else {
                throw ServerError.notFound("no user '\(key.prefix(60))'; add them with 'admin user add'")
            }
            guard user.role == .inspector else {
                throw ServerError.badRequest(
                    "'\(user.username)' is a \(user.role.rawValue); schedules are for inspectors")
            }
            guard !user.isDisabled else { throw ServerError.badRequest("'\(user.username)' is disabled") }
            guard !ids.contains(user.id) else {
                throw ServerError.badRequest("'\(user.username)' is named twice; name each inspector once")
            }
            ids.append(user.id)
        }
        return ids
    }
}
