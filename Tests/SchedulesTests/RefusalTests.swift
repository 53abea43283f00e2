import Foundation
import Schedules
import Testing

/// What an administrator is told when a schedule cannot be made: a code
/// and one line naming the problem.
@Suite("Refusals")
struct RefusalTests {
    private func refusal(_ make: () throws -> Void) -> ScheduleError? {
        do {
            try make()
            return nil
        } catch let error as ScheduleError {
            return error
        } catch {
            return nil
        }
    }

    private func expectRefused(
        _ code: String, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation,
        _ make: () throws -> Void
    ) {
        guard let error = refusal(make) else {
            Issue.record("expected \(code), but it was accepted", sourceLocation: sourceLocation)
            return
        }
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
        for word in words {
            #expect(error.message.contains(word), "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    @Test("Text that is not a rule is refused, quoting what was typed")
    func garbage() {
        expectRefused("RULE_INVALID", mentioning: ["\"every tuesday please\""]) {
            _ = try Recurrence("every tuesday please")
        }
    }

    @Test("A yearly rule is refused as not supported")
    func yearly() {
        expectRefused("RULE_UNSUPPORTED", mentioning: ["FREQ=YEARLY is not supported", "FREQ=MONTHLY"]) {
            _ = try Recurrence("FREQ=YEARLY;BYMONTH=3")
        }
    }

    @Test("BYSETPOS is refused, naming the parts that may be used")
    func bySetPos() {
        expectRefused(
            "RULE_UNSUPPORTED",
            mentioning: ["the rule part BYSETPOS is not supported; use FREQ, INTERVAL, BYDAY, BYMONTHDAY, COUNT, UNTIL"]
        ) {
            _ = try Recurrence("FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2")
        }
    }

    @Test("A numbered weekday in a weekly rule is refused, pointing to monthly rules")
    func numberedWeekdayInWeeklyRule() {
        expectRefused("RULE_UNSUPPORTED", mentioning: ["BYDAY=2TU", "FREQ=MONTHLY"]) {
            _ = try Recurrence("FREQ=WEEKLY;BYDAY=2TU")
        }
    }

    @Test("COUNT and UNTIL together are refused")
    func countAndUntil() {
        expectRefused("RULE_INVALID", mentioning: ["COUNT and UNTIL"]) {
            _ = try Recurrence("FREQ=DAILY;COUNT=5;UNTIL=20270301")
        }
    }

    @Test("A value libical would half-read, INTERVAL=2x, is refused")
    func halfNumber() {
        expectRefused("RULE_INVALID", mentioning: ["INTERVAL=2X"]) {
            _ = try Recurrence("FREQ=DAILY;INTERVAL=2x")
        }
    }

    @Test("A part RFC 5545 does not define is refused by name")
    func unknownPart() {
        expectRefused("RULE_INVALID", mentioning: ["COLOUR"]) {
            _ = try Recurrence("FREQ=DAILY;COLOUR=BLUE")
        }
    }

    @Test("A rule quoted in a message is cut short and shows only printable characters")
    func sanitisedQuote() throws {
        let error = try #require(refusal { _ = try Recurrence("\u{1B}[31m" + String(repeating: "x", count: 200)) })
        #expect(error.code == "RULE_INVALID")
        #expect(!error.message.contains("\u{1B}"))
        #expect(!error.message.contains(String(repeating: "x", count: 100)))
    }

    @Test("A window that ends before it starts is refused")
    func backwardsWindow() {
        expectRefused("WINDOW_INVALID", mentioning: ["\"11:00-07:00\""]) { _ = try TimeWindow("11:00-07:00") }
    }

    @Test("A window with hours past 24:00 is refused")
    func windowPastMidnight() {
        expectRefused("WINDOW_INVALID", mentioning: ["\"25:00-26:00\""]) { _ = try TimeWindow("25:00-26:00") }
    }

    @Test("A window not written HH:MM-HH:MM is refused, showing the form")
    func windowWithoutMinutes() {
        expectRefused("WINDOW_INVALID", mentioning: ["\"7-11\"", "HH:MM-HH:MM"]) { _ = try TimeWindow("7-11") }
    }

    @Test("An unknown time zone is refused")
    func unknownZone() {
        expectRefused("ZONE_UNKNOWN", mentioning: ["\"Mars/Olympus\""]) {
            _ = try ScheduleTestSupport.calendar("FREQ=DAILY", start: "2027-01-01", zone: "Mars/Olympus")
        }
    }

    @Test("A date the calendar does not have is refused")
    func thirtiethOfFebruary() {
        expectRefused("DATE_INVALID", mentioning: ["\"2027-02-30\""]) { _ = try LocalDate("2027-02-30") }
    }

    @Test("A rule that ends before the schedule starts never occurs")
    func untilBeforeStart() {
        expectRefused("NEVER_OCCURS", mentioning: ["2026-12-31", "2027-01-01"]) {
            _ = try ScheduleTestSupport.calendar("FREQ=DAILY;UNTIL=20261231", start: "2027-01-01")
        }
    }

    @Test("A schedule that ends before the rule's first day never occurs")
    func endBeforeFirstDay() {
        expectRefused("NEVER_OCCURS", mentioning: ["2027-01-10", "2027-01-12"]) {
            _ = try ScheduleTestSupport.calendar("FREQ=MONTHLY;BYDAY=2TU,4TU", start: "2027-01-01", end: "2027-01-10")
        }
    }

    @Test("COUNT=0 never occurs")
    func countZero() {
        expectRefused("NEVER_OCCURS", mentioning: ["COUNT=0"]) { _ = try Recurrence("FREQ=DAILY;COUNT=0") }
    }
}
