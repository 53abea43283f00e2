import FieldTypes
import FormLogic
import Foundation
import Models
@testable import ServerCore
import Testing
import TestSupport

/// The shared scoring vectors through the server: its judge, and a running
/// server that published each vector's template and was sent a report of
/// its answers, as `GET /reports/{id}` and the export show them.
@Suite("The server scores the shared vectors as contract 1.2 says")
struct ScoringVectorServerTests {
    @Test("each vector: the judge's score, deficiencies and pass", arguments: try ScoringVector.all())
    func judged(_ vector: ScoringVector) {
        let grade = AnswerJudge().grade(vector.template, answers: vector.answers)
        #expect(vector.scoreMatches(grade.score), "score \(String(describing: grade.score))")
        #expect(grade.deficiencies == vector.deficiencies)
        #expect(grade.passed == vector.passed)
    }

    @Test("every vector published, reported and read back: GET /reports/{id} and the export carry the grade")
    func overTheWire() async throws {
        let vectors = try ScoringVector.all()
        let folder = TemporaryDirectory(prefix: "scoring-vectors")
        let file = folder.path("templates.json")
        try Data(JSONValue.object(["templates": .array(vectors.map(\.templateJSON))]).canonicalString().utf8)
            .write(to: URL(fileURLWithPath: file))
        let server = try ServerProcess(["--demo"]) { db in
            let published = try Programs.run("jqc-server", ["admin", "--db", db, "template", "publish", file])
            guard published.status == 0 else { throw ServerLaunchError(message: "publish: \(published.stderr)") }
        }
        let inspector = try await Session.inspector(server)
        var serverIDs: [String: String] = [:]
        // A device sends only what its form shows (answers to hidden fields stay on it), and only
        // answers its types accept: a vector scoring a spelling no device sends ("PASS") is the judge's alone.
        var sentVectors: [ScoringVector] = []
        for vector in vectors {
            let state = FormLogic(schema: vector.template.schema, registry: .builtIn()).evaluate(vector.answers)
            var sent = vector.answers
            for id in state.hiddenFields { sent[id] = nil }
            guard AnswerJudge().problems(schema: vector.template.schema, answers: sent).isEmpty else { continue }
            sentVectors.append(vector)
            let result = try await inspector.syncOne(
                [
                    "local_id": .string(UUID().uuidString.lowercased()), "template_id": .string(vector.template.id),
                    "facility_id": "F-100",
                    "payload": ["answers": sent.json, "score": 0.5, "follow_up_required": false], "issues": [],
                ])
            try #require(result["status"] == "ACCEPTED", "\(vector.name): \(result)")
            serverIDs[vector.name] = try #require(result["server_id"]?.stringValue)
        }
        #expect(sentVectors.count >= vectors.count - 2, "only \(sentVectors.count) of \(vectors.count) sent")
        for vector in sentVectors {
            let response = try await inspector.get("/reports/\(try #require(serverIDs[vector.name]))")
            let report = try #require(response.data["report"])
            #expect(
                vector.scoreMatches(report["score"]?.numberValue),
                "\(vector.name): score \(String(describing: report["score"]))")
            #expect(
                report["deficiencies"]?.arrayValue?.compactMap(\.stringValue) == vector.deficiencies, "\(vector.name)")
            #expect(
                report["passed"]?.boolValue == vector.passed,
                "\(vector.name): passed \(String(describing: report["passed"]))")
        }
        let supervisor = try await Session.supervisor(server)
        let export = try await supervisor.get("/exports/reports?format=jsonl&facility_id=F-100")
        #expect(export.status == 200)
        let lines = String(decoding: export.body, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONValue.parse(String($0))
        }
        for vector in sentVectors {
            let line = try #require(lines.first { $0["server_id"]?.stringValue == serverIDs[vector.name] })
            #expect(
                line["deficiencies"]?.arrayValue?.compactMap(\.stringValue) == vector.deficiencies, "\(vector.name)")
            #expect(line["passed"]?.boolValue == vector.passed, "\(vector.name)")
        }
    }
}
