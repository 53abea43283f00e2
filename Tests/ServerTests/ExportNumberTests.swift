import Foundation
import Models
import Testing
import TestSupport

/// The numbers of the exports (both stores) carry no float noise: a score
/// the server summed in binary arithmetic is written as the decimal it is.
@Suite("Export numbers without float noise", .timeLimit(.minutes(3)))
struct ExportNumberTests {
    /// Three weighted checks: passing Doors and Glass is 0.1 + 0.7 of 1.0,
    /// 0.7999999999999999 in binary arithmetic; Glass and Mats 0.8999999999999999.
    static let weights = #"""
        {"id": "weights", "name": "Weights", "version": 1, "pass_threshold": 0.75, "form_schema": {"fields": [
            {"id": "p1", "type": "pass_fail", "label": "Doors", "weight": 0.1},
            {"id": "p2", "type": "pass_fail", "label": "Glass", "weight": 0.7},
            {"id": "p3", "type": "pass_fail", "label": "Mats", "weight": 0.2}
        ]}}
        """#

    /// A server of the demo world with `template` (a template document) published.
    static func server(publishing template: String) throws -> ServerProcess {
        try ServerProcess(["--demo"]) { db in
            let file = NSTemporaryDirectory() + "template-\(UUID().uuidString).json"
            try Data(template.utf8).write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            let published = try Programs.run("jqc-server", ["admin", "--db", db, "publish-template", file])
            guard published.status == 0 else { throw ServerLaunchError(message: "publish: \(published.stderr)") }
        }
    }

    /// A report of `template` at the main lobby of F-100 with `answers`.
    static func report(_ template: String, _ answers: JSONValue) -> JSONValue {
        [
            "local_id": .string(UUID().uuidString.lowercased()), "template_id": .string(template),
            "facility_id": "F-100", "area_id": "A-102",
            "payload": ["answers": answers, "score": .null, "follow_up_required": false], "issues": [],
        ]
    }

    /// The cells of column `index` of a CSV export's rows.
    static func column(_ response: TestResponse, _ index: Int) -> [String] {
        String(decoding: response.body, as: UTF8.self).components(separatedBy: "\r\n").dropFirst()
            .filter { !$0.isEmpty }.map { CSVCells.parse($0)[index] }
    }

    @Test(
        "scores summed in binary arithmetic (0.7999999999999999, 0.8999999999999999) are 0.8 and 0.9 in JSON Lines and CSV, 80 and 90 percent"
    )
    func scoresWithoutFloatNoise() async throws {
        let server = try Self.server(publishing: Self.weights)
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        // 0.1 + 0.7 of 1.0; 0.7 + 0.2 of 1.0; 0.7 of 0.8 (Mats unanswered), exact in binary.
        for answers: JSONValue in [
            ["p1": "pass", "p2": "pass", "p3": "fail"], ["p1": "fail", "p2": "pass", "p3": "pass"],
            ["p1": "fail", "p2": "pass"],
        ] {
            _ = try await ExportContractTests.accepted(inspector, Self.report("weights", answers))
        }

        let export = try await ExportContractTests.export(supervisor, "template_id=weights")
        #expect(export.reports.map { $0["score"] } == [0.8, 0.9, 0.875])
        #expect(export.reports.first?["passed"] == true && export.reports.first?["deficiencies"] == ["p3"])
        let plain = try await supervisor.get("/exports/reports?format=csv&template_id=weights")
        #expect(Self.column(plain, 8) == ["0.8", "0.9", "0.875"])
        let labelled = try await supervisor.get("/exports/reports?format=csv&template_id=weights&labels=true")
        #expect(Self.column(labelled, 11) == ["80", "90", "87.5"], "score_percent: 89.99999999999999 is 90")
        for response in [plain, labelled] {
            #expect(!String(decoding: response.body, as: UTF8.self).contains("9999999"))
        }
    }
}
