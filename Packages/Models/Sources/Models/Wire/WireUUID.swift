import Foundation

extension UUID {
    /// The form ids take on the wire and on screen: lowercase, as RFC 4122
    /// recommends. Written byte by byte (Foundation's `uuidString` goes
    /// through the C library's printf, and a sync writes thousands).
    public var wireString: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                let digits = UUID.lowercaseDigits
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    out[at] = digits[Int(byte >> 4)]
                    out[at + 1] = digits[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }

    private static let lowercaseDigits = Array("0123456789abcdef".utf8)
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
