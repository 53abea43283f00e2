import Foundation
import Synchronization

/// A TCP proxy on a free loopback port in front of a server on 127.0.0.1:
/// the listening, the connections, and the two pumps of each, for the test
/// links (`FaultyLink`, `CuttingProxy`), which say what happens to a new
/// connection (`admit`) and to each chunk read (`carry`). Threads of its own.
final class LoopbackProxy: @unchecked Sendable {
    /// What becomes of a connection accepted.
    enum Admission {
        /// Reset (RST) at once.
        case reset
        /// Read and never answered: no connection to the server is made.
        case swallowed
        /// Connected to the server, bytes carried both ways.
        case forwarded
    }

    /// What becomes of one chunk read: its first `bytes` go on (to the server
    /// when `upstream`), then the pump reads on, or, with `ending`, calls it
    /// and ends the connection.
    struct Carry {
        var bytes: Int
        var ending: (@Sendable () -> Void)? = nil
    }

    /// The port to connect to instead of the server's.
    let port: Int
    private let listener: Int32
    private let upstreamPort: UInt16
    private let admit: @Sendable () -> Admission
    private let carry: @Sendable (_ count: Int, _ upstream: Bool) -> Carry
    private let state = Mutex<(links: [Int: Link], next: Int, stopped: Bool)>(([:], 0, false))

    /// Listens, and forwards to 127.0.0.1:`upstreamPort` as `admit` and `carry` say.
    init(
        to upstreamPort: Int, admit: @escaping @Sendable () -> Admission = { .forwarded },
        carry: @escaping @Sendable (_ count: Int, _ upstream: Bool) -> Carry
    ) throws {
        self.upstreamPort = UInt16(upstreamPort)
        self.admit = admit
        self.carry = carry
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 64) == 0 else {
            throw ServerLaunchError(message: "the test link cannot listen")
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

    /// Connections open through the proxy now.
    var openConnections: Int { state.withLock { $0.links.count } }

    /// Resets (RST) every connection open now; the pumps wake and end.
    func resetConnections() {
        let links = state.withLock { state -> [Link] in
            defer { state.links = [:] }
            return Array(state.links.values)
        }
        for link in links { link.reset() }
    }

    /// Stops accepting; with `resetting`, resets every connection, else they end as their peers close.
    func stop(resetting: Bool) {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        if resetting { resetConnections() }
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func accept() {
        while true {
            let client = Glibc.accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            switch admit() {
            case .reset:
                Link.resetClose(client)
            case .swallowed:
                let link = Link(client: client, server: -1)
                register(link)
                Thread.detachNewThread { [self] in pump(link, upstream: true) }
            case .forwarded:
                let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var address = Self.loopback(upstreamPort)
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard connected == 0 else {
                    close(client)
                    close(server)
                    continue
                }
                let link = Link(client: client, server: server)
                register(link)
                Thread.detachNewThread { [self] in pump(link, upstream: true) }
                Thread.detachNewThread { [self] in pump(link, upstream: false) }
            }
        }
    }

    private func register(_ link: Link) {
        state.withLock { state in
            link.key = state.next
            state.links[state.next] = link
            state.next += 1
        }
    }

    /// One direction of a connection, each chunk carried as `carry` says.
    private func pump(_ link: Link, upstream: Bool) {
        let from = upstream ? link.client : link.server
        let to = upstream ? link.server : link.client
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            let fate = carry(count, upstream)
            // A connection swallowed has no server: what it reads goes nowhere.
            let bytes = to < 0 ? 0 : fate.bytes
            var offset = 0
            while offset < bytes {
                let written = buffer.withUnsafeBytes {
                    send(to, $0.baseAddress! + offset, bytes - offset, Int32(MSG_NOSIGNAL))
                }
                guard written > 0 else { break }
                offset += written
            }
            if let ending = fate.ending {
                ending()
                break
            }
            if offset < bytes { break }
        }
        state.withLock { _ = $0.links.removeValue(forKey: link.key) }
        link.end()
    }

    /// Both sockets of one proxied connection (the server's -1 for one
    /// swallowed), closed once by whichever direction ends first.
    private final class Link: @unchecked Sendable {
        let client: Int32
        let server: Int32
        var key = 0
        private let ended = Mutex(0)

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
            let count = ended.withLock { value -> Int in
                value += 1
                return value
            }
            if count == 1 {
                for descriptor in [client, server] where descriptor >= 0 { shutdown(descriptor, Int32(SHUT_RDWR)) }
            }
            if count == pumps {
                for descriptor in [client, server] where descriptor >= 0 { close(descriptor) }
            }
        }
    }
}
