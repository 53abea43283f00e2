import Foundation
import Models
import ServerStore

/// Facilities (sites) and their areas.
extension Administration {
    /// What a change of a facility sets; nil leaves a value as it is.
    struct FacilityChange: Sendable {
        var name: String?
        var address: String?
        var projectName: String?
        /// Retire (true) or restore (false) it.
        var retired: Bool?
    }

    /// What a change of an area sets; nil leaves a value as it is.
    struct AreaChange: Sendable {
        var name: String?
        var areaType: String?
        /// Retire (true) or restore (false) it.
        var retired: Bool?
    }

    func facilities() throws(ServerError) -> [ManagedFacility] {
        try store.read { try $0.managedFacilities() }
    }

    func areas(facilityID: String?) throws(ServerError) -> [ManagedArea] {
        try store.read { try $0.managedAreas(facilityID: facilityID) }
    }

    /// Adds a facility; 409 when the id is taken.
    func addFacility(_ input: Facility, by actor: AdminActor) throws(ServerError) -> ManagedFacility {
        let facility = try Self.checked(input)
        return try change(by: actor) { session, events in
            guard try session.managedFacility(id: facility.id) == nil else {
                throw ServerError.conflict("facility '\(facility.id)' exists already; change it instead")
            }
            try session.insertFacility(facility, position: try session.managedFacilities().count)
            try events.record("facility.added", facility.id, Self.json(facility))
            return ManagedFacility(facility: facility, retiredAt: nil)
        }
    }

    /// Changes a facility's name, address or project and retires or
    /// restores it, in one transaction; 404 for an unknown one.
    func changeFacility(id: String, _ edit: FacilityChange, by actor: AdminActor) throws(ServerError) -> ManagedFacility
    {
        try change(by: actor) { session, events in
            guard var record = try session.managedFacility(id: id) else {
                throw ServerError.notFound("no facility '\(id)'")
            }
            var next = record.facility
            if let name = edit.name { next.name = name }
            if let address = edit.address { next.address = address }
            if let project = edit.projectName { next.projectName = project }
            next = try Self.checked(next)
            if next != record.facility {
                try session.insertFacility(next, position: 0)
                try events.record("facility.changed", id, Self.json(next))
                record.facility = next
            }
            if let retired = edit.retired, (record.retiredAt != nil) != retired {
                record.retiredAt = retired ? events.at : nil
                try session.setFacilityRetired(id: id, at: record.retiredAt)
                try events.record(retired ? "facility.retired" : "facility.restored", id)
            }
            return record
        }
    }

    /// Retires a facility (devices drop it at their next pull; its reports
    /// stay) or brings it back. Doing it twice changes nothing.
    func setFacilityRetired(id: String, retired: Bool, by actor: AdminActor) throws(ServerError) -> ManagedFacility {
        try changeFacility(id: id, FacilityChange(retired: retired), by: actor)
    }

    /// Adds an area to a facility; 409 when the id is taken, 404 for an unknown facility.
    func addArea(_ input: Area, by actor: AdminActor) throws(ServerError) -> ManagedArea {
        let area = try Self.checked(input)
        return try change(by: actor) { session, events in
            guard try session.managedFacility(id: area.facilityID) != nil else {
                throw ServerError.notFound("no facility '\(area.facilityID)'; add it first")
            }
            guard try session.area(id: area.id) == nil else {
                throw ServerError.conflict("area '\(area.id)' exists already; change it instead")
            }
            try session.insertArea(area, position: try session.managedAreas(facilityID: area.facilityID).count)
            try events.record("area.added", area.id, Self.json(area))
            return ManagedArea(area: area, retiredAt: nil)
        }
    }

    /// Changes an area's name or type and retires or restores it, in one transaction.
    func changeArea(id: String, _ edit: AreaChange, by actor: AdminActor) throws(ServerError) -> ManagedArea {
        try change(by: actor) { session, events in
            guard var record = try session.managedAreas(facilityID: nil).first(where: { $0.area.id == id }) else {
                throw ServerError.notFound("no area '\(id)'")
            }
            var next = record.area
            if let name = edit.name { next.name = name }
            if let type = edit.areaType { next.areaType = type }
            next = try Self.checked(next)
            if next != record.area {
                try session.insertArea(next, position: 0)
                try events.record("area.changed", id, Self.json(next))
                record.area = next
            }
            if let retired = edit.retired, (record.retiredAt != nil) != retired {
                record.retiredAt = retired ? events.at : nil
                try session.setAreaRetired(id: id, at: record.retiredAt)
                try events.record(retired ? "area.retired" : "area.restored", id)
            }
            return record
        }
    }

    /// Retires an area or brings it back.
    func setAreaRetired(id: String, retired: Bool, by actor: AdminActor) throws(ServerError) -> ManagedArea {
        try changeArea(id: id, AreaChange(retired: retired), by: actor)
    }

    /// Imports facilities from CSV (`id,name,address,project_name`) or JSON
    /// (`{"facilities": [...], "areas": [...]}`, the shape devices import),
    /// keyed by id: a new id is added, a changed row updates, an equal one
    /// is left alone. Every row is checked first; one bad row imports nothing.
    func importFacilities(_ data: Data, source: String, by actor: AdminActor) throws(ServerError) -> (
        ImportOutcome, ImportOutcome
    ) {
        let rows = try ImportTable.rows(data, listKey: "facilities", columns: Self.facilityColumns, source: source)
        var problems: [String] = []
        let facilities = Self.collect(rows, "facility", &problems, id: \.id) { (row) throws(ServerError) in
            try Self.checked(
                Facility(id: row["id"], name: row["name"], address: row["address"], projectName: row["project_name"]))
        }
        // A JSON file may carry the areas too, as a device's file does.
        var areaRows: [ImportRow] = []
        if let text = String(data: data, encoding: .utf8), text.first(where: { !$0.isWhitespace }) == "{",
            let document = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), document["areas"] != nil
        {
            areaRows = try ImportTable.json(text, listKey: "areas", columns: Self.areaColumns, source: source)
        }
        let areas = Self.collect(areaRows, "area", &problems, id: \.id) { (row) throws(ServerError) in
            try Self.checked(
                Area(id: row["id"], facilityID: row["facility_id"], name: row["name"], areaType: row["area_type"]))
        }
        return try change(by: actor) { session, events in
            let known = Set(try session.managedFacilities().map(\.facility.id)).union(facilities.map(\.id))
            for (label, area) in zip(areaRows.map(\.label), areas) where !known.contains(area.facilityID) {
                problems.append("\(label) of \"areas\": no facility '\(area.facilityID)'")
            }
            try Self.refuse(problems, source)
            let sites = try Self.merge(facilities, into: session, events: events)
            let places = try Self.merge(areas, into: session, events: events)
            return (sites, places)
        }
    }

    /// Imports areas from CSV (`id,facility_id,name,area_type`) or JSON (`{"areas": [...]}`), keyed by id.
    func importAreas(_ data: Data, source: String, by actor: AdminActor) throws(ServerError) -> ImportOutcome {
        let rows = try ImportTable.rows(data, listKey: "areas", columns: Self.areaColumns, source: source)
        var problems: [String] = []
        let areas = Self.collect(rows, "area", &problems, id: \.id) { (row) throws(ServerError) in
            try Self.checked(
                Area(id: row["id"], facilityID: row["facility_id"], name: row["name"], areaType: row["area_type"]))
        }
        return try change(by: actor) { session, events in
            let known = Set(try session.managedFacilities().map(\.facility.id))
            for (label, area) in zip(rows.map(\.label), areas) where !known.contains(area.facilityID) {
                problems.append("\(label): no facility '\(area.facilityID)'; import the facilities first")
            }
            try Self.refuse(problems, source)
            return try Self.merge(areas, into: session, events: events)
        }
    }

    // MARK: Checks and merging

    /// The columns of a facility import; a listing's `retired_at` is read but not imported.
    static let facilityColumns = ImportTable.Columns(
        required: ["id", "name"], optional: ["address", "project_name"], listed: ["retired_at"])
    /// The columns of an area import; a listing's `retired_at` is read but not imported.
    static let areaColumns = ImportTable.Columns(
        required: ["id", "facility_id", "name"], optional: ["area_type"], listed: ["retired_at"])

    static func checked(_ facility: Facility) throws(ServerError) -> Facility {
        Facility(
            id: try AdminInput.id(facility.id, "a facility"),
            name: try AdminInput.text(facility.name, "the facility's name"),
            address: try AdminInput.text(facility.address, "the address", required: false),
            projectName: try AdminInput.text(facility.projectName, "the project name", required: false))
    }

    static func checked(_ area: Area) throws(ServerError) -> Area {
        Area(
            id: try AdminInput.id(area.id, "an area"),
            facilityID: try AdminInput.id(area.facilityID, "the area's facility"),
            name: try AdminInput.text(area.name, "the area's name"),
            areaType: try AdminInput.text(area.areaType, "the area type", required: false, limit: 60))
    }

    /// The values of `rows` that `make` accepts; each refusal is added to
    /// `problems` with its row, and so is an id given twice.
    static func collect<T>(
        _ rows: [ImportRow], _ what: String, _ problems: inout [String], id: (T) -> String,
        _ make: (ImportRow) throws(ServerError) -> T
    ) -> [T] {
        var values: [T] = [], seen: [String: String] = [:]
        for row in rows {
            do throws(ServerError) {
                let value = try make(row)
                if let earlier = seen[id(value)] {
                    problems.append("\(row.label): \(what) '\(id(value))' is also in \(earlier); give each its own id")
                    continue
                }
                seen[id(value)] = row.label
                values.append(value)
            } catch {
                problems.append("\(row.label): \(error.message)")
            }
        }
        return values
    }

    /// 400 naming every problem; nothing is imported.
    static func refuse(_ problems: [String], _ source: String) throws(ServerError) {
        guard !problems.isEmpty else { return }
        let shown = problems.prefix(20).joined(separator: "; ")
        let more = problems.count > 20 ? "; and \(problems.count - 20) more" : ""
        throw ServerError.badRequest("'\(source)' was not imported, nothing changed: \(shown)\(more)")
    }

    private static func merge(
        _ facilities: [Facility], into session: any StorageSession,
        events: EventRecorder
    ) throws(ServerError) -> ImportOutcome {
        try merge(
            facilities, existing: try session.managedFacilities().map(\.facility), kind: "facility", id: \.id,
            json: json,
            events: events
        ) { (facility, position) throws(ServerError) in try session.insertFacility(facility, position: position) }
    }

    private static func merge(_ areas: [Area], into session: any StorageSession, events: EventRecorder)
        throws(ServerError) -> ImportOutcome
    {
        try merge(
            areas, existing: try session.managedAreas(facilityID: nil).map(\.area), kind: "area", id: \.id, json: json,
            events: events
        ) { (area, position) throws(ServerError) in try session.insertArea(area, position: position) }
    }

    /// Merges imported records into `existing` by id: a new id is saved at
    /// the end of the list, a changed record saved in its place, an equal one
    /// left alone; each change is an event naming the import.
    private static func merge<T: Equatable>(
        _ records: [T], existing: [T], kind: String, id: (T) -> String, json: (T) -> JSONValue,
        events: EventRecorder,
        save: (T, Int) throws(ServerError) -> Void
    ) throws(ServerError) -> ImportOutcome {
        var outcome = ImportOutcome()
        let known = Dictionary(existing.map { (id($0), $0) }, uniquingKeysWith: { a, _ in a })
        var position = known.count
        for record in records {
            let key = id(record)
            if let old = known[key] {
                guard old != record else { outcome.unchanged.append(key); continue }
                try save(record, 0)
                try events.record("\(kind).changed", key, json(record).merging(["source": "import"]))
                outcome.updated.append(key)
            } else {
                try save(record, position)
                position += 1
                try events.record("\(kind).added", key, json(record).merging(["source": "import"]))
                outcome.added.append(key)
            }
        }
        return outcome
    }

    static func json(_ facility: Facility) -> JSONValue {
        [
            "id": .string(facility.id), "name": .string(facility.name), "address": .string(facility.address),
            "project_name": .string(facility.projectName),
        ]
    }

    static func json(_ area: Area) -> JSONValue {
        [
            "id": .string(area.id), "facility_id": .string(area.facilityID), "name": .string(area.name),
            "area_type": .string(area.areaType),
        ]
    }
}

extension JSONValue {
    /// This object with `other`'s members added (other's win).
    func merging(_ other: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = self else { return self }
        for (key, value) in other { members[key] = value }
        return .object(members)
    }
}
