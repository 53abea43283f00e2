/// Statements written once for both stores number their parameters `?`;
/// PostgreSQL numbers them `$1, $2, ...`.
enum PostgresPlaceholders {
    /// `sql` with each `?` that stands outside a quoted literal ('...') or
    /// identifier ("...") made `$n`, counted from 1 in order. A doubled
    /// quote inside either ends it and opens it again, which leaves the
    /// count where it should be.
    static func numbered(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        var out: [UInt8] = []
        out.reserveCapacity(sql.utf8.count + 16)
        var quote: UInt8?
        var number = 0
        for byte in sql.utf8 {
            if let open = quote {
                if byte == open { quote = nil }
                out.append(byte)
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
                out.append(byte)
            } else if byte == UInt8(ascii: "?") {
                number += 1
                out.append(UInt8(ascii: "$"))
                out.append(contentsOf: String(number).utf8)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
