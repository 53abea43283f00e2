import Foundation
import UUIDText

/// UUIDs as the store keeps them: canonical uppercase text, written
/// (`SQLValue.init(_:)`) and read by `UUIDText`, byte by byte.
extension SQLValue {
    /// The UUID this text holds (either case, hyphenated), or nil.
    public var uuidValue: UUID? {
        guard case .text(let text) = self else { return nil }
        return UUIDText.parse(text)
    }
}
