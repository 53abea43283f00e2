import Foundation
import Models
import ServerCore
import Testing
import TestSupport

/// The management API: what an organisation's admin does over HTTP, and
/// that nobody else can (on both stores: the server suite runs again on
/// PostgreSQL).
@Suite("Management API")
struct AdministrationContractTests {
    static let server: Result<ServerProcess, any Error> = Result {
        try ServerProcess(["--demo"] + ServerProcess.manyClients) { db in
            let added = try Programs.run(
                "jqc-server",
                [
                    "admin", "add-user", "ada", "--db", db, "--role", "admin",
                    "--display-name", "Ada Admin",
                ], stdin: "ada-admin-password\n")
            guard added.status == 0 else { throw ServerLaunchError(message: "add-user failed: \(added.stderr)") }
        }
    }

    static func admin(_ server: ServerProcess) async throws -> Session {
        try await Session.login(server, "ada", "ada-admin-password")
    }

    @Test("every management route answers 403 to an inspector and to a supervisor, and 401 without a token")
    func othersAreRefused() async throws {
        let server = try Self.server.get()
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        #expect(Router.administration.count >= 19)
        for route in Router.administration {
            let path = route.pattern.replacingOccurrences(of: "{id}", with: "F-100")
            for session in [inspector, supervisor] {
                let response = try await session.client.send(
                    route.method, server.url(path), body: route.body == .json ? Data("{}".utf8) : nil,
                    token: session.accessToken)
                #expect(response.status == 403, "\(route.method) \(path) as \(session.userID): \(response.status)")
                #expect(response.code == "FORBIDDEN", "\(route.method) \(path)")
            }
            let anonymous = try await HTTPTestClient().send(
                route.method, server.url(path), body: route.body == .json ? Data("{}".utf8) : nil)
            #expect(anonymous.status == 401, "\(route.method) \(path) without a token")
        }
        // Nothing any of them sent changed anything.
        let admin = try await Self.admin(server)
        let events = try await admin.get("/admin/events?limit=1000").data["events"]?.arrayValue ?? []
        #expect(
            !events.contains { [inspector.userID, supervisor.userID].contains($0["actor"]?["id"]?.stringValue ?? "") })
        let facility = try await admin.get("/admin/facilities").data["facilities"]?.arrayValue?.first {
            $0["id"] == "F-100"
        }
        #expect(facility?["name"] == "Harbourview Office Tower")
        #expect(facility?["retired_at"] == .null)
    }

    @Test(
        "an admin adds a site, an area, a template, an inspector and an assignment; devices see them, a retired site goes, a disabled user is signed out"
    )
    func adminBuildsAWorld() async throws {
        let server = try Self.server.get()
        let admin = try await Self.admin(server)
        #expect(
            try await admin.post("/admin/facilities", ["id": "F-900", "name": "Quay Depot", "address": "9 Quay"]).status
                == 201)
        #expect(try await admin.post("/admin/facilities", ["id": "F-900", "name": "Again"]).status == 409)
        #expect(
            try await admin.post(
                "/admin/areas",
                [
                    "id": "A-901", "facility_id": "F-900", "name": "Washrooms",
                    "area_type": "washroom",
                ]
            ).status == 201)
        let template: JSONValue = [
            "id": "quay-walk", "name": "Quay walk", "version": 1,
            "form_schema": [
                "fields": [
                    ["id": 1, "type": "pass_fail", "label": "Floor dry", "required": true]
                ]
            ],
        ]
        let published = try await admin.post("/admin/templates", template)
        #expect(published.status == 201)
        #expect(published.data["templates"]?.arrayValue?.first?["version"] == 1)
        // The same file again publishes nothing; a changed one is the next version.
        #expect(
            try await admin.post("/admin/templates", template).data["templates"]?.arrayValue?.first?["published"]
                == false)
        let bad: JSONValue = [
            "id": "broken", "name": "Broken",
            "form_schema": [
                "fields": [
                    ["id": 1, "type": "rating", "label": "A", "max": "five"], ["id": 1, "type": "text", "label": "B"],
                ]
            ],
        ]
        let refused = try await admin.post("/admin/templates", bad)
        #expect(refused.status == 422)
        #expect(refused.code == "TEMPLATE_INVALID")
        #expect(refused.message.contains("'max'") && refused.message.contains("1"), "\(refused.message)")
        let user = try await admin.post(
            "/admin/users",
            [
                "username": "quinn", "password": "quinn-password-1", "role": "inspector",
                "display_name": "Quinn Field",
            ])
        #expect(user.status == 201)
        #expect(user.data["user"]?["password_hash"] == nil)
        #expect(try await admin.post("/admin/users", ["username": "shorty", "password": "short"]).status == 400)
        let quinnID = try #require(user.data["user"]?["id"]?.stringValue)
        let assignment = try await admin.post(
            "/admin/assignments",
            [
                "id": "QA-1", "inspector": "quinn", "template_id": "quay-walk",
                "facility_id": "F-900", "area_id": "A-901", "due_at": "2026-12-24",
            ])
        #expect(assignment.status == 201, "\(assignment.message)")
        #expect(assignment.data["assignment"]?["due_at"] == "2026-12-24T23:59:59Z")
        // An area of another facility is refused.
        #expect(
            try await admin.post(
                "/admin/assignments",
                [
                    "inspector": "quinn", "template_id": "quay-walk", "facility_id": "F-100",
                    "area_id": "A-901",
                ]
            ).status == 400)

        let quinn = try await Session.login(server, "quinn", "quinn-password-1")
        let assignments = try await quinn.get("/assignments")
        #expect(assignments.data["assignments"]?.arrayValue?.map { $0["id"] } == ["QA-1"])
        let cursor = try #require(assignments.data["cursor"]?.stringValue)
        #expect(
            try await quinn.get("/facilities").data["facilities"]?.arrayValue?.contains { $0["id"] == "F-900" } == true)
        #expect(try await quinn.get("/facilities/F-900/areas").data["areas"]?.arrayValue?.map { $0["id"] } == ["A-901"])
        #expect(
            try await quinn.get("/templates").data["templates"]?.arrayValue?.contains { $0["id"] == "quay-walk" }
                == true)

        // A change moves the cursor; a cancellation reaches the device as closed.
        #expect(try await admin.patch("/admin/assignments/QA-1", ["due_at": "2026-12-31T12:00:00Z"]).status == 200)
        let changed = try await quinn.get("/assignments?since=\(cursor)")
        #expect(changed.data["assignments"]?.arrayValue?.map { $0["due_at"] } == ["2026-12-31T12:00:00Z"])
        let next = try #require(changed.data["cursor"]?.stringValue)
        #expect(
            try await admin.patch("/admin/assignments/QA-1", ["cancelled": true]).data["assignment"]?["state"]
                == "cancelled")
        #expect(
            try await quinn.get("/assignments?since=\(next)").data["assignments"]?.arrayValue?.map { $0["status"] } == [
                "closed"
            ])

        // Retired: gone from devices' lists, still known to the admin.
        #expect(
            try await admin.patch("/admin/facilities/F-900", ["retired": true]).data["facility"]?["retired_at"]?
                .stringValue != nil)
        #expect(
            try await quinn.get("/facilities").data["facilities"]?.arrayValue?.contains { $0["id"] == "F-900" } == false
        )
        #expect(
            try await admin.get("/admin/facilities").data["facilities"]?.arrayValue?.contains { $0["id"] == "F-900" }
                == true)

        // Disabled: the next request with a token held is 401, and so is signing in.
        #expect(
            try await admin.patch("/admin/users/\(quinnID)", ["disabled": true]).data["user"]?["disabled_at"]?
                .stringValue != nil)
        #expect(try await quinn.get("/auth/me").status == 401)
        let again = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": "quinn", "password": "quinn-password-1"])
        #expect(again.status == 401)
        #expect(again.message.contains("disabled"))
        // An admin cannot lock themselves out.
        #expect(try await admin.patch("/admin/users/\(admin.userID)", ["disabled": true]).status == 409)

        // Every change is an event naming the admin.
        let events = try await admin.get("/admin/events?limit=1000").data["events"]?.arrayValue ?? []
        let kinds = events.compactMap { $0["kind"]?.stringValue }
        for kind in [
            "facility.added", "area.added", "template.published", "user.added", "assignment.created",
            "assignment.changed",
            "assignment.cancelled", "facility.retired", "user.disabled",
        ] {
            #expect(kinds.contains(kind), "no \(kind) in \(kinds)")
        }
        let mine = events.filter {
            ["F-900", "A-901", "quay-walk", "QA-1", quinnID].contains($0["subject"]?.stringValue ?? "")
        }
        #expect(mine.count >= 9)
        #expect(
            mine.allSatisfy { $0["actor"]?["id"]?.stringValue == admin.userID && $0["actor"]?["name"] == "Ada Admin" })
        #expect(!String(decoding: try await admin.get("/admin/users").body, as: UTF8.self).contains("argon2"))
    }

    @Test("importing the same CSV twice changes nothing; a changed row updates; a bad row is named and imports nothing")
    func importsAreIdempotent() async throws {
        let server = try Self.server.get()
        let admin = try await Self.admin(server)
        let csv =
            "id,name,address,project_name\r\nI-1,\"Depot, North\",1 Road,Depots\r\nI-2,Depot South,2 Road,Depots\r\n"
        let first = try await admin.post("/admin/facilities/import", ["csv": .string(csv)])
        #expect(first.data["facilities"]?["added"] == ["I-1", "I-2"])
        let second = try await admin.post("/admin/facilities/import", ["csv": .string(csv)])
        #expect(second.data["facilities"]?["added"] == [])
        #expect(second.data["facilities"]?["unchanged"] == ["I-1", "I-2"])
        let changed = try await admin.post(
            "/admin/facilities/import",
            ["csv": .string(csv.replacingOccurrences(of: "2 Road", with: "22 Road"))])
        #expect(changed.data["facilities"]?["updated"] == ["I-2"])
        let facilities = try await admin.get("/admin/facilities").data["facilities"]?.arrayValue ?? []
        #expect(facilities.filter { $0["id"] == "I-1" }.count == 1)
        #expect(facilities.first { $0["id"] == "I-1" }?["name"] == "Depot, North")

        let bad = "id,name\nI-3,Fine\nI-4,\n"
        let refused = try await admin.post("/admin/facilities/import", ["csv": .string(bad)])
        #expect(refused.status == 400)
        #expect(refused.message.contains("row 3"), "\(refused.message)")
        #expect(
            try await admin.get("/admin/facilities").data["facilities"]?.arrayValue?.contains { $0["id"] == "I-3" }
                == false)

        let areas = try await admin.post(
            "/admin/areas/import",
            ["csv": "id,facility_id,name,area_type\nI-1-A,I-1,Hall,lobby\nI-9-A,I-9,Ghost,lobby\n"])
        #expect(areas.status == 400)
        #expect(areas.message.contains("row 3") && areas.message.contains("I-9"), "\(areas.message)")
    }

    @Test(
        "jqc-server admin: a file imported twice changes nothing; a bad row, a bad template or a short password is one line, exit 4, nothing written"
    )
    func commandLine() throws {
        let folder = TemporaryDirectory(prefix: "admin-cli")
        let db = folder.path("org.db")
        func admin(_ arguments: [String], stdin: String = "") throws -> ProcessOutcome {
            try Programs.run("jqc-server", ["admin", "--db", db] + arguments, stdin: stdin)
        }
        try "id,name,address,project_name\nS-1,North,1 Road,Depots\nS-2,South,2 Road,Depots\n"
            .write(toFile: folder.path("sites.csv"), atomically: true, encoding: .utf8)
        #expect(
            try admin(["import-facilities", folder.path("sites.csv")]).stdout.contains(
                "2 added, 0 updated, 0 unchanged"))
        #expect(
            try admin(["import-facilities", folder.path("sites.csv")]).stdout.contains(
                "0 added, 0 updated, 2 unchanged"))

        try "id,name\nS-3,Fine\nS-4,\"unclosed\n".write(
            toFile: folder.path("bad.csv"), atomically: true, encoding: .utf8)
        let bad = try admin(["import-facilities", folder.path("bad.csv")])
        #expect(bad.status == 4)
        #expect(bad.stderr.contains("row 3") && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        let listed = try JSONValue.parse(try admin(["facilities", "--json"]).stdout)
        #expect(listed["facilities"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["S-1", "S-2"])

        try
            #"{"id": "t", "name": "T", "form_schema": {"fields": [{"id": 1, "type": "rating", "label": "A", "max": 0}, {"id": 2, "type": "radio", "label": "B"}]}}"#
            .write(toFile: folder.path("t.json"), atomically: true, encoding: .utf8)
        let refused = try admin(["publish-template", folder.path("t.json")])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("2 problems") || refused.stderr.contains("problems:"), "\(refused.stderr)")
        #expect(try admin(["templates", "--json"]).stdout.contains("\"templates\":[]"))

        // A file's text reaches the operator's terminal only through the sanitiser.
        try "id,name\nS-9\u{1B}[2J,Hostile\n".write(
            toFile: folder.path("hostile.csv"), atomically: true, encoding: .utf8)
        let hostile = try admin(["import-facilities", folder.path("hostile.csv")])
        #expect(hostile.status == 4)
        #expect(!hostile.stderr.contains("\u{1B}") && hostile.stderr.contains("row 2"), "\(hostile.stderr)")

        let short = try admin(["add-user", "ivy"], stdin: "short\n")
        #expect(short.status == 4)
        #expect(short.stderr.contains("at least 10 characters"))
        #expect(try admin(["users", "--json"]).stdout.contains("\"users\":[]"))
    }
}
