import Foundation
import Models
import Sync
import Testing
import TestSupport

/// `APIClient.reviews(since:limit:)` against a real `jqc-server --demo` on
/// loopback: the inspector's own reviews in the server's order of changes,
/// pages with a cursor, and a cursor the server never issued refused as the
/// contract says, so the cycle knows to pull from the start.
@Suite("The reviews feed against the reference server")
struct ReviewFeedTests {
    @Test(
        "an uploaded report's review awaits a decision; a page of one goes on from its cursor; another inspector's are never sent"
    )
    func ownReviewsInPages() async throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try await signedIn(server)
        let first = Wire.lobby(), second = Wire.lobby()
        let answer = try await inspector.syncReports(Wire.batch([first, second]))
        try #require(answer.results.allSatisfy { $0.status == .accepted }, "\(answer.results)")

        let all = try await inspector.reviews()
        #expect(all.reviews.map(\.localID) == [first.localID, second.localID], "in the order they were accepted")
        #expect(all.reviews.allSatisfy { $0.state == .awaitingReview && $0.revision == 1 && $0.decidedBy == nil })
        #expect(!all.more && !all.cursor.isEmpty)

        let page = try await inspector.reviews(limit: 1)
        #expect(page.reviews.map(\.localID) == [first.localID] && page.more)
        let rest = try await inspector.reviews(since: page.cursor, limit: 1)
        #expect(rest.reviews.map(\.localID) == [second.localID])
        let none = try await inspector.reviews(since: all.cursor)
        #expect(none.reviews.isEmpty && !none.more && none.cursor == all.cursor, "nothing new: the cursor stays")

        let supervisor = try await signedIn(server, "supervisor")
        let everyone = try await supervisor.reviews()
        #expect(Set(everyone.reviews.map(\.localID)).isSuperset(of: [first.localID, second.localID]))
    }

    @Test("a cursor the server did not issue is 400 CURSOR_INVALID")
    func foreignCursor() async throws {
        let inspector = try await signedIn(try DemoServer.running())
        let error = await #expect(throws: APIError.self) {
            _ = try await inspector.reviews(since: "not-a-cursor-of-this-server")
        }
        #expect(error?.status == 400)
        #expect(error?.isCursorInvalid == true, "\(String(describing: error))")
    }
}
