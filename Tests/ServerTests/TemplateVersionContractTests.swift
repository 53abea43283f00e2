import Foundation
import Models
import Testing
import TestSupport

/// Contract 1.1: a server keeps every version of a template it published and
/// judges a report against the version it names (`template_version`); without
/// one, against its current version.
@Suite("Reports judged against the template version they name (contract 1.1)", .serialized)
struct TemplateVersionContractTests {
    /// The shared server with version 1, then version 2, of "versioned-walk" imported once.
    static let server: Result<ServerProcess, any Error> = Result {
        let server = try Shared.running()
        for file in ["template-versions/v1.json", "template-versions/v2.json"] {
            let imported = try Programs.run(
                "jqc-server", ["admin", "--db", server.databasePath, "import-templates", Fixtures.url(file).path])
            guard imported.status == 0 else { throw ServerLaunchError(message: "import-templates: \(imported.stderr)") }
        }
        return server
    }

    static func report(version: Int?, answers: JSONValue) -> JSONValue {
        var report: JSONValue = [
            "local_id": .string(UUID().uuidString.lowercased()), "template_id": "versioned-walk",
            "facility_id": "F-100", "payload": ["answers": answers, "follow_up_required": false], "issues": [],
        ]
        if let version { report = report.setting("template_version", .integer(Int64(version))) }
        return report
    }

    @Test(
        "a report on version 1 is judged by version 1, though version 2 is current; version 2's rules apply to one on version 2 or none"
    )
    func judgedByItsVersion() async throws {
        let me = try await Session.inspector(try Self.server.get())
        let onOne: JSONValue = ["1": "pass", "2": "three bins"]
        #expect(
            try await me.syncOne(Self.report(version: 1, answers: onOne))["status"] == "ACCEPTED",
            "text in field 2 and no field 3: right for version 1")
        for version in [2, nil] as [Int?] {
            let result = try await me.syncOne(Self.report(version: version, answers: onOne))
            #expect(result["status"] == "REJECTED", "version \(version.map(String.init) ?? "none"): \(result)")
            #expect(result["error"]?.stringValue?.contains("3") == true, "the new required field is named: \(result)")
        }
        let onTwo: JSONValue = ["1": "pass", "2": 3, "3": "Sam"]
        #expect(try await me.syncOne(Self.report(version: 2, answers: onTwo))["status"] == "ACCEPTED")
        #expect(try await me.syncOne(Self.report(version: nil, answers: onTwo))["status"] == "ACCEPTED")
    }

    @Test("a version the server never published is REJECTED, saying which versions there are")
    func unknownVersion() async throws {
        let me = try await Session.inspector(try Self.server.get())
        let result = try await me.syncOne(Self.report(version: 7, answers: ["1": "pass", "2": 3, "3": "Sam"]))
        #expect(result["status"] == "REJECTED")
        #expect(result["error_code"] == "REPORT_INVALID")
        #expect(result["error"]?.stringValue?.contains("no version 7") == true, "\(result)")
    }
}
