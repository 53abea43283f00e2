import Foundation
import ServerStore

/// Schedules and the visits made of them: what both stores word alike (the
/// pick of schedules to make, which PostgreSQL words with `SKIP LOCKED`, and
/// the bulk insert of visits are each store's own).
extension SQLStatements {
    /// The columns a schedule is read from (`schedule(_:)`).
    public static var scheduleColumns: String {
        """
        id, template_id, facility_id, area_ids, inspector_ids, rule, time_window, zone, start_date, end_date,
        paused_at, version, made_until, made_count, created_at, updated_at
        """
    }

    public func schedules() throws(ServerError) -> [StoredSchedule] {
        try rows("SELECT \(Self.scheduleColumns) FROM schedules ORDER BY id", []).map(Self.schedule)
    }

    public func schedule(id: String) throws(ServerError) -> StoredSchedule? {
        try firstRow("SELECT \(Self.scheduleColumns) FROM schedules WHERE id = ?\(lockClause)", [.text(id)])
            .map(Self.schedule)
    }

    public func saveSchedule(_ schedule: StoredSchedule) throws(ServerError) {
        try run(
            """
            INSERT INTO schedules (\(Self.scheduleColumns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET template_id = excluded.template_id, facility_id = excluded.facility_id,
                area_ids = excluded.area_ids, inspector_ids = excluded.inspector_ids, rule = excluded.rule,
                time_window = excluded.time_window, zone = excluded.zone, start_date = excluded.start_date,
                end_date = excluded.end_date, paused_at = excluded.paused_at, version = excluded.version,
                made_until = excluded.made_until, made_count = excluded.made_count, updated_at = excluded.updated_at
            """,
            [
                .text(schedule.id), .text(schedule.templateID), .text(schedule.facilityID),
                .text(Self.list(schedule.areaIDs)), .text(Self.list(schedule.inspectorIDs)), .text(schedule.rule),
                .text(schedule.window), .text(schedule.zone), .text(schedule.startDate), .optional(schedule.endDate),
                .optional(schedule.pausedAt), .count(schedule.version), .optional(schedule.madeUntil),
                .count(schedule.madeCount), .text(schedule.createdAt), .text(schedule.updatedAt),
            ])
    }

    public func deleteSchedule(id: String) throws(ServerError) -> Bool {
        !(try rows("DELETE FROM schedules WHERE id = ? RETURNING id", [.text(id)]).isEmpty)
    }

    public func setScheduleMade(id: String, until: String, count: Int) throws(ServerError) {
        try run(
            "UPDATE schedules SET made_until = ?, made_count = ? WHERE id = ?",
            [.text(until), .count(count), .text(id)])
    }

    public func cancelVisits(scheduleID: String, startingAfter after: String, at: String) throws(ServerError) -> Int {
        let open = try rows(
            "SELECT id FROM assignments WHERE schedule_id = ? AND status = 'open' AND window_start > ?",
            [.text(scheduleID), .text(after)])
        guard !open.isEmpty else { return 0 }
        let seq = try nextChangeSequence()
        return try rows(
            """
            UPDATE assignments SET status = 'closed', cancelled_at = ?, change_seq = ?
            WHERE schedule_id = ? AND status = 'open' AND window_start > ? RETURNING id
            """, [.text(at), .integer(seq), .text(scheduleID), .text(after)]
        ).count
    }

    public func visits(from: String, to: String, facilityID: String?) throws(ServerError) -> [VisitRecord] {
        var sql = """
            SELECT a.id, a.schedule_id, a.template_id, a.facility_id, a.area_id, a.inspector_id, a.window_start,
                a.window_end, a.cancelled_at,
                (SELECT MIN(r.completed_at_device) FROM reports r WHERE r.assignment_id = a.id) AS done_at,
                (SELECT MIN(r.accepted_at) FROM reports r WHERE r.assignment_id = a.id) AS accepted_at
            FROM assignments a
            WHERE a.schedule_id IS NOT NULL AND a.window_start >= ? AND a.window_start < ?
            """
        var values: [SQLParameter] = [.text(from), .text(to)]
        if let facilityID {
            sql += " AND a.facility_id = ?"
            values.append(.text(facilityID))
        }
        sql += " ORDER BY a.window_start, a.id"
        return try rows(sql, values).map { row in
            VisitRecord(
                visit: Self.visit(row), cancelledAt: row.text("cancelled_at"), doneAt: row.text("done_at"),
                acceptedAt: row.text("accepted_at"))
        }
    }

    public func inspectionCounts(from: String, to: String, facilityID: String?) throws(ServerError)
        -> [(facilityID: String, areaID: String?, count: Int)]
    {
        var sql =
            "SELECT facility_id, area_id, COUNT(*) AS inspections FROM reports WHERE accepted_at >= ? AND accepted_at < ?"
        var values: [SQLParameter] = [.text(from), .text(to)]
        if let facilityID {
            sql += " AND facility_id = ?"
            values.append(.text(facilityID))
        }
        return try rows(sql + " GROUP BY facility_id, area_id", values).map { row in
            (row.text("facility_id") ?? "", row.text("area_id"), Int(row.integer("inspections") ?? 0))
        }
    }

    public func visitsFallingMissed(after: (windowEnd: String, id: String), upTo: String, limit: Int)
        throws(ServerError) -> [ScheduledVisit]
    {
        try rows(
            """
            SELECT id, schedule_id, template_id, facility_id, area_id, inspector_id, window_start, window_end
            FROM assignments
            WHERE schedule_id IS NOT NULL AND status = 'open' AND window_end <= ?
              AND (window_end > ? OR (window_end = ? AND id > ?))
            ORDER BY window_end, id LIMIT ?
            """,
            [.text(upTo), .text(after.windowEnd), .text(after.windowEnd), .text(after.id), .count(limit)]
        ).map(Self.visit)
    }

    /// The schedule in `row`.
    public static func schedule(_ row: ResultRow) -> StoredSchedule {
        StoredSchedule(
            id: row.text("id") ?? "", templateID: row.text("template_id") ?? "",
            facilityID: row.text("facility_id") ?? "", areaIDs: list(row.text("area_ids")),
            inspectorIDs: list(row.text("inspector_ids")), rule: row.text("rule") ?? "",
            window: row.text("time_window") ?? "", zone: row.text("zone") ?? "UTC",
            startDate: row.text("start_date") ?? "", endDate: row.text("end_date"), pausedAt: row.text("paused_at"),
            version: Int(row.integer("version") ?? 1), madeUntil: row.text("made_until"),
            madeCount: Int(row.integer("made_count") ?? 0), createdAt: row.text("created_at") ?? "",
            updatedAt: row.text("updated_at") ?? "")
    }

    /// The visit in `row` (an assignment's columns).
    public static func visit(_ row: ResultRow) -> ScheduledVisit {
        ScheduledVisit(
            id: row.text("id") ?? "", scheduleID: row.text("schedule_id") ?? "",
            templateID: row.text("template_id") ?? "", facilityID: row.text("facility_id") ?? "",
            areaID: row.text("area_id"), inspectorID: row.text("inspector_id") ?? "",
            windowStart: row.text("window_start") ?? "", windowEnd: row.text("window_end") ?? "")
    }

    /// A list of ids as the JSON array a column holds.
    public static func list(_ items: [String]) -> String {
        let data = (try? JSONEncoder().encode(items)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The ids in a column's JSON array; none when it is not one.
    public static func list(_ text: String?) -> [String] {
        guard let text, let items = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return [] }
        return items
    }
}
