import ExternalFieldTypes
import FieldTypes
import Foundation
import Models
import Testing
import TestSupport

/// Plugins that are missing, broken or hostile never hang or crash the
/// caller: the type behaves as unsupported and one line says which executable
/// failed and how.
@Suite("Misbehaving plugins")
struct MisbehavingPluginTests {
    /// A required pH field and a raw answer someone set before the plugin broke.
    let answers = Answers(["2": 7.2])

    @Test(
        "the type becomes unsupported, keeps answers, blocks completion and the server's judgement, and warns once",
        arguments: FieldTypePlugins.Misbehaviour.allCases)
    func misbehaving(_ misbehaviour: FieldTypePlugins.Misbehaviour) throws {
        let folder = TemporaryDirectory(prefix: "jqc-plugins")
        let path = try FieldTypePlugins.write(
            "ph_reading", script: misbehaviour.script(name: "ph_reading"), into: folder.url.path)
        let warnings = Warnings()
        let started = Date()
        // The silent plugin is stopped at the limit; the others fail on their own, which a loaded
        // machine's slow interpreter start must not turn into a timeout.
        let limit: TimeInterval = misbehaviour == .silent ? 1 : 30
        let types = registry(with: folder.url.path, settings: warnings.settings(timeout: limit))
        let schema = FormSchema(fields: [cleanerPH])

        let completion = types.completionProblems(schema, answers: answers)
        #expect(completion.count == 1)
        #expect(completion.first?.message.contains(path) == true, "\(completion)")
        #expect(completion.first?.message.contains(misbehaviour.reported) == true, "\(completion)")
        #expect(
            types.validateAnswers(schema, answers: answers).map(\.kind) == [.unavailableType], "the server refuses it")

        guard case .failure(let refusal) = typed("7.2", cleanerPH, in: types) else {
            Issue.record("typing was accepted by a broken plugin")
            return
        }
        #expect(refusal.message.contains(path) && refusal.message.contains("--value-json"))
        #expect(
            types.display(cleanerPH, 7.2, style: .plain) == "field type 'ph_reading' unavailable: 7.2",
            "the kept answer is shown raw")
        #expect(types.validate(answerOf: 7.2, cleanerPH) == nil, "the answer is kept")
        #expect(types.score(cleanerPH, 7.2) == .notScoreable)
        #expect(
            types.resolve(cleanerPH).prompt(for: cleanerPH, style: .plain) == [
                "This field cannot be answered here: \(types.resolve(cleanerPH).unavailableReason ?? "")."
            ])
        #expect(
            Date().timeIntervalSince(started) < limit + 9, "the caller waited for the plugin at most the time limit")

        #expect(warnings.all.count == 1, "\(warnings.all)")
        #expect(
            warnings.all.first?.contains(path) == true && warnings.all.first?.contains(misbehaviour.reported) == true)
    }

    @Test("a plugin that never answers is stopped after the default limit, well within seconds")
    func silentWithDefaultLimit() throws {
        let folder = TemporaryDirectory(prefix: "jqc-plugins")
        let path = try FieldTypePlugins.write(
            "ph_reading", script: FieldTypePlugins.Misbehaviour.silent.script(name: "ph_reading"),
            into: folder.url.path)
        let warnings = Warnings()
        let started = Date()
        let reason = registry(with: folder.url.path, settings: warnings.settings()).resolve(cleanerPH).unavailableReason
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(
            reason
                == "field type 'ph_reading' is unavailable: \(path) did not answer 'describe' within 2 s and was stopped"
        )
    }

    @Test("a file that is missing or not executable is unavailable, saying which")
    func notRunnable() throws {
        let folder = TemporaryDirectory(prefix: "jqc-plugins")
        let path = try FieldTypePlugins.write("ph_reading", script: "#!/bin/sh\n", into: folder.url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let warnings = Warnings()
        let types = registry(with: folder.url.path, settings: warnings.settings())
        #expect(
            types.resolve(cleanerPH).unavailableReason?.hasSuffix("\(path) is not executable; make it so with chmod +x")
                == true)

        let gone = ExternalFieldType(
            name: "ph_reading", executablePath: folder.path("nowhere/jqc-field-ph_reading"),
            settings: warnings.settings())
        #expect(gone.failure?.code == .missing)
        #expect(gone.unavailableReason?.contains("nowhere/jqc-field-ph_reading does not exist") == true)
    }

    @Test("a plugin that dies after answering is started once more, then given up for the rest of the process")
    func restartedOnce() throws {
        let folder = TemporaryDirectory(prefix: "jqc-plugins")
        // Answers `describe` and one more request, then exits.
        let path = try FieldTypePlugins.write(
            "once",
            script: """
                #!/usr/bin/env python3
                import json, sys
                for count, line in enumerate(sys.stdin):
                    request = json.loads(line)
                    result = {"protocol": 1, "name": "once", "answerable": True, "scoreable": False,
                              "copies_on_reinspection": True, "operators": []} if request["method"] == "describe" else {"text": "shown"}
                    print(json.dumps({"id": request["id"], "result": result}), flush=True)
                    if count == 1:
                        sys.exit(0)

                """, into: folder.url.path)
        let warnings = Warnings()
        let type = ExternalFieldType(name: "once", executablePath: path, settings: warnings.settings())
        let field = FieldDefinition(id: "1", type: "once")
        #expect(type.display("a", for: field, style: .plain) == "shown")
        #expect(type.display("b", for: field, style: .plain) == "shown", "the second start answers")
        #expect(type.display("c", for: field, style: .plain) == "field type 'once' unavailable: \"c\"")
        #expect(
            type.unavailableReason
                == "field type 'once' is unavailable: \(path) exited with status 0 before answering 'display' (after one restart)"
        )
        #expect(warnings.all.count == 1)
    }

    @Test("writing to a plugin that stopped reading never kills the caller, even with SIGPIPE at its default")
    func brokenPipe() throws {
        let folder = TemporaryDirectory(prefix: "jqc-plugins")
        // Answers `describe`, then closes its standard input and lingers, so the next request meets a broken pipe.
        let path = try FieldTypePlugins.write(
            "deaf",
            script: """
                #!/usr/bin/env python3
                import json, os, sys, time
                request = json.loads(sys.stdin.readline())
                print(json.dumps({"id": request["id"], "result": {"protocol": 1, "name": "deaf", "answerable": True,
                    "scoreable": False, "copies_on_reinspection": True, "operators": []}}), flush=True)
                os.close(0)
                time.sleep(5)

                """, into: folder.url.path)
        let previous = signal(SIGPIPE, SIG_DFL)
        defer { signal(SIGPIPE, previous) }
        let type = ExternalFieldType(name: "deaf", executablePath: path, settings: Warnings().settings())
        #expect(type.isAnswerable)
        let line = type.display(
            String(repeating: "x", count: 200_000).jsonValue, for: FieldDefinition(id: "1", type: "deaf"), style: .plain
        )
        #expect(line.hasPrefix("field type 'deaf' unavailable"), "this process is still running: \(line.prefix(80))")
        #expect(type.failure?.code == .exited, "\(type.failure?.message ?? "no failure")")
    }

    @Test("an answer that breaks the protocol after a good start makes the type unavailable from then on")
    func laterViolation() throws {
        let folder = TemporaryDirectory(prefix: "jqc-plugins")
        let path = try FieldTypePlugins.write(
            "odd",
            script: """
                #!/usr/bin/env python3
                import json, sys
                for line in sys.stdin:
                    request = json.loads(line)
                    result = {"protocol": 1, "name": "odd", "answerable": True, "scoreable": True,
                              "copies_on_reinspection": False, "operators": ["passed"]} if request["method"] == "describe" else {"score": 7}
                    print(json.dumps({"id": request["id"], "result": result}), flush=True)

                """, into: folder.url.path)
        let warnings = Warnings()
        // A limit no interpreter start reaches: the failure is the protocol's, not the clock's.
        let type = ExternalFieldType(name: "odd", executablePath: path, settings: warnings.settings(timeout: 30))
        let field = FieldDefinition(id: "1", type: "odd")
        #expect(type.isScoreable)
        #expect(type.score("x", for: field) == .unreadable("\"x\""))
        #expect(type.isScoreable == false, "an unavailable type is not scored")
        #expect(type.unavailableReason?.contains("its 'score' is 7") == true, "\(type.unavailableReason ?? "")")
        #expect(warnings.all.count == 1)
    }
}

extension String {
    /// The string as a JSON answer.
    var jsonValue: JSONValue { .string(self) }
}

extension FieldTypeRegistry {
    /// What the field's type says of an answer.
    func validate(answerOf answer: JSONValue, _ field: FieldDefinition) -> String? {
        resolve(field).validate(answer, for: field)
    }
}
