import Foundation
import ServerHTTP

/// The address a request came from, for the sign-in limits. Behind a
/// reverse proxy every connection comes from the proxy, so for a connection
/// from an address given with `--trusted-proxy` the client is the last entry
/// of `X-Forwarded-For` (the one that proxy appended); from anyone else the
/// header is ignored, so a client cannot pick the address it is counted under.
enum ClientAddress {
    static func of(_ request: ServerRequest, trustedProxies: Set<String>) -> String {
        guard trustedProxies.contains(request.clientAddress), let forwarded = request.headers["x-forwarded-for"],
            let last = forwarded.split(separator: ",").last?.trimmingHTTPSpace(),
            !last.isEmpty, last.utf8.count <= 64, Self.isAddress(last)
        else {
            return request.clientAddress
        }
        return last
    }

    /// True for an IPv4 or IPv6 address in text.
    static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
