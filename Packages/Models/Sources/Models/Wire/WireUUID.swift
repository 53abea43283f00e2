import Foundation
import UUIDText

extension UUID {
    /// The form ids take on the wire and on screen: lowercase, as RFC 4122
    /// recommends, written by `UUIDText` byte by byte (Foundation's
    /// `uuidString` goes through the C library's printf, and a sync writes thousands).
    public var wireString: String { UUIDText.lowercase(self) }
}

extension KeyedEncodingContainer {
    /// Writes a UUID in its lowercase wire form.
    mutating func encodeUUID(_ id: UUID, forKey key: Key) throws {
        try encode(id.wireString, forKey: key)
    }

    /// Writes an optional UUID in its lowercase wire form, or null.
    mutating func encodeUUID(_ id: UUID?, forKey key: Key) throws {
        try encode(id?.wireString, forKey: key)
    }

    /// Writes UUIDs in their lowercase wire form.
    mutating func encodeUUIDs(_ ids: [UUID], forKey key: Key) throws {
        try encode(ids.map(\.wireString), forKey: key)
    }
}
