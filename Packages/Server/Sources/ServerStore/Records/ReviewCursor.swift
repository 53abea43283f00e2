import Foundation

/// The reviews cursor: the data's generation and a position in the order of review changes.
public enum ReviewCursor {
    /// The setting holding the generation of the server's data.
    public static let generationKey = "server_generation"

    public static func encode(_ change: Int64, generation: String) -> String { "\(generation).\(change)" }

    /// The position a cursor names, when this server (this generation) issued it.
    public static func decode(_ text: String, generation: String) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == generation, let change = Int64(parts[1]), change >= 0 else { return nil }
        return change
    }
}
