import Foundation
import ServerCore
import Testing

@Suite("docs/openapi.yaml matches the route table")
struct OpenAPITests {
    /// "METHOD /path" for every operation under `paths:` (paths relative to the `/api/v1` server url).
    static func documentedOperations() throws -> Set<String> {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.yaml")
        let text = try String(contentsOf: url, encoding: .utf8)
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        var operations = Set<String>()
        var inPaths = false
        var currentPath: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line == "paths:"
                currentPath = nil
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let currentPath {
                let key = line.dropFirst(4).split(separator: ":").first.map(String.init) ?? ""
                if methods.contains(key) { operations.insert("\(key.uppercased()) \(currentPath)") }
            }
        }
        return operations
    }

    static var servedOperations: Set<String> {
        Set(Router.table.map { "\($0.method) \($0.pattern)" })
    }

    @Test("every route the server serves is documented")
    func everyRouteDocumented() throws {
        let documented = try Self.documentedOperations()
        #expect(
            Self.servedOperations.subtracting(documented).isEmpty,
            "undocumented: \(Self.servedOperations.subtracting(documented).sorted())")
    }

    @Test("every documented operation is served")
    func everyOperationServed() throws {
        let documented = try Self.documentedOperations()
        #expect(!documented.isEmpty)
        #expect(
            documented.subtracting(Self.servedOperations).isEmpty,
            "not served: \(documented.subtracting(Self.servedOperations).sorted())")
    }

    @Test("the document's server url is the router's base path")
    func basePath() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.yaml")
        #expect(try String(contentsOf: url, encoding: .utf8).contains("  - url: \(Router.basePath)\n"))
    }
}
