import ServerSQL
import ServerStore

/// Schedules to make and their visits, as SQLite words them: its one writer
/// holds the whole database, so a pick needs no lock of its own.
extension SQLiteSession {
    func schedulesToMake(horizon: String, limit: Int) throws(ServerError) -> [StoredSchedule] {
        try rows(
            """
            SELECT \(Self.scheduleColumns) FROM schedules
            WHERE paused_at IS NULL AND (made_until IS NULL OR made_until < ?) ORDER BY id LIMIT ?
            """, [.text(horizon), .count(limit)]
        ).map(Self.schedule)
    }

    func insertVisits(_ visits: [ScheduledVisit]) throws(ServerError) -> Int {
        guard !visits.isEmpty else { return 0 }
        let seq = try nextChangeSequence()
        var made = 0
        for visit in visits {
            made += try change(
                """
                INSERT INTO assignments (id, inspector_id, template_id, facility_id, area_id, due_at, status, change_seq,
                    schedule_id, window_start, window_end)
                VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                """,
                [
                    .text(visit.id), .text(visit.inspectorID), .text(visit.templateID), .text(visit.facilityID),
                    .optional(visit.areaID), .text(visit.windowEnd), .integer(seq), .text(visit.scheduleID),
                    .text(visit.windowStart), .text(visit.windowEnd),
                ])
        }
        return made
    }
}
