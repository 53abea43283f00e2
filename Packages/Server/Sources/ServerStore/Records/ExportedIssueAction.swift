/// The corrective action an exported report's issue became, as the export's snapshot holds it.
public struct ExportedIssueAction: Sendable, Equatable {
    /// The action's id.
    public var id: String
    /// Its state (`open`, `in_progress`, `done`, `verified`, `cancelled`), as stored.
    public var state: String

    /// Makes a record.
    public init(id: String, state: String) {
        self.id = id
        self.state = state
    }
}
