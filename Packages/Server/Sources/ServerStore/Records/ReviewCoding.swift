import Foundation
import Models

/// How the stores keep field comments in a text column: compact JSON.
public enum ReviewCoding {
    public static func json(_ comments: [FieldComment]) -> String { CanonicalJSON.string(comments) }

    public static func fieldComments(_ text: String?) -> [FieldComment] {
        guard let text, let data = text.data(using: .utf8) else { return [] }
        return (try? JSONDecoder().decode([FieldComment].self, from: data)) ?? []
    }
}
