extension ReportLifecycle {
    /// Why `event` is refused in the current state, and what is possible instead.
    public func refusal(for event: ReportEvent) -> String {
        let stateName = state.rawValue
        switch event {
        case .autosave:
            return "This report is \(stateName) and cannot be edited; only DRAFT and REJECTED reports can"
                + (state == .synced ? " (use 'amend' to correct it)." : ".")
        case .complete:
            return "This report is \(stateName); only DRAFT and REJECTED reports can be completed."
        case .amend:
            return "This report is \(stateName); only SYNCED reports can be amended."
        case .discard:
            return "This report is \(stateName); only drafts can be deleted."
        case .keepMine, .takeServer:
            return "This report is \(stateName), not CONFLICT; there is nothing to resolve."
        case .retryRequested:
            return "This report is \(stateName), not PENDING; there is nothing to retry."
        case .expire:
            if state == .synced, let review, review.holdsReport {
                return review.isReturned
                    ? "This report was returned for changes; it stays on this device until its amendment is synced."
                    : "This report is awaiting review; it stays on this device until a supervisor decides."
            }
            return "This report is \(stateName); only SYNCED reports are removed after retention."
        case .reviewed(let new):
            return serverID == nil && state != .pending
                ? "This report is \(stateName) and the server has not accepted it; a review does not apply to it."
                : "This report is \(stateName) at revision \(baseRevision ?? 0); a review of the older revision \(new.revision) is ignored."
        case .serverLost, .serverLostPhotos, .serverBehind:
            return
                "This report is \(stateName)\(serverID == nil ? " and the server never accepted it" : ""); only a report the server accepted can be sent again to a restored server."
        case .accepted, .merged, .photosUploaded, .conflict, .rejected, .transportFailed:
            return
                "A server answer to \(event.name) does not apply to a \(stateName) report\(acceptedRevision != nil ? " already accepted" : "")."
        }
    }
}
