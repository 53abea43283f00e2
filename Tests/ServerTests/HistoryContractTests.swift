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

    @Test("an inspector asking for the roll-up gets 403 FORBIDDEN")
    func rollupForbidden() async throws {
        let me = try await Session.inspector(try Shared.running())
        let response = try await me.get("/rollup")
        #expect(response.status == 403)
        #expect(response.code == "FORBIDDEN")
    }
}
