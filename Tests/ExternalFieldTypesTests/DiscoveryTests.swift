import ExternalFieldTypes
import FieldTypes
import Foundation
import Testing
import TestSupport

/// Where external types are found, and who wins a name.
@Suite("Finding external field types")
struct DiscoveryTests {
    @Test("JQC_FIELD_TYPES_PATH is searched first, then the other folders; the first of a name wins")
    func order() throws {
        let first = TemporaryDirectory(prefix: "jqc-first"), second = TemporaryDirectory(prefix: "jqc-second")
        let winner = try FieldTypePlugins.write("ph_reading", script: "#!/bin/sh\n", into: first.url.path)
        try FieldTypePlugins.write("ph_reading", script: "#!/bin/sh\n", into: second.url.path)
        let other = try FieldTypePlugins.write("decibel_level", script: "#!/bin/sh\n", into: second.url.path)
        let directories = ExternalFieldTypeDiscovery.directories(
            environment: [ExternalFieldTypeDiscovery.pathVariable: "\(first.url.path):/nonexistent"],
            then: [second.url.path])
        #expect(directories == [first.url.path, "/nonexistent", second.url.path])
        let found = ExternalFieldTypeDiscovery.find(in: directories)
        #expect(found == [.init(name: "ph_reading", path: winner), .init(name: "decibel_level", path: other)])
    }

    @Test("only jqc-field-NAME files with a lowercase name count; folders and other names are skipped")
    func names() throws {
        let folder = TemporaryDirectory(prefix: "jqc-names")
        for name in ["Loud", "has-dash", ""] {
            try FieldTypePlugins.write(name, script: "#!/bin/sh\n", into: folder.url.path)
        }
        try FileManager.default.createDirectory(
            atPath: folder.path("jqc-field-folder"), withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: folder.path("field-ok")))
        let kept = try FieldTypePlugins.write("ok_2", script: "#!/bin/sh\n", into: folder.url.path)
        #expect(ExternalFieldTypeDiscovery.find(in: [folder.url.path]) == [.init(name: "ok_2", path: kept)])
    }

    @Test("a compiled-in type keeps its name; the executable is ignored with one warning, and nothing is started")
    func compiledInWins() throws {
        let folder = TemporaryDirectory(prefix: "jqc-shadow")
        let path = try FieldTypePlugins.write(
            "rating", script: FieldTypePlugins.Misbehaviour.silent.script(name: "rating"),
            into: folder.url.path)
        let warnings = Warnings()
        let types = registry(with: folder.url.path, settings: warnings.settings())
        #expect(!(types.type(named: "rating") is ExternalFieldType))
        #expect(types.externalFieldTypes.isEmpty)
        #expect(
            warnings.all == ["\(path) is ignored: field type 'rating' is compiled in, and the compiled-in type wins"])
    }
}
