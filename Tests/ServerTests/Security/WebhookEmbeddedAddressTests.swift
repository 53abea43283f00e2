import Foundation
@testable import ServerCore
import ServerStore
import Testing
import TestSupport

/// IPv6 addresses that carry an IPv4 address inside are judged by that
/// address: a hook cannot reach this machine or the local network through them.
/// Nothing here sends a byte anywhere: refused targets are refused before
/// any connection, and "another host" is a name under `.invalid`.
@Suite("Security trial: webhook targets with an IPv4 address inside IPv6")
struct WebhookEmbeddedAddressTests {
    /// Addresses that hide an internal IPv4 address, and the kind of that address.
    static let inside: [(String, String)] = [
        ("::127.0.0.1", "loopback"), // IPv4-compatible
        ("::ffff:0:127.0.0.1", "loopback"), // SIIT
        ("::ffff:10.0.0.1", "private"), // IPv4-mapped
        ("64:ff9b::7f00:1", "loopback"), // NAT64 well-known prefix
        ("64:ff9b:1::a9fe:a9fe", "link-local"), // NAT64 local-use prefix
        ("64:ff9b:1:2:3:4:a9fe:a9fe", "link-local"),
        ("2002:a9fe:a9fe::", "link-local"), // 6to4
        ("2002:7f00:1:5::1", "loopback"),
        ("2001:0:7f00:1::", "loopback"), // Teredo: its server 127.0.0.1
        ("2001:0:808:808:0:0:f5ff:fffe", "private"), // Teredo: its client 10.0.0.1 (inverted)
    ]
    /// Addresses whose IPv4 address inside is on the Internet.
    static let outside = [
        "::8.8.8.8", "64:ff9b::808:808", "64:ff9b:1::808:808", "2002:808:808::1", "2001:0:808:808::f7f7:f7f7",
        "2606:4700::1111",
    ]

    @Test("IPv4-compatible, SIIT, NAT64, 6to4 and Teredo addresses are refused when the IPv4 inside is")
    func webhookEmbeddedIPv4() throws {
        for (address, kind) in Self.inside {
            let bytes = try #require(WebhookTarget.literal(address), "\(address)")
            #expect(InternalAddress.kind(of: bytes) == kind, "\(address)")
            let target = try WebhookTarget("http://[\(address)]/hook")
            #expect(throws: ServerError.self, "\(address)") { try target.checkWritten(allowingPrivate: false) }
            guard case .failure = target.resolve(allowingPrivate: false) else {
                Issue.record("\(address) may be posted to")
                continue
            }
            // The pinning path: a name that resolves to such an address is refused alike.
            let pinned = WebhookTarget.pins(
                "hooks.invalid", port: 443, addresses: [(address, bytes)], allowingPrivate: false)
            guard case .failure(let refusal) = pinned else {
                Issue.record("a name resolving to \(address) may be posted to")
                continue
            }
            #expect(refusal.message.contains("hooks.invalid (\(address))"), "\(refusal.message)")
            #expect(refusal.message.contains("--allow-private-targets"))
        }
        for address in Self.outside {
            let bytes = try #require(WebhookTarget.literal(address), "\(address)")
            #expect(InternalAddress.kind(of: bytes) == nil, "\(address)")
            let pinned = WebhookTarget.pins(
                "hooks.invalid", port: 443, addresses: [(address, bytes)], allowingPrivate: false)
            #expect((try? pinned.get()) == ["hooks.invalid:443:[\(address)]"], "\(address)")
        }
    }

    @Test("`admin webhook add` refuses a URL whose host is such an address")
    func webhookEmbeddedIPv4Written() throws {
        // A server of its own, where no report is synced: no hook added by mistake would be posted to.
        let server = try ServerProcess(["--demo"])
        let (secretFile, _) = try Webhooks.secretFile(in: server.directory)
        for url in [
            "http://[::127.0.0.1]/hook", "http://[::ffff:0:127.0.0.1]/hook", "http://[64:ff9b:1::a9fe:a9fe]/hook",
            "http://[2002:a9fe:a9fe::]/hook",
        ] {
            let refused = try Webhooks.admin(server, ["add", url, "--secret-file", secretFile])
            #expect(refused.status == 4, "\(url): \(refused.stdout) \(refused.stderr)")
            #expect((refused.stdout + refused.stderr).contains("--allow-private-targets"), "\(url)")
        }
    }
}
