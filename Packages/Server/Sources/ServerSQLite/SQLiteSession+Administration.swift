import ServerStore

/// Cancelling an assignment, numbered as SQLite numbers its changes.
extension SQLiteSession {
    func cancelAssignment(id: String, at: String) throws(ServerError) {
        let seq = try nextChangeSequence()
        try run(
            "UPDATE assignments SET status = 'closed', cancelled_at = ?, change_seq = ? WHERE id = ? AND cancelled_at IS NULL",
            [.text(at), .integer(seq), .text(id)])
    }
}
