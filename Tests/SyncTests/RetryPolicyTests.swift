import Testing
import Sync

@Suite("Retry policy (BR-08)")
struct RetryPolicyTests {
    let policy = RetryPolicy(baseDelay: 30, maximumDelay: 3600, attemptCeiling: 8)

    @Test(
        "the bound doubles from the base delay after each failure, up to the maximum",
        arguments: [(1, 30.0), (2, 60.0), (3, 120.0), (7, 1920.0), (8, 3600.0), (40, 3600.0), (1000, 3600.0)])
    func bound(attempt: Int, expected: Double) {
        #expect(policy.delayBound(afterAttempt: attempt) == expected)
    }

    @Test("full jitter: the delay is the bound scaled by the random draw, never above the bound")
    func jitter() {
        #expect(policy.delay(afterAttempt: 3, random: 0) == 0)
        #expect(policy.delay(afterAttempt: 3, random: 0.5) == 60)
        #expect(policy.delay(afterAttempt: 3, random: 7) == 120)
        #expect(policy.delay(afterAttempt: 3, random: -1) == 0)
    }

    @Test("no failures, no delay")
    func noFailures() {
        #expect(policy.delayBound(afterAttempt: 0) == 0)
    }

    @Test("automatic retries stop at the ceiling and wait for a person")
    func ceiling() {
        #expect(!policy.needsPerson(attemptCount: 7))
        #expect(policy.needsPerson(attemptCount: 8))
        #expect(policy.needsPerson(attemptCount: 9))
    }
}
