import Foundation
import Schedules
import Testing

/// What `schedule list` shows an administrator for each rule form.
@Suite("Schedule words")
struct ScheduleWordsTests {
    @Test(
        "Each rule reads as plain English",
        arguments: [
            ("FREQ=DAILY", "every day"),
            ("FREQ=DAILY;INTERVAL=2", "every 2 days"),
            ("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "every weekday"),
            ("FREQ=DAILY;BYDAY=SA,SU", "every Saturday and Sunday"),
            ("FREQ=WEEKLY;BYDAY=MO,TH", "every week on Monday and Thursday"),
            ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "every 2 weeks on Tuesday"),
            ("FREQ=MONTHLY;BYDAY=2TU,4TU", "every 2nd and 4th Tuesday"),
            ("FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU", "every 2nd Tuesday of every 3 months"),
            ("FREQ=MONTHLY;BYDAY=-1FR", "every last Friday"),
            ("FREQ=MONTHLY;BYDAY=-1MO,1MO", "every 1st and last Monday"),
            ("FREQ=MONTHLY;BYDAY=1MO,3WE", "every 1st Monday and 3rd Wednesday"),
            ("FREQ=MONTHLY;BYMONTHDAY=1,15", "on the 1st and 15th of every month"),
            ("FREQ=MONTHLY;BYMONTHDAY=-1", "on the last day of every month"),
            ("FREQ=MONTHLY;BYMONTHDAY=1,-1", "on the 1st and last day of every month"),
            (
                "FREQ=MONTHLY;BYMONTHDAY=23,11,12,13,21,22,31",
                "on the 11th, 12th, 13th, 21st, 22nd, 23rd and 31st of every month"
            ),
            ("FREQ=DAILY;COUNT=10", "every day, 10 times"),
            ("FREQ=WEEKLY;BYDAY=FR;UNTIL=20270331T120000Z", "every week on Friday, until 2027-03-31"),
        ])
    func ruleWords(rule: String, words: String) throws {
        #expect(try Recurrence(rule).words == words)
    }

    @Test("A rule typed in lower case with RRULE: is kept in one canonical form")
    func canonicalText() throws {
        #expect(try Recurrence("rrule:freq=monthly;byday=4tu,2tu").text == "FREQ=MONTHLY;BYDAY=2TU,4TU")
        #expect(try Recurrence(" FREQ=WEEKLY;INTERVAL=1;BYDAY=TH,MO;WKST=MO; ").text == "FREQ=WEEKLY;BYDAY=MO,TH")
        #expect(try Recurrence("FREQ=DAILY;UNTIL=20270331T235959Z").text == "FREQ=DAILY;UNTIL=20270331")
    }

    @Test("A schedule reads as its rule and its window")
    func scheduleWords() throws {
        let monthly = try ScheduleTestSupport.calendar("FREQ=MONTHLY;BYDAY=2TU,4TU", start: "2027-01-01")
        #expect(monthly.words == "every 2nd and 4th Tuesday, 07:00-11:00")
        let counted = try ScheduleTestSupport.calendar(
            "FREQ=DAILY;COUNT=10", window: "13:30-24:00", start: "2027-01-01")
        #expect(counted.words == "every day, 13:30-24:00, 10 times")
        let ending = try ScheduleTestSupport.calendar("FREQ=DAILY;UNTIL=20270331", start: "2027-01-01")
        #expect(ending.words == "every day, 07:00-11:00, until 2027-03-31")
    }

    @Test("A schedule names the day a bare weekly or monthly rule repeats on")
    func startDateNamesTheDay() throws {
        let weekly = try ScheduleTestSupport.calendar("FREQ=WEEKLY", start: "2027-01-01")
        #expect(weekly.words == "every week on Friday, 07:00-11:00")
        let monthly = try ScheduleTestSupport.calendar("FREQ=MONTHLY", start: "2027-01-15")
        #expect(monthly.words == "on the 15th of every month, 07:00-11:00")
        let ended = try ScheduleTestSupport.calendar("FREQ=MONTHLY", start: "2027-01-22", end: "2027-06-30")
        #expect(ended.words == "on the 22nd of every month, 07:00-11:00, until 2027-06-30")
    }

    @Test("The next three inspections include the one whose window is open now")
    func nextThree() throws {
        let calendar = try ScheduleTestSupport.calendar(
            "FREQ=MONTHLY;BYDAY=2TU,4TU", start: "2027-01-01", zone: "Europe/London")
        let next = calendar.next(3, after: ScheduleTestSupport.utc("2027-01-12T08:00:00Z"))
        #expect(next.map(\.day.description) == ["2027-01-12", "2027-01-26", "2027-02-09"])
        #expect(
            next.map(\.start) == [
                ScheduleTestSupport.utc("2027-01-12T07:00:00Z"), ScheduleTestSupport.utc("2027-01-26T07:00:00Z"),
                ScheduleTestSupport.utc("2027-02-09T07:00:00Z"),
            ])
        #expect(next.first?.end == ScheduleTestSupport.utc("2027-01-12T11:00:00Z"))
    }

    @Test("After a counted rule's last inspection there is no next one")
    func nothingAfterTheLast() throws {
        let calendar = try ScheduleTestSupport.calendar("FREQ=DAILY;INTERVAL=3;COUNT=5", start: "2027-01-01")
        #expect(
            calendar.next(3, after: ScheduleTestSupport.utc("2027-01-12T00:00:00Z")).map(\.day.description) == [
                "2027-01-13"
            ])
    }
}
