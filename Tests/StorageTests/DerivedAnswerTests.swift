import Foundation
import Testing
import Models
import Storage
import TestSupport

/// Saving an answer with `derive`: calculated answers are worked out from the
/// answers as stored, in the same transaction and revision as the answer.
@Suite("Derived answers are saved with the answer that changed them")
struct DerivedAnswerTests {
    @Test(
        "derive sees the stored answers plus the new one, and its result is the revision", arguments: StoreKind.allCases
    )
    func derive(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let id = try t.store.createReport(templateID: "t1", facilityID: "f1", answers: Answers(["counted": 10])).localID
        let twice: (Answers) -> Answers = { answers in
            var out = answers
            out["share"] = answers["broken"].flatMap(\.numberValue).map {
                .double($0 / (answers["counted"]?.numberValue ?? 1))
            }
            return out
        }
        let saved = try t.store.saveAnswer(
            id, field: "broken", value: 2, derive: twice, score: { $0["share"]?.numberValue })
        #expect(saved.answers["share"] == .double(0.2))
        #expect(saved.score == 0.2)
        let revisions = try t.store.revisions(of: id)
        #expect(revisions.last?.answers == Answers(["counted": 10, "broken": 2, "share": .double(0.2)]))
        let cleared = try t.store.saveAnswer(id, field: "broken", value: nil, derive: twice)
        #expect(cleared.answers["share"] == nil, "a derived answer that becomes null is removed")
    }
}
