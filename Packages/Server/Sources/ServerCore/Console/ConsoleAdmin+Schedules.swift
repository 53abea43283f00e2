import Foundation
import Models
import ServerStore

/// The schedules section's changes: the same `Administration` calls as
/// `jqc-server admin schedule` and `/admin/schedules`, and, as there, the
/// visits the server's horizon holds made before the page comes back.
extension ConsoleRoutes {
    /// The schedules section's body.
    func scheduleSection(_ form: ConsoleAdminForms) throws(ServerError) -> String {
        let admin = administration
        let zone = try admin.store.read { session in
            OrganisationZone.name(try OrganisationZone.current(in: session))
        }
        return form.schedules(
            try admin.schedules(),
            .init(
                users: try admin.users(), templates: try admin.templates(), facilities: try admin.facilities(),
                areas: try admin.areas(facilityID: nil), zone: zone, now: admin.now()))
    }

    /// Makes one change of the schedules section: a schedule added, changed, paused, resumed or removed.
    func changeSchedules(
        _ action: String, _ form: ConsoleForm, _ admin: Administration, by actor: AdminActor
    ) throws(ServerError) {
        switch action {
        case "schedule-add":
            _ = try admin.createSchedule(
                .init(
                    id: form.text("id"), templateID: try form.need("template_id", "the form"),
                    facilityID: try form.need("facility_id", "the site"), areaIDs: form.areas,
                    inspectors: try Self.inspectors(form.need("inspectors", "an inspector")),
                    rule: try form.need("rrule", "how it repeats"), window: try form.need("window", "the window"),
                    start: try form.need("start", "the first day"), end: form.text("end"), zone: form.text("zone")),
                by: actor)
        case "schedule-change":
            _ = try admin.changeSchedule(
                id: try form.need("id", "the schedule's id"),
                .init(
                    inspectors: try form.text("inspectors").map(Self.inspectors), rule: form.text("rrule"),
                    window: form.text("window"), end: form.raw("end").map { $0.trimmingCharacters(in: .whitespaces) }),
                by: actor)
        case "schedule-pause", "schedule-resume":
            _ = try admin.pauseSchedule(
                id: try form.need("id", "the schedule's id"), paused: action == "schedule-pause", by: actor)
        default:
            _ = try admin.removeSchedule(id: try form.need("id", "the schedule's id"), by: actor)
        }
        _ = try VisitMaking(store: admin.store, horizonDays: context.config.scheduleHorizonDays).pass(
            now: admin.now(), log: context.log)
    }

    /// The inspectors a comma-separated list names, in order.
    private static func inspectors(_ text: String) throws(ServerError) -> [String] {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw ServerError.badRequest("give an inspector's user name") }
        guard names.count <= 100 else { throw ServerError.badRequest("name at most 100 inspectors") }
        return names
    }
}

extension ConsoleForm {
    /// The areas ticked on the schedules page, in order.
    fileprivate var areas: [String] {
        fields.filter { $0.value == "on" && $0.key.hasPrefix(ConsoleAdminForms.areaPrefix) }
            .map { String($0.key.dropFirst(ConsoleAdminForms.areaPrefix.count)) }.sorted()
    }
}
