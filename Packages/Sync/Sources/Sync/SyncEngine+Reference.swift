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
            // Then everything else at once: one round trip instead of one a facility and two more, which on a
            // link with a long delay is most of the pull. The first failure in the order above is the one told.
            let client = self.client
            async let templatesAnswer = Self.answer { () async throws(APIError) in try await client.templates() }
            async let assignmentsAnswer = Self.answer { () async throws(APIError) in
                try await client.assignments(since: cursor)
            }
            let areaAnswers = await withTaskGroup(of: (Int, Result<[Area], APIError>).self) { group in
                for (index, facility) in facilities.enumerated() {
                    group.addTask {
                        (
                            index,
                            await Self.answer { () async throws(APIError) in
                                try await client.areas(facilityID: facility.id)
                            }
                        )
                    }
                }
                var answers = [Result<[Area], APIError>?](repeating: nil, count: facilities.count)
                for await (index, answer) in group { answers[index] = answer }
                return answers.compactMap { $0 }
            }
            var all: [Area] = []
            for answer in areaAnswers { all += try answer.get() }
            areas = all
            rawTemplates = try await templatesAnswer.get()
            assignments = try await assignmentsAnswer.get()
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

    /// What `call` answered, as a value, so that calls made at once are all awaited before one failure is told.
    private static func answer<T: Sendable>(_ call: @Sendable () async throws(APIError) -> T) async -> Result<
        T, APIError
    > {
        do throws(APIError) { return .success(try await call()) } catch { return .failure(error) }
    }
}
