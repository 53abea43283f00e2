import Foundation
import Models

/// A page of `GET /reviews`, `{"data":{"cursor":…,"more":…,"reviews":[…]},"ok":true}`,
/// written as bytes in exactly the form `JSONBody.encode` gives it (keys
/// sorted, slashes not escaped, strings escaped as `JSONEncoder` escapes
/// them). Every device reads the feed every cycle, a page of a hundred
/// reviews for every hundred reports it sent, and `JSONEncoder` cost more
/// than the page's query.
enum ReviewReplies {
    static func envelope(_ page: ReviewsResponse) -> Data {
        var out = JSONBytes()
        out.open("data")
        out.member("cursor", first: true)
        out.string(page.cursor)
        out.member("more", first: false)
        page.more ? out.raw("true") : out.raw("false")
        out.member("reviews", first: false)
        out.raw("[")
        for (index, review) in page.reviews.enumerated() {
            if index > 0 { out.raw(",") }
            write(review, to: &out)
        }
        out.raw("]")
        return out.closingEnvelope()
    }

    /// One review, its optional members left out when absent, as `WireReview.encode` leaves them.
    private static func write(_ review: WireReview, to out: inout JSONBytes) {
        out.raw("{")
        out.member("change", first: true)
        out.string(review.change)
        if let comment = review.comment {
            out.member("comment", first: false)
            out.string(comment)
        }
        if let decidedAt = review.decidedAt {
            out.member("decided_at", first: false)
            out.string(decidedAt)
        }
        if let person = review.decidedBy {
            out.member("decided_by", first: false)
            out.object("display_name", person.displayName, "id", person.id)
        }
        out.member("field_comments", first: false)
        out.raw("[")
        for (index, comment) in review.fieldComments.enumerated() {
            if index > 0 { out.raw(",") }
            out.object("comment", comment.comment, "field_id", comment.fieldID)
        }
        out.raw("]")
        out.member("local_id", first: false)
        out.string(review.localID.wireString)
        out.member("revision", first: false)
        out.number(Int64(review.revision))
        out.member("server_id", first: false)
        out.string(review.serverID)
        out.member("state", first: false)
        out.string(review.state.rawValue)
        out.raw("}")
    }
}
