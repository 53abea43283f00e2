import Foundation
import FieldTypes

/// Finding external field types: executables named `jqc-field-NAME` in a
/// list of directories, searched in order, the first of a name winning.
public enum ExternalFieldTypeDiscovery {
    /// The file name prefix of every external field type.
    public static let prefix = "jqc-field-"
    /// The environment variable listing directories to search first (colon-separated).
    public static let pathVariable = "JQC_FIELD_TYPES_PATH"

    /// One executable found: the type name its file name gives, and its path.
    public struct Found: Sendable, Hashable {
        /// `NAME` of `jqc-field-NAME`.
        public var name: String
        /// The file's path.
        public var path: String

        /// Makes a finding.
        public init(name: String, path: String) {
            self.name = name
            self.path = path
        }
    }

    /// The directories to search, in order: those of `JQC_FIELD_TYPES_PATH`, then `then`.
    public static func directories(environment: [String: String], then more: [String]) -> [String] {
        let listed = (environment[pathVariable] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        return listed + more
    }

    /// The type name a file name gives, or nil when it is not `jqc-field-NAME`
    /// with NAME of lowercase letters, digits and underscores.
    public static func typeName(fileName: String) -> String? {
        guard fileName.hasPrefix(prefix) else { return nil }
        let name = String(fileName.dropFirst(prefix.count))
        return FieldTypeRegistry.isValidName(name) ? name : nil
    }

    /// Every `jqc-field-NAME` file in `directories` (missing directories are
    /// skipped), in search order; a name found again later is left out.
    /// Files that are not executable are kept: using them says why they fail.
    public static func find(in directories: [String]) -> [Found] {
        var found: [Found] = []
        var seen: Set<String> = []
        for directory in directories {
            let base = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: base.path) else { continue }
            for entry in entries.sorted() {
                guard let name = typeName(fileName: entry), !seen.contains(name) else { continue }
                let path = base.appendingPathComponent(entry).path
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
                else { continue }
                seen.insert(name)
                found.append(Found(name: name, path: path))
            }
        }
        return found
    }
}
