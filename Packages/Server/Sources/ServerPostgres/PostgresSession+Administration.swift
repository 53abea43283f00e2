import ServerStore

/// Cancelling an assignment: its row locked first, then numbered from the counter.
extension PostgresSession {
    func cancelAssignment(id: String, at: String) throws(ServerError) {
        let open = try firstRow(
            "SELECT 1 AS found FROM assignments WHERE id = $1 AND cancelled_at IS NULL FOR UPDATE", [.text(id)])
        guard open != nil else { return }
        let seq = try nextChangeSequence()
        try run(
            "UPDATE assignments SET status = 'closed', cancelled_at = $1, change_seq = $2 WHERE id = $3",
            [.text(at), .integer(seq), .text(id)])
    }
}
