import Foundation
import Models
import Testing
@testable import Sync

/// A page of the reviews feed as the engine reads it from its bytes: the
/// same `ReviewsResponse` Foundation's decoder makes of it, or, for anything
/// the reader does not read itself, nothing, so that the decoder reads it as
/// every page was read before.
@Suite("A page of reviews as it is read")
struct ReviewsPageReaderTests {
    static let first = "0b55780c-7e26-41e3-8a32-88060a4d110b"
    static let second = "A1B2C3D4-E5F6-4789-8ABC-DEF012345678"

    /// What the decoder makes of `text`, nil when it refuses it (or it is a failure envelope).
    static func decoded(_ text: String) -> ReviewsResponse? {
        guard
            case .success(let page)? = try? JSONDecoder().decode(
                Envelope<ReviewsResponse>.self, from: Data(text.utf8))
        else { return nil }
        return page
    }

    static func page(_ reviews: String, tail: String = #","cursor":"g1.2","more":true"#) -> String {
        #"{"data":{"reviews":["# + reviews + "]" + tail + #"},"ok":true}"#
    }

    /// A review as the server writes one that awaits a decision.
    static let awaiting =
        #"{"change":"g1.1","field_comments":[],"local_id":"\#(first)","revision":1,"server_id":"R-7d31","state":"awaiting_review"}"#

    /// A decided review, every key given.
    static let returned = #"""
        {"server_id":42,"local_id":"\#(second)","revision":3,"state":"returned",\#
        "decided_by":{"id":"U-SUP","display_name":"Sam Supervisor — nuit"},"decided_at":"2026-12-05T20:00:00Z",\#
        "comment":"Redo the mirrors 🧹","field_comments":[{"field_id":"4","comment":"streaky"},{"field_id":7,"comment":"x"}],\#
        "change":"g1.9"}
        """#

    /// Pages as servers give them, every one read by the reader.
    static let usual: [String] = [
        page(awaiting),
        page(awaiting + "," + returned),
        page(""),
        page("", tail: #","cursor":"g1.0","more":false"#),
        page(awaiting, tail: ""),
        page(awaiting, tail: #","cursor":null,"more":null"#),
        page(
            #"{"server_id":"R-1","local_id":"\#(first)","revision":2,"state":"approved","decided_by":{"id":"U-1"},"decided_at":null,"comment":null,"field_comments":null,"change":null}"#
        ),
        page(
            #"{"server_id":"R-1","local_id":"\#(first)","revision":2,"state":"rejected","decided_by":{"id":"U-1","display_name":null}}"#
        ),
        // A state a newer server may add reads as awaiting review.
        page(#"{"server_id":"R-1","local_id":"\#(first)","revision":2,"state":"escalated","change":"g1.3"}"#),
        " \n{ \"ok\" : true , \"data\" : { \"more\" : false , \"reviews\" : [ \(awaiting) ] , \"cursor\" : \"g1.1\" } }\r\n",
    ]

    @Test("the pages a server gives are read exactly as the decoder reads them", arguments: usual)
    func sameAsTheDecoder(text: String) throws {
        let expected = try #require(Self.decoded(text), "the decoder reads it")
        #expect(SyncResponseReader.readReviews(Data(text.utf8)) == expected)
    }

    @Test("a newer server's state and a decided review's comments come through as the decoder has them")
    func decidedReview() throws {
        let read = try #require(SyncResponseReader.readReviews(Data(Self.page(Self.returned).utf8)))
        let review = try #require(read.reviews.first)
        #expect(review.serverID == "42")
        #expect(review.state == .returned)
        #expect(review.decidedBy == WirePerson(id: "U-SUP", displayName: "Sam Supervisor — nuit"))
        #expect(
            review.fieldComments == [
                FieldComment(fieldID: "4", comment: "streaky"), FieldComment(fieldID: "7", comment: "x"),
            ])
        let newer = Self.page(#"{"server_id":"R-1","local_id":"\#(Self.first)","revision":2,"state":"escalated"}"#)
        #expect(SyncResponseReader.readReviews(Data(newer.utf8))?.reviews.first?.state == .awaitingReview)
    }

    /// Well-formed pages the reader leaves to the decoder.
    static let leftToTheDecoder: [String] = [
        page(
            #"{"server_id":"R-1","local_id":"\#(first)","revision":2,"state":"returned","comment":"a \"quoted\" reason"}"#
        ),
        page(#"{"server_id":"R-1","local_id":"\#(first)","revision":2.0,"state":"approved"}"#),
        page(#"{"server_id":"R-1","local_id":"\#(first)","revision":2,"state":"approved","note":"new"}"#),
        page(
            #"{"server_id":"R-1","local_id":"\#(first)","revision":2,"state":"approved","decided_by":{"id":"U-1","team":"B"}}"#
        ),
        page(#"{"server_id":"R-1","server_id":"R-2","local_id":"\#(first)","revision":2,"state":"approved"}"#),
        page(awaiting, tail: #","cursor":"g1.1","more":false,"server_time":"2026-12-05T20:00:00Z""#),
        // Trailing commas: not JSON, but Foundation's decoder takes them, and so the client still does.
        page(awaiting + ","),
        #"{"ok":true,"data":{"reviews":[],"cursor":"g1.0","more":false},"request_id":"x"}"#,
    ]

    @Test("a page with anything else in it is left to the decoder", arguments: leftToTheDecoder)
    func unusualLeftToTheDecoder(text: String) {
        #expect(SyncResponseReader.readReviews(Data(text.utf8)) == nil)
    }

    /// Pages no server should give: the decoder refuses each, and the reader reads none.
    static let malformed: [String] = [
        "",
        "<html><body>502 Bad Gateway</body></html>",
        String(page(awaiting).dropLast(5)),
        page(awaiting) + "x",
        #"{"ok":true,"data":{"cursor":"g1","more":false}}"#,
        #"{"ok":true,"data":{"reviews":null}}"#,
        page(#"{"local_id":"\#(first)","revision":1,"state":"approved"}"#),
        page(#"{"server_id":"","local_id":"\#(first)","revision":1,"state":"approved"}"#),
        page(#"{"server_id":"R-1","local_id":"not-a-uuid","revision":1,"state":"approved"}"#),
        page(#"{"server_id":"R-1","local_id":"\#(first)","revision":"1","state":"approved"}"#),
        page(#"{"server_id":"R-1","local_id":"\#(first)","revision":1,"state":null}"#),
        page(
            #"{"server_id":"R-1","local_id":"\#(first)","revision":1,"state":"approved","decided_by":{"display_name":"x"}}"#
        ),
        page(
            #"{"server_id":"R-1","local_id":"\#(first)","revision":1,"state":"returned","field_comments":[{"field_id":"4"}]}"#
        ),
        page(
            #"{"server_id":"R-1","local_id":"\#(first)","revision":1,"state":"approved","comment":"line\#u{01}break"}"#),
        page(awaiting, tail: #","cursor":"g1","more":"yes""#),
    ]

    @Test("a malformed or hostile page is read by neither: the decoder refuses it as before", arguments: malformed)
    func malformedRefused(text: String) {
        #expect(Self.decoded(text) == nil)
        #expect(SyncResponseReader.readReviews(Data(text.utf8)) == nil)
    }
}
