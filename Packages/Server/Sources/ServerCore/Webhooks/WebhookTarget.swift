import FieldTypes
import Foundation
import ServerStore
#if canImport(Glibc)
    import Glibc
#endif

/// Where a webhook posts: an `http` or `https` URL whose host, unless the
/// operator allowed it for that hook, is not a loopback, link-local,
/// private or otherwise internal address, nor an IPv6 address that carries
/// one (IPv4-mapped or -compatible, SIIT, NAT64, 6to4, Teredo). A name is checked each time it is
/// used, by resolving it and connecting only to the addresses checked
/// (pinned), so a name that later points inside cannot reach there.
struct WebhookTarget: Sendable, Equatable {
    let url: String
    /// The host as the URL names it, brackets of an IPv6 literal removed.
    let host: String
    let port: Int

    /// Reads a URL: `http` or `https`, a host, no user name or password (they would be shown wherever the URL is).
    init(_ text: String) throws(ServerError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= 2000,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }),
            let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased()
        else {
            throw ServerError.badRequest(
                "'\(OneLine.escaped(String(text.prefix(80))))' is not a URL; give http://HOST/PATH or https://HOST/PATH"
            )
        }
        guard scheme == "http" || scheme == "https" else {
            throw ServerError.badRequest(
                "a webhook's URL must be http or https, not '\(OneLine.escaped(String(scheme.prefix(20))))'")
        }
        guard components.user == nil && components.password == nil else {
            throw ServerError.badRequest(
                "a webhook's URL must not hold a user name or password; the receiver checks the signature instead")
        }
        var host = components.host ?? ""
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else {
            throw ServerError.badRequest(
                "the webhook URL '\(OneLine.escaped(String(trimmed.prefix(80))))' names no host")
        }
        url = trimmed
        self.host = host.lowercased()
        port = components.port ?? (scheme == "https" ? 443 : 80)
    }

    /// Refuses, before anything is resolved, a host that is an internal
    /// address written out or a name that always means this machine.
    func checkWritten(allowingPrivate: Bool) throws(ServerError) {
        guard !allowingPrivate else { return }
        if host == "localhost" || host.hasSuffix(".localhost") {
            throw ServerError.badRequest(Self.refusal(host, "this machine"))
        }
        if let bytes = Self.literal(host), let kind = InternalAddress.kind(of: bytes) {
            throw ServerError.badRequest(Self.refusal(host, kind))
        }
    }

    /// The addresses to connect to, as libcurl's `host:port:address,...`
    /// pins (none for an address written out), or why the host may not be
    /// used now: it does not resolve, or resolves to an internal address.
    func resolve(allowingPrivate: Bool) -> Result<[String], WebhookTargetRefusal> {
        if let bytes = Self.literal(host) {
            if !allowingPrivate, let kind = InternalAddress.kind(of: bytes) {
                return .failure(WebhookTargetRefusal(Self.refusal(host, kind)))
            }
            return .success([])
        }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0, let first = list else {
            return .failure(
                WebhookTargetRefusal(
                    "cannot resolve '\(OneLine.escaped(host))': \(String(cString: gai_strerror(code)))"))
        }
        defer { freeaddrinfo(first) }
        var addresses: [(text: String, bytes: [UInt8])] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let found = Self.address(entry.pointee), !addresses.contains(where: { $0.bytes == found.bytes }) {
                addresses.append(found)
            }
            cursor = entry.pointee.ai_next
        }
        return Self.pins(host, port: port, addresses: addresses, allowingPrivate: allowingPrivate)
    }

    /// The pin `host:port:address,...` of the addresses a name resolved to,
    /// or why it may not be used: none, or one of them internal.
    static func pins(
        _ host: String, port: Int, addresses: [(text: String, bytes: [UInt8])], allowingPrivate: Bool
    ) -> Result<[String], WebhookTargetRefusal> {
        guard !addresses.isEmpty else {
            return .failure(WebhookTargetRefusal("'\(OneLine.escaped(host))' resolves to no address"))
        }
        if !allowingPrivate, let inside = addresses.first(where: { InternalAddress.kind(of: $0.bytes) != nil }) {
            return .failure(
                WebhookTargetRefusal(
                    Self.refusal("\(host) (\(inside.text))", InternalAddress.kind(of: inside.bytes) ?? "internal")))
        }
        let pinned = addresses.map { $0.bytes.count == 16 ? "[\($0.text)]" : $0.text }.joined(separator: ",")
        return .success(["\(host):\(port):\(pinned)"])
    }

    private static func refusal(_ what: String, _ kind: String) -> String {
        "'\(OneLine.escaped(what))' is \(kind == "this machine" ? kind : "a \(kind) address"); webhooks go to outside receivers unless the hook is added with --allow-private-targets"
    }

    /// The bytes of an IPv4 or IPv6 address written out, nil for a name.
    static func literal(_ host: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// A C string in a buffer, up to its NUL.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// One resolved address as text and bytes.
    private static func address(_ entry: addrinfo) -> (text: String, bytes: [UInt8])? {
        guard let socketAddress = entry.ai_addr else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch entry.ai_family {
        case AF_INET:
            return socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                var address = pointer.pointee.sin_addr
                inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
                return (text(buffer), withUnsafeBytes(of: &address) { Array($0) })
            }
        case AF_INET6:
            return socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var address = pointer.pointee.sin6_addr
                inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
                return (text(buffer), withUnsafeBytes(of: &address) { Array($0) })
            }
        default:
            return nil
        }
    }
}

/// Why a webhook's host may not be posted to now.
struct WebhookTargetRefusal: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The addresses a webhook must not reach unless the operator allows it:
/// this machine, the local network, and the special ranges that are not the Internet.
enum InternalAddress {
    /// What kind of internal address `bytes` (4 or 16) is, or nil for an address on the Internet.
    /// An IPv6 address that carries an IPv4 address (`embeddedIPv4`) is that address's kind when it is internal.
    static func kind(of bytes: [UInt8]) -> String? {
        if bytes.count == 4 { return kind4(bytes) }
        guard bytes.count == 16 else { return "unknown" }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) { return bytes[15] == 1 ? "loopback" : "unspecified" }
        for inner in embeddedIPv4(bytes) {
            if let kind = kind4(inner) { return kind }
        }
        if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80 { return "link-local" }
        if bytes[0] & 0xfe == 0xfc { return "private (unique local)" }
        if bytes[0] == 0xff { return "multicast" }
        if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0xc0 { return "site-local" }
        return nil
    }

    /// The IPv4 addresses an IPv6 address carries, which a translator or
    /// tunnel on the way may reach: IPv4-compatible (`::/96`), IPv4-mapped
    /// (`::ffff:0:0/96`), SIIT (`::ffff:0:0:0/96`) and NAT64 (`64:ff9b::/96`,
    /// `64:ff9b:1::/48`) in the last 32 bits; 6to4 (`2002::/16`) in bits
    /// 16 to 48; Teredo (`2001::/32`) its server in bits 32 to 64 and its
    /// client in the last 32 bits, inverted.
    static func embeddedIPv4(_ bytes: [UInt8]) -> [[UInt8]] {
        let last = Array(bytes[12...])
        func zero(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy { $0 == 0 } }
        if zero(0..<10) && bytes[10] == 0xff && bytes[11] == 0xff { return [last] }
        if zero(0..<8) && bytes[8] == 0xff && bytes[9] == 0xff && zero(10..<12) { return [last] }
        if zero(0..<12) { return [last] }
        if bytes[0..<4] == [0x00, 0x64, 0xff, 0x9b] && (zero(4..<12) || bytes[4..<6] == [0x00, 0x01]) {
            return [last]
        }
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return [Array(bytes[2..<6])] }
        if bytes[0..<4] == [0x20, 0x01, 0x00, 0x00] { return [Array(bytes[4..<8]), last.map { $0 ^ 0xff }] }
        return []
    }

    private static func kind4(_ b: [UInt8]) -> String? {
        switch (b[0], b[1]) {
        case (127, _): return "loopback"
        case (0, _): return "unspecified"
        case (10, _), (192, 168): return "private"
        case (172, 16...31): return "private"
        case (169, 254): return "link-local"
        case (100, 64...127): return "shared (carrier-grade NAT)"
        case (224...239, _): return "multicast"
        case (240...255, _): return "reserved"
        case (192, 0) where b[2] == 0: return "reserved"
        case (198, 18...19): return "benchmarking"
        default: return nil
        }
    }
}
