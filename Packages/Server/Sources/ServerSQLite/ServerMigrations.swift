import SQLite

/// The server database's schema, as named steps applied in order by SQLite's
/// `Migrator` and recorded in `server_migrations`. The server's schema is its own: it shares nothing
/// with the device store. A step, once released, is never edited; change the
/// schema by adding a step.
enum ServerMigrations {
    /// The migrator over `steps`.
    static let migrator = Migrator(
        ledger: "server_migrations",
        steps: steps.map { Migrator.Step(name: $0.name, sql: $0.sql.joined(separator: ";\n")) },
        applicationID: applicationID)

    /// Marks a SQLite file as a jqc-server database ("JQCS"), in the header's
    /// `application_id`; databases made before the mark carry 0 and their ledger.
    static let applicationID: Int32 = 0x4A51_4353

    /// Every step, in order.
    static let steps: [(name: String, sql: [String])] = [
        (
            "001-accounts",
            [
                """
                CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)
                """,
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
                    role TEXT NOT NULL CHECK (role IN ('inspector', 'supervisor')), display_name TEXT NOT NULL)
                """,
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id),
                    created_at TEXT NOT NULL, revoked_at TEXT)
                """,
                """
                CREATE TABLE refresh_tokens (
                    token_hash TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id),
                    issued_at TEXT NOT NULL, spent_at TEXT)
                """,
            ]
        ),
        (
            "002-reference-data",
            [
                """
                CREATE TABLE facilities (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, address TEXT NOT NULL, project_name TEXT NOT NULL,
                    position INTEGER NOT NULL)
                """,
                """
                CREATE TABLE areas (
                    id TEXT PRIMARY KEY, facility_id TEXT NOT NULL REFERENCES facilities(id), name TEXT NOT NULL,
                    area_type TEXT NOT NULL, position INTEGER NOT NULL)
                """,
                """
                CREATE TABLE templates (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, version INTEGER NOT NULL, form_schema TEXT NOT NULL,
                    position INTEGER NOT NULL)
                """,
                """
                CREATE TABLE assignments (
                    id TEXT PRIMARY KEY, inspector_id TEXT NOT NULL REFERENCES users(id),
                    template_id TEXT NOT NULL REFERENCES templates(id), facility_id TEXT NOT NULL REFERENCES facilities(id),
                    area_id TEXT, due_at TEXT, status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
                    change_seq INTEGER NOT NULL)
                """,
            ]
        ),
        (
            "003-reports",
            [
                """
                CREATE TABLE reports (
                    server_id TEXT PRIMARY KEY, seq INTEGER NOT NULL UNIQUE, local_id TEXT NOT NULL UNIQUE,
                    owner_id TEXT NOT NULL REFERENCES users(id), template_id TEXT NOT NULL, facility_id TEXT NOT NULL,
                    area_id TEXT, assignment_id TEXT, parent_local_id TEXT, parent_server_id TEXT,
                    completed_at_device TEXT, current_revision INTEGER NOT NULL, score REAL,
                    follow_up_required INTEGER NOT NULL, follow_up_cleared_by TEXT, accepted_at TEXT NOT NULL)
                """,
                "CREATE INDEX reports_owner ON reports(owner_id, seq)",
                """
                CREATE TABLE report_revisions (
                    server_id TEXT NOT NULL REFERENCES reports(server_id), revision INTEGER NOT NULL,
                    base_revision INTEGER, payload TEXT NOT NULL, issues TEXT NOT NULL,
                    source TEXT NOT NULL CHECK (source IN ('device', 'supervisor', 'admin')),
                    author_id TEXT, created_at TEXT NOT NULL, PRIMARY KEY (server_id, revision))
                """,
                """
                CREATE TABLE photos (
                    local_id TEXT PRIMARY KEY, server_id TEXT NOT NULL REFERENCES reports(server_id), field_id TEXT,
                    issue_local_id TEXT, sha256 TEXT NOT NULL, byte_size INTEGER NOT NULL,
                    uploaded_by TEXT NOT NULL REFERENCES users(id), created_at TEXT NOT NULL)
                """,
                "CREATE INDEX photos_report ON photos(server_id)",
            ]
        ),
        (
            "004-sign-in-failures",
            [
                "CREATE TABLE sign_in_failures (key TEXT PRIMARY KEY, window_start INTEGER NOT NULL, failures INTEGER NOT NULL)",
                "CREATE INDEX sign_in_failures_age ON sign_in_failures(window_start)",
            ]
        ),
        // Administration: admins (kept as supervisors marked is_admin, since
        // SQLite cannot change the role column's CHECK in place), disabled
        // users, retired sites and templates, every published template
        // version, cancelled assignments, and the log of who changed what.
        (
            "005-administration",
            [
                "ALTER TABLE users ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE users ADD COLUMN disabled_at TEXT",
                "ALTER TABLE facilities ADD COLUMN retired_at TEXT",
                "ALTER TABLE areas ADD COLUMN retired_at TEXT",
                "ALTER TABLE templates ADD COLUMN retired_at TEXT",
                """
                CREATE TABLE template_versions (
                    template_id TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, form_schema TEXT NOT NULL,
                    published_at TEXT NOT NULL, published_by TEXT NOT NULL, PRIMARY KEY (template_id, version))
                """,
                """
                INSERT INTO template_versions (template_id, version, name, form_schema, published_at, published_by)
                SELECT id, version, name, form_schema, '', 'import' FROM templates
                """,
                "ALTER TABLE assignments ADD COLUMN cancelled_at TEXT",
                """
                CREATE TABLE admin_events (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, actor_id TEXT NOT NULL, actor_name TEXT NOT NULL,
                    kind TEXT NOT NULL, subject TEXT NOT NULL, detail TEXT NOT NULL)
                """,
            ]
        ),
        // Reviews (contract 1.1): the review of each report's current revision
        // kept on the report's row, its position in the order of review
        // changes, and each report's append-only events. Reports accepted
        // before are awaiting review, with the events their revisions tell.
        (
            "006-reviews",
            [
                "ALTER TABLE reports ADD COLUMN review_state TEXT NOT NULL DEFAULT 'awaiting_review'",
                "ALTER TABLE reports ADD COLUMN reviewed_revision INTEGER NOT NULL DEFAULT 1",
                "ALTER TABLE reports ADD COLUMN review_decided_by TEXT",
                "ALTER TABLE reports ADD COLUMN review_decided_by_name TEXT",
                "ALTER TABLE reports ADD COLUMN review_decided_at TEXT",
                "ALTER TABLE reports ADD COLUMN review_comment TEXT",
                "ALTER TABLE reports ADD COLUMN review_field_comments TEXT NOT NULL DEFAULT '[]'",
                "ALTER TABLE reports ADD COLUMN review_change INTEGER NOT NULL DEFAULT 0",
                "UPDATE reports SET reviewed_revision = current_revision, review_change = seq",
                "CREATE INDEX reports_review_change ON reports(review_change)",
                "CREATE INDEX reports_owner_review_change ON reports(owner_id, review_change)",
                "CREATE INDEX reports_review_state ON reports(review_state, seq)",
                """
                CREATE TABLE report_events (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT, server_id TEXT NOT NULL REFERENCES reports(server_id), at TEXT NOT NULL,
                    actor_id TEXT NOT NULL, actor_name TEXT NOT NULL, kind TEXT NOT NULL, revision INTEGER NOT NULL,
                    comment TEXT, field_comments TEXT)
                """,
                "CREATE INDEX report_events_report ON report_events(server_id, seq)",
                """
                INSERT INTO report_events (server_id, at, actor_id, actor_name, kind, revision)
                SELECT v.server_id, v.created_at, COALESCE(v.author_id, 'jqc-server admin'), COALESCE(u.display_name, 'jqc-server admin'),
                       CASE WHEN v.revision = 1 THEN 'accepted' WHEN v.source = 'device' THEN 'amended' ELSE 'edited' END, v.revision
                FROM report_revisions v LEFT JOIN users u ON u.id = v.author_id ORDER BY v.server_id, v.revision
                """,
            ]
        ),
        // Webhooks (contract 1.1): each report event carries the position of its
        // review change, the order webhooks read the record in (the outbox);
        // the hooks, each with its cursor in that order; and their
        // deliveries, taken under a lease by one sender at a time.
        (
            "007-webhooks",
            [
                "ALTER TABLE report_events ADD COLUMN change INTEGER NOT NULL DEFAULT 0",
                "CREATE INDEX report_events_change ON report_events(change) WHERE change > 0",
                """
                CREATE TABLE webhooks (
                    id TEXT PRIMARY KEY, position INTEGER NOT NULL, url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL,
                    allow_private INTEGER NOT NULL, created_at TEXT NOT NULL, disabled_at TEXT, disabled_reason TEXT,
                    cursor INTEGER NOT NULL)
                """,
                """
                CREATE TABLE webhook_deliveries (
                    id INTEGER PRIMARY KEY, webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
                    event_id TEXT NOT NULL, type TEXT NOT NULL, at TEXT NOT NULL, report_server_id TEXT NOT NULL, body TEXT NOT NULL,
                    state TEXT NOT NULL, attempts INTEGER NOT NULL, next_attempt_at INTEGER NOT NULL, lease_until INTEGER, lease_owner TEXT,
                    last_status INTEGER, last_error TEXT, last_attempt_at TEXT, delivered_at TEXT)
                """,
                "CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE state = 'pending'",
                "CREATE INDEX webhook_deliveries_order ON webhook_deliveries(webhook_id, report_server_id, id) WHERE state = 'pending'",
                "CREATE INDEX webhook_deliveries_failed ON webhook_deliveries(id) WHERE state = 'failed'",
                "CREATE INDEX webhook_deliveries_delivered ON webhook_deliveries(delivered_at) WHERE state = 'delivered'",
            ]
        ),
        // Quotas: what each user has stored (revision payloads and photos they
        // sent, in bytes) and their revisions of the current UTC day, kept in
        // the transactions that store them.
        (
            "008-quotas",
            [
                "CREATE TABLE user_usage (user_id TEXT PRIMARY KEY, bytes INTEGER NOT NULL, day TEXT NOT NULL, revisions INTEGER NOT NULL)",
                """
                INSERT INTO user_usage (user_id, bytes, day, revisions)
                SELECT u.id,
                       COALESCE((SELECT SUM(length(CAST(v.payload AS BLOB))) FROM report_revisions v WHERE v.author_id = u.id), 0)
                       + COALESCE((SELECT SUM(p.byte_size) FROM photos p WHERE p.uploaded_by = u.id), 0), '', 0
                FROM users u
                """,
            ]
        ),
        // Merging disjoint edits (contract 1.1): a merged revision keeps the
        // payload the device sent (a replay finds it by that) and the fields
        // that came from the server's side.
        (
            "009-merges",
            [
                "ALTER TABLE report_revisions ADD COLUMN sent_payload TEXT",
                "ALTER TABLE report_revisions ADD COLUMN merged_fields TEXT",
            ]
        ),
        // Resumable photo uploads (contract 1.1): a row each; the bytes in the
        // private upload folder (`partial-<id>`) until the photo is stored.
        (
            "010-resumable-uploads",
            [
                """
                CREATE TABLE resumable_uploads (
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), server_id TEXT NOT NULL, local_id TEXT NOT NULL,
                    field_id TEXT, issue_local_id TEXT, sha256 TEXT NOT NULL, byte_size INTEGER NOT NULL, byte_offset INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL, finished_at TEXT, created_at TEXT NOT NULL, UNIQUE (user_id, local_id))
                """,
                "CREATE INDEX resumable_uploads_expiry ON resumable_uploads(expires_at)",
            ]
        ),
        // A new upload counts its user's unfinished ones (the per-user limit of bytes
        // held): by this index, without reading every finished upload not yet expired.
        (
            "011-unfinished-uploads",
            [
                "CREATE INDEX resumable_uploads_unfinished ON resumable_uploads(user_id) WHERE finished_at IS NULL"
            ]
        ),
        // Corrective actions (contract 1.2): each action's row as it now
        // stands, its updates appended, and who besides supervisors may see
        // it (assigned to them now or before, or from their report). The crew
        // role is kept as an inspector marked `later_role`, as admins are kept
        // as supervisors marked `is_admin`: the role column's CHECK stays.
        (
            "012-actions",
            [
                "ALTER TABLE users ADD COLUMN later_role TEXT",
                """
                CREATE TABLE actions (
                    id TEXT PRIMARY KEY, request_id TEXT UNIQUE, facility_id TEXT NOT NULL, area_id TEXT, title TEXT NOT NULL,
                    description TEXT, severity TEXT NOT NULL, is_internal INTEGER NOT NULL, state TEXT NOT NULL,
                    assignee_id TEXT REFERENCES users(id), due_at TEXT, source_kind TEXT NOT NULL, report_server_id TEXT,
                    issue_local_id TEXT, created_by TEXT NOT NULL REFERENCES users(id), done_by TEXT, version INTEGER NOT NULL,
                    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, change INTEGER NOT NULL)
                """,
                """
                CREATE UNIQUE INDEX actions_issue ON actions(report_server_id, issue_local_id)
                WHERE issue_local_id IS NOT NULL
                """,
                "CREATE INDEX actions_change ON actions(change)",
                """
                CREATE TABLE action_updates (
                    id TEXT PRIMARY KEY, action_id TEXT NOT NULL REFERENCES actions(id), author_id TEXT NOT NULL,
                    at TEXT NOT NULL, state TEXT, comment TEXT, assignee_set INTEGER NOT NULL, assignee_id TEXT,
                    due_set INTEGER NOT NULL, due_at TEXT, version INTEGER NOT NULL)
                """,
                "CREATE INDEX action_updates_action ON action_updates(action_id, version)",
                """
                CREATE TABLE action_viewers (
                    action_id TEXT NOT NULL REFERENCES actions(id), user_id TEXT NOT NULL, PRIMARY KEY (action_id, user_id))
                """,
                "CREATE INDEX action_viewers_user ON action_viewers(user_id, action_id)",
            ]
        ),
        // Webhook events of actions: each action as it stood after each change,
        // written with the change, and each hook's cursor in their order.
        (
            "013-action-webhooks",
            [
                "ALTER TABLE webhooks ADD COLUMN action_cursor INTEGER NOT NULL DEFAULT 0",
                """
                CREATE TABLE action_events (
                    change INTEGER PRIMARY KEY, action_id TEXT NOT NULL, type TEXT NOT NULL, at TEXT NOT NULL,
                    body TEXT NOT NULL)
                """,
            ]
        ),
        // Photos of corrective actions and of their updates, through the resumable
        // uploads, whose rows now say what their photo goes to.
        (
            "014-action-photos",
            [
                """
                CREATE TABLE action_photos (
                    local_id TEXT PRIMARY KEY, action_id TEXT NOT NULL REFERENCES actions(id), update_id TEXT,
                    sha256 TEXT NOT NULL, byte_size INTEGER NOT NULL, uploaded_by TEXT NOT NULL REFERENCES users(id),
                    created_at TEXT NOT NULL, position INTEGER NOT NULL)
                """,
                "CREATE INDEX action_photos_action ON action_photos(action_id, position)",
                "ALTER TABLE resumable_uploads ADD COLUMN target TEXT NOT NULL DEFAULT 'report'",
                "ALTER TABLE resumable_uploads ADD COLUMN update_id TEXT",
            ]
        ),
        // The console's list of actions, the soonest due first (none due last), with or
        // without a state, read from an index in that order instead of sorting every action; the
        // overdue ones (open or in progress, due before now) counted from an index by state and due time.
        (
            "015-action-list",
            [
                "CREATE INDEX actions_due ON actions((due_at IS NULL), due_at, change)",
                "CREATE INDEX actions_state_due ON actions(state, (due_at IS NULL), due_at, change)",
                "CREATE INDEX actions_overdue ON actions(state, due_at)",
                // The counts per state the list shows, kept by the database itself with every
                // action written, by site, severity and assignee ('' for none).
                """
                CREATE TABLE action_counts (
                    facility_id TEXT NOT NULL, severity TEXT NOT NULL, assignee_id TEXT NOT NULL, state TEXT NOT NULL,
                    n INTEGER NOT NULL, PRIMARY KEY (facility_id, severity, assignee_id, state))
                """,
                """
                INSERT INTO action_counts (facility_id, severity, assignee_id, state, n)
                SELECT facility_id, severity, COALESCE(assignee_id, ''), state, COUNT(*) FROM actions GROUP BY 1, 2, 3, 4
                """,
                """
                CREATE TRIGGER action_counts_insert AFTER INSERT ON actions BEGIN
                    INSERT INTO action_counts (facility_id, severity, assignee_id, state, n)
                    VALUES (NEW.facility_id, NEW.severity, COALESCE(NEW.assignee_id, ''), NEW.state, 1)
                    ON CONFLICT (facility_id, severity, assignee_id, state) DO UPDATE SET n = n + 1;
                END
                """,
                """
                CREATE TRIGGER action_counts_update AFTER UPDATE OF facility_id, severity, assignee_id, state ON actions
                BEGIN
                    UPDATE action_counts SET n = n - 1
                    WHERE facility_id = OLD.facility_id AND severity = OLD.severity
                        AND assignee_id = COALESCE(OLD.assignee_id, '') AND state = OLD.state;
                    INSERT INTO action_counts (facility_id, severity, assignee_id, state, n)
                    VALUES (NEW.facility_id, NEW.severity, COALESCE(NEW.assignee_id, ''), NEW.state, 1)
                    ON CONFLICT (facility_id, severity, assignee_id, state) DO UPDATE SET n = n + 1;
                END
                """,
                """
                CREATE TRIGGER action_counts_delete AFTER DELETE ON actions BEGIN
                    UPDATE action_counts SET n = n - 1
                    WHERE facility_id = OLD.facility_id AND severity = OLD.severity
                        AND assignee_id = COALESCE(OLD.assignee_id, '') AND state = OLD.state;
                END
                """,
            ]
        ),
        // Contract 1.2's grades: a template's pass threshold, and each revision's score,
        // pass and deficiencies as the server judged them (the current one's on the report).
        (
            "016-grades",
            [
                "ALTER TABLE templates ADD COLUMN pass_threshold REAL",
                "ALTER TABLE template_versions ADD COLUMN pass_threshold REAL",
                "ALTER TABLE reports ADD COLUMN passed INTEGER",
                "ALTER TABLE reports ADD COLUMN deficiency_count INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE report_revisions ADD COLUMN grade TEXT",
                // Roll-ups: reports received in a window, of one site or all, and each
                // deficient answer a row, for the items that fail most.
                "CREATE INDEX reports_received ON reports(accepted_at)",
                "CREATE INDEX reports_site_received ON reports(facility_id, accepted_at)",
                """
                CREATE TABLE report_deficiencies (
                    server_id TEXT NOT NULL REFERENCES reports(server_id), field_id TEXT NOT NULL,
                    template_id TEXT NOT NULL, facility_id TEXT NOT NULL, accepted_at TEXT NOT NULL,
                    PRIMARY KEY (server_id, field_id))
                """,
                "CREATE INDEX report_deficiencies_received ON report_deficiencies(accepted_at)",
                "CREATE INDEX report_deficiencies_site ON report_deficiencies(facility_id, accepted_at)",
            ]
        ),
        // Clients (contract 1.2): the facilities an admin named for each.
        (
            "017-clients",
            [
                """
                CREATE TABLE client_facilities (
                    user_id TEXT NOT NULL REFERENCES users(id), facility_id TEXT NOT NULL,
                    PRIMARY KEY (user_id, facility_id))
                """
            ]
        ),
        // A site's actions by state (a client's buildings count their open ones, one site at a time).
        (
            "018-actions-by-site",
            ["CREATE INDEX actions_site_state ON actions(facility_id, state, is_internal)"]
        ),
        // Mail: each person's address and choices, and the messages made from
        // the record of events, each once (its Message-ID is unique), sent
        // under a lease as webhook deliveries are.
        (
            "019-mail",
            [
                "ALTER TABLE users ADD COLUMN email TEXT",
                """
                CREATE TABLE mail_preferences (
                    user_id TEXT PRIMARY KEY REFERENCES users(id), alerts TEXT NOT NULL, digest TEXT NOT NULL,
                    digest_locked INTEGER NOT NULL, updated_at TEXT NOT NULL)
                """,
                """
                CREATE TABLE mail_messages (
                    id INTEGER PRIMARY KEY, message_id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, user_id TEXT, recipient TEXT NOT NULL,
                    subject TEXT NOT NULL, body TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL,
                    next_attempt_at INTEGER NOT NULL, lease_until INTEGER, lease_owner TEXT, last_code INTEGER, last_reply TEXT,
                    last_attempt_at TEXT, sent_at TEXT, created_at TEXT NOT NULL)
                """,
                "CREATE INDEX mail_messages_due ON mail_messages(next_attempt_at) WHERE state = 'pending'",
                // A sender's claim walks the pending messages in id order on this index alone, to its
                // limit: it never reads a message's row (its body) to learn that it is not due.
                """
                CREATE INDEX mail_messages_claim ON mail_messages(id, next_attempt_at, lease_until)
                WHERE state = 'pending'
                """,
                "CREATE INDEX mail_messages_failed ON mail_messages(id) WHERE state = 'failed'",
                "CREATE INDEX mail_messages_sent ON mail_messages(sent_at) WHERE state = 'sent'",
            ]
        ),
        // Schedules: recurring inspections, each visit made ahead into an open
        // assignment whose id carries the schedule, its version and the day.
        (
            "020-schedules",
            [
                """
                CREATE TABLE schedules (
                    id TEXT PRIMARY KEY, template_id TEXT NOT NULL, facility_id TEXT NOT NULL, area_ids TEXT NOT NULL,
                    inspector_ids TEXT NOT NULL, rule TEXT NOT NULL, time_window TEXT NOT NULL, zone TEXT NOT NULL,
                    start_date TEXT NOT NULL, end_date TEXT, paused_at TEXT, version INTEGER NOT NULL, made_until TEXT,
                    made_count INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)
                """,
                "ALTER TABLE assignments ADD COLUMN schedule_id TEXT",
                "ALTER TABLE assignments ADD COLUMN window_start TEXT",
                "ALTER TABLE assignments ADD COLUMN window_end TEXT",
                "CREATE INDEX assignments_schedule ON assignments(schedule_id, window_start) WHERE schedule_id IS NOT NULL",
                "CREATE INDEX assignments_window ON assignments(window_start) WHERE schedule_id IS NOT NULL",
                "CREATE INDEX reports_assignment ON reports(assignment_id) WHERE assignment_id IS NOT NULL",
                // The visits still open past their window, which the missed-visit alert walks.
                """
                CREATE INDEX assignments_open_visit_end ON assignments(window_end, id)
                WHERE schedule_id IS NOT NULL AND status = 'open'
                """,
            ]
        ),
    ]
}
