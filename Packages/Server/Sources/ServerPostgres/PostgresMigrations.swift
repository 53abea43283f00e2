import PostgreSQL
import ServerStore

/// The PostgreSQL schema of the server, as named steps recorded in
/// `jqc_server_migrations`. Instances starting together take an advisory
/// lock first, so the steps run once; the others wait, then find them done.
/// A database whose ledger names a step this build does not know was
/// written by a newer jqc-server, and one holding tables but no ledger
/// belongs to another program: both are refused before anything is written.
/// A released step is never edited; the schema changes by adding steps.
enum PostgresMigrations {
    /// The ledger's name: the mark of a jqc-server database.
    static let ledger = "jqc_server_migrations"
    /// The advisory lock key ("JQCS").
    static let lockKey: Int64 = 0x4A51_4353

    /// Every step, in order.
    static let steps: [(name: String, sql: String)] = [
        (
            "001-schema",
            """
            CREATE TABLE settings (key text PRIMARY KEY, value text NOT NULL);
            CREATE TABLE counters (name text PRIMARY KEY, value bigint NOT NULL);
            INSERT INTO counters (name, value) VALUES ('assignments', 0), ('templates', 0);
            CREATE TABLE users (
                id text PRIMARY KEY, username text NOT NULL UNIQUE, password_hash text NOT NULL,
                role text NOT NULL CHECK (role IN ('inspector', 'supervisor')), display_name text NOT NULL);
            CREATE TABLE sessions (
                id text PRIMARY KEY, user_id text NOT NULL REFERENCES users(id), created_at text NOT NULL, revoked_at text);
            CREATE INDEX sessions_user ON sessions(user_id);
            CREATE TABLE refresh_tokens (
                token_hash text PRIMARY KEY, session_id text NOT NULL REFERENCES sessions(id),
                issued_at text NOT NULL, spent_at text);
            CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id);
            CREATE TABLE facilities (
                id text PRIMARY KEY, name text NOT NULL, address text NOT NULL, project_name text NOT NULL, position integer NOT NULL);
            CREATE TABLE areas (
                id text PRIMARY KEY, facility_id text NOT NULL REFERENCES facilities(id), name text NOT NULL,
                area_type text NOT NULL, position integer NOT NULL);
            CREATE TABLE templates (
                id text PRIMARY KEY, name text NOT NULL, version integer NOT NULL, form_schema text NOT NULL, position integer NOT NULL);
            CREATE TABLE assignments (
                id text PRIMARY KEY, inspector_id text NOT NULL REFERENCES users(id),
                template_id text NOT NULL REFERENCES templates(id), facility_id text NOT NULL REFERENCES facilities(id),
                area_id text, due_at text, status text NOT NULL CHECK (status IN ('open', 'closed')), change_seq bigint NOT NULL);
            CREATE INDEX assignments_inspector ON assignments(inspector_id, change_seq);
            CREATE TABLE reports (
                server_id text PRIMARY KEY, seq bigserial NOT NULL UNIQUE, local_id text NOT NULL UNIQUE,
                owner_id text NOT NULL REFERENCES users(id), template_id text NOT NULL, facility_id text NOT NULL,
                area_id text, assignment_id text, parent_local_id text, parent_server_id text,
                completed_at_device text, current_revision integer NOT NULL, score double precision,
                follow_up_required boolean NOT NULL, follow_up_cleared_by text, accepted_at text NOT NULL);
            CREATE INDEX reports_owner ON reports(owner_id, seq);
            CREATE TABLE report_revisions (
                server_id text NOT NULL REFERENCES reports(server_id), revision integer NOT NULL,
                base_revision integer, payload text NOT NULL, issues text NOT NULL,
                source text NOT NULL CHECK (source IN ('device', 'supervisor', 'admin')),
                author_id text, created_at text NOT NULL, PRIMARY KEY (server_id, revision));
            CREATE TABLE photo_blobs (sha256 text PRIMARY KEY, byte_size bigint NOT NULL, chunks integer NOT NULL);
            CREATE TABLE photo_chunks (
                sha256 text NOT NULL, chunk integer NOT NULL, bytes bytea NOT NULL, PRIMARY KEY (sha256, chunk));
            CREATE TABLE photos (
                local_id text PRIMARY KEY, seq bigserial NOT NULL, server_id text NOT NULL REFERENCES reports(server_id),
                field_id text, issue_local_id text, sha256 text NOT NULL REFERENCES photo_blobs(sha256),
                byte_size bigint NOT NULL, uploaded_by text NOT NULL REFERENCES users(id), created_at text NOT NULL);
            CREATE INDEX photos_report ON photos(server_id, seq);
            CREATE TABLE sign_in_failures (key text PRIMARY KEY, window_start bigint NOT NULL, failures integer NOT NULL);
            CREATE INDEX sign_in_failures_age ON sign_in_failures(window_start)
            """
        ),
        // Administration: the admin role, disabled users, retired sites and
        // templates, every published template version, cancelled
        // assignments, and the log of who changed what.
        (
            "002-administration",
            """
            ALTER TABLE users DROP CONSTRAINT users_role_check;
            ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('inspector', 'supervisor', 'admin'));
            ALTER TABLE users ADD COLUMN disabled_at text;
            ALTER TABLE facilities ADD COLUMN retired_at text;
            ALTER TABLE areas ADD COLUMN retired_at text;
            ALTER TABLE templates ADD COLUMN retired_at text;
            CREATE TABLE template_versions (
                template_id text NOT NULL, version integer NOT NULL, name text NOT NULL, form_schema text NOT NULL,
                published_at text NOT NULL, published_by text NOT NULL, PRIMARY KEY (template_id, version));
            INSERT INTO template_versions (template_id, version, name, form_schema, published_at, published_by)
                SELECT id, version, name, form_schema, '', 'import' FROM templates;
            ALTER TABLE assignments ADD COLUMN cancelled_at text;
            CREATE TABLE admin_events (
                seq bigserial PRIMARY KEY, at text NOT NULL, actor_id text NOT NULL, actor_name text NOT NULL,
                kind text NOT NULL, subject text NOT NULL, detail text NOT NULL)
            """
        ),
        // Reviews (contract 1.1): the review of each report's current revision
        // kept on the report's row, its position from the 'reviews' counter
        // (its row locked until commit, so positions become visible in
        // order), and each report's append-only events.
        (
            "003-reviews",
            """
            ALTER TABLE reports ADD COLUMN review_state text NOT NULL DEFAULT 'awaiting_review';
            ALTER TABLE reports ADD COLUMN reviewed_revision integer NOT NULL DEFAULT 1;
            ALTER TABLE reports ADD COLUMN review_decided_by text;
            ALTER TABLE reports ADD COLUMN review_decided_by_name text;
            ALTER TABLE reports ADD COLUMN review_decided_at text;
            ALTER TABLE reports ADD COLUMN review_comment text;
            ALTER TABLE reports ADD COLUMN review_field_comments text NOT NULL DEFAULT '[]';
            ALTER TABLE reports ADD COLUMN review_change bigint NOT NULL DEFAULT 0;
            UPDATE reports SET reviewed_revision = current_revision, review_change = seq;
            INSERT INTO counters (name, value) SELECT 'reviews', COALESCE(MAX(seq), 0) FROM reports;
            CREATE INDEX reports_review_change ON reports(review_change);
            CREATE INDEX reports_owner_review_change ON reports(owner_id, review_change);
            CREATE INDEX reports_review_state ON reports(review_state, seq);
            CREATE TABLE report_events (
                seq bigserial PRIMARY KEY, server_id text NOT NULL REFERENCES reports(server_id), at text NOT NULL,
                actor_id text NOT NULL, actor_name text NOT NULL, kind text NOT NULL, revision integer NOT NULL,
                comment text, field_comments text);
            CREATE INDEX report_events_report ON report_events(server_id, seq);
            INSERT INTO report_events (server_id, at, actor_id, actor_name, kind, revision)
            SELECT v.server_id, v.created_at, COALESCE(v.author_id, 'jqc-server admin'), COALESCE(u.display_name, 'jqc-server admin'),
                   CASE WHEN v.revision = 1 THEN 'accepted' WHEN v.source = 'device' THEN 'amended' ELSE 'edited' END, v.revision
            FROM report_revisions v LEFT JOIN users u ON u.id = v.author_id ORDER BY v.server_id, v.revision
            """
        ),
        // The console's queue sorted by score: lowest first, unscored last, newest first among equals.
        (
            "004-queue-by-score",
            """
            CREATE INDEX reports_score ON reports(score ASC NULLS LAST, seq DESC);
            """
        ),
        // Webhooks (contract 1.1): each report event carries the position of its
        // review change (from the 'reviews' counter, so positions become
        // visible in commit order), the order webhooks read the record in (the
        // outbox); the hooks, each with its cursor in that order; and their
        // deliveries, taken by one instance at a time (FOR UPDATE SKIP LOCKED,
        // then a lease that every instance honours until it runs out).
        (
            "005-webhooks",
            """
            ALTER TABLE report_events ADD COLUMN change bigint NOT NULL DEFAULT 0;
            CREATE INDEX report_events_change ON report_events(change) WHERE change > 0;
            CREATE TABLE webhooks (
                id text PRIMARY KEY, position bigserial NOT NULL, url text NOT NULL, events text NOT NULL, secret text NOT NULL,
                allow_private boolean NOT NULL, created_at text NOT NULL, disabled_at text, disabled_reason text,
                cursor bigint NOT NULL);
            CREATE TABLE webhook_deliveries (
                id bigserial PRIMARY KEY, webhook_id text NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
                event_id text NOT NULL, type text NOT NULL, at text NOT NULL, report_server_id text NOT NULL, body text NOT NULL,
                state text NOT NULL, attempts integer NOT NULL, next_attempt_at bigint NOT NULL, lease_until bigint, lease_owner text,
                last_status integer, last_error text, last_attempt_at text, delivered_at text);
            CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE state = 'pending';
            CREATE INDEX webhook_deliveries_order ON webhook_deliveries(webhook_id, report_server_id, id) WHERE state = 'pending';
            CREATE INDEX webhook_deliveries_failed ON webhook_deliveries(id) WHERE state = 'failed';
            CREATE INDEX webhook_deliveries_delivered ON webhook_deliveries(delivered_at) WHERE state = 'delivered'
            """
        ),
        // Quotas: what each user has stored (revision payloads and photos they
        // sent, in bytes) and their revisions of the current UTC day, kept in
        // the transactions that store them (the row locked until commit).
        (
            "006-quotas",
            """
            CREATE TABLE user_usage (user_id text PRIMARY KEY, bytes bigint NOT NULL, day text NOT NULL, revisions integer NOT NULL);
            INSERT INTO user_usage (user_id, bytes, day, revisions)
            SELECT u.id,
                   COALESCE((SELECT SUM(octet_length(v.payload)) FROM report_revisions v WHERE v.author_id = u.id), 0)
                   + COALESCE((SELECT SUM(p.byte_size) FROM photos p WHERE p.uploaded_by = u.id), 0), '', 0
            FROM users u
            """
        ),
        // Merging disjoint edits (contract 1.1): a merged revision keeps the
        // payload the device sent (a replay finds it by that) and the fields
        // that came from the server's side.
        (
            "007-merges",
            """
            ALTER TABLE report_revisions ADD COLUMN sent_payload text;
            ALTER TABLE report_revisions ADD COLUMN merged_fields text
            """
        ),
        // Resumable photo uploads (contract 1.1): a row each, the bytes as chunks
        // at their byte positions, so any instance continues what another began.
        (
            "008-resumable-uploads",
            """
            CREATE TABLE resumable_uploads (
                id text PRIMARY KEY, user_id text NOT NULL REFERENCES users(id), server_id text NOT NULL, local_id text NOT NULL,
                field_id text, issue_local_id text, sha256 text NOT NULL, byte_size bigint NOT NULL, byte_offset bigint NOT NULL,
                expires_at bigint NOT NULL, finished_at text, created_at text NOT NULL, UNIQUE (user_id, local_id));
            CREATE INDEX resumable_uploads_expiry ON resumable_uploads(expires_at);
            CREATE TABLE upload_chunks (
                upload_id text NOT NULL REFERENCES resumable_uploads(id) ON DELETE CASCADE, position bigint NOT NULL,
                bytes bytea NOT NULL, PRIMARY KEY (upload_id, position));
            """
        ),
        // A new upload counts its user's unfinished ones (the per-user limit of bytes
        // held): by this index, without reading every finished upload not yet expired.
        (
            "009-unfinished-uploads",
            """
            CREATE INDEX resumable_uploads_unfinished ON resumable_uploads(user_id) WHERE finished_at IS NULL
            """
        ),
        // Corrective actions (contract 1.2) and the crew role: each action's
        // row as it now stands, its position from the 'actions' counter (its
        // row locked until commit, so positions become visible in order), its
        // updates appended, and who besides supervisors may see it.
        (
            "010-actions",
            """
            ALTER TABLE users DROP CONSTRAINT users_role_check;
            ALTER TABLE users ADD CONSTRAINT users_role_check
                CHECK (role IN ('inspector', 'supervisor', 'admin', 'crew'));
            CREATE TABLE actions (
                id text PRIMARY KEY, request_id text UNIQUE, facility_id text NOT NULL, area_id text, title text NOT NULL,
                description text, severity text NOT NULL, is_internal boolean NOT NULL, state text NOT NULL,
                assignee_id text REFERENCES users(id), due_at text, source_kind text NOT NULL, report_server_id text,
                issue_local_id text, created_by text NOT NULL REFERENCES users(id), done_by text, version integer NOT NULL,
                created_at text NOT NULL, updated_at text NOT NULL, change bigint NOT NULL);
            CREATE UNIQUE INDEX actions_issue ON actions(report_server_id, issue_local_id)
                WHERE issue_local_id IS NOT NULL;
            CREATE INDEX actions_change ON actions(change);
            INSERT INTO counters (name, value) VALUES ('actions', 0);
            CREATE TABLE action_updates (
                id text PRIMARY KEY, action_id text NOT NULL REFERENCES actions(id), author_id text NOT NULL,
                at text NOT NULL, state text, comment text, assignee_set boolean NOT NULL, assignee_id text,
                due_set boolean NOT NULL, due_at text, version integer NOT NULL);
            CREATE INDEX action_updates_action ON action_updates(action_id, version);
            CREATE TABLE action_viewers (
                action_id text NOT NULL REFERENCES actions(id), user_id text NOT NULL, PRIMARY KEY (action_id, user_id));
            CREATE INDEX action_viewers_user ON action_viewers(user_id, action_id);
            """
        ),
        // Webhook events of actions: each action as it stood after each change,
        // written with the change, and each hook's cursor in their order.
        (
            "011-action-webhooks",
            """
            ALTER TABLE webhooks ADD COLUMN action_cursor bigint NOT NULL DEFAULT 0;
            CREATE TABLE action_events (
                change bigint PRIMARY KEY, action_id text NOT NULL, type text NOT NULL, at text NOT NULL,
                body text NOT NULL);
            """
        ),
        // Photos of corrective actions and of their updates, through the resumable
        // uploads, whose rows now say what their photo goes to.
        (
            "012-action-photos",
            """
            CREATE TABLE action_photos (
                local_id text PRIMARY KEY, action_id text NOT NULL REFERENCES actions(id), update_id text,
                sha256 text NOT NULL, byte_size bigint NOT NULL, uploaded_by text NOT NULL REFERENCES users(id),
                created_at text NOT NULL, position bigint NOT NULL);
            CREATE INDEX action_photos_action ON action_photos(action_id, position);
            ALTER TABLE resumable_uploads ADD COLUMN target text NOT NULL DEFAULT 'report';
            ALTER TABLE resumable_uploads ADD COLUMN update_id text;
            """
        ),
        // The console's list of actions, the soonest due first (none due last), with or
        // without a state, read from an index in that order instead of sorting every action; the
        // overdue ones (open or in progress, due before now) counted from an index by state and due time.
        (
            "013-action-list",
            """
            CREATE INDEX actions_due ON actions((due_at IS NULL), due_at, change);
            CREATE INDEX actions_state_due ON actions(state, (due_at IS NULL), due_at, change);
            CREATE INDEX actions_overdue ON actions(state, due_at);
            CREATE TABLE action_counts (
                facility_id text NOT NULL, severity text NOT NULL, assignee_id text NOT NULL, state text NOT NULL,
                n bigint NOT NULL, PRIMARY KEY (facility_id, severity, assignee_id, state));
            INSERT INTO action_counts (facility_id, severity, assignee_id, state, n)
            SELECT facility_id, severity, COALESCE(assignee_id, ''), state, COUNT(*) FROM actions GROUP BY 1, 2, 3, 4;
            CREATE FUNCTION action_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP IN ('UPDATE', 'DELETE') THEN
                    UPDATE action_counts SET n = n - 1
                    WHERE facility_id = OLD.facility_id AND severity = OLD.severity
                        AND assignee_id = COALESCE(OLD.assignee_id, '') AND state = OLD.state;
                END IF;
                IF TG_OP IN ('INSERT', 'UPDATE') THEN
                    INSERT INTO action_counts (facility_id, severity, assignee_id, state, n)
                    VALUES (NEW.facility_id, NEW.severity, COALESCE(NEW.assignee_id, ''), NEW.state, 1)
                    ON CONFLICT (facility_id, severity, assignee_id, state) DO UPDATE SET n = action_counts.n + 1;
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER action_counts_follow AFTER INSERT OR DELETE OR UPDATE OF facility_id, severity, assignee_id, state
                ON actions FOR EACH ROW EXECUTE FUNCTION action_counts_follow();
            """
        ),
        // Contract 1.2's grades: a template's pass threshold, and each revision's score,
        // pass and deficiencies as the server judged them (the current one's on the report).
        (
            "014-grades",
            """
            ALTER TABLE templates ADD COLUMN pass_threshold double precision;
            ALTER TABLE template_versions ADD COLUMN pass_threshold double precision;
            ALTER TABLE reports ADD COLUMN passed boolean;
            ALTER TABLE reports ADD COLUMN deficiency_count integer NOT NULL DEFAULT 0;
            ALTER TABLE report_revisions ADD COLUMN grade text;
            CREATE INDEX reports_received ON reports(accepted_at) INCLUDE (facility_id, score, passed, deficiency_count);
            CREATE INDEX reports_site_received ON reports(facility_id, accepted_at)
                INCLUDE (area_id, owner_id, template_id, score, passed, deficiency_count);
            CREATE TABLE report_deficiencies (
                server_id text NOT NULL REFERENCES reports(server_id), field_id text NOT NULL,
                template_id text NOT NULL, facility_id text NOT NULL, accepted_at text NOT NULL,
                PRIMARY KEY (server_id, field_id));
            CREATE INDEX report_deficiencies_received ON report_deficiencies(accepted_at);
            CREATE INDEX report_deficiencies_site ON report_deficiencies(facility_id, accepted_at)
            """
        ),
        // Clients (contract 1.2): their role, and the facilities an admin named for each.
        (
            "015-clients",
            """
            ALTER TABLE users DROP CONSTRAINT users_role_check;
            ALTER TABLE users ADD CONSTRAINT users_role_check
                CHECK (role IN ('inspector', 'supervisor', 'admin', 'crew', 'client'));
            CREATE TABLE client_facilities (
                user_id text NOT NULL REFERENCES users(id), facility_id text NOT NULL,
                PRIMARY KEY (user_id, facility_id))
            """
        ),
        // A site's actions by state (a client's buildings count their open ones, one site at a time).
        (
            "016-actions-by-site",
            "CREATE INDEX actions_site_state ON actions(facility_id, state, is_internal)"
        ),
        // Mail: each person's address and choices, and the messages made from
        // the record of events, each once (its Message-ID is unique), sent
        // under a lease as webhook deliveries are.
        (
            "017-mail",
            """
            ALTER TABLE users ADD COLUMN email text;
            CREATE TABLE mail_preferences (
                user_id text PRIMARY KEY REFERENCES users(id), alerts text NOT NULL, digest text NOT NULL,
                digest_locked boolean NOT NULL, updated_at text NOT NULL);
            CREATE TABLE mail_messages (
                id bigserial PRIMARY KEY, message_id text NOT NULL UNIQUE, kind text NOT NULL, user_id text, recipient text NOT NULL,
                subject text NOT NULL, body text NOT NULL, state text NOT NULL, attempts integer NOT NULL,
                next_attempt_at bigint NOT NULL, lease_until bigint, lease_owner text, last_code integer, last_reply text,
                last_attempt_at text, sent_at text, created_at text NOT NULL);
            CREATE INDEX mail_messages_due ON mail_messages(next_attempt_at) WHERE state = 'pending';
            CREATE INDEX mail_messages_claim ON mail_messages(id) INCLUDE (next_attempt_at, lease_until)
                WHERE state = 'pending';
            CREATE INDEX mail_messages_failed ON mail_messages(id) WHERE state = 'failed';
            CREATE INDEX mail_messages_sent ON mail_messages(sent_at) WHERE state = 'sent'
            """
        ),
        // Schedules: recurring inspections, each visit made ahead into an open
        // assignment whose id carries the schedule, its version and the day.
        (
            "018-schedules",
            """
            CREATE TABLE schedules (
                id text PRIMARY KEY, template_id text NOT NULL, facility_id text NOT NULL, area_ids text NOT NULL,
                inspector_ids text NOT NULL, rule text NOT NULL, time_window text NOT NULL, zone text NOT NULL,
                start_date text NOT NULL, end_date text, paused_at text, version integer NOT NULL, made_until text,
                made_count integer NOT NULL, created_at text NOT NULL, updated_at text NOT NULL);
            ALTER TABLE assignments ADD COLUMN schedule_id text, ADD COLUMN window_start text, ADD COLUMN window_end text;
            CREATE INDEX assignments_schedule ON assignments(schedule_id, window_start) WHERE schedule_id IS NOT NULL;
            CREATE INDEX assignments_window ON assignments(window_start) WHERE schedule_id IS NOT NULL;
            CREATE INDEX reports_assignment ON reports(assignment_id) WHERE assignment_id IS NOT NULL;
            CREATE INDEX assignments_open_visit_end ON assignments(window_end, id)
                WHERE schedule_id IS NOT NULL AND status = 'open'
            """
        ),
    ]

    /// Brings the database to this build's schema, or refuses it.
    static func migrate(_ connection: PostgresConnection) throws(PostgresError) {
        try connection.query("SELECT pg_advisory_lock($1)", [.integer(lockKey)])
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1)", [.integer(lockKey)]) }
        let hasLedger = try !connection.query(
            """
            SELECT 1 AS found FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1
            """, [.text(ledger)]
        ).isEmpty
        if !hasLedger {
            let others =
                try connection.query(
                    """
                    SELECT COUNT(*) AS tables FROM information_schema.tables WHERE table_schema = current_schema()
                    """
                ).first?.integer("tables") ?? 0
            guard others == 0 else {
                throw PostgresError(
                    .usage,
                    "database '\(connection.url.database)' at \(connection.url.host):\(connection.url.port) holds \(others) table(s) of another program, not a jqc-server database; it was left untouched. Give --db an empty database or the server's own."
                )
            }
        }
        try connection.transaction { connection throws(PostgresError) in
            if !hasLedger {
                try connection.script(
                    "CREATE TABLE \(ledger) (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
            }
            let applied = Set(try connection.query("SELECT name FROM \(ledger)").compactMap { $0.text("name") })
            let known = Set(steps.map(\.name))
            if let unknown = applied.subtracting(known).sorted().last {
                throw PostgresError(
                    .usage,
                    "database '\(connection.url.database)' was written by a newer jqc-server (migration '\(unknown)'); use that version. Nothing was changed."
                )
            }
            for step in steps where !applied.contains(step.name) {
                try connection.script(step.sql)
                try connection.query("INSERT INTO \(ledger) (name) VALUES ($1)", [.text(step.name)])
            }
        }
    }
}
