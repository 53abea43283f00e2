import Foundation
import Schedules
import Testing

/// Schedules that started years ago still answer for the coming weeks, and
/// answer the same from many threads at once.
@Suite("Long-running schedules")
struct LongRunningScheduleTests {
    @Test("A daily schedule started in 2020 gives exactly the 14 days of June 2027 asked for")
    func dailySinceTwentyTwenty() throws {
        let calendar = try ScheduleTestSupport.calendar("FREQ=DAILY", start: "2020-01-01", zone: "Europe/London")
        let from = ScheduleTestSupport.utc("2027-06-01T00:00:00Z")
        let found = calendar.occurrences(from: from, to: from.addingTimeInterval(14 * 86_400), limit: 100)
        #expect(
            found.map(\.day.description) == [
                "2027-06-01", "2027-06-02", "2027-06-03", "2027-06-04", "2027-06-05", "2027-06-06", "2027-06-07",
                "2027-06-08", "2027-06-09", "2027-06-10", "2027-06-11", "2027-06-12", "2027-06-13", "2027-06-14",
            ])
        #expect(found.first?.start == ScheduleTestSupport.utc("2027-06-01T06:00:00Z"))
    }

    @Test("Every other Tuesday since 7 January 2020 still lands on the right Tuesdays in 2027")
    func fortnightlySinceTwentyTwenty() throws {
        let calendar = try ScheduleTestSupport.calendar("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2020-01-07")
        let from = ScheduleTestSupport.utc("2027-06-01T00:00:00Z")
        let found = calendar.occurrences(from: from, to: from.addingTimeInterval(28 * 86_400), limit: 100)
        #expect(found.map(\.day.description) == ["2027-06-01", "2027-06-15"])
    }

    @Test("The last Friday of the month since 2020 is still found in 2027")
    func lastFridaySinceTwentyTwenty() throws {
        let calendar = try ScheduleTestSupport.calendar("FREQ=MONTHLY;BYDAY=-1FR", start: "2020-01-01")
        let from = ScheduleTestSupport.utc("2027-06-01T00:00:00Z")
        let found = calendar.occurrences(from: from, to: ScheduleTestSupport.utc("2027-08-01T00:00:00Z"), limit: 100)
        #expect(found.map(\.day.description) == ["2027-06-25", "2027-07-30"])
    }

    @Test("A counted rule started in 2020 ends on its 3000th day, 18 March 2028")
    func countedSinceTwentyTwenty() throws {
        let calendar = try ScheduleTestSupport.calendar("FREQ=DAILY;COUNT=3000", start: "2020-01-01")
        let found = calendar.occurrences(
            from: ScheduleTestSupport.utc("2028-03-14T00:00:00Z"), to: ScheduleTestSupport.utc("2028-04-01T00:00:00Z"),
            limit: 100)
        #expect(found.map(\.day.description) == ["2028-03-14", "2028-03-15", "2028-03-16", "2028-03-17", "2028-03-18"])
    }

    @Test(
        "Looking two weeks at a time through 2027 shows the same days as one walk from a 2020 start",
        arguments: [
            "FREQ=DAILY;INTERVAL=3", "FREQ=DAILY;INTERVAL=2;BYDAY=MO,WE", "FREQ=WEEKLY;INTERVAL=3;BYDAY=SU,WE",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SA;WKST=SU", "FREQ=MONTHLY;INTERVAL=2;BYDAY=1MO,-1MO",
            "FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=30,-3", "FREQ=MONTHLY;INTERVAL=2",
        ])
    func fortnightsAgreeWithOneWalk(rule: String) throws {
        let calendar = try ScheduleTestSupport.calendar(rule, start: "2020-01-30")
        let yearStart = ScheduleTestSupport.utc("2027-01-01T00:00:00Z")
        let yearEnd = ScheduleTestSupport.utc("2028-01-01T00:00:00Z")
        let walk = calendar.occurrences(from: ScheduleTestSupport.utc("2020-01-01T00:00:00Z"), to: yearEnd, limit: 5000)
            .filter { $0.start >= yearStart }
        var fortnights: [Occurrence] = []
        var from = yearStart
        while from < yearEnd {
            let to = min(from.addingTimeInterval(14 * 86_400), yearEnd)
            fortnights += calendar.occurrences(from: from, to: to, limit: 100).filter { $0.start >= from }
            from = to
        }
        #expect(!walk.isEmpty)
        #expect(fortnights == walk)
    }

    @Test("Many requests at once get the same days as one request alone")
    func concurrentRequests() async throws {
        let calendar = try ScheduleTestSupport.calendar("FREQ=MONTHLY;BYDAY=2TU,4TU", start: "2020-01-01")
        let from = ScheduleTestSupport.utc("2027-01-01T00:00:00Z")
        let to = ScheduleTestSupport.utc("2028-01-01T00:00:00Z")
        let alone = calendar.occurrences(from: from, to: to, limit: 100)
        let together = await withTaskGroup(of: [Occurrence].self) { group in
            for _ in 0..<16 {
                group.addTask { calendar.occurrences(from: from, to: to, limit: 100) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(alone.count == 24)
        #expect(together.count == 16)
        #expect(together.allSatisfy { $0 == alone })
    }
}
