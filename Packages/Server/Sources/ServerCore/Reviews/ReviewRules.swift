import Foundation
import Models
import ServerStore

/// A revision the server accepted: its review starts again, awaiting a decision.
struct AcceptedRevision: Sendable {
    var serverID: String
    var localID: UUID
    var ownerID: String
    var revision: Int
    /// `accepted` (the first), `amended` (a device's next), `edited` (on the server), `merged`.
    var kind: String
    var actor: WirePerson
    /// The bytes of the revision's payload, charged to the sender's quota.
    var payloadBytes = 0
}

extension StorageSession {
    /// Reopens the reviews of accepted revisions and records their events, in
    /// one step at the end of the transaction (the positions of review
    /// changes are taken last, so their lock is held only until the commit).
    /// Each event carries its review change's position: the report's record
    /// is also the webhooks' outbox, read in that order.
    func reopenReviews(_ accepted: [AcceptedRevision], at: String) throws(ServerError) {
        guard !accepted.isEmpty else { return }
        let saved = try saveReviews(
            accepted.map { item in
                StoredReview(
                    serverID: item.serverID, localID: item.localID, ownerID: item.ownerID, revision: item.revision,
                    state: .awaitingReview)
            })
        for (item, review) in zip(accepted, saved) {
            try recordReportEvent(
                StoredReportEvent(
                    serverID: item.serverID, at: at, actor: item.actor, kind: item.kind,
                    revision: item.revision, change: review.change))
        }
    }
}

extension StoredReview {
    /// The review as the contract writes it.
    func wire(generation: String) -> WireReview {
        WireReview(
            serverID: serverID, localID: localID, revision: revision, state: state, decidedBy: decidedBy,
            decidedAt: decidedAt,
            comment: comment, fieldComments: fieldComments, change: ReviewCursor.encode(change, generation: generation))
    }
}
