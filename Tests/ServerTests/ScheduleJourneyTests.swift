import Foundation
import Models
import Testing
import TestSupport

/// Three days of a daily schedule, the server and the device each on its
/// own fake clock (libfaketime): the first day done in its window, the
/// second after it, the third not at all. Coverage (console page, CSV, the
/// site's PDF) counts one of each, and the missed day's alert reaches the
/// supervisor once (both stores).
@Suite("Schedules: a visit on time, one late, one missed", .serialized, .timeLimit(.minutes(4)))
struct ScheduleJourneyTests {
    /// 2027-03-0`day` at `time` UTC.
    static func clock(_ day: Int, _ time: String) throws -> DeviceClock {
        let formatter = ISO8601DateFormatter()
        return DeviceClock(start: try #require(formatter.date(from: "2027-03-0\(day)T\(time):00Z")))
    }

    static func run(_ arguments: [String], clock: DeviceClock, stdin: String? = nil) throws -> ProcessOutcome {
        try Programs.run("jqc-server", arguments, stdin: stdin, clock: clock)
    }

    /// Inspects the lobby of F-200 (answers, completes, syncs) as `profile`, on `clock`; the assignment `start` took.
    static func inspect(_ profile: DemoProfile, clock: DeviceClock) throws -> String? {
        let (status, started) = try profile.document(
            ["start", "--template", "lobby-walk", "--facility", "F-200", "--area", "A-201"], clock: clock)
        try #require(status == 0, "start: \(started)")
        let id = try #require(started["local_id"]?.stringValue)
        for (field, value) in [("entrance", "pass"), ("glass", "4")] {
            let answered = try profile.jqc(["answer", id, field, value], clock: clock)
            try #require(answered.status == 0, "answer \(field): \(answered.stderr)")
        }
        let completed = try profile.jqc(["complete", id], clock: clock)
        try #require(completed.status == 0, "complete: \(completed.stderr)")
        let synced = try profile.jqc(["sync"], clock: clock)
        try #require(synced.status == 0, "sync: \(synced.stderr) \(synced.stdout)")
        return started["assignment_id"]?.stringValue
    }

    @Test(
        "day one on time, day two late, day three missed: the coverage page, the CSV and the PDF agree, and the alert came once"
    )
    func threeDays() async throws {
        // Every step below blocks (programs run to their end, polls): on a thread of its own, off the tests' shared ones.
        try await OwnThread.run { try Self.journey() }
    }

    static func journey() throws {
        let receiver = try SMTPReceiver()
        let mail = MailAlertTests.mailArguments(receiver)
        // Day one, 08:00: the schedule is added and the inspector does the visit in its window.
        // The first server's folder holds the database: it is kept to the end.
        let dayOne = try ServerProcess(mail, clock: try Self.clock(1, "08:00"))
        var server = dayOne
        let db = server.databasePath
        try MailAlertTests.setEmail(server, "supervisor", "supervisor@example.org")
        let added = try Self.run(
            [
                "admin", "--db", db, "schedule", "add", "--id", "SCH-lobby", "--template", "lobby-walk", "--facility",
                "F-200", "--area", "A-201", "--inspector", "inspector", "--rrule", "FREQ=DAILY", "--window",
                "07:00-11:00", "--start", "2027-03-01", "--zone", "UTC",
            ], clock: try Self.clock(1, "08:00"))
        try #require(added.status == 0, "schedule add: \(added.stderr)")
        let profile = try DemoProfile()
        let login = try profile.jqc(
            ["login", "--server", server.baseURL, "--username", "inspector", "--password-stdin"],
            stdin: "inspector-pass\n", clock: try Self.clock(1, "08:01"))
        try #require(login.status == 0, "login: \(login.stderr)")
        let pulled = try profile.jqc(["sync"], clock: try Self.clock(1, "08:02"))
        try #require(pulled.status == 0, "sync: \(pulled.stderr)")
        let first = try Self.inspect(profile, clock: try Self.clock(1, "08:05"))
        #expect(first == "SCH-lobby-v1-20270301")
        let listed = try Self.run(
            ["admin", "--db", db, "assignment", "list", "--json"], clock: try Self.clock(1, "08:10"))
        let done = try JSONValue.parse(Data(listed.stdout.utf8))["assignments"]?.arrayValue ?? []
        #expect(done.first { $0["id"]?.stringValue == "SCH-lobby-v1-20270301" }?["state"]?.stringValue == "done")
        dayOne.stop()

        // Day two, 12:00: after the window.
        server = try ServerProcess(mail, database: db, clock: try Self.clock(2, "12:00"))
        try profile.route(to: server.baseURL)
        let second = try Self.inspect(profile, clock: try Self.clock(2, "12:05"))
        #expect(second == "SCH-lobby-v1-20270302")
        server.stop()

        // Day three, 13:30: nobody came; the window (to 11:00) and the grace (2 hours) are over.
        server = try ServerProcess(mail, database: db, clock: try Self.clock(3, "13:30"))
        let alerts = try Self.missedAlerts(receiver, waiting: 20)
        #expect(alerts.count == 1)
        #expect(alerts.first?.rcptTos == ["supervisor@example.org"])
        #expect(alerts.first?.subject?.contains("Missed: Lobby walkthrough at Riverside Medical Centre") == true)
        let aboutDay3 = (alerts.first?.messageId ?? "").contains("SCH-lobby-v1-20270303")
        #expect(aboutDay3, "\(alerts.first?.messageId ?? "")")

        // The console's coverage page, as the supervisor sees it in Chromium.
        let browser = try HeadlessBrowser()
        try browser.signIn(server.baseURL, "supervisor", "supervisor-pass")
        try browser.open(server.baseURL + "/console/coverage?from=2027-03-01&to=2027-03-03&facility=F-200")
        let row = try browser.element("#coverage-table tr[data-facility=\"F-200\"][data-area=\"A-201\"]")
        let cells = try browser.elements("td.num", within: row).map { try browser.text(of: $0) }
        // Visits, on time, late, missed, open, inspections.
        let shown = (try? browser.text(of: row)) ?? ""
        #expect(cells == ["3", "1", "1", "1", "0", "2"], "\(shown)")
        server.stop()

        // A fourth start of the server: the alert is not sent again.
        server = try ServerProcess(mail, database: db, clock: try Self.clock(3, "14:00"))
        sleep(3)
        #expect(try Self.missedAlerts(receiver, waiting: 0).count == 1)
        server.stop()

        // The CSV and the site's PDF say the same.
        let csv = try Self.run(
            ["report", "coverage", "--db", db, "--from", "2027-03-01", "--to", "2027-03-03", "--format", "csv"],
            clock: try Self.clock(3, "14:05"))
        try #require(csv.status == 0, "report coverage: \(csv.stderr)")
        #expect(
            csv.stdout.contains("F-200,Riverside Medical Centre,A-201,Outpatient waiting room,3,1,1,1,0,2,no\r\n"),
            "\(csv.stdout)")
        // The month: the CSV's line and the PDF's agree (visits made up to the horizon are open).
        let month = try Self.run(
            ["report", "coverage", "--db", db, "--month", "2027-03", "--format", "csv"],
            clock: try Self.clock(3, "14:05"))
        let monthLine = try #require(
            month.stdout.split(separator: "\r\n").first { $0.hasPrefix("F-200,") && $0.contains(",A-201,") })
        let monthCounts = monthLine.split(separator: ",").dropFirst(4).prefix(5).map(String.init)
        #expect(Array(monthCounts.dropFirst().prefix(3)) == ["1", "1", "1"], "\(monthLine)")
        let pdf = profile.path("F-200.pdf")
        let drawn = try Self.run(
            ["document", "site", "F-200", "--db", db, "--month", "2027-03", "-o", pdf],
            clock: try Self.clock(3, "14:05"))
        try #require(drawn.status == 0, "document site: \(drawn.stderr)")
        let text = try PDFReader(path: pdf).text()
        #expect(text.contains("Scheduled visits"), "\(text)")
        let line = text.split(separator: "\n").first {
            $0.contains("Outpatient waiting room") && $0.split(separator: " ").filter { Int($0) != nil }.count == 5
        }
        let numbers = line.map { $0.split(separator: " ").filter { Int($0) != nil }.map(String.init) } ?? []
        #expect(numbers == Array(monthCounts), "\(String(describing: line)) against \(monthLine)")
    }

    /// The visit-missed alerts the receiver holds, looking again for up to `waiting` seconds until there is one.
    static func missedAlerts(_ receiver: SMTPReceiver, waiting: Double) throws -> [SMTPReceiver.Message] {
        let deadline = Date().addingTimeInterval(waiting)
        while true {
            let alerts = try receiver.messages().filter { ($0.messageId ?? "").contains("visit-missed.") }
            if !alerts.isEmpty || Date() >= deadline { return alerts }
            usleep(200_000)
        }
    }
}
