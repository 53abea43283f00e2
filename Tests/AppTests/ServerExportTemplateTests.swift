import Foundation
import Models
import Testing
import TestSupport

/// A supervisor exports a report from the server before their device holds
/// its template (a new device, or a cleared cache): the export reads the
/// template with the report instead of naming fields by id.
@Suite("Newcomer trial: exporting a server's report before the first sync")
struct ServerExportTemplateTests {
    @Test(
        "an HTML export of a server's report on a device without its template shows the form's labels, sections and photos as a synced device does, and keeps no template"
    )
    func exportReadsTheTemplate() throws {
        let server = try ServerProcess(["--demo"])
        defer { _ = server.stop() }
        let view = OrganisationViewTests()
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let local = try view.washroom(inspector, photo: try inspector.writeJPEG("tiles.jpg", seed: 11))
        try view.sync(inspector)
        let id = try view.serverID(inspector, local)

        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        #expect(try supervisor.jqc(["cache", "clear"]).status == 0)
        #expect(try supervisor.document(["templates"]).value["templates"]?.arrayValue?.isEmpty == true)
        let html = supervisor.path("report.html")
        let exported = try supervisor.jqc(["export", id, "--format", "html", "-o", html])
        #expect(exported.status == 0, "\(exported.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("Washroom QC"), "the template's name")
        #expect(page.contains("Floors"), "a field's label")
        #expect(!page.contains("<div class=\"label\">field "), "no field named by its id")
        #expect(page.contains("data:image/jpeg;base64,"), "the photo embedded under its field")

        // Read in memory only: the device still holds no template.
        #expect(try supervisor.document(["templates"]).value["templates"]?.arrayValue?.isEmpty == true)
    }
}
