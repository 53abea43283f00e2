@testable import ServerCore
import Testing

@Suite("When new uploads look for expired ones")
struct CadenceTests {
    @Test("the first new upload looks for expired uploads, then one a minute at most, however many come between")
    func onceAMinute() {
        var schedule = Cadence(seconds: 60)
        func isDue(now: UInt64) -> Bool { schedule.isDue(now: now) }
        let second: UInt64 = 1_000_000_000
        let start: UInt64 = 5 * second
        #expect(isDue(now: start))
        #expect(!isDue(now: start))
        #expect(!isDue(now: start + 59 * second))
        #expect(isDue(now: start + 60 * second))
        #expect(!isDue(now: start + 61 * second))
        #expect(isDue(now: start + 3_600 * second), "after a quiet hour the next upload looks at once")
    }
}
