import ArgumentParsing
import Foundation
import Models
import ServerStore

/// `jqc-server admin schedule ...`: recurring inspections. What a command
/// changes takes effect at once: the visits of the horizon are made (or
/// cancelled) before it returns, and a running server keeps them made ahead.
extension AdminCommands {
    enum Plans {
        static let template = Option("template", "ID", help: "the template (required)")
        static let facility = Option("facility", "ID", help: "the facility (required)")
        static let areas = Option(
            repeating: "area", "ID", help: "an area of that facility, once for each (none: the whole facility)")
        static let inspectors = Option(
            repeating: "inspector", "USER", help: "an inspector (user name or id), once for each, who take turns")
        static let rule = Option(
            "rrule", "RULE",
            help: "an iCalendar RRULE: FREQ=DAILY, WEEKLY or MONTHLY, INTERVAL, BYDAY, BYMONTHDAY, COUNT, UNTIL")
        static let window = Option("window", "HH:MM-HH:MM", help: "the local time window of each visit")
        static let start = Option("start", "DATE", help: "the first day it may occur on, YYYY-MM-DD")
        static let end = Option("end", "DATE", help: "the last day it may occur on, YYYY-MM-DD ('' for none)")
        static let zone = Option("zone", "ZONE", help: "the IANA time zone of the window (default: the organisation's)")
        static let schedule = Argument("ID", help: "the schedule")
    }

    /// The horizon `jqc-server admin` makes visits over; a running server makes them over its own.
    static let adminHorizonDays = 14

    static let scheduleCommands: [AdminCommand] = [
        AdminCommand(
            "schedule add", summary: "add a recurring inspection; prints the schedule's id",
            options: [
                Plans.template.spec, Plans.facility.spec, Plans.areas.spec, Plans.inspectors.spec, Plans.rule.spec,
                Plans.window.spec, Plans.start.spec, Plans.end.spec, Plans.zone.spec, Work.id.spec,
            ],
            discussion:
                "Example: admin schedule add --template T1 --facility F-100 --area A-101 --inspector ana --rrule 'FREQ=MONTHLY;BYDAY=2TU,4TU' --window 07:00-11:00 --start 2027-01-01. Each visit is an assignment due at the window's end; with several inspectors each visit goes to the next in turn."
        ) { parsed, admin throws(ServerError) in
            let request = Administration.ScheduleRequest(
                id: try parsed[Work.id], templateID: try required(parsed[Plans.template], "--template"),
                facilityID: try required(parsed[Plans.facility], "--facility"), areaIDs: try parsed[Plans.areas],
                inspectors: try parsed[Plans.inspectors], rule: try required(parsed[Plans.rule], "--rrule"),
                window: try required(parsed[Plans.window], "--window"),
                start: try required(parsed[Plans.start], "--start"), end: try parsed[Plans.end],
                zone: try parsed[Plans.zone])
            let schedule = try admin.createSchedule(request, by: actor)
            let made = try makeVisits(admin)
            return AdminOutput(
                lines: [show(schedule.id)], json: ["schedule": AdminWire.schedule(schedule), "visits_made": made])
        },
        AdminCommand(
            "schedule update", summary: "change a schedule; its visits not yet begun are made again",
            positionals: [Plans.schedule.spec],
            options: [
                Plans.template.spec, Plans.facility.spec, Plans.areas.spec, Plans.inspectors.spec, Plans.rule.spec,
                Plans.window.spec, Plans.start.spec, Plans.end.spec, Plans.zone.spec,
            ]
        ) { parsed, admin throws(ServerError) in
            let areas = try parsed[Plans.areas]
            let inspectors = try parsed[Plans.inspectors]
            let edit = Administration.ScheduleChange(
                templateID: try parsed[Plans.template], facilityID: try parsed[Plans.facility],
                areaIDs: areas.isEmpty ? nil : areas.filter { !$0.isEmpty },
                inspectors: inspectors.isEmpty ? nil : inspectors,
                rule: try parsed[Plans.rule], window: try parsed[Plans.window], start: try parsed[Plans.start],
                end: try parsed[Plans.end], zone: try parsed[Plans.zone])
            let schedule = try admin.changeSchedule(id: try parsed[Plans.schedule], edit, by: actor)
            let made = try makeVisits(admin)
            return AdminOutput(
                lines: ["schedule \(show(schedule.id)) is at version \(schedule.version)"],
                json: ["schedule": AdminWire.schedule(schedule), "visits_made": made])
        },
        AdminCommand(
            "schedule pause", summary: "stop making visits; those not yet begun are cancelled",
            positionals: [Plans.schedule.spec]
        ) { parsed, admin throws(ServerError) in
            let schedule = try admin.pauseSchedule(id: try parsed[Plans.schedule], paused: true, by: actor)
            return AdminOutput(
                lines: ["schedule \(show(schedule.id)) is paused"], json: ["schedule": AdminWire.schedule(schedule)])
        },
        AdminCommand(
            "schedule resume", summary: "make visits again from now", positionals: [Plans.schedule.spec]
        ) { parsed, admin throws(ServerError) in
            let schedule = try admin.pauseSchedule(id: try parsed[Plans.schedule], paused: false, by: actor)
            let made = try makeVisits(admin)
            return AdminOutput(
                lines: ["schedule \(show(schedule.id)) runs again"],
                json: ["schedule": AdminWire.schedule(schedule), "visits_made": made])
        },
        AdminCommand(
            "schedule remove", summary: "remove a schedule; visits begun or done stay",
            positionals: [Plans.schedule.spec]
        ) { parsed, admin throws(ServerError) in
            let id = try parsed[Plans.schedule]
            let cancelled = try admin.removeSchedule(id: id, by: actor)
            return AdminOutput(
                lines: ["schedule \(show(id)) is removed; \(cancelled) visit(s) not yet begun are cancelled"],
                json: ["removed": .string(id), "visits_cancelled": .integer(Int64(cancelled))])
        },
        AdminCommand(
            "schedule list", summary: "every schedule: its rule in words and its next three windows"
        ) { _, admin throws(ServerError) in
            let list = try admin.schedules()
            let now = admin.now()
            let described = list.map { schedule in (schedule, ScheduleWords(schedule, after: now)) }
            return AdminOutput(
                lines: table(
                    ["ID", "TEMPLATE", "FACILITY", "AREAS", "WHEN", "NEXT", "STATE"],
                    described.map { schedule, words in
                        [
                            schedule.id, schedule.templateID, schedule.facilityID,
                            schedule.areaIDs.isEmpty ? "-" : schedule.areaIDs.joined(separator: ","), words.rule,
                            words.next.isEmpty ? "-" : words.next.joined(separator: "; "),
                            schedule.pausedAt == nil ? "running" : "paused",
                        ]
                    }, empty: "No schedules yet: add one with 'admin schedule add'."),
                json: [
                    "schedules": .array(
                        described.map { schedule, words in
                            AdminWire.schedule(schedule).merging([
                                "words": .string(words.rule), "next": .array(words.next.map(JSONValue.string)),
                            ])
                        })
                ])
        },
    ]

    /// Makes the visits the horizon now holds; how many were new.
    private static func makeVisits(_ admin: Administration) throws(ServerError) -> JSONValue {
        .integer(Int64(try VisitMaking(store: admin.store, horizonDays: adminHorizonDays).pass(now: admin.now())))
    }

    /// `value`, or a 400 naming the option a command needs.
    private static func required(_ value: String?, _ option: String) throws(ServerError) -> String {
        guard let value, !value.isEmpty else {
            throw ServerError.badRequest("'admin schedule add' needs \(option)")
        }
        return value
    }
}
