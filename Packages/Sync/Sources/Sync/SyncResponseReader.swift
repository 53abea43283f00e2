import Foundation
import Models

/// Reads the answer to `POST /reports/sync` straight from its bytes, for the
/// answers a server gives almost always: ids, statuses, revisions, error
/// codes and messages. It reads only what it is sure of. Anything else it
/// meets (a key it does not read, or one given twice, an escaped string, a
/// number with a fraction or exponent or too large, a server payload or
/// merged issues, text that is not well-formed JSON) makes it give up, and
/// the answer is then decoded by `JSONDecoder` like every other answer: what
/// the client accepts, and what it refuses and how, stay exactly as they were.
struct SyncResponseReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The envelope's `data` from `{"ok": true, "data": {...}}`, or nil when
    /// the decoder must read this answer.
    static func read(_ body: Data) -> SyncResponse? {
        read(body) { $0.response() }
    }

    /// The envelope's `data`, read by `data`, or nil when the decoder must read this answer.
    static func read<Payload>(_ body: Data, _ data: (inout SyncResponseReader) -> Payload?) -> Payload? {
        body.withUnsafeBytes { raw -> Payload? in
            var reader = SyncResponseReader(raw.bindMemory(to: UInt8.self))
            guard let payload = reader.envelope(data) else { return nil }
            reader.skipSpace()
            return reader.at == reader.bytes.count ? payload : nil
        }
    }

    // MARK: - The answer's objects

    private mutating func envelope<Payload>(_ payload: (inout SyncResponseReader) -> Payload?) -> Payload? {
        var ok: Bool?
        var data: Payload?
        let read = object { reader, key in
            switch key {
            case "ok":
                // `false` is a failure envelope: the decoder tells it.
                guard ok == nil, reader.literal("true") else { return false }
                ok = true
            case "data":
                guard data == nil, let value = payload(&reader) else { return false }
                data = value
            default:
                return false
            }
            return true
        }
        guard read, ok == true else { return nil }
        return data
    }

    private mutating func response() -> SyncResponse? {
        var results: [SyncResult]?
        var minimum: String??
        var schema: Int??
        var contract: String??
        var generation: String??
        let read = object { reader, key in
            switch key {
            case "results":
                guard results == nil, let list = reader.list({ $0.result() }) else { return false }
                results = list
            case "min_supported_app_version":
                guard minimum == nil, let value = reader.optional({ $0.string() }) else { return false }
                minimum = value
            case "server_schema_version":
                guard schema == nil, let value = reader.optional({ $0.integer() }) else { return false }
                schema = value
            case "contract_version":
                guard contract == nil, let value = reader.optional({ $0.string() }) else { return false }
                contract = value
            case "server_generation":
                guard generation == nil, let value = reader.optional({ $0.string() }) else { return false }
                generation = value
            default:
                return false
            }
            return true
        }
        guard read, let results, let minimum = minimum ?? nil, let schema = schema ?? nil else { return nil }
        return SyncResponse(
            results: results, minSupportedAppVersion: minimum, serverSchemaVersion: schema,
            contractVersion: contract ?? nil, serverGeneration: generation ?? nil)
    }

    private mutating func result() -> SyncResult? {
        var localID: UUID?
        var status: SyncStatus?
        var serverID: String??
        var revision: Int??
        var serverRevision: Int??
        var errorCode: String??
        var error: String??
        var merged: Bool??
        var mergedFields: [String]??
        var conflictingFields: [String]??
        var payloadOrIssues = Set<String>()
        let read = object { reader, key in
            switch key {
            case "local_id":
                guard localID == nil, let value = reader.uuid() else { return false }
                localID = value
            case "status":
                guard status == nil, let value = reader.string().flatMap(SyncStatus.init(rawValue:)) else {
                    return false
                }
                status = value
            case "server_id":
                guard serverID == nil, let value = reader.optional({ $0.id() }) else { return false }
                serverID = value
            case "revision":
                guard revision == nil, let value = reader.optional({ $0.integer() }) else { return false }
                revision = value
            case "server_revision":
                guard serverRevision == nil, let value = reader.optional({ $0.integer() }) else { return false }
                serverRevision = value
            case "error_code":
                guard errorCode == nil, let value = reader.optional({ $0.string() }) else { return false }
                errorCode = value
            case "error":
                guard error == nil, let value = reader.optional({ $0.string() }) else { return false }
                error = value
            case "merged":
                guard merged == nil, let value = reader.optional({ $0.boolean() }) else { return false }
                merged = value
            case "merged_fields":
                guard mergedFields == nil, let value = reader.optional({ $0.list({ $0.string() }) }) else {
                    return false
                }
                mergedFields = value
            case "conflicting_fields":
                guard conflictingFields == nil, let value = reader.optional({ $0.list({ $0.string() }) }) else {
                    return false
                }
                conflictingFields = value
            case "server_payload", "server_issues":
                // Only as null: a revision to adopt or merge is the decoder's to read.
                guard payloadOrIssues.insert(key).inserted, reader.literal("null") else { return false }
            default:
                return false
            }
            return true
        }
        guard read, let localID, let status else { return nil }
        return SyncResult(
            localID: localID, status: status, serverID: serverID ?? nil, revision: revision ?? nil,
            serverRevision: serverRevision ?? nil, errorCode: errorCode ?? nil, error: error ?? nil,
            merged: merged ?? nil, mergedFields: mergedFields ?? nil,
            conflictingFields: conflictingFields ?? nil)
    }

    // MARK: - JSON, strictly

    /// An object whose every key `member` reads the value of (false: give up).
    mutating func object(_ member: (inout SyncResponseReader, String) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")), member(&self, key) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// `null` as .some(nil), a value `read` reads as .some(value), nil for anything else.
    mutating func optional<Value>(_ read: (inout SyncResponseReader) -> Value?) -> Value?? {
        if literal("null") { return .some(nil) }
        guard let value = read(&self) else { return nil }
        return .some(value)
    }

    /// An array whose every item `item` reads (nil: give up).
    mutating func list<Item>(_ item: (inout SyncResponseReader) -> Item?) -> [Item]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var items: [Item] = []
        if take(UInt8(ascii: "]")) { return items }
        repeat {
            guard let value = item(&self) else { return nil }
            items.append(value)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? items : nil
    }

    mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    mutating func literal(_ word: StaticString) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard bytes.count - at >= count else { return false }
        let same = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[at + $0] == expected[$0] }
        }
        // A literal runs into no letter or digit: `nullx` is not JSON.
        guard same, at + count == bytes.count || !Self.isWordByte(bytes[at + count]) else { return false }
        at += count
        return true
    }

    mutating func boolean() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// A string without escapes, of valid UTF-8 and no control characters.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = at
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                at += 1
                return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<(at - 1)]), as: UTF8.self)
            }
            guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
            at += 1
        }
        return nil
    }

    /// An integer as JSON writes it (no fraction, no exponent, no leading zero), within `Int`.
    mutating func integer() -> Int? {
        skipSpace()
        var index = at
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let first = index
        var value = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let digit = Int(bytes[index] - UInt8(ascii: "0"))
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowPlus) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowTimes, !overflowPlus else { return nil }
            value = next
            index += 1
        }
        let digits = index - first
        guard digits > 0, digits == 1 || bytes[first] != UInt8(ascii: "0"), !(negative && value == 0) else {
            return nil
        }
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        at = index
        return value
    }

    /// A server id: a non-empty string, or an integer written as one.
    mutating func id() -> String? {
        skipSpace()
        guard at < bytes.count else { return nil }
        if bytes[at] == UInt8(ascii: "\"") {
            guard let text = string(), !text.isEmpty else { return nil }
            return text
        }
        return integer().map { String($0) }
    }

    /// A hyphenated UUID in either case, as `UUID(uuidString:)` reads it.
    mutating func uuid() -> UUID? {
        guard take(UInt8(ascii: "\"")), bytes.count - at >= 37, bytes[at + 36] == UInt8(ascii: "\"") else { return nil }
        var id: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &id) { out -> Bool in
            var index = at
            for byte in 0..<16 {
                if byte == 4 || byte == 6 || byte == 8 || byte == 10 {
                    guard bytes[index] == UInt8(ascii: "-") else { return false }
                    index += 1
                }
                guard let high = Self.hex(bytes[index]), let low = Self.hex(bytes[index + 1]) else { return false }
                out[byte] = high << 4 | low
                index += 2
            }
            return true
        }
        guard ok else { return nil }
        at += 37
        return UUID(uuid: id)
    }

    private static func hex(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default: return false
        }
    }
}
