import Foundation
import Schedules
import Testing

/// A window is held at its local hours across daylight-saving changes. The
/// UTC instants below are worked out by hand: London is UTC+0 in winter and
/// UTC+1 in summer (changes 2027-03-28 and 2027-10-31 at 01:00 UTC); New York
/// is UTC-5 in winter and UTC-4 in summer (changes 2027-03-14 and 2027-11-07
/// at 02:00 local).
@Suite("Daylight saving")
struct DaylightSavingTests {
    private func starts(zone: String, from: String, to: String) throws -> [Date] {
        let calendar = try ScheduleTestSupport.calendar("FREQ=DAILY", start: "2027-01-01", zone: zone)
        let found = calendar.occurrences(
            from: ScheduleTestSupport.utc(from), to: ScheduleTestSupport.utc(to), limit: 10)
        for occurrence in found {
            #expect(occurrence.end.timeIntervalSince(occurrence.start) == 4 * 3600)
        }
        return found.map(\.start)
    }

    @Test("In London 07:00 stays 07:00 local when the clocks go forward in March")
    func londonSpring() throws {
        let found = try starts(zone: "Europe/London", from: "2027-03-26T00:00:00Z", to: "2027-03-30T00:00:00Z")
        #expect(
            found == [
                ScheduleTestSupport.utc("2027-03-26T07:00:00Z"), ScheduleTestSupport.utc("2027-03-27T07:00:00Z"),
                ScheduleTestSupport.utc("2027-03-28T06:00:00Z"), ScheduleTestSupport.utc("2027-03-29T06:00:00Z"),
            ])
    }

    @Test("In London 07:00 stays 07:00 local when the clocks go back in October")
    func londonAutumn() throws {
        let found = try starts(zone: "Europe/London", from: "2027-10-29T00:00:00Z", to: "2027-11-02T00:00:00Z")
        #expect(
            found == [
                ScheduleTestSupport.utc("2027-10-29T06:00:00Z"), ScheduleTestSupport.utc("2027-10-30T06:00:00Z"),
                ScheduleTestSupport.utc("2027-10-31T07:00:00Z"), ScheduleTestSupport.utc("2027-11-01T07:00:00Z"),
            ])
    }

    @Test("In New York 07:00 stays 07:00 local when the clocks go forward in March")
    func newYorkSpring() throws {
        let found = try starts(zone: "America/New_York", from: "2027-03-12T00:00:00Z", to: "2027-03-16T00:00:00Z")
        #expect(
            found == [
                ScheduleTestSupport.utc("2027-03-12T12:00:00Z"), ScheduleTestSupport.utc("2027-03-13T12:00:00Z"),
                ScheduleTestSupport.utc("2027-03-14T11:00:00Z"), ScheduleTestSupport.utc("2027-03-15T11:00:00Z"),
            ])
    }

    @Test("In New York 07:00 stays 07:00 local when the clocks go back in November")
    func newYorkAutumn() throws {
        let found = try starts(zone: "America/New_York", from: "2027-11-05T00:00:00Z", to: "2027-11-09T00:00:00Z")
        #expect(
            found == [
                ScheduleTestSupport.utc("2027-11-05T11:00:00Z"), ScheduleTestSupport.utc("2027-11-06T11:00:00Z"),
                ScheduleTestSupport.utc("2027-11-07T12:00:00Z"), ScheduleTestSupport.utc("2027-11-08T12:00:00Z"),
            ])
    }

    @Test("A 00:30-03:30 window in London lasts 2 hours on the day the clocks go forward")
    func londonShortNight() throws {
        let found = try #require(
            try ScheduleTestSupport.only(window: "00:30-03:30", on: "2027-03-28", zone: "Europe/London"))
        #expect(found.start == ScheduleTestSupport.utc("2027-03-28T00:30:00Z"))
        #expect(found.end == ScheduleTestSupport.utc("2027-03-28T02:30:00Z"))
    }

    @Test("A 00:30-03:30 window in London lasts 4 hours on the day the clocks go back")
    func londonLongNight() throws {
        let found = try #require(
            try ScheduleTestSupport.only(window: "00:30-03:30", on: "2027-10-31", zone: "Europe/London"))
        #expect(found.start == ScheduleTestSupport.utc("2027-10-30T23:30:00Z"))
        #expect(found.end == ScheduleTestSupport.utc("2027-10-31T03:30:00Z"))
    }

    @Test("A 01:00-03:00 window in New York lasts 3 hours on the day the clocks go back, from the first 01:00")
    func newYorkRepeatedHour() throws {
        let found = try #require(
            try ScheduleTestSupport.only(window: "01:00-03:00", on: "2027-11-07", zone: "America/New_York"))
        #expect(found.start == ScheduleTestSupport.utc("2027-11-07T05:00:00Z"))
        #expect(found.end == ScheduleTestSupport.utc("2027-11-07T08:00:00Z"))
    }

    @Test("A window opening at 01:30 on London's spring-forward day opens at 02:30 BST instead")
    func londonSkippedStart() throws {
        let found = try #require(
            try ScheduleTestSupport.only(window: "01:30-04:00", on: "2027-03-28", zone: "Europe/London"))
        #expect(found.start == ScheduleTestSupport.utc("2027-03-28T01:30:00Z"))
        #expect(found.end == ScheduleTestSupport.utc("2027-03-28T03:00:00Z"))
    }

    @Test("A window opening at 02:30 on New York's spring-forward day opens at 03:30 EDT instead")
    func newYorkSkippedStart() throws {
        let found = try #require(
            try ScheduleTestSupport.only(window: "02:30-04:00", on: "2027-03-14", zone: "America/New_York"))
        #expect(found.start == ScheduleTestSupport.utc("2027-03-14T07:30:00Z"))
        #expect(found.end == ScheduleTestSupport.utc("2027-03-14T08:00:00Z"))
    }

    @Test("A window ending at 24:00 closes at the midnight that starts the next day")
    func midnightEnd() throws {
        let found = try #require(
            try ScheduleTestSupport.only(window: "22:00-24:00", on: "2027-03-27", zone: "Europe/London"))
        #expect(found.start == ScheduleTestSupport.utc("2027-03-27T22:00:00Z"))
        #expect(found.end == ScheduleTestSupport.utc("2027-03-28T00:00:00Z"))
        let summer = try #require(
            try ScheduleTestSupport.only(window: "22:00-24:00", on: "2027-07-01", zone: "Europe/London"))
        #expect(summer.end == ScheduleTestSupport.utc("2027-07-01T23:00:00Z"))
    }
}
