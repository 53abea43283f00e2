import Foundation
@testable import ServerCore
@testable import ServerStore
import Testing

/// The codes the server writes in its error envelope are the contract's, to
/// the byte: each error the server makes, with its status and code as the
/// envelope carries them, against the contract's table of status codes and
/// the codes its sections name.
@Suite("The server's error codes are the contract's")
struct ErrorCodeTests {
    /// The contract's text.
    static func contract() throws -> String {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/contract.md")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// "STATUS CODE" for every error row of the contract's table of status codes.
    static func documentedStatusCodes() throws -> Set<String> {
        let lines = try contract().split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "### Status codes") else { return [] }
        var pairs = Set<String>()
        for line in lines[start...].dropFirst().drop(while: { !$0.hasPrefix("|") }).prefix(while: { $0.hasPrefix("|") })
        {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, let status = Int(cells[0].prefix(3)), status >= 400 else { continue }
            let named = cells[0].count > 3 ? cells[0] : cells[1]
            for code in named.split(separator: "`").enumerated().filter({ $0.offset % 2 == 1 }).map(\.element)
            where code.allSatisfy({ $0.isUppercase || $0 == "_" })
                && !["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD"].contains(code)
            {
                pairs.insert("\(status) \(code)")
            }
        }
        return pairs
    }

    /// Every error of the table, as the server makes it.
    static let tableErrors: [ServerError] = [
        .badRequest("x"), .authRequired(), .forbidden("x"), .notFound("x"), .methodNotAllowed("GET", path: "/x"),
        .conflict("x"), .tooLarge("x"), .targetTooLong(limit: 8192), .unsupportedMediaType("x"),
        .unprocessable(code: .photoHashMismatch, "x"), .revisionLimit("x", limit: 1),
        .tooManyRequests("x", retryAfter: 1),
        .quotaExceeded("x", retryAfter: 1), .internal("x"), .unavailable("x", retryAfter: 1), .databaseUnreachable("x"),
        .busy(), .storageFull(), .actionState("x", action: .null),
    ]

    @Test("the table of status codes lists exactly the statuses and codes the server answers with")
    func table() throws {
        let written = Set(Self.tableErrors.map { "\($0.status) \($0.code.rawValue)" })
        let documented = try Self.documentedStatusCodes()
        #expect(
            written.subtracting(documented).isEmpty,
            "not in the contract's table: \(written.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(written).isEmpty,
            "not written by the server: \(documented.subtracting(written).sorted())")
    }

    @Test(
        "the codes of uploads, reviews, cursors, actions and batches are written as the contract spells them, with its status"
    )
    func sections() throws {
        let contract = try Self.contract()
        let errors: [ServerError] = [
            UploadRoutes.uploadGone("x"), UploadRoutes.wrongOffset(1, 2),
            .revisionStale("x", review: .null), .cursorInvalid("x"), .actionState("x", action: .null),
        ]
        #expect(
            errors.map { "\($0.status) \($0.code.rawValue)" }
                == [
                    "404 UPLOAD_GONE", "409 UPLOAD_OFFSET_MISMATCH", "409 REVISION_STALE", "400 CURSOR_INVALID",
                    "409 ACTION_STATE",
                ])
        for error in errors {
            #expect(contract.contains("`\(error.code.rawValue)`"), "\(error.code)")
        }
        // A rejected report of a batch carries its code in its result.
        #expect(contract.contains("REJECTED with `\(ServerError.Code.schemaUnsupported.rawValue)`"))
        #expect(contract.contains("REJECTED with `\(ServerError.Code.reportInvalid.rawValue)`"))
        #expect(
            contract.contains(
                "`\(ServerError.Code.reportInvalid.rawValue)` (no such report) or `\(ServerError.Code.forbidden.rawValue)`"
            ))
    }
}
