import Foundation
import Models
import Testing
import TestSupport

/// The administration's schedules page (both stores): the same rules as
/// `jqc-server admin schedule`, from forms an admin fills in.
@Suite("Console administration: schedules", .timeLimit(.minutes(3)))
struct ConsoleScheduleTests {
    /// The open visits of schedule `id`.
    static func open(_ server: ServerProcess, _ id: String) throws -> [JSONValue] {
        try ScheduleTests.visits(server, of: id).filter { $0["state"]?.stringValue == "open" }
    }

    @Test(
        "an admin adds a schedule from the console and its visits reach the inspector; a change, a pause, a resume and a removal act as the CLI's; a bad rule gets the form again with why"
    )
    func administer() async throws {
        let server = try ServerProcess()
        let ada = try ScheduleTests.admin(server, ["user", "add", "ada", "--role", "admin"], stdin: "ada-admin-pass\n")
        try #require(ada.status == 0, "\(ada.stderr)")
        let admin = ConsoleClient(server)
        #expect(try admin.signIn("ada", "ada-admin-pass").status == 303)
        #expect(try admin.get("/console/admin").text.contains("href=\"/console/admin/schedules\""))
        let token = try admin.csrf()
        let fields: [(String, String)] = [
            ("csrf", token), ("template_id", "101"), ("facility_id", "F-100"), ("area:A-101", "on"),
            ("inspectors", "inspector"), ("window", "07:00-11:00"), ("start", ScheduleTests.day(1)),
            ("end", ScheduleTests.day(3)), ("zone", "UTC"), ("id", "SCH-console"),
        ]
        let bad = try admin.post("/console/admin/schedule-add", fields + [("rrule", "FREQ=YEARLY")])
        #expect(bad.status == 400)
        #expect(bad.text.contains("FREQ=YEARLY is not supported"), "\(bad.text)")
        #expect(bad.text.contains("Add a schedule"))
        #expect(try ScheduleTests.visits(server, of: "SCH-console").isEmpty)

        let added = try admin.post("/console/admin/schedule-add", fields + [("rrule", "FREQ=DAILY")])
        #expect(added.status == 303)
        #expect(added.headers["location"] == "/console/admin/schedules?notice=saved")
        let made = try Self.open(server, "SCH-console")
        #expect(made.count == 3)
        #expect(made.allSatisfy { $0["area_id"]?.stringValue == "A-101" })
        let inspector = try await Session.inspector(server)
        let listed = try await inspector.get("/assignments").data["assignments"]?.arrayValue ?? []
        let ids = Set(listed.compactMap { $0["id"]?.stringValue })
        #expect(ids.isSuperset(of: made.compactMap { $0["id"]?.stringValue }))
        let page = try admin.get("/console/admin/schedules").text
        #expect(page.contains("data-schedule=\"SCH-console\""))
        #expect(page.contains("every day, 07:00-11:00, until \(ScheduleTests.day(3))"), "\(page)")

        let changed = try admin.post(
            "/console/admin/schedule-change",
            [("csrf", token), ("id", "SCH-console"), ("window", "08:00-12:00"), ("inspectors", "inspector")])
        #expect(changed.status == 303)
        let after = try Self.open(server, "SCH-console")
        #expect(after.count == 3)
        #expect(after.allSatisfy { ($0["id"]?.stringValue ?? "").hasPrefix("SCH-console-v2-") })
        #expect(after.allSatisfy { ($0["due_at"]?.stringValue ?? "").hasSuffix("T12:00:00Z") })

        #expect(
            try admin.post("/console/admin/schedule-pause", [("csrf", token), ("id", "SCH-console")]).status == 303)
        #expect(try Self.open(server, "SCH-console").isEmpty)
        #expect(try admin.get("/console/admin/schedules").text.contains("<strong>Paused</strong>"))
        #expect(
            try admin.post("/console/admin/schedule-resume", [("csrf", token), ("id", "SCH-console")]).status == 303)
        #expect(try Self.open(server, "SCH-console").count == 3)
        #expect(
            try admin.post("/console/admin/schedule-remove", [("csrf", token), ("id", "SCH-console")]).status == 303)
        #expect(try Self.open(server, "SCH-console").isEmpty)
        #expect(!(try admin.get("/console/admin/schedules").text.contains("data-schedule=\"SCH-console\"")))

        // A supervisor may not, nor may a form without the session's token.
        let supervisor = ConsoleClient(server)
        try supervisor.signIn("supervisor", "supervisor-pass")
        #expect(try supervisor.get("/console/admin/schedules").status == 403)
        let forged = try supervisor.post(
            "/console/admin/schedule-add",
            [("csrf", try supervisor.csrf())] + fields.dropFirst() + [("rrule", "FREQ=DAILY")])
        #expect(forged.status == 403)
        #expect(
            try admin.post("/console/admin/schedule-add", Array(fields.dropFirst()) + [("rrule", "FREQ=DAILY")]).status
                == 403)
        #expect(try ScheduleTests.adminJSON(server, ["schedule", "list"])["schedules"]?.arrayValue?.isEmpty == true)
    }
}
