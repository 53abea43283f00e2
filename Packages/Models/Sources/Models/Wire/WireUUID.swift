import Foundation

extension UUID {
    /// The form ids take on the wire and on screen: lowercase, as RFC 4122 recommends.
    public var wireString: String { uuidString.lowercased() }
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
