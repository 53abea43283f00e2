import Foundation
import Synchronization

/// A TCP proxy on a free loopback port that forwards to a server and cuts
/// the connection carrying the bytes each time another `cutEvery` bytes have
/// gone upstream (client to server, over all connections), counting every
/// byte it forwarded upstream: a flaky link whose cost can be measured.
/// Threads of its own; stopped on `stop()` or release.
public final class CuttingProxy: @unchecked Sendable {
    /// `http://127.0.0.1:PORT`: give it to a device instead of the server's.
    public let baseURL: String
    private let listener: Int32
    private let upstreamPort: UInt16
    private let cutEvery: Int64
    private let onCut: @Sendable (Int) -> Void
    private let state = Mutex<(sent: Int64, cuts: Int, nextCut: Int64, stopped: Bool)>((0, 0, 0, false))

    /// Forwards to `server` (`http://127.0.0.1:PORT`), cutting after every
    /// `cutEvery` bytes upstream; `onCut` is called at each cut with the count so far.
    public init(to server: String, cutEvery: Int64, onCut: @escaping @Sendable (Int) -> Void = { _ in }) throws {
        self.onCut = onCut
        guard let port = URLComponents(string: server)?.port else {
            throw ServerLaunchError(message: "no port in '\(server)'")
        }
        upstreamPort = UInt16(port)
        self.cutEvery = cutEvery
        state.withLock { $0.nextCut = cutEvery }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 64) == 0 else {
            throw ServerLaunchError(message: "the proxy cannot listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(descriptor, $0, &length)
            }
        }
        listener = descriptor
        baseURL = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        Thread.detachNewThread { [self] in accept() }
    }

    deinit { stop() }

    /// Bytes forwarded upstream so far.
    public var bytesUpstream: Int64 { state.withLock { $0.sent } }
    /// Connections cut so far.
    public var cuts: Int { state.withLock { $0.cuts } }

    /// Stops accepting; connections in flight end as their peers close.
    public func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }
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
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(upstreamPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { close(client); close(server); continue }
            let link = Link(client: client, server: server)
            Thread.detachNewThread { [self] in pump(link, upstream: true) }
            Thread.detachNewThread { [self] in pump(link, upstream: false) }
        }
    }

    /// One direction of a connection; upstream bytes are counted and cut at the boundaries.
    private func pump(_ link: Link, upstream: Bool) {
        let from = upstream ? link.client : link.server
        let to = upstream ? link.server : link.client
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var allowed = count
            var cut = false
            if upstream {
                (allowed, cut) = state.withLock { state -> (Int, Bool) in
                    let room = Int(min(Int64(count), state.nextCut - state.sent))
                    state.sent += Int64(room)
                    if state.sent >= state.nextCut {
                        state.nextCut += cutEvery
                        state.cuts += 1
                        return (room, true)
                    }
                    return (room, false)
                }
            }
            var offset = 0
            while offset < allowed {
                let written = buffer.withUnsafeBytes {
                    send(to, $0.baseAddress! + offset, allowed - offset, Int32(MSG_NOSIGNAL))
                }
                guard written > 0 else { break }
                offset += written
            }
            if cut {
                onCut(cuts)
                break
            }
            if offset < allowed { break }
        }
        link.end()
    }

    /// Both sockets of one proxied connection, closed once by whichever direction ends first.
    private final class Link: @unchecked Sendable {
        let client: Int32
        let server: Int32
        private let ended = Mutex(0)

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        func end() {
            let count = ended.withLock { value -> Int in
                value += 1
                return value
            }
            if count == 1 {
                shutdown(client, Int32(SHUT_RDWR))
                shutdown(server, Int32(SHUT_RDWR))
            } else {
                close(client)
                close(server)
            }
        }
    }
}
