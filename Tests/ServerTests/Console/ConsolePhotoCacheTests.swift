import Foundation
import Testing
import TestSupport

/// A photo the console shows is kept by no cache, the browser's included:
/// after signing out, nothing of it is left to open.
@Suite("Console photos are not cached")
struct ConsolePhotoCacheTests {
    @Test("a console photo's answer is Cache-Control: private, no-store")
    func consolePhotoNoStore() async throws {
        let server = try Shared.running()
        let inspector = try await Session.inspector(server)
        let (serverID, photoID, photo) = try await ConsoleReviewTests.reportWithPhoto(inspector)
        let supervisor = ConsoleClient(server)
        try supervisor.signIn("supervisor", "supervisor-pass")
        let bytes = try supervisor.get("/console/reports/\(serverID)/photos/\(photoID)")
        #expect(bytes.status == 200)
        #expect(bytes.body == photo)
        #expect(bytes.headers["cache-control"] == "private, no-store")
    }
}
