import Foundation
import Models

/// A page of the reviews feed (contract 1.1), read from its bytes as the sync
/// answer is. A device that has just sent thousands of reports reads one page
/// of a hundred reviews for every hundred of them; what the reader is not sure
/// of (a key it does not read, an escaped string, a number it would have to
/// round) goes to `JSONDecoder`, which accepts and refuses exactly as before.
extension SyncResponseReader {
    /// The answer to `GET /reviews`.
    static func readReviews(_ body: Data) -> ReviewsResponse? {
        read(body) { $0.reviewsPage() }
    }

    private mutating func reviewsPage() -> ReviewsResponse? {
        var reviews: [WireReview]?
        var cursor: String??
        var more: Bool??
        let read = object { reader, key in
            switch key {
            case "reviews":
                guard reviews == nil, let value = reader.list({ $0.review() }) else { return false }
                reviews = value
            case "cursor":
                guard cursor == nil, let value = reader.optional({ $0.string() }) else { return false }
                cursor = value
            case "more":
                guard more == nil, let value = reader.optional({ $0.boolean() }) else { return false }
                more = value
            default:
                return false
            }
            return true
        }
        guard read, let reviews else { return nil }
        return ReviewsResponse(reviews: reviews, cursor: (cursor ?? nil) ?? "", more: (more ?? nil) ?? false)
    }

    private mutating func review() -> WireReview? {
        var serverID: String?
        var localID: UUID?
        var revision: Int?
        var state: ReviewState?
        var decidedBy: WirePerson??
        var decidedAt: String??
        var comment: String??
        var fieldComments: [FieldComment]??
        var change: String??
        let read = object { reader, key in
            switch key {
            case "server_id":
                guard serverID == nil, let value = reader.id() else { return false }
                serverID = value
            case "local_id":
                guard localID == nil, let value = reader.uuid() else { return false }
                localID = value
            case "revision":
                guard revision == nil, let value = reader.integer() else { return false }
                revision = value
            case "state":
                guard state == nil, let text = reader.string() else { return false }
                // A state a newer server may add reads as awaiting review, as the decoder has it.
                state = ReviewState(rawValue: text) ?? .awaitingReview
            case "decided_by":
                guard decidedBy == nil, let value = reader.optional({ $0.person() }) else { return false }
                decidedBy = value
            case "decided_at":
                guard decidedAt == nil, let value = reader.optional({ $0.string() }) else { return false }
                decidedAt = value
            case "comment":
                guard comment == nil, let value = reader.optional({ $0.string() }) else { return false }
                comment = value
            case "field_comments":
                guard fieldComments == nil, let value = reader.optional({ $0.list({ $0.fieldComment() }) }) else {
                    return false
                }
                fieldComments = value
            case "change":
                guard change == nil, let value = reader.optional({ $0.string() }) else { return false }
                change = value
            default:
                return false
            }
            return true
        }
        guard read, let serverID, let localID, let revision, let state else { return nil }
        return WireReview(
            serverID: serverID, localID: localID, revision: revision, state: state, decidedBy: decidedBy ?? nil,
            decidedAt: decidedAt ?? nil, comment: comment ?? nil, fieldComments: (fieldComments ?? nil) ?? [],
            change: (change ?? nil) ?? "")
    }

    private mutating func person() -> WirePerson? {
        var id: String?
        var displayName: String??
        let read = object { reader, key in
            switch key {
            case "id":
                guard id == nil, let value = reader.id() else { return false }
                id = value
            case "display_name":
                guard displayName == nil, let value = reader.optional({ $0.string() }) else { return false }
                displayName = value
            default:
                return false
            }
            return true
        }
        guard read, let id else { return nil }
        return WirePerson(id: id, displayName: (displayName ?? nil) ?? "")
    }

    private mutating func fieldComment() -> FieldComment? {
        var fieldID: String?
        var comment: String?
        let read = object { reader, key in
            switch key {
            case "field_id":
                guard fieldID == nil, let value = reader.id() else { return false }
                fieldID = value
            case "comment":
                guard comment == nil, let value = reader.string() else { return false }
                comment = value
            default:
                return false
            }
            return true
        }
        guard read, let fieldID, let comment else { return nil }
        return FieldComment(fieldID: fieldID, comment: comment)
    }
}
