import Foundation
import Models
import Testing
import TestSupport

@Suite("History and roll-up")
struct HistoryContractTests {
    @Test("history pages newest first with a total; inspectors see their own, supervisors everyone's")
    func pagination() async throws {
        let server = try ServerProcess(["--demo"]) { db in
            _ = try Programs.run("jqc-server", ["admin", "add-user", "other", "--db", db], stdin: "other-pass\n")
        }
        let me = try await Session.inspector(server)
        let other = try await Session.other(server)
        var ids: [String] = []
        for _ in 0..<5 { ids.append(try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)) }
        _ = try await other.syncOne(Reports.lobby())

        let page1 = try await me.get("/inspections?status=completed&limit=2&offset=0")
        #expect(page1.data["total"] == 5)
        #expect(page1.data["items"]?.arrayValue?.compactMap { $0["server_id"]?.stringValue } == [ids[4], ids[3]])
        let page3 = try await me.get("/inspections?limit=2&offset=4")
        #expect(page3.data["items"]?.arrayValue?.compactMap { $0["server_id"]?.stringValue } == [ids[0]])
        let item = try #require(page1.data["items"]?.arrayValue?.first)
        #expect(item["inspector"]?["display_name"] == "Ivy Inspector")
        #expect(item["score"]?.numberValue != nil)
        #expect(item["completed_at"]?.stringValue?.hasSuffix("Z") == true)

        let supervisor = try await Session.supervisor(server)
        #expect(try await supervisor.get("/inspections").data["total"] == 6)
        #expect(try await me.get("/inspections?limit=0").status == 400)
        #expect(try await me.get("/inspections?offset=-1").status == 400)
        #expect(try await me.get("/inspections?status=draft").status == 400)

        let rollup = try await supervisor.get("/rollup")
        #expect(rollup.status == 200)
        let lines = try #require(rollup.data["inspectors"]?.arrayValue)
        #expect(lines.first { $0["display_name"] == "Ivy Inspector" }?["completed"] == 5)
        #expect(lines.first { $0["display_name"] == "other" }?["completed"] == 1)
        #expect(rollup.data["generated_at"]?.stringValue != nil)
        server.stop()
    }

    @Test(
        "history filters (contract 1.1): facility, inspector, template, from and to, combined; a bad date is 400; an inspector stays on their own"
    )
    func filters() async throws {
        let server = try ServerProcess(["--demo"]) { db in
            _ = try Programs.run("jqc-server", ["admin", "add-user", "other", "--db", db], stdin: "other-pass\n")
        }
        let me = try await Session.inspector(server)
        let other = try await Session.other(server)
        let supervisor = try await Session.supervisor(server)
        func synced(_ session: Session, facility: String = "F-100", area: String = "A-102") async throws -> String {
            let report = Reports.lobby().setting("facility_id", .string(facility)).setting("area_id", .string(area))
            return try #require(try await session.syncOne(report)["server_id"]?.stringValue)
        }
        let mineHere = [try await synced(me), try await synced(me)]
        let mineThere = try await synced(me, facility: "F-200", area: "A-201")
        let othersHere = try await synced(other)
        func ids(_ session: Session, _ query: String) async throws -> (status: Int, ids: Set<String>, total: Int64?) {
            let response = try await session.get("/inspections?" + query)
            let ids = Set(response.data["items"]?.arrayValue?.compactMap { $0["server_id"]?.stringValue } ?? [])
            return (response.status, ids, response.data["total"]?.integerValue)
        }

        let there = try await ids(supervisor, "facility_id=F-200")
        #expect(there.status == 200 && there.ids == [mineThere] && there.total == 1)
        let mine = try await ids(supervisor, "inspector_id=\(me.userID)")
        #expect(mine.ids == Set(mineHere + [mineThere]) && mine.total == 3)
        let combined = try await ids(
            supervisor, "inspector_id=\(other.userID)&facility_id=F-100&template_id=lobby-walk")
        #expect(combined.ids == [othersHere] && combined.total == 1)
        #expect(try await ids(supervisor, "template_id=lobby-walk").total == 4)
        #expect(try await ids(supervisor, "template_id=101").ids.isEmpty)
        // A value is a parameter, never SQL.
        #expect(try await ids(supervisor, "facility_id=F-100%27%20OR%20%271%27%3D%271").total == 0)

        let hourAgo = RFC3339.string(Date().addingTimeInterval(-3600))
        let hourAhead = RFC3339.string(Date().addingTimeInterval(3600))
        let window = try await ids(supervisor, "from=\(hourAgo)&to=\(hourAhead)&facility_id=F-100")
        #expect(window.ids == Set(mineHere + [othersHere]))
        #expect(try await ids(supervisor, "from=\(hourAhead)").total == 0, "nothing completed after an hour from now")
        #expect(try await ids(supervisor, "to=\(hourAgo)").total == 0, "nothing completed before an hour ago")
        #expect(try await ids(supervisor, "to=2001-01-01").total == 0)
        // An offset is applied: two hours ahead written at +02:00 is now, give or take the hour.
        let offsetForm = String(RFC3339.string(Date().addingTimeInterval(2 * 3600 + 3600)).dropLast()) + "%2B02:00"
        #expect(try await ids(supervisor, "to=\(offsetForm)").total == 4)

        for bad in ["from=yesterday", "to=2026-02-30", "from=2026-03-01T25:00:00Z"] {
            let response = try await supervisor.get("/inspections?" + bad)
            #expect(response.status == 400, "\(bad)")
            #expect(response.code == "BAD_REQUEST", "\(bad)")
            let message = response.json["error"]?.stringValue ?? ""
            #expect(!message.isEmpty && !message.contains("\n"), "one line: \(message)")
        }

        // An inspector's history stays their own: someone else's id matches nothing.
        let notMine = try await ids(me, "inspector_id=\(other.userID)")
        #expect(notMine.status == 200 && notMine.ids.isEmpty && notMine.total == 0)
        let ownThere = try await ids(me, "facility_id=F-200&inspector_id=\(me.userID)")
        #expect(ownThere.ids == [mineThere])
        #expect(try await ids(other, "facility_id=F-100").ids == [othersHere])
        server.stop()
    }

    @Test("an inspector asking for the roll-up gets 403 FORBIDDEN")
    func rollupForbidden() async throws {
        let me = try await Session.inspector(try Shared.running())
        let response = try await me.get("/rollup")
        #expect(response.status == 403)
        #expect(response.code == "FORBIDDEN")
    }
}
