import Foundation
import Synchronization

/// A TCP proxy on a free loopback port in front of a server (PostgreSQL, for
/// `jqc-server`'s `--db`), whose link can be made to fail the ways a network
/// fails, at any moment, for connections open and new:
/// - `pass`: every byte forwarded;
/// - `blackHole`: connections accepted and read, nothing forwarded or
///   answered, nothing closed (no RST): a stalled or split network;
/// - `drop`: every connection reset (RST), new ones reset as they come;
/// - `delay(ms)`: every chunk held `ms` milliseconds before it goes on.
/// Threads of its own; stopped on `stop()` or release.
public final class FaultyLink: @unchecked Sendable {
    /// What the link does to the bytes.
    public enum Mode: Sendable, Equatable {
        case pass
        case blackHole
        case drop
        case delay(milliseconds: Int)
    }

    /// The port to connect to instead of the server's.
    public let port: Int
    private let listener: Int32
    private let upstreamPort: UInt16
    private let state = Mutex<(mode: Mode, links: [Int: Link], next: Int, stopped: Bool)>((.pass, [:], 0, false))

    /// Forwards to 127.0.0.1:`upstreamPort`.
    public init(to upstreamPort: Int) throws {
        self.upstreamPort = UInt16(upstreamPort)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 64) == 0 else {
            throw ServerLaunchError(message: "the faulty link cannot listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(descriptor, $0, &length)
            }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in accept() }
    }

    deinit { stop() }

    /// `url` (a `postgres://...@HOST:PORT/DB` URL) with this link's port in place of its own.
    public func url(instead url: String) -> String {
        guard let colon = url.lastIndex(of: ":"), let slash = url[colon...].firstIndex(of: "/") else { return url }
        return String(url[..<colon]) + ":\(port)" + String(url[slash...])
    }

    /// What the link does from now on; `drop` resets every connection open now.
    public func set(_ mode: Mode) {
        let reset = state.withLock { state -> [Link] in
            state.mode = mode
            guard mode == .drop else { return [] }
            defer { state.links = [:] }
            return Array(state.links.values)
        }
        for link in reset { link.reset() }
    }

    /// Connections open through the link now.
    public var openConnections: Int { state.withLock { $0.links.count } }

    /// Stops accepting and resets every connection.
    public func stop() {
        let links = state.withLock { state -> [Link]? in
            guard !state.stopped else { return nil }
            state.stopped = true
            defer { state.links = [:] }
            return Array(state.links.values)
        }
        guard let links else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for link in links { link.reset() }
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private var mode: Mode { state.withLock { $0.mode } }

    private func accept() {
        while true {
            let client = Glibc.accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            switch mode {
            case .drop:
                Link.resetClose(client)
                continue
            case .blackHole:
                // Accepted and read, never answered: the server behind is never reached.
                let link = Link(client: client, server: -1)
                register(link)
                Thread.detachNewThread { [self] in pump(link, upstream: true) }
                continue
            case .pass, .delay:
                break
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(upstreamPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { close(client); close(server); continue }
            let link = Link(client: client, server: server)
            register(link)
            Thread.detachNewThread { [self] in pump(link, upstream: true) }
            Thread.detachNewThread { [self] in pump(link, upstream: false) }
        }
    }

    private func register(_ link: Link) {
        state.withLock { state in
            link.key = state.next
            state.links[state.next] = link
            state.next += 1
        }
    }

    /// One direction of a connection, doing to each chunk what the mode says at the time.
    private func pump(_ link: Link, upstream: Bool) {
        let from = upstream ? link.client : link.server
        let to = upstream ? link.server : link.client
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            let now = mode
            if case .delay(let milliseconds) = now { usleep(UInt32(milliseconds) * 1000) }
            // Black hole: read and forgotten. A link accepted in one has no server at all.
            if now == .blackHole || to < 0 { continue }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes {
                    send(to, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL))
                }
                guard written > 0 else { break }
                offset += written
            }
            if offset < count { break }
        }
        state.withLock { _ = $0.links.removeValue(forKey: link.key) }
        link.end()
    }

    /// Both sockets of one proxied connection (the server's -1 for one accepted
    /// in a black hole), closed once by whichever direction ends first.
    private final class Link: @unchecked Sendable {
        let client: Int32
        let server: Int32
        var key = 0
        private let ended = Mutex((count: 0, closed: false))

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        /// A socket closed with RST rather than FIN.
        static func resetClose(_ descriptor: Int32) {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(descriptor)
        }

        /// Resets both ends now; the pumps wake and end.
        func reset() {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            for descriptor in [client, server] where descriptor >= 0 {
                setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                // Wakes the pumps; closed with no linger, the socket sends its peer an RST.
                shutdown(descriptor, Int32(SHUT_RDWR))
            }
        }

        func end() {
            let pumps = server >= 0 ? 2 : 1
            let (first, last) = ended.withLock { value -> (Bool, Bool) in
                value.count += 1
                return (value.count == 1, value.count == pumps)
            }
            if first {
                for descriptor in [client, server] where descriptor >= 0 { shutdown(descriptor, Int32(SHUT_RDWR)) }
            }
            if last {
                for descriptor in [client, server] where descriptor >= 0 { close(descriptor) }
            }
        }
    }
}
