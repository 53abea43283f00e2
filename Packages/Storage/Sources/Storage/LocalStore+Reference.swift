import Foundation
import SQLite
import Models

/// The cached reference data: facilities, areas, templates and assignments.
/// Clearing it never touches reports, revisions, photos or issues.
extension LocalStore {
    /// Replaces every cached facility and area with these, in one transaction.
    public func replaceFacilities(_ facilities: [Facility], areas: [Area]) throws(StorageError) {
        try write { db throws(StorageError) in
            try db.run("DELETE FROM areas")
            try db.run("DELETE FROM facilities")
            let insertFacility = try db.prepare(
                "INSERT OR REPLACE INTO facilities (id, name, address, project_name) VALUES (?, ?, ?, ?)")
            for facility in facilities {
                try insertFacility.run([
                    .text(facility.id), .text(facility.name), .text(facility.address), .text(facility.projectName),
                ])
            }
            let insertArea = try db.prepare(
                "INSERT OR REPLACE INTO areas (id, facility_id, name, area_type) VALUES (?, ?, ?, ?)")
            for area in areas {
                try insertArea.run([.text(area.id), .text(area.facilityID), .text(area.name), .text(area.areaType)])
            }
        }
    }

    /// Every cached facility, by name.
    public func facilities() throws(StorageError) -> [Facility] {
        try read { db throws(StorageError) in
            try db.rows("SELECT id, name, address, project_name FROM facilities ORDER BY name COLLATE NOCASE, id").map {
                row in
                Facility(
                    id: row["id"].stringValue ?? "", name: row["name"].stringValue ?? "",
                    address: row["address"].stringValue ?? "", projectName: row["project_name"].stringValue ?? "")
            }
        }
    }

    /// The cached facility with this id.
    public func facility(id: String) throws(StorageError) -> Facility? {
        try facilities().first { $0.id == id }
    }

    /// The cached areas of a facility, by name.
    public func areas(facilityID: String) throws(StorageError) -> [Area] {
        try read { db throws(StorageError) in
            try db.rows(
                "SELECT id, facility_id, name, area_type FROM areas WHERE facility_id = ? ORDER BY name COLLATE NOCASE, id",
                [.text(facilityID)]
            ).map { row in
                Area(
                    id: row["id"].stringValue ?? "", facilityID: row["facility_id"].stringValue ?? "",
                    name: row["name"].stringValue ?? "", areaType: row["area_type"].stringValue ?? "")
            }
        }
    }

    /// Adds these templates or replaces those with the same id; the raw
    /// `form_schema` is kept as text, every key included. Every version is
    /// kept too (reports on an older one are answered against it); the
    /// template itself is the newest version seen, so an older version
    /// arriving later is kept among the versions only.
    public func upsertTemplates(_ templates: [Template]) throws(StorageError) {
        try write { db throws(StorageError) in
            let statement = try db.prepare(
                """
                INSERT INTO templates (id, name, version, form_schema, pass_threshold) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, version = excluded.version, form_schema = excluded.form_schema,
                    pass_threshold = excluded.pass_threshold
                WHERE excluded.version >= templates.version
                """)
            let version = try db.prepare(
                """
                INSERT INTO template_versions (template_id, name, version, form_schema, pass_threshold) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (template_id, version) DO UPDATE SET name = excluded.name, form_schema = excluded.form_schema,
                    pass_threshold = excluded.pass_threshold
                """)
            for template in templates {
                let values: [SQLValue] = [
                    .text(template.id), .text(template.name), .integer(Int64(template.version)),
                    .text(template.rawSchema.canonicalString()), template.passThreshold.map(SQLValue.real) ?? .null,
                ]
                try statement.run(values)
                try version.run(values)
            }
        }
    }

    /// Every cached template, by name.
    public func templates() throws(StorageError) -> [Template] {
        try read { db throws(StorageError) in
            try db.rows(
                "SELECT id, name, version, form_schema, pass_threshold FROM templates ORDER BY name COLLATE NOCASE, id"
            ).map(
                Self.template(from:))
        }
    }

    /// The cached template with this id, or nil.
    public func template(id: String) throws(StorageError) -> Template? {
        try read { db throws(StorageError) in
            try db.firstRow(
                "SELECT id, name, version, form_schema, pass_threshold FROM templates WHERE id = ?", [.text(id)]
            ).map(
                Self.template(from:))
        }
    }

    /// The `form_schema` of a cached template exactly as stored, or nil.
    public func templateSchemaText(id: String) throws(StorageError) -> String? {
        try read { db throws(StorageError) in
            try db.scalar("SELECT form_schema FROM templates WHERE id = ?", [.text(id)]).stringValue
        }
    }

    static func template(from row: Row) throws(StorageError) -> Template {
        let id = row["id"].stringValue ?? ""
        let unreadable = { (why: String) in
            StorageError(
                .corruptStore,
                "The cached template '\(id)' cannot be read (\(why)); clear the cache ('jqc cache clear') and sync again.",
                context: "templates")
        }
        let raw: JSONValue
        do throws(ModelsError) {
            raw = try JSONValue.parse(row["form_schema"].stringValue ?? "")
        } catch {
            throw unreadable(error.message)
        }
        var members: [String: JSONValue] = [
            "id": .string(id), "name": .string(row["name"].stringValue ?? ""),
            "version": .integer(row["version"].int64Value ?? 1), "form_schema": raw,
        ]
        if let threshold = row["pass_threshold"].doubleValue { members["pass_threshold"] = .double(threshold) }
        let object = JSONValue.object(members)
        switch Template.decode(object) {
        case .success(let template): return template
        case .failure(let errors): throw unreadable(errors.problems.map(\.message).joined(separator: "; "))
        }
    }

    /// Replaces every cached assignment and stores the cursor they came with.
    public func replaceAssignments(_ assignments: [Assignment], cursor: String?) throws(StorageError) {
        try write { db throws(StorageError) in
            try db.run("DELETE FROM assignments")
            try Self.upsert(assignments, db)
            try Self.setMeta(MetaKey.assignmentsCursor, cursor, db)
        }
    }

    /// Adds or updates these assignments (an incremental fetch) and stores the new cursor.
    public func upsertAssignments(_ assignments: [Assignment], cursor: String?) throws(StorageError) {
        try write { db throws(StorageError) in
            try Self.upsert(assignments, db)
            try Self.setMeta(MetaKey.assignmentsCursor, cursor, db)
        }
    }

    private static func upsert(_ assignments: [Assignment], _ db: StoreDatabase) throws(StorageError) {
        let statement = try db.prepare(
            """
            INSERT INTO assignments (id, template_id, facility_id, area_id, due_at, status) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET template_id = excluded.template_id, facility_id = excluded.facility_id,
                area_id = excluded.area_id, due_at = excluded.due_at, status = excluded.status
            """)
        for a in assignments {
            try statement.run([
                .text(a.id), .text(a.templateID), .text(a.facilityID), SQLValue(a.areaID),
                SQLValue(a.dueAt), .text(a.status.rawValue),
            ])
        }
    }

    /// Every cached assignment, in the order the server first sent them.
    public func assignments() throws(StorageError) -> [Assignment] {
        try read { db throws(StorageError) in
            try db.rows("SELECT id, template_id, facility_id, area_id, due_at, status FROM assignments ORDER BY rowid")
                .map { row in
                    Assignment(
                        id: row["id"].stringValue ?? "", templateID: row["template_id"].stringValue ?? "",
                        facilityID: row["facility_id"].stringValue ?? "", areaID: row["area_id"].stringValue,
                        dueAt: row["due_at"].stringValue,
                        status: AssignmentStatus(rawValue: row["status"].stringValue ?? "") ?? .open)
                }
        }
    }

    /// Empties the reference cache (facilities, areas, templates, assignments
    /// and the assignments cursor); reports, revisions, photos and issues stay.
    /// Forgets the cached reference data, except the templates that reports
    /// not yet synced still use (a draft cannot be answered, checked or
    /// completed without its template); returns how many templates were kept.
    @discardableResult
    public func clearReferenceCache() throws(StorageError) -> Int {
        try write { db throws(StorageError) in
            try db.run("DELETE FROM areas")
            try db.run("DELETE FROM facilities")
            try db.run(
                "DELETE FROM templates WHERE id NOT IN (SELECT template_id FROM reports WHERE state <> 'SYNCED')")
            try db.run(
                """
                DELETE FROM template_versions WHERE NOT EXISTS (SELECT 1 FROM templates t WHERE t.id = template_versions.template_id)
                    OR (NOT EXISTS (SELECT 1 FROM templates t WHERE t.id = template_versions.template_id AND t.version = template_versions.version)
                        AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.template_id = template_versions.template_id
                                        AND r.template_version = template_versions.version AND r.state <> 'SYNCED'))
                """)
            let kept = Int(try db.scalar("SELECT COUNT(*) FROM templates").int64Value ?? 0)
            try db.run("DELETE FROM assignments")
            try Self.setMeta(MetaKey.assignmentsCursor, nil, db)
            return kept
        }
    }
}
