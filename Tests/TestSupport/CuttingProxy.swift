import Foundation
import Synchronization

/// A TCP proxy on a free loopback port that forwards to a server and cuts
/// the connection carrying the bytes each time another `cutEvery` bytes have
/// gone upstream (client to server, over all connections), counting every
/// byte it forwarded upstream: a flaky link whose cost can be measured.
/// Threads of its own (`LoopbackProxy`); stopped on `stop()`.
public final class CuttingProxy: Sendable {
    /// `http://127.0.0.1:PORT`: give it to a device instead of the server's.
    public let baseURL: String
    private let proxy: LoopbackProxy
    private let upstream: Upstream

    /// Forwards to `server` (`http://127.0.0.1:PORT`), cutting after every
    /// `cutEvery` bytes upstream; `onCut` is called at each cut with the count so far.
    public init(to server: String, cutEvery: Int64, onCut: @escaping @Sendable (Int) -> Void = { _ in }) throws {
        guard let port = URLComponents(string: server)?.port else {
            throw ServerLaunchError(message: "no port in '\(server)'")
        }
        let upstream = Upstream(cutEvery: cutEvery)
        self.upstream = upstream
        proxy = try LoopbackProxy(to: port) { count, isUpstream in
            guard isUpstream else { return LoopbackProxy.Carry(bytes: count) }
            let (bytes, cuts) = upstream.carry(count)
            guard let cuts else { return LoopbackProxy.Carry(bytes: bytes) }
            return LoopbackProxy.Carry(bytes: bytes, ending: { onCut(cuts) })
        }
        baseURL = "http://127.0.0.1:\(proxy.port)"
    }

    /// Bytes forwarded upstream so far.
    public var bytesUpstream: Int64 { upstream.state.withLock { $0.sent } }
    /// Connections cut so far.
    public var cuts: Int { upstream.state.withLock { $0.cuts } }

    /// Stops accepting; connections in flight end as their peers close.
    public func stop() { proxy.stop(resetting: false) }

    /// The bytes gone upstream over all connections, and the cuts made.
    private final class Upstream: Sendable {
        let cutEvery: Int64
        let state: Mutex<(sent: Int64, cuts: Int, nextCut: Int64)>

        init(cutEvery: Int64) {
            self.cutEvery = cutEvery
            state = Mutex((0, 0, cutEvery))
        }

        /// How much of a chunk of `count` bytes goes on before the next cut,
        /// and the cuts so far when it reaches that cut.
        func carry(_ count: Int) -> (bytes: Int, cuts: Int?) {
            state.withLock { state -> (Int, Int?) in
                let room = Int(min(Int64(count), state.nextCut - state.sent))
                state.sent += Int64(room)
                guard state.sent >= state.nextCut else { return (room, nil) }
                state.nextCut += cutEvery
                state.cuts += 1
                return (room, state.cuts)
            }
        }
    }
}
