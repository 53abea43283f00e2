import Foundation
import Models
import Testing
import TestSupport

/// A change through the management API is all or nothing: every value is
/// checked before anything is written, in one transaction (both stores).
@Suite("Security trial: a management API change is all or nothing")
struct AtomicAdminChangeTests {
    @Test("PATCH of a user with a valid role and a short password changes nothing and signs nobody out")
    func userChangeIsAtomic() async throws {
        let server = try AdminRules.server.get()
        let admin = try await AdminRules.admin(server)
        let name = AdminRules.unique("massy")
        let id = try await AdminRules.addUser(admin, name)
        let massy = try await Session.login(server, name, "a-long-password-1")
        let refused = try await admin.patch(
            "/admin/users/\(id)", ["role": "admin", "display_name": "Massy", "password": "short"])
        #expect(refused.status == 400)
        let disabledWrong = try await admin.patch("/admin/users/\(id)", ["role": "admin", "disabled": "yes"])
        #expect(disabledWrong.status == 400)
        let user = try #require(try await AdminRules.user(admin, id: id))
        #expect(user["role"] == "inspector")
        #expect(user["display_name"]?.stringValue == name)
        #expect(try await massy.get("/auth/me").status == 200, "massy's session is still live")
    }

    @Test("an admin's own new password with disabling themselves is 409 and changes neither")
    func ownChangeIsAtomic() async throws {
        let server = try AdminRules.server.get()
        let admin = try await AdminRules.admin(server)
        let name = AdminRules.unique("cleo")
        let id = try await AdminRules.addUser(admin, name, role: "admin")
        let cleo = try await Session.login(server, name, "a-long-password-1")
        let refused = try await cleo.patch(
            "/admin/users/\(id)", ["password": "another-long-password", "disabled": true])
        #expect(refused.status == 409)
        #expect(try await cleo.get("/auth/me").status == 200, "cleo's session is still live")
        let again = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": .string(name), "password": "a-long-password-1"])
        #expect(again.status == 200, "the old password still signs in: \(again.status)")
    }

    @Test("PATCH of a facility with a new name and a bad 'retired' renames nothing")
    func facilityChangeIsAtomic() async throws {
        let server = try AdminRules.server.get()
        let admin = try await AdminRules.admin(server)
        let id = AdminRules.unique("F-AT-")
        #expect(try await admin.post("/admin/facilities", ["id": .string(id), "name": "Before"]).status == 201)
        let refused = try await admin.patch("/admin/facilities/\(id)", ["name": "After", "retired": "yes"])
        #expect(refused.status == 400)
        let facility = try await admin.get("/admin/facilities").data["facilities"]?.arrayValue?.first {
            $0["id"]?.stringValue == id
        }
        #expect(facility?["name"] == "Before")
    }

    @Test("PATCH of an area with a new name and a bad 'retired' renames nothing")
    func areaChangeIsAtomic() async throws {
        let server = try AdminRules.server.get()
        let admin = try await AdminRules.admin(server)
        let id = AdminRules.unique("A-AT-")
        let added = try await admin.post(
            "/admin/areas", ["id": .string(id), "facility_id": "F-100", "name": "Before"])
        #expect(added.status == 201)
        let refused = try await admin.patch("/admin/areas/\(id)", ["name": "After", "retired": "yes"])
        #expect(refused.status == 400)
        let area = try await admin.get("/admin/areas").data["areas"]?.arrayValue?.first {
            $0["id"]?.stringValue == id
        }
        #expect(area?["name"] == "Before")
    }

    @Test("PATCH of an assignment that cancels it with a bad due date cancels nothing")
    func assignmentChangeIsAtomic() async throws {
        let server = try AdminRules.server.get()
        let admin = try await AdminRules.admin(server)
        let id = AdminRules.unique("AS-AT-")
        let created = try await admin.post(
            "/admin/assignments",
            [
                "id": .string(id), "inspector": "inspector", "template_id": "lobby-walk", "facility_id": "F-100",
                "due_at": "2026-12-24",
            ])
        #expect(created.status == 201, "\(created.message)")
        let refused = try await admin.patch(
            "/admin/assignments/\(id)", ["cancelled": true, "due_at": "not a date"])
        #expect(refused.status == 400)
        let assignment = try await admin.get("/admin/assignments").data["assignments"]?.arrayValue?.first {
            $0["id"]?.stringValue == id
        }
        #expect(assignment?["state"] == "open", "\(String(describing: assignment))")
        #expect(assignment?["due_at"] == "2026-12-24T23:59:59Z")
    }
}
