import Foundation
import Models
import Synchronization
import Testing
import TestSupport

/// A slow receiver holds at most one sender: the other hooks' deliveries
/// are not queued behind its own.
@Suite("Security trial: one slow webhook receiver", .timeLimit(.minutes(3)))
struct WebhookFairnessTests {
    @Test("while a slow receiver takes seconds a post, a healthy hook's deliveries all arrive at once")
    func webhookOneSenderPerHook() async throws {
        let server = try ServerProcess([
            "--demo", "--webhook-timeout", "10", "--webhook-lease", "30", "--webhook-first-retry-ms", "50",
            "--webhook-longest-retry", "1", "--webhook-attempts", "10",
        ])
        let (secretFile, _) = try Webhooks.secretFile(in: server.directory)
        let begun = Arrivals()
        let slow = try WebhookReceiver { _ in
            begun.times.withLock { $0.append(Date()) }
            return .status(200, delay: 6)
        }
        let healthy = try WebhookReceiver()
        _ = try Webhooks.add(server, url: slow.url, secretFile: secretFile, events: "report.accepted")
        _ = try Webhooks.add(server, url: healthy.url, secretFile: secretFile, events: "report.accepted")
        let inspector = try await Session.inspector(server)
        let reports = (0..<6).map { _ in Webhooks.lobby(localID: UUID()) }
        let response = try await inspector.sync(reports)
        #expect(response.status == 200)
        let started = Date()
        #expect(healthy.wait(seconds: 5) { $0.count >= 6 }, "the healthy hook got \(healthy.requests.count) of 6")
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 5.5, "the healthy hook waited \(elapsed) s")
        #expect(slow.wait(seconds: 90) { $0.count >= 2 }, "the slow hook is still served, one post at a time")
        // One sender at a time: each post to the slow hook begins only once the one before (6 s) has ended.
        let times = begun.times.withLock { $0 }
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later.timeIntervalSince(earlier) > 5, "two posts to the slow hook overlapped: \(times)")
        }
    }
}

/// When a receiver began to answer each post.
final class Arrivals: Sendable {
    let times = Mutex<[Date]>([])
}
