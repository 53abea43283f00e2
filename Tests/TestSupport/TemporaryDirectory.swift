import Foundation

/// A fresh directory under the system temporary folder, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    // Immutable after init; removal happens once in deinit.
    public let url: URL

    public init(prefix: String = "jqc-test") {
        let name = "\(prefix)-\(UUID().uuidString.prefix(8))"
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of a file or folder inside this directory.
    public func path(_ component: String) -> String {
        url.appendingPathComponent(component).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
