import Foundation
import Models
import Networking
import ServerStore

/// How this instance delivers webhooks (`--webhook-*`).
struct WebhookSettings: Sendable, Equatable {
    /// Threads sending at once; 0 leaves deliveries to other instances.
    var senders = 4
    /// Seconds a receiver has to answer 2xx (at most 10, as receivers are promised).
    var timeout: TimeInterval = 10
    /// Seconds a delivery stays with the instance that took it; after that, another may.
    var lease: TimeInterval = 60
    /// Seconds before the second attempt; each later one waits twice as long, up to `longestDelay`.
    var firstDelay: TimeInterval = 10
    var longestDelay: TimeInterval = 3600
    /// Attempts before a delivery is `failed`.
    var attempts = 12
    /// Days a delivered delivery (and its event, once no delivery refers to it) is kept; failed ones are kept until replayed or their hook removed.
    var keepDays = 30
    /// Seconds an idle sender waits before looking for due deliveries again (sooner when this instance records an event).
    var poll: TimeInterval = 1

    /// The delay after `attempt` failed attempts (from 1): exponential, capped,
    /// with jitter (half of it fixed, half drawn from `random` in 0..<1), so
    /// deliveries that failed together do not return together.
    func delay(afterAttempt attempt: Int, random: Double) -> TimeInterval {
        OutboxTiming.backoff(afterAttempt: attempt, first: firstDelay, longest: longestDelay, random: random)
    }

    /// What an attempt's outcome leaves: delivered on 2xx; the hook disabled
    /// on 410; otherwise another attempt after the delay, or `failed` once
    /// `attempts` are spent. `made` counts the attempts before this one.
    func record(_ outcome: Result<HTTPResponse, NetworkingError>, made: Int, now: Date, random: Double)
        -> WebhookAttemptRecord
    {
        let attempt = made + 1
        let status: Int?
        let problem: String
        switch outcome {
        case .success(let response) where (200...299).contains(response.status):
            return WebhookAttemptRecord(state: .delivered, nextAttemptAt: nil, status: response.status, error: nil)
        case .success(let response) where response.status == 410:
            return WebhookAttemptRecord(
                state: .failed, nextAttemptAt: nil, status: 410,
                error: "the receiver answered 410 Gone; the hook is disabled",
                disablesHook: "the receiver answered 410 Gone at \(RFC3339.string(now))")
        case .success(let response):
            status = response.status
            problem =
                (300...399).contains(response.status)
                ? "the receiver answered \(response.status) (a redirect, which is not followed)"
                : "the receiver answered \(response.status)"
        case .failure(let error):
            status = nil
            problem = error.code == .timedOut ? "no answer within \(Int(timeout)) s" : error.message
        }
        guard attempt < attempts else {
            return WebhookAttemptRecord(
                state: .failed, nextAttemptAt: nil, status: status,
                error: "\(problem); gave up after \(attempt) attempts")
        }
        let next = now.addingTimeInterval(delay(afterAttempt: attempt, random: random))
        return WebhookAttemptRecord(
            state: .pending, nextAttemptAt: WebhookOutbox.milliseconds(next), status: status, error: problem)
    }

    /// The transport of one delivery: no proxy, no redirect, the answer bounded, connecting only to `pins`.
    func transport(pins: [String]) -> CurlTransport {
        var options = CurlTransport.Options(
            connectTimeout: min(timeout, 5), totalTimeout: timeout, maximumResponseBytes: 64 * 1024,
            userAgent: "jqc-server webhooks")
        options.pinnedAddresses = pins
        options.usesProxyEnvironment = false
        return CurlTransport(options: options)
    }
}
