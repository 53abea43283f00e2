import Foundation
import Imaging
import Models
import Storage
import Testing
import TestSupport

/// A hostile answer for the text field: markup, quotes, an ampersand, a comma and a formula.
private let hostileText = #"<b>"Tom" & co,=SUM(A1)</b>"#
/// A notes answer a spreadsheet would run as a formula.
private let formulaNotes = "=HYPERLINK(\"http://evil.example\",\"click\")\nsecond line"
/// An issue description a browser would run as a script.
private let hostileIssue = "Cracked tile by sink 2 <script>alert(1)</script>"

/// One profile with the demo world imported and one Washroom QC report
/// (template 101 at F-100, area A-101) answered field by field through `jqc`,
/// with photos and issues put into the store the way `jqc photo add` and
/// `jqc issue add` leave them.
private final class ExportWorld {
    let home = TemporaryDirectory(prefix: "jqc-export")
    let reportID: String
    /// The stored photo answering image field 14.
    var fieldPhoto = UUID()
    /// The stored photo of the high-severity issue.
    var issuePhoto = UUID()
    /// A photo recorded in the store whose file is not on this device.
    var missingPhoto = UUID()

    init(complete: Bool = true) throws {
        for file in ["templates.json", "facilities.json"] {
            let kind = file == "templates.json" ? "templates" : "facilities"
            let outcome = try Programs.run("jqc", ["--home", home.url.path, kind, "import", DemoFiles.path(file)])
            try #require(outcome.status == 0, "\(kind) import: \(outcome.stderr)")
        }
        let started = try Programs.run(
            "jqc",
            ["--home", home.url.path, "start", "--template", "101", "--facility", "F-100", "--area", "A-101", "--json"])
        try #require(started.status == 0, "start: \(started.stderr)")
        reportID = try #require(try JSONValue.parse(started.stdout)["local_id"]?.stringValue)

        try answer("2", "4")
        try answer("3", "3")
        try answer("4", "fail")
        try answer("6", "Good")
        try answer("9", "Soap,Sanitiser")
        try answer("12", "Fixture=Sink 2;Problem=<i>leak</i>;Action=call plumber", addRow: true)
        try answer("12", "Fixture=Hand dryer;Problem=noisy, \"old\";Action=replace", addRow: true)
        try answer("15", hostileText)
        try answer("17", formulaNotes)
        try addPhotosAndIssues()
        try answer("14", value: "[\"\(fieldPhoto.uuidString.lowercased())\"]")
        try answer("18", "Jane Doe")
        if complete {
            let completed = try jqc(["complete", reportID])
            try #require(completed.status == 0, "complete: \(completed.stderr)")
        }
    }

    func jqc(_ arguments: [String]) throws -> ProcessOutcome {
        try Programs.run("jqc", ["--home", home.url.path] + arguments)
    }

    private func answer(_ field: String, _ typed: String, addRow: Bool = false) throws {
        let outcome = try jqc(["answer", reportID, field, typed] + (addRow ? ["--add-row"] : []))
        try #require(outcome.status == 0, "answer \(field): \(outcome.stderr)")
    }

    private func answer(_ field: String, value json: String) throws {
        let outcome = try jqc(["answer", reportID, field, "--value-json", json])
        try #require(outcome.status == 0, "answer \(field): \(outcome.stderr)")
    }

    var photoFiles: PhotoFileStore {
        get throws { try PhotoFileStore(directory: home.url.appendingPathComponent("photos", isDirectory: true)) }
    }

    private func addPhotosAndIssues() throws {
        let files = try photoFiles
        let store = try LocalStore.open(at: home.path("jqc.sqlite"), photoFiles: files)
        let report = try #require(UUID(uuidString: reportID))
        let source = home.url.appendingPathComponent("camera.jpg")
        // Large enough that its base64 is written in several chunks.
        try SyntheticImage.writeJPEG(width: 900, height: 700, pattern: .texture(seed: 7), to: source)
        let stored = try files.store(contentsOf: source, as: fieldPhoto)
        try store.addPhoto(
            Photo(
                localID: fieldPhoto, reportLocalID: report, fieldID: FieldID("14"), fileName: stored.fileName,
                originalByteSize: stored.byteSize, byteSize: stored.byteSize, sha256: stored.sha256))

        let tile = try store.addIssue(Issue(reportLocalID: report, severity: .high, description: hostileIssue))
        try SyntheticImage.writeJPEG(width: 120, height: 90, pattern: .cornerMarkers, to: source)
        let issueFile = try files.store(contentsOf: source, as: issuePhoto)
        try store.addPhoto(
            Photo(
                localID: issuePhoto, reportLocalID: report, issueLocalID: tile.localID, fileName: issueFile.fileName,
                originalByteSize: issueFile.byteSize, byteSize: issueFile.byteSize, sha256: issueFile.sha256))

        let soap = try store.addIssue(
            Issue(reportLocalID: report, severity: .critical, description: "No soap in any dispenser"))
        try store.addPhoto(
            Photo(
                localID: missingPhoto, reportLocalID: report, issueLocalID: soap.localID,
                fileName: PhotoFileStore.fileName(for: missingPhoto), originalByteSize: 1000, byteSize: 1000,
                sha256: String(repeating: "0", count: 64)))
        try FileManager.default.removeItem(at: source)
    }

    /// The bytes of a stored photo.
    func storedBytes(_ photo: UUID) throws -> Data {
        try Data(contentsOf: try photoFiles.url(for: PhotoFileStore.fileName(for: photo)))
    }
}

/// A small RFC 4180 reader: CRLF ends a record, quoted fields may hold
/// commas, quotes (doubled) and line breaks; a bare LF or CR outside quotes is an error.
private enum CSVReader {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func records(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var fieldWasQuoted = false
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" {
                        field.unicodeScalars.append("\""); scalars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                guard field.isEmpty, !fieldWasQuoted else {
                    throw Malformed(description: "quote inside an unquoted field after '\(field)'")
                }
                quoted = true
                fieldWasQuoted = true
            case ",":
                record.append(field); field = ""; fieldWasQuoted = false
            case "\r":
                guard scalars.popFirst() == "\n" else { throw Malformed(description: "CR without LF after '\(field)'") }
                record.append(field); field = ""; fieldWasQuoted = false
                records.append(record == [""] ? [] : record)
                record = []
            case "\n":
                throw Malformed(description: "bare LF after '\(field)'")
            default:
                guard !fieldWasQuoted else { throw Malformed(description: "text after a closing quote in '\(field)'") }
                field.unicodeScalars.append(scalar)
            }
        }
        guard !quoted else { throw Malformed(description: "unterminated quoted field") }
        guard record.isEmpty, field.isEmpty else {
            throw Malformed(description: "the last record does not end in CRLF")
        }
        return records
    }
}

@Suite("jqc export")
struct ExportCommandTests {
    @Test(
        "JSON export is the show --json document with names, version, score breakdown, issues, photos and exported_at")
    func json() throws {
        let world = try ExportWorld()
        let outcome = try world.jqc(["export", world.reportID, "--format", "json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.isEmpty)
        let document = try JSONValue.parse(outcome.stdout)
        #expect(document["local_id"]?.stringValue == world.reportID)
        #expect(document["state"]?.stringValue == "PENDING")
        #expect(document["answers"]?["15"]?.stringValue == hostileText)
        #expect(document["answers"]?["2"]?.integerValue == 4)
        #expect(document["answers"]?["12"]?.arrayValue?.count == 2)
        #expect(document["template_name"]?.stringValue == "Washroom QC")
        #expect(document["template_version"]?.integerValue == 3)
        #expect(document["facility_name"]?.stringValue == "Harbourview Office Tower")
        #expect(document["area_name"]?.stringValue == "Ground floor washrooms")
        #expect(document["exported_at"]?.stringValue?.hasSuffix("Z") == true)
        #expect(document["follow_up_required"]?.boolValue == true)
        let breakdown = try #require(document["score_breakdown"])
        #expect(breakdown["verdict"]?.stringValue == "FAILED_CRITICAL")
        #expect(breakdown["critical_failures"] == .array(["4"]))
        #expect(breakdown["ratio"]?.numberValue.map { ($0 * 100).rounded() } == 64)
        #expect(document["issues"]?.arrayValue?.count == 2)
        #expect(document["issues"]?.arrayValue?.contains { $0["description"]?.stringValue == hostileIssue } == true)
        #expect(document["photos"]?.arrayValue?.count == 3)

        // The same document is what `show --json` prints, plus the export's own keys.
        let shown = try JSONValue.parse(try world.jqc(["show", world.reportID, "--json"]).stdout)
        for (key, value) in shown.objectValue ?? [:] {
            #expect(document[key] == value, "key \(key)")
        }
    }

    @Test(
        "CSV export is one table that parses back: a row per field and per issue, each carrying the report, answers as text, formulas guarded"
    )
    func csv() throws {
        let world = try ExportWorld()
        let outcome = try world.jqc(["export", world.reportID, "--format", "csv"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.isEmpty)
        let records = try CSVReader.records(outcome.stdout)
        let header = [
            "report_id", "server_id", "state", "template", "facility", "area", "report_score", "verdict",
            "follow_up_required", "row", "field_id", "label", "type", "required", "answer", "score_outcome",
            "earned", "possible", "issue_id", "severity", "description", "photos",
        ]
        #expect(records.first == header)
        let rows = Array(records.dropFirst())
        #expect(rows.allSatisfy { $0.count == header.count }, "one table: every row has every column")
        for row in rows {
            #expect(row[0] == world.reportID && row[2] == "PENDING")
            #expect(row[3] == "Washroom QC (101, version 3)" && row[4] == "Harbourview Office Tower (F-100)")
            #expect(
                row[5] == "Ground floor washrooms (A-101)" && row[6] == "64%" && row[7] == "FAILED_CRITICAL"
                    && row[8] == "true")
        }
        let fields = rows.filter { $0[9] == "field" }
        #expect(fields.map { $0[10] } == (1...18).map(String.init))

        let text = try #require(fields.first { $0[10] == "15" })
        #expect(text[11] == "Attendant on duty")
        #expect(text[14] == hostileText)

        let notes = try #require(fields.first { $0[10] == "17" })
        #expect(notes[14].hasPrefix("'=HYPERLINK("), "a spreadsheet must not run it: \(notes[14])")
        #expect(notes[14] == "'" + formulaNotes, "the line break stays inside the quoted cell: \(notes[14])")

        let floors = try #require(fields.first { $0[10] == "2" })
        #expect(Array(floors[12...13]) == ["rating", "true"])
        #expect(Array(floors[15...17]) == ["passed", "1.60", "2"])
        let soap = try #require(fields.first { $0[10] == "4" })
        #expect(!soap[14].contains("\""), "answers are text, not JSON: \(soap[14])")
        #expect(Array(soap[15...17]) == ["failed", "0", "1"])
        let table = try #require(fields.first { $0[10] == "12" })
        #expect(table[14].contains("noisy, \"old\""), "\(table[14])")

        let issues = rows.filter { $0[9] == "issue" }
        #expect(issues.contains { $0[19] == "high" && $0[20] == hostileIssue && $0[21] == "1" })
        #expect(issues.contains { $0[19] == "critical" && $0[21] == "1" })
        #expect(issues.allSatisfy { $0[10].isEmpty && !$0[18].isEmpty })

        // Last, the summary block: a name in `label`, its value in `answer`.
        #expect(rows.map { $0[9] }.drop { $0 != "summary" }.allSatisfy { $0 == "summary" }, "the summary comes last")
        let summary = rows.filter { $0[9] == "summary" }
        #expect(
            summary.map { $0[11] } == [
                "Template", "Facility", "Area", "State", "Score", "Verdict", "Pass mark", "Passed", "Deficiencies",
                "Fields", "Fields answered", "Fields passed", "Fields failed", "Issues", "Photos",
            ])
        let value = Dictionary(uniqueKeysWithValues: summary.map { ($0[11], $0[14]) })
        #expect(
            value["Template"] == "Washroom QC (101, version 3)"
                && value["Facility"] == "Harbourview Office Tower (F-100)")
        #expect(value["Area"] == "Ground floor washrooms (A-101)" && value["State"] == "PENDING")
        #expect(value["Score"] == "64%" && value["Verdict"] == "FAILED_CRITICAL")
        let score = try #require(summary.first { $0[11] == "Score" })
        #expect(!score[16].isEmpty && !score[17].isEmpty, "earned and possible: \(score)")
        #expect(
            value["Fields"] == "15" && value["Fields answered"] == "10", "15 fields to answer, 10 answered: \(value)")
        #expect(value["Fields passed"] == String(fields.filter { $0[15] == "passed" }.count))
        #expect(value["Fields failed"] == String(fields.filter { $0[15] == "failed" }.count))
        #expect(value["Issues"] == "2" && value["Photos"] == "3")
    }

    @Test("HTML export is one escaped, self-contained page with the score, every label, and the stored photos embedded")
    func html() throws {
        let world = try ExportWorld()
        let outcome = try world.jqc(["export", world.reportID, "--format", "html"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.isEmpty)
        let page = outcome.stdout
        #expect(page.hasPrefix("<!doctype html>"))
        #expect(page.contains("<html lang=\"en\">"))
        #expect(page.contains("<meta charset=\"utf-8\">"))
        #expect(page.hasSuffix("</html>\n"))

        #expect(page.contains("&lt;b&gt;&quot;Tom&quot; &amp; co,=SUM(A1)&lt;/b&gt;"))
        #expect(!page.contains("<b>\"Tom\""))
        #expect(page.contains("Cracked tile by sink 2 &lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!page.contains("<script"))
        #expect(page.contains("&lt;i&gt;leak&lt;/i&gt;"))

        #expect(page.contains("64%"))
        #expect(page.contains("FAILED: critical field failed: Soap dispensers filled"))
        #expect(page.contains("Washroom QC"))
        #expect(page.contains("Harbourview Office Tower"))
        #expect(page.contains("Follow-up required"))
        #expect(page.contains("Signed by <strong>Jane Doe</strong>"))
        #expect(page.contains("device time"))
        let template = try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: DemoFiles.path("templates.json"))))
        let washroom = try #require(template["templates"]?.arrayValue?.first { $0["id"]?.integerValue == 101 })
        for field in washroom["form_schema"]?["fields"]?.arrayValue ?? [] {
            let label = try #require(field["label"]?.stringValue)
            #expect(page.contains(label), "label \(label)")
        }

        for outside in ["src=\"http", "href=\"http", "src='http", "href='http", "<link", "@import", "url(http"] {
            #expect(!page.contains(outside), "refers outside the page: \(outside)")
        }
        let embedded = page.components(separatedBy: "data:image/jpeg;base64,").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        #expect(embedded.count == 2)
        let decoded = embedded.compactMap { Data(base64Encoded: $0) }
        let fieldPhoto = try world.storedBytes(world.fieldPhoto)
        #expect(fieldPhoto.count > 3 * 16 * 1024, "the field photo spans several base64 chunks")
        #expect(decoded.contains(fieldPhoto))
        #expect(decoded.contains(try world.storedBytes(world.issuePhoto)))
        #expect(page.contains("photo \(world.missingPhoto.uuidString.lowercased()) is not on this device"))
    }

    @Test(
        "PDF export is the inspection report: score, verdict, every label, hostile text as text, the stored photos as their own JPEG bytes"
    )
    func pdf() throws {
        let world = try ExportWorld()
        let path = world.home.path("washroom.pdf")
        let outcome = try world.jqc(["export", world.reportID, "-o", path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("as PDF to \(path)"))
        let pdf = PDFReader(path: path)
        #expect(try pdf.check() == nil)
        let text = try pdf.rawText()
        for expected in [
            "Washroom QC", "Harbourview Office Tower", "64%", "Failed", hostileText,
            "Cracked tile by sink 2 <script>alert(1)</script>",
            "Jane Doe", "page 1",
        ] {
            #expect(text.contains(expected), "'\(expected)' in the PDF")
        }
        let template = try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: DemoFiles.path("templates.json"))))
        let washroom = try #require(template["templates"]?.arrayValue?.first { $0["id"]?.integerValue == 101 })
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        for field in washroom["form_schema"]?["fields"]?.arrayValue ?? [] where field["type"] != "section" {
            let label = try #require(field["label"]?.stringValue)
            #expect(flat.contains(label), "label \(label)")
        }
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(file.range(of: try world.storedBytes(world.fieldPhoto)) != nil, "the field photo's own bytes")
        #expect(file.range(of: try world.storedBytes(world.issuePhoto)) != nil, "the issue photo's own bytes")
        #expect(try pdf.images().filter { $0.encoding == "jpeg" }.count == 2)
        #expect(text.contains("photo unavailable"), "the photo whose file is not on this device")
        try pdf.keepPages("device-report")

        let several = try world.jqc(["export", world.reportID, world.reportID, "--format", "pdf", "-o", path + "2"])
        #expect(several.status == 2 && several.stderr.contains("one report a page"))
    }

    @Test("HTML export shows answers as show does (stars, ticks) and names no inspector when no one is signed in")
    func htmlDisplaysAsShow() throws {
        let world = try ExportWorld(complete: false)
        #expect(try world.jqc(["answer", world.reportID, "5", "yes"]).status == 0)
        let page = try world.jqc(["export", world.reportID, "--format", "html"]).stdout
        #expect(page.contains("\u{2605}\u{2605}\u{2605}\u{2605}\u{2606} 4/5"), "a rating in stars, as show draws it")
        #expect(page.contains("\u{2611} yes"), "a ticked checkbox, as show draws it")
        #expect(!page.contains("[****-]") && !page.contains("[x] yes"), "no ASCII stand-ins")
        #expect(!page.contains("Inspector</dt>"), "nobody is signed in: the page names no one")
    }

    @Test("HTML export names the inspector signed in on this device")
    func htmlNamesInspector() throws {
        let server = try ServerProcess(["--demo"])
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let page = try profile.jqc(["export", id, "--format", "html"])
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("<dt>Inspector</dt><dd>Ivy Inspector</dd>"), "\(page.stdout.prefix(2000))")
    }

    @Test("a draft exports too: any state can be exported")
    func draft() throws {
        let world = try ExportWorld(complete: false)
        for format in ["json", "csv", "html"] {
            let outcome = try world.jqc(["export", world.reportID, "--format", format])
            #expect(outcome.status == 0, "\(format): \(outcome.stderr)")
            #expect(outcome.stdout.contains("DRAFT"), "\(format)")
        }
    }

    @Test("-o writes the file atomically and prints one confirmation; --json describes the file")
    func outputFile() throws {
        let world = try ExportWorld()
        let folder = TemporaryDirectory(prefix: "jqc-export-out")
        let path = folder.path("washroom.html")
        try Data("old contents".utf8).write(to: URL(fileURLWithPath: path))
        let outcome = try world.jqc(["export", world.reportID, "--format", "html", "-o", path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let confirmation = String(outcome.stdout.split(separator: "\n").first ?? "")
        #expect(confirmation.hasPrefix("Exported report \(world.reportID.prefix(8)) as HTML to \(path) ("))
        #expect(confirmation.hasSuffix(" KB).") || confirmation.hasSuffix(" MB)."))
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.hasPrefix("<!doctype html>"))
        #expect(written.hasSuffix("</html>\n"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["washroom.html"],
            "no temporary file is left")

        let csvPath = folder.path("washroom.csv")
        let json = try world.jqc(["export", world.reportID, "--format", "csv", "-o", csvPath, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let described = try JSONValue.parse(json.stdout)
        #expect(described["file"]?.stringValue == csvPath)
        #expect(described["format"]?.stringValue == "csv")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: csvPath)[.size] as? Int)
        #expect(described["bytes"]?.integerValue == Int64(size))
        #expect(try CSVReader.records(try String(contentsOfFile: csvPath, encoding: .utf8)).count > 20)
    }

    @Test("an -o folder that does not exist is refused with exit 4 and nothing is written")
    func missingFolder() throws {
        let world = try ExportWorld(complete: false)
        let folder = TemporaryDirectory(prefix: "jqc-export-out")
        let path = folder.path("no/such/folder/report.csv")
        let outcome = try world.jqc(["export", world.reportID, "--format", "csv", "-o", path])
        #expect(outcome.status == 4)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("'\(folder.path("no/such/folder"))'"))
        #expect(outcome.stderr.contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: path))

        let json = try world.jqc(["export", world.reportID, "--format", "csv", "-o", path, "--json"])
        #expect(json.status == 4)
        #expect(try JSONValue.parse(json.stdout)["error"]?["code"]?.stringValue == "OUTPUT_FOLDER_MISSING")
    }

    @Test("an unknown format is a usage error (exit 2) listing the four; an unknown report is exit 3")
    func refusals() throws {
        let world = try ExportWorld(complete: false)
        let format = try world.jqc(["export", world.reportID, "--format", "docx"])
        #expect(format.status == 2)
        #expect(format.stdout.isEmpty)
        #expect(format.stderr.contains("'docx'"))
        #expect(format.stderr.contains("json, csv, html or pdf"))

        // A file name whose extension names no format: it says so, naming the extension, the formats and --format.
        let text = try world.jqc(["export", world.reportID, "-o", world.home.path("r.txt")])
        #expect(text.status == 2 && text.stdout.isEmpty)
        #expect(
            text.stderr
                == "jqc: The format cannot be told from '.txt' ('\(world.home.path("r.txt"))'): add --format json, csv, html or pdf, or name the file .json, .csv, .html or .pdf.\n",
            "\(text.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.home.path("r.txt")))

        let unknown = try world.jqc(["export", "0000dead-0000-4000-8000-000000000000", "--format", "json"])
        #expect(unknown.status == 3)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("No report '0000dead-0000-4000-8000-000000000000'"))

        let notJSON = try world.jqc(["export", world.reportID, "--format", "html", "--json"])
        #expect(notJSON.status == 2)
        #expect(try JSONValue.parse(notJSON.stdout)["error"]?["code"]?.stringValue == "USAGE")
    }

    @Test(
        "--state and --all put several reports into one CSV under one header, or one JSON document; HTML stays one a page"
    )
    func severalReports() throws {
        let world = try ExportWorld()
        let started = try world.jqc(["start", "--template", "101", "--facility", "F-100", "--area", "A-102", "--json"])
        try #require(started.status == 0, "start: \(started.stderr)")
        let draftID = try #require(try JSONValue.parse(started.stdout)["local_id"]?.stringValue)
        let folder = TemporaryDirectory(prefix: "jqc-export-several")

        // One state: only its reports, one header.
        let pending = try world.jqc(["export", "--state", "PENDING", "-o", folder.path("pending.csv")])
        #expect(pending.status == 0, "\(pending.stderr)")
        #expect(pending.stdout.hasPrefix("Exported 1 report as CSV to "))
        let pendingRows = try CSVReader.records(try String(contentsOfFile: folder.path("pending.csv"), encoding: .utf8))
        #expect(pendingRows.first?.first == "report_id")
        #expect(Set(pendingRows.dropFirst().compactMap(\.first)) == [world.reportID])

        // Two states as a comma list (any case): both reports, newest first, under the one header.
        let both = try world.jqc(["export", "--state", "pending,draft", "--format", "csv"])
        #expect(both.status == 0, "\(both.stderr)")
        let rows = try CSVReader.records(both.stdout)
        #expect(rows.filter { $0.first == "report_id" }.count == 1, "one header for the whole table")
        var order: [String] = []
        for row in rows.dropFirst() where order.last != row.first { order.append(row.first ?? "") }
        #expect(order == [draftID, world.reportID], "each report's rows together, newest first")
        #expect(rows.contains { $0.first == draftID && $0.contains("summary") })

        // --all as JSON: one document holding each report's export document.
        let all = try world.jqc(["export", "--all", "--format", "json"])
        #expect(all.status == 0, "\(all.stderr)")
        let documents = try JSONValue.parse(all.stdout)["reports"]?.arrayValue ?? []
        #expect(documents.compactMap { $0["local_id"]?.stringValue } == [draftID, world.reportID])
        #expect(documents.last?["template_version"] != nil && documents.last?["exported_at"] != nil)
        let allJSON = try world.jqc(["export", "--all", "--format", "json", "--json"])
        #expect(try JSONValue.parse(allJSON.stdout)["reports"]?.arrayValue?.count == 2)

        // Two ids name two reports for one file too.
        let named = try world.jqc(["export", world.reportID, draftID, "--format", "csv"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(Set(try CSVReader.records(named.stdout).dropFirst().compactMap(\.first)) == [world.reportID, draftID])

        // Refused, with nothing written: HTML of several, no choice, two choices, a state that is none.
        for arguments in [
            ["--all", "--format", "html", "-o", folder.path("all.html")], ["--format", "csv"],
            ["--all", "--state", "DRAFT", "--format", "csv"], [world.reportID, "--all", "--format", "csv"],
            ["--state", "FINISHED", "--format", "csv"],
        ] {
            let refused = try world.jqc(["export"] + arguments)
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
            #expect(refused.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("all.html")))
    }
}
