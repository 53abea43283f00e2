import Foundation
import Synchronization

/// Deadlines for every open connection: its request headers must be complete
/// within `headerTimeout` of the connection opening (on a kept-alive
/// connection: of the next request line, which must come within
/// `idleTimeout` of the previous response), its body within `bodyTimeout`
/// of the headers, and a response must be read within `bodyTimeout`. libmicrohttpd only knows an idle timeout, which a client
/// sending one byte now and then never reaches; here a watcher thread shuts
/// down the socket of a connection past its deadline, and MHD then closes it.
///
/// Safety: an entry is removed by MHD's "connection closed" notification,
/// which runs before MHD closes the socket, under the same lock the watcher
/// holds while it shuts sockets down, so the watcher never touches a socket
/// number that has been reused.
final class ConnectionDeadlines: Sendable {
    /// What a connection is waiting for.
    enum Phase: Sendable {
        case headers, body, working, replying, idle
        /// Sending a streamed body: the deadline moves on each time the client takes more.
        case streaming
    }

    private struct Entry {
        var fd: Int32
        var address: String
        var phase: Phase
        var deadline: UInt64?
        /// A body is arriving: a client that closes mid-way ends the request at once.
        var watchesClose = false
    }
    private let entries = Mutex<[UInt: Entry]>([:])
    private let headerTimeout: UInt64
    private let bodyTimeout: UInt64
    private let idleTimeout: UInt64
    private let log: ServerLog

    init(headerTimeout: TimeInterval, bodyTimeout: TimeInterval, idleTimeout: TimeInterval, log: ServerLog) {
        self.headerTimeout = UInt64(headerTimeout * 1_000_000_000)
        self.bodyTimeout = UInt64(bodyTimeout * 1_000_000_000)
        self.idleTimeout = UInt64(idleTimeout * 1_000_000_000)
        self.log = log
    }

    /// Starts the watcher thread.
    func start() {
        let thread = Thread { [self] in
            while true {
                usleep(250_000)
                expire()
            }
        }
        thread.name = "jqc-deadlines"
        thread.start()
    }

    /// A connection opened.
    func opened(_ key: UInt, fd: Int32, address: String) {
        let deadline = now() + headerTimeout
        entries.withLock { $0[key] = Entry(fd: fd, address: address, phase: .headers, deadline: deadline) }
    }

    /// A connection moved on to `phase`; its deadline follows, `extra`
    /// seconds later for a large body (so a big photo on a slow link has time).
    func enter(_ key: UInt, _ phase: Phase, extra: TimeInterval = 0, watchingClose: Bool = false) {
        let start = now()
        let deadline: UInt64? =
            switch phase {
            case .headers: start + headerTimeout
            case .body, .replying, .streaming: start + bodyTimeout + UInt64(max(0, extra) * 1_000_000_000)
            case .idle: start + idleTimeout
            case .working: nil
            }
        entries.withLock { all in
            guard var entry = all[key] else { return }
            entry.phase = phase
            entry.deadline = deadline
            entry.watchesClose = watchingClose
            all[key] = entry
        }
    }

    /// A connection closed.
    /// True when the peer closed its sending side and no byte of it is left unread.
    private static func peerFinished(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    func closed(_ key: UInt) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    private func expire() {
        let moment = now()
        var late: [(String, Phase)] = []
        entries.withLock { all in
            for (key, entry) in all {
                if entry.phase == .body && entry.watchesClose && Self.peerFinished(entry.fd) {
                    // The client closed its side mid-body and everything it sent was read: libmicrohttpd
                    // can leave such a connection until its idle timeout; shut, it ends now and what
                    // arrived is handed on (an upload cut short keeps its bytes at once).
                    shutdown(entry.fd, Int32(SHUT_RDWR))
                    continue
                }
                guard let deadline = entry.deadline, deadline < moment else { continue }
                shutdown(entry.fd, Int32(SHUT_RDWR))
                late.append((entry.address, entry.phase))
                all[key]?.deadline = nil
            }
        }
        for (address, phase) in late {
            let what =
                switch phase {
                case .headers: "did not finish its request headers in time"
                case .idle: "sent no new request in time"
                case .body: "did not finish its request body in time"
                case .working, .replying, .streaming: "did not read its response in time"
                }
            log.note("connection closed: it \(what)", address: address)
        }
    }

    private func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
