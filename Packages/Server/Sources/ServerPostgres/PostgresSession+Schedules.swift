import Foundation
import ServerSQL
import ServerStore

/// Schedules to make and their visits, as PostgreSQL words them: any number
/// of instances make visits at once, each taking schedules the others do not
/// hold (`SKIP LOCKED`), and a visit's id is unique, so each is made once.
extension PostgresSession {
    func schedulesToMake(horizon: String, limit: Int) throws(ServerError) -> [StoredSchedule] {
        try rows(
            """
            SELECT \(Self.scheduleColumns) FROM schedules
            WHERE paused_at IS NULL AND (made_until IS NULL OR made_until < $1) ORDER BY id LIMIT $2
            FOR UPDATE SKIP LOCKED
            """, [.text(horizon), .count(limit)]
        ).map(Self.schedule)
    }

    func insertVisits(_ visits: [ScheduledVisit]) throws(ServerError) -> Int {
        guard !visits.isEmpty else { return 0 }
        let records = visits.enumerated().map { index, visit in
            VisitRow(
                ord: index, id: visit.id, inspector_id: visit.inspectorID, template_id: visit.templateID,
                facility_id: visit.facilityID, area_id: visit.areaID, schedule_id: visit.scheduleID,
                window_start: visit.windowStart, window_end: visit.windowEnd)
        }
        guard let data = try? JSONEncoder().encode(records) else {
            throw ServerError.internal("the visits could not be encoded")
        }
        // New rows first, numbered after: the counter's row is held from here to commit only.
        let made = try rows(
            """
            INSERT INTO assignments (id, inspector_id, template_id, facility_id, area_id, due_at, status, change_seq,
                schedule_id, window_start, window_end)
            SELECT id, inspector_id, template_id, facility_id, area_id, window_end, 'open', 0, schedule_id, window_start,
                window_end
            FROM json_to_recordset($1::json) AS x(ord integer, id text, inspector_id text, template_id text,
                facility_id text, area_id text, schedule_id text, window_start text, window_end text)
            ORDER BY ord
            ON CONFLICT (id) DO NOTHING RETURNING id
            """, [.text(String(decoding: data, as: UTF8.self))]
        ).compactMap { $0.text("id") }
        guard !made.isEmpty else { return 0 }
        let seq = try nextChangeSequence()
        try run(
            "UPDATE assignments SET change_seq = $1 WHERE id IN (SELECT json_array_elements_text($2::json))",
            [.integer(seq), .text(Self.list(made))])
        return made.count
    }

    /// One visit as the bulk insert reads it.
    private struct VisitRow: Encodable {
        let ord: Int
        let id: String
        let inspector_id: String
        let template_id: String
        let facility_id: String
        let area_id: String?
        let schedule_id: String
        let window_start: String
        let window_end: String
    }
}
