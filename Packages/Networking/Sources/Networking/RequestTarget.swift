import Foundation

/// What messages may say about a URL: its host and port, and the URL with any
/// user name, password, query or fragment removed (they may hold secrets).
struct RequestTarget: Sendable {
    /// `host:port` (or just `host`), for one-line messages.
    let host: String
    /// The URL without credentials, query or fragment.
    let redactedURL: String

    init(_ url: String) {
        guard let components = URLComponents(string: url), let name = components.host, !name.isEmpty else {
            host = "the server"
            redactedURL = "(an invalid URL)"
            return
        }
        host = components.port.map { "\(name):\($0)" } ?? name
        redactedURL = "\(components.scheme ?? "http")://\(host)\(components.percentEncodedPath)"
    }
}
