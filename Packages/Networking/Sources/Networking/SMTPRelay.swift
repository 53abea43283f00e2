import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where and how mail is sent: an `smtps://host[:port]` or `smtp://host[:port]` URL.
///
/// `smtps` is TLS from the first byte. `smtp` to another machine must upgrade
/// with STARTTLS before anything else is said, and a relay that does not offer
/// it is not used; `smtp` without TLS is allowed only to this machine
/// (`localhost`, `127.0.0.0/8`, `::1`). The certificate is always verified.
/// The password never appears in a description, message or outcome.
public struct SMTPRelay: Sendable, Equatable {
    /// The relay as libcurl is given it: scheme, host and port, no path.
    public let url: String
    /// The user to log in as (`AUTH PLAIN` or `LOGIN`), if the relay asks for one.
    public let user: String?
    /// Never shown; libcurl reads it when the relay asks for a login.
    let password: String?
    /// A PEM bundle of certificate authorities to trust instead of the system's.
    public let caCertificatePath: String?
    /// Seconds to establish the connection, TLS included.
    public let connectTimeout: TimeInterval
    /// Seconds one `send` may take, from connecting to the relay's answer to the message.
    public let totalTimeout: TimeInterval
    /// libcurl's `host:port:address` entries: the relay's name connects only to these addresses.
    public let pinnedAddresses: [String]
    /// Whether every connection is encrypted: `smtps`, or `smtp` with STARTTLS required.
    public let requiresTLS: Bool
    /// `host:port` (or `host`), for one-line messages.
    let host: String

    /// A relay after checking every setting; throws `.refusedTarget` naming each problem found.
    public init(
        url: String, user: String? = nil, password: String? = nil, caCertificatePath: String? = nil,
        connectTimeout: TimeInterval = 10, totalTimeout: TimeInterval = 60, pinnedAddresses: [String] = []
    ) throws(NetworkingError) {
        var problems: [String] = []
        let target = Self.target(url, problems: &problems)
        if password != nil && user == nil { problems.append("a password is given without a user") }
        for (name, seconds) in [("connect timeout", connectTimeout), ("total timeout", totalTimeout)]
        where !(seconds > 0 && seconds.isFinite) {
            problems.append("the \(name) \(seconds) is not a positive number of seconds")
        }
        if let path = caCertificatePath, !FileManager.default.isReadableFile(atPath: path) {
            problems.append("the CA certificate file '\(path)' cannot be read")
        }
        let plain = target.map { $0.scheme == "smtp" && Self.isLoopback($0.name) } ?? false
        for entry in pinnedAddresses {
            if let problem = Self.problem(pinning: entry, plainText: plain) { problems.append(problem) }
        }
        guard let target, problems.isEmpty else {
            throw NetworkingError(
                .refusedTarget, "The mail relay settings are not usable: \(problems.joined(separator: "; ")).",
                url: target?.url)
        }
        self.url = target.url
        self.user = user
        self.password = password
        self.caCertificatePath = caCertificatePath
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.pinnedAddresses = pinnedAddresses
        requiresTLS = !plain
        host = target.host
    }

    /// The URL as it may be shown: it never holds a user or password (a URL with them is refused).
    public var redactedURL: String { url }

    // MARK: - Validation

    /// What a relay URL names, once it is known to be one this sender uses.
    private struct Target {
        var scheme: String
        /// The host without brackets (`::1`, not `[::1]`).
        var name: String
        var host: String
        var url: String
    }

    private static func target(_ text: String, problems: inout [String]) -> Target? {
        // A URL with credentials is never quoted back: the password is in it.
        let shown = text.contains("@") ? "(a URL with a user or password, not shown)" : "'\(text)'"
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            problems.append("\(shown) is not a URL such as smtps://mail.example.com:465")
            return nil
        }
        var found: [String] = []
        if scheme != "smtp" && scheme != "smtps" { found.append("\(shown) is not an smtp:// or smtps:// URL") }
        let encodedHost = components.percentEncodedHost ?? ""
        if encodedHost.isEmpty { found.append("\(shown) names no host") }
        if components.user != nil || components.password != nil {
            found.append("\(shown) holds a user or password; give them as the relay's user and password instead")
        }
        if !["", "/"].contains(components.percentEncodedPath) {
            found.append("\(shown) has a path; a relay URL is smtp[s]://host[:port] only")
        }
        if components.percentEncodedQuery != nil || components.percentEncodedFragment != nil {
            found.append("\(shown) has a query or fragment; a relay URL is smtp[s]://host[:port] only")
        }
        problems += found
        guard found.isEmpty else { return nil }
        let name = encodedHost.hasPrefix("[") ? String(encodedHost.dropFirst().dropLast()) : encodedHost
        let urlHost = name.contains(":") ? "[\(name)]" : name
        let host = components.port.map { "\(urlHost):\($0)" } ?? urlHost
        return Target(scheme: scheme, name: name, host: host, url: "\(scheme)://\(host)")
    }

    /// Why a `CURLOPT_RESOLVE` entry is refused, or nil. A relay reached in plain text may be pinned only to loopback.
    private static func problem(pinning entry: String, plainText: Bool) -> String? {
        let fields = entry.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, !fields[0].isEmpty, !fields[0].hasPrefix("-"), !fields[0].hasPrefix("+"),
            Int(fields[1]) != nil, !fields[2].isEmpty,
            !entry.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            return "the pinned address '\(entry)' is not host:port:address"
        }
        if plainText {
            let addresses = fields[2].split(separator: ",").map { address in
                address.hasPrefix("[") ? String(address.dropFirst().dropLast()) : String(address)
            }
            if !addresses.allSatisfy(isLoopback) {
                return "the pinned address '\(entry)' sends plain smtp:// off this machine; use smtps:// or STARTTLS"
            }
        }
        return nil
    }

    /// Whether `name` is this machine: `localhost`, an address of `127.0.0.0/8`, or `::1`.
    static func isLoopback(_ name: String) -> Bool {
        if name.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }
}

extension SMTPRelay: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The URL and user, never the password.
    public var description: String {
        user.map { "\(url) (as \($0))" } ?? url
    }

    /// The same as `description`.
    public var debugDescription: String { description }

    /// What `dump` and the debugger show: everything but the password.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "url": url, "user": user as Any, "caCertificatePath": caCertificatePath as Any,
                "connectTimeout": connectTimeout, "totalTimeout": totalTimeout, "pinnedAddresses": pinnedAddresses,
                "requiresTLS": requiresTLS,
            ], displayStyle: .struct)
    }
}
