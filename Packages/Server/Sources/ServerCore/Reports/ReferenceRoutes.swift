import Foundation
import Models
import ServerStore

struct ReferenceRoutes: RouteCapability {
    let context: ServerContext

    /// `GET /facilities`: a client's own only (contract 1.2).
    func facilities(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let facilities = try store.read { session -> [Facility] in
            let all = try session.facilities()
            guard let scope = try ClientScope.of(caller, gate: config.clientsSee, in: session) else { return all }
            return all.filter { scope.sees(facility: $0.id) }
        }
        return .ok(FacilitiesResponse(facilities: facilities))
    }

    /// `GET /facilities/{id}/areas`; 404 for an unknown facility, and for a
    /// client, for one not theirs.
    func areas(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let id = try input.parameter("id")
        let areas = try store.read { session -> [Area]? in
            guard try session.facilityExists(id) else { return nil }
            if let scope = try ClientScope.of(caller, gate: config.clientsSee, in: session), !scope.sees(facility: id) {
                return nil
            }
            return try session.areas(facilityID: id)
        }
        guard let areas else { throw ServerError.notFound("no facility '\(id)'") }
        return .ok(AreasResponse(areas: areas))
    }

    /// `GET /templates`.
    func templates(_ input: RouteInput) throws(ServerError) -> Reply {
        _ = try input.requireCaller()
        let templates = try store.read { try $0.templates() }
        return .ok(TemplatesResponse(templates: templates.map { (template: Template) in template.json }))
    }

    /// `GET /assignments?since=`: an inspector's own assignments (a
    /// supervisor's: everyone's). Without `since`, every open one; with it,
    /// every one changed after the cursor, closed ones included.
    func assignments(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        var since: Int64?
        if let cursor = input.request.query["since"], !cursor.isEmpty {
            guard let value = AssignmentCursor.decode(cursor) else {
                throw ServerError.badRequest("'since' is not a cursor this server issued: '\(cursor.prefix(40))'")
            }
            since = value
        }
        let (assignments, sequence) = try store.read { session in
            try session.assignments(inspectorID: caller.isSupervisor ? nil : caller.user.id, since: since)
        }
        return .ok(AssignmentsResponse(assignments: assignments, cursor: AssignmentCursor.encode(sequence)))
    }
}

/// The assignments cursor: the server's change sequence, as `c<number>`.
enum AssignmentCursor {
    static func encode(_ sequence: Int64) -> String { "c\(sequence)" }

    static func decode(_ text: String) -> Int64? {
        guard text.hasPrefix("c"), let value = Int64(text.dropFirst()), value >= 0 else { return nil }
        return value
    }
}
