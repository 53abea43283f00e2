import Foundation
import Models

/// The fixture files under `Tests/Fixtures/`.
public enum Fixtures {
    /// The `Tests/Fixtures` folder of this checkout.
    public static var directory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // TestSupport
            .deletingLastPathComponent()   // Tests
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
