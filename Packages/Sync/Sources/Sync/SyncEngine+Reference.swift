import Foundation
import Models
import Storage

extension SyncEngine {
    /// Pulls facilities with their areas, templates and the assignments
    /// changed since the stored cursor (the server's, never the device
    /// clock's), and stores them. A template whose schema this app cannot
    /// read is skipped and named in the summary; the others are kept.
    func pullReference() async throws(StorageError) -> SyncCycle.Event {
        progress(.pullingReference)
        let cursor = try store.meta(MetaKey.assignmentsCursor)
        let facilities: [Facility], areas: [Area], rawTemplates: [JSONValue], assignments: AssignmentsResponse
        do throws(APIError) {
            facilities = try await client.facilities()
            var all: [Area] = []
            for facility in facilities {
                all += try await client.areas(facilityID: facility.id)
            }
            areas = all
            rawTemplates = try await client.templates()
            assignments = try await client.assignments(since: cursor)
        } catch {
            return .referenceFailed(SyncFailure(error))
        }
        var templates: [Template] = []
        var skipped: [SkippedTemplate] = []
        for raw in rawTemplates {
            switch Template.decode(raw) {
            case .success(let template):
                templates.append(template)
            case .failure(let problems):
                let id = raw["id"].flatMap { $0.stringValue ?? $0.integerValue.map(String.init) } ?? "?"
                skipped.append(
                    SkippedTemplate(id: id, reason: problems.problems.first?.description ?? "unreadable schema"))
            }
        }
        try store.replaceFacilities(facilities, areas: areas)
        try store.upsertTemplates(templates)
        try store.upsertAssignments(assignments.assignments, cursor: assignments.cursor)
        return .referencePulled(
            ReferenceCounts(
                facilities: facilities.count, areas: areas.count, templates: templates.count,
                assignments: assignments.assignments.count, skippedTemplates: skipped))
    }
}
