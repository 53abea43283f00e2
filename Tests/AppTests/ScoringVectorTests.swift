import FieldTypes
import FormLogic
import JQCCore
import Models
import SiteFieldTypes
import Testing
import TestSupport

/// The shared scoring vectors through the device's scoring: the registry
/// the programs build (built-in and site types), the template's logic, and
/// its pass threshold, exactly as `jqc show` and `complete` score a report.
@Suite("The device scores the shared vectors as contract 1.2 says")
struct ScoringVectorTests {
    @Test("each vector: score, deficiencies and pass", arguments: try ScoringVector.all())
    func scored(_ vector: ScoringVector) {
        let registry = FieldTypeRegistry.builtIn().addingSiteFieldTypes()
        let score = Workspace.score(
            vector.answers, logic: FormLogic(schema: vector.template.schema, registry: registry), registry: registry,
            passThreshold: vector.template.passThreshold)
        #expect(vector.scoreMatches(score.ratio), "score \(String(describing: score.ratio))")
        #expect(score.deficiencies.map(\.rawValue) == vector.deficiencies)
        #expect(score.passed == vector.passed)
    }
}
