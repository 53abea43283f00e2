import Foundation
import Models
import Testing
import TestSupport

/// The administration pages (both stores): the management API's rules
/// behind forms, for admins only.
@Suite("Console administration")
struct ConsoleAdminTests {
    @Test(
        "an admin adds a site and publishes a form from the console; devices get them; a template's label is shown as text; others are refused"
    )
    func administer() async throws {
        let server = try AdministrationContractTests.server.get()
        let admin = ConsoleClient(server)
        #expect(try admin.signIn("ada", "ada-admin-password").status == 303)
        #expect(try admin.get("/console/queue").text.contains("href=\"/console/admin\""))
        let token = try admin.csrf()
        let siteID = "F-CON-\(UUID().uuidString.prefix(6))"
        let added = try admin.post(
            "/console/admin/facility-add",
            [
                ("csrf", token), ("id", siteID), ("name", "Console <b>Annex</b>"),
                ("address", "1 Quay"),
            ])
        #expect(added.status == 303)
        #expect(added.headers["location"] == "/console/admin/sites?notice=saved")
        let inspector = try await Session.inspector(server)
        let sites = try await inspector.get("/facilities").data["facilities"]?.arrayValue ?? []
        #expect(sites.contains { $0["id"]?.stringValue == siteID && $0["name"] == "Console <b>Annex</b>" })
        #expect(try admin.get("/console/admin/sites").text.contains("value=\"Console &lt;b&gt;Annex&lt;/b&gt;\""))
        // The same id again is refused with the API's reason, and nothing changes.
        let twice = try admin.post("/console/admin/facility-add", [("csrf", token), ("id", siteID), ("name", "Again")])
        #expect(twice.status == 409)
        #expect(twice.text.contains("class=\"error\""))

        let templateID = "console-\(UUID().uuidString.prefix(6).lowercased())"
        let document: JSONValue = [
            "id": .string(templateID), "name": "Console form", "version": 1,
            "form_schema": [
                "fields": [
                    ["id": "a", "type": "text", "label": .string(ConsoleReviewTests.script)],
                    ["id": "b", "type": "pass_fail", "label": .string(ConsoleReviewTests.breakout), "required": true],
                ]
            ],
        ]
        let text = String(decoding: try JSONEncoder().encode(document), as: UTF8.self)
        #expect(try admin.post("/console/admin/template-publish", [("csrf", token), ("document", text)]).status == 303)
        let templates = try await inspector.get("/templates").data["templates"]?.arrayValue ?? []
        #expect(templates.contains { $0["id"]?.stringValue == templateID })
        let broken = try admin.post(
            "/console/admin/template-publish", [("csrf", token), ("document", "{\"id\": \"x\"")])
        #expect(broken.status == 400)

        // A report on it shows its labels as text.
        let report = Reports.lobby(answers: [:]).setting("template_id", .string(templateID))
            .setting("payload", ["answers": ["a": "hello", "b": "pass"], "follow_up_required": false])
        let serverID = try #require(try await inspector.syncOne(report)["server_id"]?.stringValue)
        let page = try admin.get("/console/reports/\(serverID)").text
        #expect(page.contains("<div class=\"label\">&lt;script&gt;alert(1)&lt;/script&gt;</div>"))
        #expect(page.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect(!page.contains(ConsoleReviewTests.script))

        // A supervisor and an inspector may not administer, nor forge an admin's form.
        let supervisor = ConsoleClient(server)
        try supervisor.signIn("supervisor", "supervisor-pass")
        #expect(try supervisor.get("/console/admin").status == 403)
        #expect(try supervisor.get("/console/admin/people").status == 403)
        let attempt = try supervisor.post(
            "/console/admin/facility-add", [("csrf", try supervisor.csrf()), ("id", "F-NO"), ("name", "No")])
        #expect(attempt.status == 403)
        #expect(try admin.post("/console/admin/facility-add", [("id", "F-NO2"), ("name", "No")]).status == 403)
        let after = try await inspector.get("/facilities").data["facilities"]?.arrayValue ?? []
        #expect(!after.contains { ["F-NO", "F-NO2"].contains($0["id"]?.stringValue ?? "") })
    }

    @Test(
        "an admin invites a client from the people page with the sites they see, and changes them; user list and the API show them"
    )
    func inviteClient() async throws {
        let server = try AdministrationContractTests.server.get()
        let admin = ConsoleClient(server)
        #expect(try admin.signIn("ada", "ada-admin-password").status == 303)
        let token = try admin.csrf()
        let people = try admin.get("/console/admin/people").text
        #expect(people.contains("name=\"facility:F-100\"") && people.contains("name=\"facility:F-200\""))
        let username = "client-\(UUID().uuidString.prefix(6).lowercased())"
        let refused = try admin.post(
            "/console/admin/user-add",
            [("csrf", token), ("username", username), ("role", "client"), ("password", "client-password-1")])
        #expect(refused.status == 400 && refused.text.contains("Tick the sites a client sees"))
        let added = try admin.post(
            "/console/admin/user-add",
            [
                ("csrf", token), ("username", username), ("role", "client"), ("password", "client-password-1"),
                ("facility:F-200", "on"),
            ])
        #expect(added.status == 303, "\(added.status) \(added.text.prefix(300))")
        let client = ConsoleClient(server)
        #expect(try client.signIn(username, "client-password-1").status == 303)
        #expect(try client.get("/console/buildings").text.contains("Riverside Medical Centre"))
        #expect(try client.get("/console/buildings/F-100").status == 404)

        let listed = try Programs.run("jqc-server", ["admin", "--db", server.databasePath, "user", "list"])
        let row = listed.stdout.split(separator: "\n").first { $0.contains(username) }.map(String.init) ?? ""
        #expect(row.contains("client") && row.hasSuffix("F-200"), "\(listed.stdout)")
        let api = try await AdministrationContractTests.admin(server)
        let users = try await api.get("/admin/users").data["users"]?.arrayValue ?? []
        #expect(users.first { $0["username"]?.stringValue == username }?["facilities"] == ["F-200"])
        #expect(users.first { $0["username"] == "ada" }?["facilities"] == nil, "only a client has sites")

        // The people page changes them: both sites ticked, the client sees both at once.
        let page = try admin.get("/console/admin/people").text
        let id = try #require(users.first { $0["username"]?.stringValue == username }?["id"]?.stringValue)
        #expect(page.contains("value=\"\(id)\"") && page.contains("Save sites"))
        let changed = try admin.post(
            "/console/admin/user-facilities",
            [("csrf", token), ("id", id), ("facility:F-100", "on"), ("facility:F-200", "on")])
        #expect(changed.status == 303)
        let buildings = try client.get("/console/buildings").text
        #expect(buildings.contains("Riverside Medical Centre") && buildings.contains("Harbourview Office Tower"))
        let none = try admin.post("/console/admin/user-facilities", [("csrf", token), ("id", id)])
        #expect(none.status == 400, "a client left with no site is refused")
        #expect(try client.get("/console/buildings/F-100").status == 200, "and nothing changed")
    }
}
