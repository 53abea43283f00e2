@testable import ServerCore
@testable import ServerStore
import Testing

/// How often an operator reads that the server's disk is full: once when it
/// fills, then at most every ten minutes while writes are refused, each
/// later line counting the refusals it did not report one by one.
@Suite("The full-disk log line")
struct DiskFullAlarmTests {
    @Test(
        "the first refusal is said at once; the next ones within ten minutes are counted, and said with the next line after"
    )
    func onceInAWhile() {
        let alarm = DiskFullAlarm(seconds: 600)
        let minute: UInt64 = 60_000_000_000
        let first = alarm.refused(now: 1)
        #expect(first?.hasPrefix("the server's disk is full: uploads and syncs are refused 507 STORAGE_FULL") == true)
        #expect(first?.contains("more writes refused") == false)
        for step in 1...500 { #expect(alarm.refused(now: 1 + UInt64(step) * minute / 100) == nil) }
        let later = alarm.refused(now: 1 + 10 * minute)
        #expect(
            later?.hasSuffix("(500 more writes refused since the last line like this)") == true, "\(later ?? "nothing")"
        )
        #expect(alarm.refused(now: 2 + 10 * minute) == nil)
    }

    @Test(
        "a full disk or quota (ENOSPC, EDQUOT) is 507 STORAGE_FULL with Retry-After 60; any other failure of the disk is a 500 naming it"
    )
    func diskErrors() {
        #expect(ServerError.storageFull().status == 507)
        #expect(ServerError.storageFull().retryAfter == 60)
        #expect(ServerError.disk("cannot keep it", errno: 28).code.rawValue == "STORAGE_FULL")
        #expect(ServerError.disk("cannot keep it", errno: 122).code.rawValue == "STORAGE_FULL")
        #expect(ServerError.disk("cannot keep it", errno: 5) == .internal("cannot keep it (Input/output error)"))
    }
}
