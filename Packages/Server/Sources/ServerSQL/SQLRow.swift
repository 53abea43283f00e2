import Foundation

/// One row of a result as both stores read it: columns by name, never by
/// position. SQLite's `Row` and PostgreSQL's `PostgresRow` conform in their
/// stores, so a record is decoded by the same lines whichever database it
/// came from.
public protocol SQLRow {
    /// The column's text, or nil for NULL (or a column missing from the row).
    func text(_ column: String) -> String?
    /// The column as an integer, or nil for NULL or not a number.
    func integer(_ column: String) -> Int64?
    /// The column as a number, or nil for NULL or not a number.
    func real(_ column: String) -> Double?
    /// A yes/no column as each database keeps it (a SQLite integer, a
    /// PostgreSQL boolean), or nil for NULL.
    func flag(_ column: String) -> Bool?
}

extension SQLRow {
    /// The column's text as a UUID, or nil for NULL or text that is not one.
    public func uuid(_ column: String) -> UUID? { text(column).flatMap(UUID.init(uuidString:)) }
}
