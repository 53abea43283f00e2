import FieldTypes
import ServerStore

/// The paging of the feeds read by cursor (`GET /reviews`, `GET /actions`):
/// `limit` from 1 to 100 (100 when left out), `since` a cursor this server
/// (this generation of its data) issued.
enum FeedPaging {
    /// The most a page holds, and what it holds when `limit` is left out.
    static let largestPage = 100

    /// The page size `limit` asks for.
    static func limit(_ text: String?) throws(ServerError) -> Int {
        guard let text, !text.isEmpty else { return largestPage }
        guard let value = Int(text), (1...largestPage).contains(value) else {
            throw ServerError.badRequest(
                "'limit' must be a whole number from 1 to \(largestPage), not '\(text.prefix(40))'")
        }
        return value
    }

    /// The position `since` names (0 when left out); 400 `CURSOR_INVALID` for one of another server or generation.
    static func position(_ since: String?, generation: String) throws(ServerError) -> Int64 {
        guard let since, !since.isEmpty else { return 0 }
        guard let position = ReviewCursor.decode(since, generation: generation) else {
            throw ServerError.cursorInvalid(
                "'since' is not a cursor of this server's data: \(OneLine.quote(since, limit: 40)); pull again without it"
            )
        }
        return position
    }
}
