import Foundation
import Schedules
import Testing

/// Each rule form, expanded over 2027 and checked against days read off a
/// printed 2027 calendar (1 January 2027 is a Friday).
@Suite("Rule expansion")
struct RuleExpansionTests {
    @Test("The 2nd and 4th Tuesday of each month fall on the days a wall calendar shows")
    func secondAndFourthTuesday() throws {
        let days = try ScheduleTestSupport.days(
            "FREQ=MONTHLY;BYDAY=2TU,4TU", start: "2027-01-01", through: "2027-12-31")
        #expect(
            days == [
                "2027-01-12", "2027-01-26", "2027-02-09", "2027-02-23", "2027-03-09", "2027-03-23",
                "2027-04-13", "2027-04-27", "2027-05-11", "2027-05-25", "2027-06-08", "2027-06-22",
                "2027-07-13", "2027-07-27", "2027-08-10", "2027-08-24", "2027-09-14", "2027-09-28",
                "2027-10-12", "2027-10-26", "2027-11-09", "2027-11-23", "2027-12-14", "2027-12-28",
            ])
    }

    @Test("The last Friday of each month is found, including 31 December")
    func lastFriday() throws {
        let days = try ScheduleTestSupport.days("FREQ=MONTHLY;BYDAY=-1FR", start: "2027-01-01", through: "2027-12-31")
        #expect(
            days == [
                "2027-01-29", "2027-02-26", "2027-03-26", "2027-04-30", "2027-05-28", "2027-06-25",
                "2027-07-30", "2027-08-27", "2027-09-24", "2027-10-29", "2027-11-26", "2027-12-31",
            ])
    }

    @Test("The 1st and 15th of each month both fall due, every month")
    func firstAndFifteenth() throws {
        let days = try ScheduleTestSupport.days(
            "FREQ=MONTHLY;BYMONTHDAY=1,15", start: "2027-01-01", through: "2027-12-31")
        #expect(
            days == [
                "2027-01-01", "2027-01-15", "2027-02-01", "2027-02-15", "2027-03-01", "2027-03-15",
                "2027-04-01", "2027-04-15", "2027-05-01", "2027-05-15", "2027-06-01", "2027-06-15",
                "2027-07-01", "2027-07-15", "2027-08-01", "2027-08-15", "2027-09-01", "2027-09-15",
                "2027-10-01", "2027-10-15", "2027-11-01", "2027-11-15", "2027-12-01", "2027-12-15",
            ])
    }

    @Test("The 31st of each month skips the months that have no 31st")
    func thirtyFirstSkipsShortMonths() throws {
        let days = try ScheduleTestSupport.days(
            "FREQ=MONTHLY;BYMONTHDAY=31", start: "2027-01-01", through: "2027-12-31")
        #expect(
            days == ["2027-01-31", "2027-03-31", "2027-05-31", "2027-07-31", "2027-08-31", "2027-10-31", "2027-12-31"])
    }

    @Test("The last day of each month follows the month's length")
    func lastDayOfMonth() throws {
        let days = try ScheduleTestSupport.days(
            "FREQ=MONTHLY;BYMONTHDAY=-1", start: "2027-01-01", through: "2027-12-31")
        #expect(
            days == [
                "2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31", "2027-06-30",
                "2027-07-31", "2027-08-31", "2027-09-30", "2027-10-31", "2027-11-30", "2027-12-31",
            ])
    }

    @Test("A monthly rule with no day given repeats on the start date's day, skipping short months")
    func bareMonthlyOnTheThirtyFirst() throws {
        let days = try ScheduleTestSupport.days("FREQ=MONTHLY", start: "2027-01-31", through: "2027-12-31")
        #expect(
            days == ["2027-01-31", "2027-03-31", "2027-05-31", "2027-07-31", "2027-08-31", "2027-10-31", "2027-12-31"])
    }

    @Test("Every 3 months on the 2nd Tuesday counts the months from the start")
    func secondTuesdayEveryThreeMonths() throws {
        let days = try ScheduleTestSupport.days(
            "FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU", start: "2027-01-01", through: "2027-12-31")
        #expect(days == ["2027-01-12", "2027-04-13", "2027-07-13", "2027-10-12"])
    }

    @Test("Every other Tuesday counts weeks from the week the schedule starts in")
    func everyOtherTuesday() throws {
        let days = try ScheduleTestSupport.days(
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2027-01-01", through: "2027-12-31")
        #expect(
            days == [
                "2027-01-12", "2027-01-26", "2027-02-09", "2027-02-23", "2027-03-09", "2027-03-23",
                "2027-04-06", "2027-04-20", "2027-05-04", "2027-05-18", "2027-06-01", "2027-06-15",
                "2027-06-29", "2027-07-13", "2027-07-27", "2027-08-10", "2027-08-24", "2027-09-07",
                "2027-09-21", "2027-10-05", "2027-10-19", "2027-11-02", "2027-11-16", "2027-11-30",
                "2027-12-14", "2027-12-28",
            ])
    }

    @Test("A weekly rule on Monday and Thursday falls on both days each week")
    func mondayAndThursday() throws {
        let days = try ScheduleTestSupport.days("FREQ=WEEKLY;BYDAY=MO,TH", start: "2027-01-01", through: "2027-01-31")
        #expect(
            days == [
                "2027-01-04", "2027-01-07", "2027-01-11", "2027-01-14", "2027-01-18", "2027-01-21", "2027-01-25",
                "2027-01-28",
            ])
    }

    @Test("A weekly rule with no day given repeats on the start date's weekday")
    func bareWeekly() throws {
        let days = try ScheduleTestSupport.days("FREQ=WEEKLY", start: "2027-01-01", through: "2027-02-28")
        #expect(
            days == [
                "2027-01-01", "2027-01-08", "2027-01-15", "2027-01-22", "2027-01-29", "2027-02-05", "2027-02-12",
                "2027-02-19", "2027-02-26",
            ])
    }

    @Test("Every weekday leaves out Saturdays and Sundays")
    func everyWeekday() throws {
        let days = try ScheduleTestSupport.days(
            "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", start: "2027-01-01", through: "2027-01-15")
        #expect(
            days == [
                "2027-01-01", "2027-01-04", "2027-01-05", "2027-01-06", "2027-01-07", "2027-01-08", "2027-01-11",
                "2027-01-12", "2027-01-13", "2027-01-14", "2027-01-15",
            ])
    }

    @Test("Every 3 days, 5 times, stops after the fifth inspection")
    func everyThreeDaysFiveTimes() throws {
        let days = try ScheduleTestSupport.days(
            "FREQ=DAILY;INTERVAL=3;COUNT=5", start: "2027-01-01", through: "2027-12-31")
        #expect(days == ["2027-01-01", "2027-01-04", "2027-01-07", "2027-01-10", "2027-01-13"])
    }

    @Test("UNTIL includes its own day")
    func untilIsInclusive() throws {
        let days = try ScheduleTestSupport.days(
            "FREQ=WEEKLY;BYDAY=MO;UNTIL=20270301", start: "2027-01-01", through: "2027-12-31")
        #expect(
            days == [
                "2027-01-04", "2027-01-11", "2027-01-18", "2027-01-25", "2027-02-01", "2027-02-08", "2027-02-15",
                "2027-02-22", "2027-03-01",
            ])
    }

    @Test("An UNTIL written with a time is read as that local date, inclusive")
    func untilWithTimeIsALocalDate() throws {
        let days = try ScheduleTestSupport.days(
            "FREQ=DAILY;UNTIL=20270105T000000Z", start: "2027-01-01", through: "2027-12-31")
        #expect(days == ["2027-01-01", "2027-01-02", "2027-01-03", "2027-01-04", "2027-01-05"])
    }

    @Test("The schedule's end date is the last day it can fall on")
    func endDateIsInclusive() throws {
        let days = try ScheduleTestSupport.days(
            "FREQ=MONTHLY;BYMONTHDAY=15", start: "2027-01-01", end: "2027-05-15", through: "2027-12-31")
        #expect(days == ["2027-01-15", "2027-02-15", "2027-03-15", "2027-04-15", "2027-05-15"])
    }
}
