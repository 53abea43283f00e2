import Foundation
import SQLite
import Models

/// Issues flagged during inspections; each belongs to its report.
extension LocalStore {
    /// Records an issue on an editable report; its creation sequence is
    /// allocated here and returned in the stored value.
    @discardableResult
    public func addIssue(_ issue: Issue) throws(StorageError) -> Issue {
        try write { db throws(StorageError) -> Issue in
            try Self.requireEditable(issue.reportLocalID, db)
            var stored = issue
            stored.creationSequence = try Self.nextSequence("issue", db)
            try db.run(
                """
                INSERT INTO issues (local_id, report_local_id, severity, description, creation_seq) VALUES (?, ?, ?, ?, ?)
                """,
                [
                    SQLValue(issue.localID), SQLValue(issue.reportLocalID), .text(issue.severity.rawValue),
                    .text(issue.description), .integer(stored.creationSequence),
                ])
            return stored
        }
    }

    /// The issues of a report, in the order flagged.
    public func issues(ofReport localID: UUID) throws(StorageError) -> [Issue] {
        try read { db throws(StorageError) -> [Issue] in
            try db.rows(
                "SELECT \(Self.issueColumns) FROM issues WHERE report_local_id = ? ORDER BY creation_seq",
                [SQLValue(localID)]
            )
            .map { (row: Row) throws(StorageError) -> Issue in try Self.issue(from: row) }
        }
    }

    /// Every issue on this device, in the order flagged.
    public func allIssues() throws(StorageError) -> [Issue] {
        try read { db throws(StorageError) -> [Issue] in
            try db.rows("SELECT \(Self.issueColumns) FROM issues ORDER BY creation_seq")
                .map { (row: Row) throws(StorageError) -> Issue in try Self.issue(from: row) }
        }
    }

    private static let issueColumns = "local_id, report_local_id, severity, description, creation_seq"

    private static func issue(from row: Row) throws(StorageError) -> Issue {
        guard let localID = row["local_id"].uuidValue,
            let report = row["report_local_id"].uuidValue,
            let severity = IssueSeverity(rawValue: row["severity"].stringValue ?? ""),
            let description = row["description"].stringValue
        else {
            throw StorageError(
                .corruptStore, "An issue record cannot be read; the store is damaged.", context: "issues")
        }
        return Issue(
            localID: localID, reportLocalID: report, severity: severity, description: description,
            creationSequence: row["creation_seq"].int64Value ?? 0)
    }
}
