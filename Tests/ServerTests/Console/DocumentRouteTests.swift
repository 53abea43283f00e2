import Foundation
import Imaging
import Models
import Testing
import TestSupport

/// The console's PDFs and `jqc-server document`, read back with poppler:
/// the internal copy holds everything, the client-safe one (the client's
/// own, or a supervisor's `?variant=client`) no private answer, photo,
/// review comment or event; each other client gets 404. Both stores.
@Suite("PDF reports and site summaries from the server")
struct DocumentRouteTests {
    /// An approved APPA report at F-100 with a public and a private photo, an issue and a review.
    static func report(_ server: ServerProcess) async throws -> (serverID: String, photo: Data, secret: Data) {
        let inspector = try await Session.inspector(server)
        var document = ClientIsolationTests.appa("F-100", notes: "SECRET-NOTE for the crew")
        if case .object(var members) = document {
            members["area_id"] = "A-102"
            members["issues"] = [
                [
                    "local_id": .string(UUID().uuidString.lowercased()), "severity": "high",
                    "description": "Soap dispenser empty by the lift",
                ]
            ]
            if case .object(var payload)? = members["payload"], case .object(var answers)? = payload["answers"] {
                answers["floors"] = 3
                payload["answers"] = .object(answers)
                members["payload"] = .object(payload)
            }
            document = .object(members)
        }
        let serverID = try #require(try await inspector.syncOne(document)["server_id"]?.stringValue)
        func photo(_ field: String, _ size: Int) async throws -> Data {
            let folder = TemporaryDirectory()
            let path = folder.path("p.jpg")
            try SyntheticImage.writeJPEG(
                width: size, height: size * 3 / 4, pattern: .texture(seed: UInt32(size)), quality: 80,
                to: URL(fileURLWithPath: path))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let sent = try await inspector.client.upload(
                server.url("/reports/\(serverID)/photos"),
                fields: [
                    ("local_id", UUID().uuidString.lowercased()), ("field_id", field),
                    ("sha256", try PhotoContractTests.sha256(bytes)),
                ], file: bytes, token: inspector.accessToken)
            try #require(sent.status == 201, "photo: \(sent.status)")
            return bytes
        }
        let shown = try await photo("floors", 320)
        let secret = try await photo("crew_notes", 240)
        let supervisor = try await Session.supervisor(server)
        let decided = try await supervisor.post(
            "/reports/\(serverID)/review",
            [
                "decision": "approve", "revision": 1, "comment": "REVIEW-NOTE keep an eye on it",
                "field_comments": [["field_id": "crew_notes", "comment": "PRIVATE-COMMENT"]],
            ])
        try #require(decided.status == 200, "\(decided.status)")
        return (serverID, shown, secret)
    }

    /// Where the downloaded PDFs are kept while a test reads them.
    static let folder = TemporaryDirectory(prefix: "jqc-pdf")

    static func pdf(_ response: RawResponse, _ name: String) throws -> PDFReader {
        try #require(response.status == 200, "\(name): \(response.status) \(response.text.prefix(300))")
        #expect(response.headers["content-type"] == "application/pdf")
        let path = folder.path(name + "-\(UUID().uuidString.prefix(8)).pdf")
        try response.body.write(to: URL(fileURLWithPath: path))
        let reader = PDFReader(path: path)
        #expect(try reader.check() == nil, "\(name) is a sound PDF")
        return reader
    }

    @Test(
        "a supervisor downloads the internal copy and the client's; the client downloads theirs; another client gets 404; the site's summary too"
    )
    func consoleDocuments() async throws {
        let server = try ClientIsolationTests.server()
        defer { _ = server.stop() }
        let set = try Programs.run(
            "jqc-server",
            ["admin", "--db", server.databasePath, "settings", "set", "org-name", "Spotless Services Ltd"])
        try #require(set.status == 0, "\(set.stderr)")
        let (serverID, shown, secret) = try await Self.report(server)
        let sam = ConsoleClient(server)
        try sam.signIn("supervisor", "supervisor-pass")
        let page = try sam.get("/console/reports/\(serverID)").text
        #expect(page.contains("/console/reports/\(serverID)/pdf\"") && page.contains("pdf?variant=client"))

        let full = try Self.pdf(try sam.get("/console/reports/\(serverID)/pdf"), "internal")
        let text = try full.text()
        for expected in [
            "Spotless Services Ltd", "Custodial appearance (APPA levels)", "Harbourview Office Tower", "Main lobby",
            "Floors", "Casual inattention", "Restrooms", "Sharps container sealed", "SECRET-NOTE",
            "Soap dispenser empty by the lift", "REVIEW-NOTE", "PRIVATE-COMMENT", "Failed",
            "Items to put right: Floors",
        ] {
            #expect(text.contains(expected), "'\(expected)' in the internal copy")
        }
        let sizes = try full.images().filter { $0.encoding == "jpeg" }.map { [$0.width, $0.height] }
        #expect(sizes.sorted { $0[0] < $1[0] } == [[240, 180], [320, 240]], "both photos as stored")
        try full.keepPages("server-report-internal")

        let safe = try Self.pdf(try sam.get("/console/reports/\(serverID)/pdf?variant=client"), "client-safe")
        try Self.expectClientSafe(safe, shown: shown)
        let clara = ConsoleClient(server)
        try clara.signIn("clara", "clara-client-pass")
        #expect(try clara.get("/console/reports/\(serverID)").text.contains("/console/reports/\(serverID)/pdf\""))
        try Self.expectClientSafe(
            try Self.pdf(try clara.get("/console/reports/\(serverID)/pdf"), "clara"), shown: shown)
        #expect(
            try clara.get("/console/reports/\(serverID)/pdf?variant=internal").body.range(of: Data("REVIEW-NOTE".utf8))
                == nil)
        let colin = ConsoleClient(server)
        try colin.signIn("colin", "colin-client-pass")
        #expect(try colin.get("/console/reports/\(serverID)/pdf").status == 404)
        #expect(try colin.get("/console/buildings/F-100/summary").status == 404)
        _ = secret

        // The site's summary of this month, for the supervisor and for clara.
        let month = String(RFC3339.string(Date()).prefix(7))
        for (who, path) in [
            (sam, "/console/sites/F-100/summary?month=\(month)"), (clara, "/console/buildings/F-100/summary"),
        ] {
            let summary = try Self.pdf(try who.get(path), "summary")
            let words = try summary.rawText()
            for expected in ["Harbourview Office Tower", "Main lobby", "Floors", String(serverID.prefix(8))] {
                #expect(words.contains(expected), "'\(expected)' in the summary")
            }
            #expect(!words.contains("SECRET-NOTE") && !words.contains("REVIEW-NOTE"))
        }
        #expect(try sam.get("/console/sites/F-100/summary?month=2026-13").status == 400)
        #expect(try clara.get("/console/sites/F-100/summary").status == 404, "the staff's route is not a client's")
    }

    static func expectClientSafe(_ pdf: PDFReader, shown: Data) throws {
        let text = try pdf.text()
        #expect(text.contains("Harbourview Office Tower") && text.contains("Floors"))
        for hidden in [
            "SECRET-NOTE", "REVIEW-NOTE", "PRIVATE-COMMENT", "Notes for the crew only", "approved", "Demo Inspector",
        ] {
            #expect(!text.contains(hidden), "'\(hidden)' absent from the client-safe copy")
        }
        let jpegs = try pdf.images().filter { $0.encoding == "jpeg" }
        #expect(jpegs.map { [$0.width, $0.height] } == [[320, 240]], "only the public photo")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf.path))
        #expect(bytes.range(of: shown) != nil, "the photo's own bytes")
    }

    @Test("jqc-server document writes both PDFs from the database; an unknown report is exit 3 and one line")
    func command() async throws {
        let server = try ClientIsolationTests.server()
        defer { _ = server.stop() }
        let (serverID, _, _) = try await Self.report(server)
        let folder = TemporaryDirectory()
        let out = folder.path("r.pdf")
        let made = try Programs.run(
            "jqc-server", ["document", "report", serverID, "--db", server.databasePath, "--client", "-o", out])
        #expect(made.status == 0, "\(made.stderr)")
        let reader = PDFReader(path: out)
        #expect(try reader.check() == nil)
        #expect(try reader.text().contains("Floors") && !(try reader.text().contains("SECRET-NOTE")))
        let month = String(RFC3339.string(Date()).prefix(7))
        let summary = folder.path("s.pdf")
        let site = try Programs.run(
            "jqc-server", ["document", "site", "F-100", "--db", server.databasePath, "--month", month, "-o", summary])
        #expect(site.status == 0, "\(site.stderr)")
        #expect(try PDFReader(path: summary).rawText().contains("Harbourview Office Tower"))
        let missing = try Programs.run(
            "jqc-server", ["document", "report", "R-nothing", "--db", server.databasePath, "-o", folder.path("x.pdf")])
        #expect(missing.status == 3 && missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.pdf")))
    }
}
