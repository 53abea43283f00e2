import Models

/// How an answer is laid out in a document such as the HTML export: each
/// type says what shape its answer has, so a document lays out a site
/// team's type as well as a built-in one and never asks a type's name.
public enum AnswerLayout: Sendable, Equatable {
    /// One line, as the terminal shows it (most types).
    case line(String)
    /// Text as typed, line breaks kept (notes).
    case text(String)
    /// Items, one per line (the options ticked).
    case list([String])
    /// Rows under named columns.
    case table(columns: [String], rows: [[String]])
    /// Photos of the report, by local id (lowercase), after an optional line
    /// saying what they show (a meter's reading).
    case photos(ids: [String], caption: String?)
    /// A typed signature: who, when (device clock) and the report fingerprint it vouches for.
    case signature(signer: String, signedAt: String, fingerprint: String)
}
