import Foundation
import Models
@testable import ServerCore
import Testing
import TestSupport

/// Direction controls in what people typed cannot reorder what the console
/// shows: they are dropped from its HTML, as from the terminal's lines.
@Suite("Console text without direction controls")
struct ConsoleBidiTests {
    /// Every direction control the terminal's lines drop.
    static let controls: [Unicode.Scalar] =
        [0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        .compactMap(Unicode.Scalar.init)

    @Test("U+202E and the other direction controls never reach the console's HTML")
    func consoleBidiControls() async throws {
        let typed = "invoice" + String(String.UnicodeScalarView(Self.controls)) + "fdp.exe"
        let escaped = HTML.escape(typed)
        #expect(!escaped.unicodeScalars.contains { Self.controls.contains($0) }, "\(escaped.debugDescription)")
        #expect(escaped == "invoicefdp.exe")

        let server = try Shared.running()
        let inspector = try await Session.inspector(server)
        let report = Reports.lobby(answers: ["notes": .string("Mop \u{202E}gnp.exe")])
        let serverID = try #require(try await inspector.syncOne(report)["server_id"]?.stringValue)
        let supervisor = ConsoleClient(server)
        try supervisor.signIn("supervisor", "supervisor-pass")
        let page = try supervisor.get("/console/reports/\(serverID)")
        #expect(page.status == 200)
        #expect(page.text.contains("Mop gnp.exe"))
        #expect(!page.text.unicodeScalars.contains { Self.controls.contains($0) })
    }
}
