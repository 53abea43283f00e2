import Foundation
import Testing
import TestSupport

/// The server's background work runs below the requests' CPU priority, as
/// an operator sees it in `top -H`: a busy machine answers devices first.
@Suite("Background threads run at a lower priority than requests")
struct BackgroundPriorityTests {
    /// The nice value of each of the process's threads, by thread name (`/proc/PID/task/*/stat`).
    static func niceness(of pid: Int32) throws -> [(name: String, nice: Int)] {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return tasks.compactMap { task in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return nil }
            let name = String(stat[stat.index(after: open)..<close])
            // After the name: state (field 3) ... nice (field 19).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 16, let nice = Int(fields[16]) else { return nil }
            return (name, nice)
        }
    }

    @Test("a server with mail on runs its senders and its visit maker at nice 10, and its request threads at 0")
    func priorities() throws {
        let server = try ServerProcess([
            "--demo", "--smtp-url", "smtp://127.0.0.1:9", "--mail-from", "jqc@example.org", "--public-url",
            "http://console.example.invalid",
        ])
        // Senders, webhook senders and the visit maker; the process's main thread and libmicrohttpd's workers.
        var threads: [(name: String, nice: Int)] = []
        for _ in 0..<50 {
            threads = try Self.niceness(of: server.pid)
            if threads.filter({ $0.nice == 10 }).count >= 3 { break }
            usleep(100_000)
        }
        #expect(threads.filter { $0.nice == 10 }.count >= 3, "\(threads)")
        #expect(threads.contains { $0.nice == 0 }, "\(threads)")
        #expect(threads.filter { $0.name.hasPrefix("MHD") }.allSatisfy { $0.nice == 0 }, "\(threads)")
        let answer = try RawConnection(port: RawHTTP.port(of: server)).exchange(
            RawHTTP.request("GET", "/api/v1/auth/me"))
        #expect(answer?.status == 401, "the server answers while its background threads run")
    }
}
