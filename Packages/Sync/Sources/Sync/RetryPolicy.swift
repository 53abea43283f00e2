import Foundation

/// When to try a failed upload again (BR-08): exponential backoff with full
/// jitter, capped, and a ceiling of attempts after which the report stays
/// PENDING and waits for a person (`jqc retry`) instead of retrying forever.
public struct RetryPolicy: Sendable, Hashable {
    /// Delay before the first retry, in seconds.
    public var baseDelay: Double
    /// The longest delay between two attempts, in seconds.
    public var maximumDelay: Double
    /// Attempts after which automatic retries stop.
    public var attemptCeiling: Int

    /// A policy; the defaults wait 30 s, then 60 s, ... up to an hour, and stop after 8 attempts.
    public init(baseDelay: Double = 30, maximumDelay: Double = 3600, attemptCeiling: Int = 8) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.attemptCeiling = attemptCeiling
    }

    /// The upper bound of the delay after `attempt` consecutive failures (1 = first failure).
    public func delayBound(afterAttempt attempt: Int) -> Double {
        guard attempt > 0 else { return 0 }
        let exponent = Double(min(attempt - 1, 62))
        return min(maximumDelay, baseDelay * pow2(exponent))
    }

    /// The delay after `attempt` failures with full jitter: uniform in 0...bound,
    /// drawn from `random` (a value in 0..<1, injected so tests are exact).
    public func delay(afterAttempt attempt: Int, random: Double) -> Double {
        delayBound(afterAttempt: attempt) * min(max(random, 0), 1)
    }

    /// The moment of the next attempt after a failure at `now`: the jittered
    /// `delay`, never sooner than the server's `Retry-After`, never later than
    /// `maximumDelay`, so that every stored retry time is within reach.
    public func nextAttempt(after now: Date, delay: Double, retryAfter: Double?) -> Date {
        now.addingTimeInterval(min(max(delay, retryAfter ?? 0), maximumDelay))
    }

    /// True while a report must wait for `next`. A retry time further ahead than
    /// `maximumDelay` cannot have come from this policy: the device clock was set
    /// back since the failure (BR-07), so the report is due now instead of
    /// waiting for a clock that may never catch up.
    public func isWaiting(until next: Date?, now: Date) -> Bool {
        guard let next else { return false }
        let ahead = next.timeIntervalSince(now)
        return ahead > 0 && ahead <= maximumDelay
    }

    /// True when `attemptCount` failures reached the ceiling: no automatic retry until a person asks.
    public func needsPerson(attemptCount: Int) -> Bool {
        attemptCount >= attemptCeiling
    }

    private func pow2(_ exponent: Double) -> Double {
        var result = 1.0
        var remaining = Int(exponent)
        while remaining > 0 { result *= 2; remaining -= 1 }
        return result
    }
}
