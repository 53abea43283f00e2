/// The records both stores read, decoded once from an `SQLRow` (whichever
/// database it came from), and the column lists they are read from. One
/// concern a file: reference data, accounts, reports, photos, webhooks.
public enum SQLRecords {}
