import Foundation
import Models

/// The fixture files under `Tests/Fixtures/`.
public enum Fixtures {
    /// The `Tests/Fixtures` folder of this checkout.
    public static var directory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent() // TestSupport
            .deletingLastPathComponent() // Tests
            .appendingPathComponent("Fixtures", isDirectory: true)
    }

    /// The URL of a fixture file.
    public static func url(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    /// The bytes of a fixture file.
    public static func data(_ name: String) throws -> Data {
        try Data(contentsOf: url(name))
    }

    /// A fixture file parsed as JSON.
    public static func json(_ name: String) throws -> JSONValue {
        try JSONValue.parse(try data(name))
    }
}

/// The demo world files shipped under `Tools/demo/`.
public enum DemoFiles {
    /// The `Tools/demo` folder of this checkout.
    public static var directory: URL {
        Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tools/demo", isDirectory: true)
    }

    /// The path of a demo file.
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// A demo file parsed as JSON.
    public static func json(_ name: String) throws -> JSONValue {
        try JSONValue.parse(try Data(contentsOf: directory.appendingPathComponent(name)))
    }
}

/// Files of this checkout, by their path from the repository's root.
public enum RepositoryFiles {
    /// The repository's root folder.
    public static var root: URL {
        Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The absolute path of `relative` in this checkout.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }
}
