import Foundation

/// External field types for tests: the example shipped under
/// `Examples/field-types/`, and small misbehaving plugins written into a
/// temporary folder as real executables.
public enum FieldTypePlugins {
    /// The repository's `Examples/field-types` folder.
    public static var examplesDirectory: URL {
        Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/field-types", isDirectory: true)
    }

    /// The example `ph_reading` type, in Python.
    public static var phReading: String {
        examplesDirectory.appendingPathComponent("jqc-field-ph_reading").path
    }

    /// Ways a plugin can misbehave, each with the words its failure is reported in.
    public enum Misbehaviour: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Starts and never answers.
        case silent
        /// Exits at once with status 3.
        case exits
        /// Answers every line with text that is not JSON.
        case garbage
        /// Says it is another field type.
        case liar
        /// Answers with one line of 3 MB.
        case huge

        /// A shell or Python script doing it; `name` is the type name it should have claimed.
        public func script(name: String) -> String {
            switch self {
            case .silent:
                return "#!/bin/sh\nsleep 600\n"
            case .exits:
                return "#!/bin/sh\nexit 3\n"
            case .garbage:
                return "#!/bin/sh\nwhile read line; do echo 'hello, I am a plugin'; done\n"
            case .liar:
                return """
                    #!/usr/bin/env python3
                    import json, sys
                    for line in sys.stdin:
                        request = json.loads(line)
                        print(json.dumps({"id": request["id"], "result": {"protocol": 1, "name": "not_\(name)", "answerable": True,
                            "scoreable": False, "copies_on_reinspection": True, "operators": []}}), flush=True)

                    """
            case .huge:
                return
                    "#!/usr/bin/env python3\nimport sys\nfor line in sys.stdin:\n    sys.stdout.write('x' * 3000000)\n    sys.stdout.flush()\n"
            }
        }

        /// Words the one-line failure contains.
        public var reported: String {
            switch self {
            case .silent: return "did not answer 'describe' within"
            case .exits: return "exited with status 3"
            case .garbage: return "does not speak the field-type protocol"
            case .liar: return "says it is field type"
            case .huge: return "line longer than"
            }
        }

        public var description: String { rawValue }
    }

    /// Writes an executable `jqc-field-NAME` with `script` into `directory` and returns its path.
    @discardableResult
    public static func write(_ name: String, script: String, into directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = (directory as NSString).appendingPathComponent("jqc-field-\(name)")
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// Copies the example `ph_reading` plugin into `directory` and returns the copy's path.
    @discardableResult
    public static func installPHReading(into directory: String) throws -> String {
        let script = try String(contentsOfFile: phReading, encoding: .utf8)
        return try write("ph_reading", script: script, into: directory)
    }
}
