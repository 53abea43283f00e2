import Foundation
import Models
import ServerStore

/// Assignments: work given to an inspector (a template at a facility,
/// optionally an area, by a due date). Devices get every change through
/// `GET /assignments?since=`; an accepted report closes its assignment.
extension Administration {
    /// What an admin asks for when creating an assignment.
    struct AssignmentRequest: Sendable {
        /// The organisation's own id for it; nil makes one.
        var id: String?
        /// The inspector, by user name or user id.
        var inspector: String
        var templateID: String
        var facilityID: String
        var areaID: String?
        /// RFC 3339, or `YYYY-MM-DD` (the end of that day, UTC).
        var due: String?
    }

    /// What a change of an assignment sets; nil leaves it; an empty area or due date clears it.
    struct AssignmentChange: Sendable {
        var templateID: String?
        var facilityID: String?
        var areaID: String?
        var due: String?

        /// The request that makes `assignment` with these changes, under `id` (nil: a new one) for `inspector`.
        /// A new facility without an area leaves the old facility's area behind.
        func applied(to assignment: Assignment, id: String?, inspector: String) -> AssignmentRequest {
            AssignmentRequest(
                id: id, inspector: inspector, templateID: templateID ?? assignment.templateID,
                facilityID: facilityID ?? assignment.facilityID,
                areaID: areaID.map { $0.isEmpty ? nil : $0 } ?? (facilityID == nil ? assignment.areaID : nil),
                due: due.map { $0.isEmpty ? nil : $0 } ?? assignment.dueAt)
        }
    }

    /// Every assignment (of one inspector, or all); with `openOnly`, those
    /// still to do (neither done nor cancelled).
    func assignments(inspector: String?, openOnly: Bool = false) throws(ServerError) -> [ManagedAssignment] {
        let list = try store.read { session in
            guard let inspector else { return try session.managedAssignments(inspectorID: nil) }
            guard let user = try Self.user(inspector, in: session) else {
                throw ServerError.notFound("no user '\(inspector)'")
            }
            return try session.managedAssignments(inspectorID: user.id)
        }
        return openOnly ? list.filter { $0.assignment.status == .open && $0.cancelledAt == nil } : list
    }

    /// Creates an assignment; 409 when its id is taken.
    func createAssignment(_ request: AssignmentRequest, by actor: AdminActor) throws(ServerError) -> ManagedAssignment {
        try change(by: actor) { session, events in
            let (record, _) = try Self.resolve(request, label: nil, in: session)
            guard try session.managedAssignment(id: record.assignment.id) == nil else {
                throw ServerError.conflict("assignment '\(record.assignment.id)' exists already; change it instead")
            }
            try session.insertAssignment(record.assignment, inspectorID: record.inspectorID)
            try events.record("assignment.created", record.assignment.id, Self.json(record))
            return record
        }
    }

    /// Changes an open assignment's template, facility, area or due date.
    /// The inspector stays: to give the work to someone else, cancel it and
    /// create another, so the first inspector's device sees it end.
    func changeAssignment(id: String, _ edit: AssignmentChange, by actor: AdminActor) throws(ServerError)
        -> ManagedAssignment
    {
        try change(by: actor) { session, events in
            let current = try Self.openAssignment(id, in: session)
            let request = edit.applied(to: current.assignment, id: id, inspector: current.inspectorID)
            let (next, _) = try Self.resolve(request, label: nil, in: session)
            guard next.assignment != current.assignment else { return current }
            try session.insertAssignment(next.assignment, inspectorID: next.inspectorID)
            try events.record("assignment.changed", id, Self.json(next))
            return next
        }
    }

    /// The open assignment `id`: 404 when there is none, 409 when it is done or cancelled.
    static func openAssignment(_ id: String, in session: any StorageSession) throws(ServerError) -> ManagedAssignment {
        guard let current = try session.managedAssignment(id: id) else {
            throw ServerError.notFound("no assignment '\(id)'")
        }
        guard current.assignment.status == .open else {
            throw ServerError.conflict(
                "assignment '\(id)' is \(current.cancelledAt == nil ? "done" : "cancelled"); create another instead")
        }
        return current
    }

    /// An assignment given to another inspector, and the one it replaces.
    struct Reassignment: Sendable {
        /// The assignment as it was given first, now cancelled.
        var previous: ManagedAssignment
        /// The same work for the new inspector, under an id of its own.
        var current: ManagedAssignment
    }

    /// Gives an open assignment to another inspector, with `edit`'s changes.
    /// The first inspector's device must see the work end, and devices follow
    /// only their own inspector's assignments: so the assignment is cancelled
    /// and the same work created for the new inspector under a new id, in one
    /// change, both logged. Naming the inspector it has already changes it in place.
    func reassignAssignment(id: String, to inspector: String, _ edit: AssignmentChange, by actor: AdminActor)
        throws(ServerError) -> Reassignment
    {
        let current = try store.read { session in try session.managedAssignment(id: id) }
        let user = try store.read { session in
            try Self.user(inspector.trimmingCharacters(in: .whitespaces), in: session)
        }
        if let current, let user, user.id == current.inspectorID {
            let changed = try changeAssignment(id: id, edit, by: actor)
            return Reassignment(previous: changed, current: changed)
        }
        return try change(by: actor) { session, events in
            let current = try Self.openAssignment(id, in: session)
            let request = edit.applied(to: current.assignment, id: nil, inspector: inspector)
            let (next, _) = try Self.resolve(request, label: nil, in: session)
            try session.cancelAssignment(id: id, at: events.at)
            try session.insertAssignment(next.assignment, inspectorID: next.inspectorID)
            try events.record("assignment.cancelled", id, ["reassigned_to": .string(next.assignment.id)])
            try events.record(
                "assignment.created", next.assignment.id, Self.json(next).merging(["reassigned_from": .string(id)]))
            return Reassignment(previous: try session.managedAssignment(id: id) ?? current, current: next)
        }
    }

    /// Cancels an assignment: devices see it closed at their next pull. Twice changes nothing.
    func cancelAssignment(id: String, by actor: AdminActor) throws(ServerError) -> ManagedAssignment {
        try change(by: actor) { session, events in
            guard let current = try session.managedAssignment(id: id) else {
                throw ServerError.notFound("no assignment '\(id)'")
            }
            guard current.cancelledAt == nil else { return current }
            guard current.assignment.status == .open else {
                throw ServerError.conflict("assignment '\(id)' is done already: a report for it was accepted")
            }
            try session.cancelAssignment(id: id, at: events.at)
            try events.record("assignment.cancelled", id)
            return try session.managedAssignment(id: id) ?? current
        }
    }

    /// Imports assignments from CSV (`id,inspector,template_id,facility_id,area_id,due_at`)
    /// or JSON (`{"assignments": [...]}`), keyed by id. A row equal to the
    /// stored assignment changes nothing; a changed row of an open one updates
    /// it; every row is checked first and one bad row imports nothing.
    func importAssignments(_ data: Data, source: String, by actor: AdminActor) throws(ServerError) -> ImportOutcome {
        let rows = try ImportTable.rows(data, listKey: "assignments", columns: Self.assignmentColumns, source: source)
        return try change(by: actor) { session, events in
            var problems: [String] = []
            var resolved: [(ManagedAssignment, String)] = []
            var seen: [String: String] = [:]
            for row in rows {
                do throws(ServerError) {
                    let request = AssignmentRequest(
                        id: row["id"], inspector: row["inspector"], templateID: row["template_id"],
                        facilityID: row["facility_id"], areaID: row["area_id"].isEmpty ? nil : row["area_id"],
                        due: row["due_at"].isEmpty ? nil : row["due_at"])
                    guard !(request.id ?? "").isEmpty else {
                        throw ServerError.badRequest("an imported assignment needs its id")
                    }
                    let (record, _) = try Self.resolve(request, label: row.label, in: session)
                    if let earlier = seen[record.assignment.id] {
                        throw ServerError.badRequest(
                            "assignment '\(record.assignment.id)' is also in \(earlier); give each its own id")
                    }
                    seen[record.assignment.id] = row.label
                    if let old = try session.managedAssignment(id: record.assignment.id),
                        old.inspectorID != record.inspectorID
                    {
                        throw ServerError.badRequest(
                            "assignment '\(record.assignment.id)' is another inspector's; cancel it and import it under a new id"
                        )
                    }
                    resolved.append((record, row.label))
                } catch {
                    problems.append("\(row.label): \(error.message)")
                }
            }
            try Self.refuse(problems, source)
            var outcome = ImportOutcome()
            for (record, _) in resolved {
                let id = record.assignment.id
                if let old = try session.managedAssignment(id: id) {
                    var wanted = record.assignment
                    wanted.status = old.assignment.status
                    guard wanted != old.assignment else { outcome.unchanged.append(id); continue }
                    guard old.assignment.status == .open else { outcome.unchanged.append(id); continue }
                    try session.insertAssignment(wanted, inspectorID: record.inspectorID)
                    try events.record("assignment.changed", id, Self.json(record).merging(["source": "import"]))
                    outcome.updated.append(id)
                } else {
                    try session.insertAssignment(record.assignment, inspectorID: record.inspectorID)
                    try events.record("assignment.created", id, Self.json(record).merging(["source": "import"]))
                    outcome.added.append(id)
                }
            }
            return outcome
        }
    }

    // MARK: Checks

    /// The columns of an assignment import; a listing's state members are read but not imported.
    static let assignmentColumns = ImportTable.Columns(
        required: ["id", "inspector", "template_id", "facility_id"], optional: ["area_id", "due_at"],
        listed: ["status", "state", "cancelled_at"])

    /// The user `key` means: with `byID` (the console's forms post ids), or
    /// in a user id's form (`U-...`, which no user name has), the user of
    /// that id; otherwise the user of that name. Never one, then the other.
    static func user(_ key: String, byID: Bool = false, in session: any StorageSession) throws(ServerError)
        -> StoredUser?
    {
        if byID || isUserID(key) { return try session.user(id: key) }
        return try session.user(username: key)
    }

    /// Whether `text` has the form of a user id: `U-` (either case) and more.
    static func isUserID(_ text: String) -> Bool {
        text.utf8.count > 2 && text.utf8.prefix(2).map { $0 | 0x20 } == Array("u-".utf8)
    }

    /// The assignment a request describes, every reference checked: an
    /// enabled inspector, a live template and facility, an area of that facility.
    static func resolve(
        _ request: AssignmentRequest, label: String?,
        in session: any StorageSession
    ) throws(ServerError) -> (ManagedAssignment, StoredUser) {
        guard let inspector = try user(request.inspector.trimmingCharacters(in: .whitespaces), in: session) else {
            throw ServerError.notFound("no user '\(request.inspector.prefix(60))'; add them with 'admin user add'")
        }
        guard inspector.role == .inspector else {
            throw ServerError.badRequest(
                "'\(inspector.username)' is a \(inspector.role.rawValue); assignments are for inspectors")
        }
        guard !inspector.isDisabled else { throw ServerError.badRequest("'\(inspector.username)' is disabled") }
        guard let template = try session.managedTemplates().first(where: { $0.template.id == request.templateID }),
            template.retiredAt == nil
        else {
            throw ServerError.notFound(
                "no template '\(request.templateID.prefix(60))' (or it is retired); see 'admin template list'")
        }
        guard let facility = try session.managedFacility(id: request.facilityID), facility.retiredAt == nil else {
            throw ServerError.notFound(
                "no facility '\(request.facilityID.prefix(60))' (or it is retired); see 'admin facility list'")
        }
        if let areaID = request.areaID {
            guard let area = try session.area(id: areaID), area.facilityID == facility.facility.id else {
                throw ServerError.badRequest(
                    "area '\(areaID.prefix(60))' is not an area of facility '\(facility.facility.id)'")
            }
        }
        let id =
            try request.id.map { (text) throws(ServerError) in try AdminInput.id(text, "an assignment") }
            ?? "AS-" + UUID().uuidString.prefix(8).lowercased()
        let assignment = Assignment(
            id: id, templateID: template.template.id, facilityID: facility.facility.id, areaID: request.areaID,
            dueAt: try request.due.map { (text) throws(ServerError) in try AdminInput.due(text) }, status: .open)
        return (ManagedAssignment(assignment: assignment, inspectorID: inspector.id, cancelledAt: nil), inspector)
    }

    static func json(_ record: ManagedAssignment) -> JSONValue {
        let a = record.assignment
        return [
            "id": .string(a.id), "inspector_id": .string(record.inspectorID), "template_id": .string(a.templateID),
            "facility_id": .string(a.facilityID), "area_id": a.areaID.map { .string($0) } ?? .null,
            "due_at": a.dueAt.map { .string($0) } ?? .null,
        ]
    }
}
