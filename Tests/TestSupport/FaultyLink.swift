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
/// Threads of its own (`LoopbackProxy`); stopped on `stop()`.
public final class FaultyLink: Sendable {
    /// What the link does to the bytes.
    public enum Mode: Sendable, Equatable {
        case pass
        case blackHole
        case drop
        case delay(milliseconds: Int)
    }

    /// The port to connect to instead of the server's.
    public var port: Int { proxy.port }
    private let proxy: LoopbackProxy
    private let mode: Setting

    /// Forwards to 127.0.0.1:`upstreamPort`.
    public init(to upstreamPort: Int) throws {
        let mode = Setting()
        self.mode = mode
        proxy = try LoopbackProxy(
            to: upstreamPort,
            admit: {
                switch mode.value {
                case .drop: .reset
                // Accepted and read, never answered: the server behind is never reached.
                case .blackHole: .swallowed
                case .pass, .delay: .forwarded
                }
            },
            carry: { count, _ in
                let now = mode.value
                if case .delay(let milliseconds) = now { usleep(UInt32(milliseconds) * 1000) }
                // Black hole: read and forgotten.
                return LoopbackProxy.Carry(bytes: now == .blackHole ? 0 : count)
            })
    }

    /// `url` (a `postgres://...@HOST:PORT/DB` URL) with this link's port in place of its own.
    public func url(instead url: String) -> String {
        guard let colon = url.lastIndex(of: ":"), let slash = url[colon...].firstIndex(of: "/") else { return url }
        return String(url[..<colon]) + ":\(port)" + String(url[slash...])
    }

    /// What the link does from now on; `drop` resets every connection open now.
    public func set(_ mode: Mode) {
        self.mode.value = mode
        if mode == .drop { proxy.resetConnections() }
    }

    /// Connections open through the link now.
    public var openConnections: Int { proxy.openConnections }

    /// Stops accepting and resets every connection.
    public func stop() { proxy.stop(resetting: true) }

    /// The mode, read by the link's threads at each connection and chunk.
    private final class Setting: Sendable {
        private let mode = Mutex(Mode.pass)

        var value: Mode {
            get { mode.withLock { $0 } }
            set { mode.withLock { $0 = newValue } }
        }
    }
}
