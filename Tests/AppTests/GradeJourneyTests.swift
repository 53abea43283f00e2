import Foundation
import Models
import Testing
import TestSupport

/// Scores a contract can rest on, through the real programs: an APPA-style
/// template with a pass mark is published; an inspector answers its scale
/// by the steps' names in the runner; the device says the report failed
/// and names the deficient item; the server, scoring on its own, agrees.
@Suite("Rating scales and pass marks from the runner to the server")
struct GradeJourneyTests {
    @Test(
        "answered by label: the runner marks the deficient step, complete and show say failed with the deficiency, and GET /reports/{id} agrees"
    )
    func failedByLabel() async throws {
        let template = Fixtures.url("templates/appa-five-level.json").path
        let server = try ServerProcess(["--demo"]) { db in
            let published = try Programs.run("jqc-server", ["admin", "--db", db, "template", "publish", template])
            guard published.status == 0 else { throw ServerLaunchError(message: "publish: \(published.stderr)") }
        }
        defer { _ = server.stop() }
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        #expect(try inspector.jqc(["sync"]).status == 0)
        let local = try inspector.start(["--template", "appa-five-level", "--facility", "F-100"])
        // Floors, restrooms, trash, sharps, notes: three steps by name (any case), a pass, no notes.
        let ran = try inspector.jqc(
            ["run", local], stdin: "Casual Inattention\nordinary tidiness\norderly spotlessness\npass\n\n/q\n")
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.stdout.contains("3) Casual inattention 50% deficient"), "the steps are listed: \(ran.stdout)")
        #expect(ran.stdout.contains("saved: Casual inattention 3/5, 50%  deficient"), "\(ran.stdout)")
        #expect(ran.stdout.contains("saved: Ordinary tidiness 2/5, 75%\n"), "\(ran.stdout)")
        let refused = try inspector.jqc(["answer", local, "floors", "casual"])
        #expect(refused.status != 0 && refused.stderr.contains("is not a step of this scale"), "\(refused.stderr)")

        let (status, completed) = try inspector.document(["complete", local])
        #expect(status == 0, "\(completed)")
        #expect(completed["passed"] == false)
        #expect(completed["deficiencies"] == ["floors"])
        #expect(abs((completed["score"]?.numberValue ?? 0) - 0.75) < 1e-9, "\(completed)")
        let shown = try inspector.jqc(["show", local])
        #expect(shown.stdout.contains("Score: 75% (5.25 of 7), failed (needs 80%), 1 deficiency"), "\(shown.stdout)")
        #expect(
            shown.stdout.contains("Deficiencies: 1\n  [floors] Floors: Casual inattention 3/5, 50%"), "\(shown.stdout)")

        let html = inspector.path("report.html")
        #expect(try inspector.jqc(["export", local, "--format", "html", "-o", html]).status == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<section class=\"score failed\">"), "the exported page's score")
        #expect(page.contains("FAILED: below the pass mark (pass mark 80%)"))
        #expect(page.contains("Deficiencies (1): Floors"))
        let csv = inspector.path("report.csv")
        #expect(try inspector.jqc(["export", local, "--format", "csv", "-o", csv]).status == 0)
        let rows = try String(contentsOfFile: csv, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(rows.contains { $0.contains(",summary,,Passed,,,failed,") }, "\(rows.suffix(16))")
        #expect(rows.contains { $0.contains(",summary,,Deficiencies,,,1,,floors,") }, "\(rows.suffix(16))")

        #expect(try inspector.jqc(["sync"]).status == 0)
        let serverID = try #require(try inspector.show(local)["server_id"]?.stringValue)
        let client = HTTPTestClient()
        let login = try await client.send(
            "POST", server.url("/auth/login"), json: ["username": "inspector", "password": "inspector-pass"])
        let token = try #require(login.data["access_token"]?.stringValue)
        let report = try #require(
            try await client.send("GET", server.url("/reports/\(serverID)"), token: token).data["report"])
        #expect(report["passed"] == false)
        #expect(report["deficiencies"] == ["floors"])
        #expect(abs((report["score"]?.numberValue ?? 0) - 0.75) < 1e-9)
    }
}
