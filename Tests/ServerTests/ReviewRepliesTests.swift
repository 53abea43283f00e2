import Foundation
import Models
import Testing

@testable import ServerCore

@Suite("A page of the reviews feed written as bytes")
struct ReviewRepliesTests {
    /// Text a supervisor, a name or an id may carry: every escape `JSONEncoder` knows, and none it does not.
    static let texts =
        UploadRepliesTests.texts + ["Redo the mirrors, they are \"streaky\" — Sam", "14", "R-7d31818cdb2f"]

    static func review(_ text: String, _ state: ReviewState, revision: Int, decided: Bool, comments: Int) -> WireReview
    {
        WireReview(
            serverID: text.isEmpty ? "R-1" : text, localID: UUID(), revision: revision, state: state,
            decidedBy: decided ? WirePerson(id: text.isEmpty ? "U-1" : text, displayName: text) : nil,
            decidedAt: decided ? text : nil, comment: decided ? text : nil,
            fieldComments: (0..<comments).map { FieldComment(fieldID: "\($0)\(text)", comment: text) },
            change: text)
    }

    @Test(
        "a page is byte for byte the one JSONEncoder writes: awaiting and decided reviews, with and without comments, whatever their text"
    )
    func sameAsTheEncoder() {
        for text in Self.texts {
            let reviews = [
                Self.review(text, .awaitingReview, revision: 1, decided: false, comments: 0),
                Self.review(text, .returned, revision: 3, decided: true, comments: 2),
                Self.review(text, .approved, revision: Int.max, decided: true, comments: 0),
                Self.review(text, .rejected, revision: 0, decided: false, comments: 1),
            ]
            for more in [true, false] {
                for count in [0, 1, reviews.count] {
                    let page = ReviewsResponse(reviews: Array(reviews.prefix(count)), cursor: text, more: more)
                    #expect(
                        ReviewReplies.envelope(page) == JSONBody.encode(Envelope.success(page)),
                        "\(text), \(count) reviews, more \(more)")
                }
            }
        }
        var partial = Self.review("x", .returned, revision: 2, decided: true, comments: 1)
        partial.decidedAt = nil
        partial.comment = nil
        let page = ReviewsResponse(reviews: [partial], cursor: "", more: false)
        #expect(ReviewReplies.envelope(page) == JSONBody.encode(Envelope.success(page)))
    }
}
