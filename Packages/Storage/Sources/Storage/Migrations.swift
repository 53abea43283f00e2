import Foundation
import SQLite

/// One named step of the store's schema history. Steps are never edited or
/// reordered once released: a change to the schema is a new step at the end.
struct Migration: Sendable {
    let name: String
    let sql: String
}

/// The store's schema history and the code that brings a file up to date.
enum Migrations {
    /// Marks a SQLite file as a jqc store ("JQC1"), in the header's `application_id`.
    static let applicationID: Int32 = 0x4A51_4331

    /// Every step this build knows, in order; `user_version` counts those applied.
    static let all: [Migration] = [
        Migration(
            name: "create-reports-and-revisions",
            sql: """
                CREATE TABLE sequences (
                    name TEXT PRIMARY KEY NOT NULL,
                    value INTEGER NOT NULL
                );
                INSERT INTO sequences (name, value) VALUES ('report', 0), ('photo', 0), ('issue', 0);
                CREATE TABLE reports (
                    local_id TEXT PRIMARY KEY NOT NULL,
                    server_id TEXT,
                    assignment_id TEXT,
                    template_id TEXT NOT NULL,
                    facility_id TEXT NOT NULL,
                    area_id TEXT,
                    state TEXT NOT NULL CHECK (state IN ('DRAFT', 'PENDING', 'SYNCED', 'CONFLICT', 'REJECTED')),
                    answers TEXT NOT NULL,
                    schema_version INTEGER NOT NULL,
                    base_revision INTEGER,
                    accepted_revision INTEGER,
                    updated_at_device REAL NOT NULL,
                    completed_at_device REAL,
                    attempt_count INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at REAL,
                    last_error_code TEXT,
                    last_error_message TEXT,
                    conflict_server_revision INTEGER,
                    conflict_server_payload TEXT,
                    score REAL,
                    parent_local_id TEXT,
                    parent_server_id TEXT,
                    follow_up_required INTEGER NOT NULL DEFAULT 0,
                    creation_seq INTEGER NOT NULL UNIQUE,
                    resume_field_id TEXT
                );
                CREATE INDEX reports_by_state ON reports (state, creation_seq);
                CREATE TABLE report_revisions (
                    report_local_id TEXT NOT NULL REFERENCES reports (local_id),
                    seq INTEGER NOT NULL,
                    answers TEXT NOT NULL,
                    state TEXT NOT NULL,
                    server_revision INTEGER,
                    saved_at_device REAL NOT NULL,
                    reason TEXT NOT NULL,
                    PRIMARY KEY (report_local_id, seq)
                ) WITHOUT ROWID;
                """),
        Migration(
            name: "create-issues-and-photos",
            sql: """
                CREATE TABLE issues (
                    local_id TEXT PRIMARY KEY NOT NULL,
                    report_local_id TEXT NOT NULL REFERENCES reports (local_id),
                    severity TEXT NOT NULL CHECK (severity IN ('low', 'medium', 'high', 'critical')),
                    description TEXT NOT NULL,
                    creation_seq INTEGER NOT NULL UNIQUE
                );
                CREATE INDEX issues_by_report ON issues (report_local_id, creation_seq);
                CREATE TABLE photos (
                    local_id TEXT PRIMARY KEY NOT NULL,
                    report_local_id TEXT NOT NULL REFERENCES reports (local_id),
                    field_id TEXT,
                    issue_local_id TEXT REFERENCES issues (local_id),
                    file_name TEXT NOT NULL UNIQUE,
                    upload_state TEXT NOT NULL CHECK (upload_state IN ('PENDING', 'UPLOADED', 'FAILED')),
                    original_bytes INTEGER NOT NULL,
                    byte_size INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    creation_seq INTEGER NOT NULL UNIQUE,
                    last_error TEXT
                );
                CREATE INDEX photos_by_report ON photos (report_local_id, creation_seq);
                """),
        Migration(
            name: "create-reference-cache",
            sql: """
                CREATE TABLE facilities (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    address TEXT NOT NULL,
                    project_name TEXT NOT NULL
                );
                CREATE TABLE areas (
                    id TEXT PRIMARY KEY NOT NULL,
                    facility_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    area_type TEXT NOT NULL
                );
                CREATE INDEX areas_by_facility ON areas (facility_id);
                CREATE TABLE templates (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    form_schema TEXT NOT NULL
                );
                CREATE TABLE assignments (
                    id TEXT PRIMARY KEY NOT NULL,
                    template_id TEXT NOT NULL,
                    facility_id TEXT NOT NULL,
                    area_id TEXT,
                    due_at TEXT,
                    status TEXT NOT NULL
                );
                """),
        Migration(
            name: "create-meta",
            sql: """
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                """),
        // Contract 1.1's review of the revision the device last saw; NULL until one arrives
        // (and always from a server without reviews). Every existing report keeps its rows as they are.
        Migration(
            name: "add-report-reviews",
            sql: """
                ALTER TABLE reports ADD COLUMN review_state TEXT
                    CHECK (review_state IN ('awaiting_review', 'approved', 'returned', 'rejected'));
                ALTER TABLE reports ADD COLUMN review_revision INTEGER;
                ALTER TABLE reports ADD COLUMN review_decided_by_id TEXT;
                ALTER TABLE reports ADD COLUMN review_decided_by_name TEXT;
                ALTER TABLE reports ADD COLUMN review_decided_at TEXT;
                ALTER TABLE reports ADD COLUMN review_comment TEXT;
                ALTER TABLE reports ADD COLUMN review_field_comments TEXT;
                CREATE INDEX reports_by_review ON reports (review_state, creation_seq) WHERE review_state IS NOT NULL;
                """),
        // Contract 1.1 merges: the fields of the last accepted revision that came from the
        // server's side, and the fields a CONFLICT named (NULL from servers that name none).
        Migration(
            name: "add-merge-marks",
            sql: """
                ALTER TABLE reports ADD COLUMN merged_fields TEXT;
                ALTER TABLE reports ADD COLUMN conflict_fields TEXT;
                """),
        // Every template version the device has seen (the `templates` row stays the newest), and the
        // version each report's answers were given to: existing reports are on the version held now.
        // A move onto a newer version notes what it did on the report (until completed) and on its
        // revision (the answers it set aside, for good).
        Migration(
            name: "add-template-versions",
            sql: """
                CREATE TABLE template_versions (
                    template_id TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    form_schema TEXT NOT NULL,
                    PRIMARY KEY (template_id, version)
                ) WITHOUT ROWID;
                INSERT INTO template_versions (template_id, version, name, form_schema)
                    SELECT id, version, name, form_schema FROM templates;
                ALTER TABLE reports ADD COLUMN template_version INTEGER;
                ALTER TABLE reports ADD COLUMN template_move TEXT;
                ALTER TABLE reports ADD COLUMN template_version_kept INTEGER NOT NULL DEFAULT 0;
                UPDATE reports SET template_version = (SELECT t.version FROM templates t WHERE t.id = reports.template_id);
                ALTER TABLE report_revisions ADD COLUMN template_version INTEGER;
                ALTER TABLE report_revisions ADD COLUMN set_aside TEXT;
                CREATE INDEX reports_by_template ON reports (template_id, state);
                """),
        // Resumable photo uploads (contract 1.1): where a photo's upload continues
        // (the server's url for it) and how many bytes the server last said it held.
        Migration(
            name: "add-photo-upload-sessions",
            sql: """
                CREATE TABLE photo_upload_sessions (
                    photo_local_id TEXT PRIMARY KEY,
                    url TEXT NOT NULL,
                    byte_offset INTEGER NOT NULL,
                    updated_at TEXT NOT NULL
                );
                """),
        // The checks on a report's state and review state as comparisons, refusing exactly what the
        // IN lists refused: for an IN list SQLite builds a table each time a row's state is set, which
        // recording a batch does for every report. A check cannot be changed in place, so the table is
        // made again with the same columns, keys and indexes: its rows are kept aside meanwhile, and the
        // revisions, issues and photos that refer to them are checked once they are back, at the commit.
        Migration(
            name: "compare-report-states",
            sql: """
                CREATE TEMP TABLE reports_kept AS SELECT * FROM reports;
                PRAGMA defer_foreign_keys = ON;
                DROP TABLE reports;
                CREATE TABLE reports (
                    local_id TEXT PRIMARY KEY NOT NULL,
                    server_id TEXT,
                    assignment_id TEXT,
                    template_id TEXT NOT NULL,
                    facility_id TEXT NOT NULL,
                    area_id TEXT,
                    state TEXT NOT NULL CHECK (state = 'DRAFT' OR state = 'PENDING' OR state = 'SYNCED'
                        OR state = 'CONFLICT' OR state = 'REJECTED'),
                    answers TEXT NOT NULL,
                    schema_version INTEGER NOT NULL,
                    base_revision INTEGER,
                    accepted_revision INTEGER,
                    updated_at_device REAL NOT NULL,
                    completed_at_device REAL,
                    attempt_count INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at REAL,
                    last_error_code TEXT,
                    last_error_message TEXT,
                    conflict_server_revision INTEGER,
                    conflict_server_payload TEXT,
                    score REAL,
                    parent_local_id TEXT,
                    parent_server_id TEXT,
                    follow_up_required INTEGER NOT NULL DEFAULT 0,
                    creation_seq INTEGER NOT NULL UNIQUE,
                    resume_field_id TEXT,
                    review_state TEXT CHECK (review_state = 'awaiting_review' OR review_state = 'approved'
                        OR review_state = 'returned' OR review_state = 'rejected'),
                    review_revision INTEGER,
                    review_decided_by_id TEXT,
                    review_decided_by_name TEXT,
                    review_decided_at TEXT,
                    review_comment TEXT,
                    review_field_comments TEXT,
                    merged_fields TEXT,
                    conflict_fields TEXT,
                    template_version INTEGER,
                    template_move TEXT,
                    template_version_kept INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO reports (local_id, server_id, assignment_id, template_id, facility_id, area_id, state, answers,
                    schema_version, base_revision, accepted_revision, updated_at_device, completed_at_device, attempt_count,
                    next_attempt_at, last_error_code, last_error_message, conflict_server_revision, conflict_server_payload,
                    score, parent_local_id, parent_server_id, follow_up_required, creation_seq, resume_field_id,
                    review_state, review_revision, review_decided_by_id, review_decided_by_name, review_decided_at,
                    review_comment, review_field_comments, merged_fields, conflict_fields, template_version, template_move,
                    template_version_kept)
                SELECT local_id, server_id, assignment_id, template_id, facility_id, area_id, state, answers,
                    schema_version, base_revision, accepted_revision, updated_at_device, completed_at_device, attempt_count,
                    next_attempt_at, last_error_code, last_error_message, conflict_server_revision, conflict_server_payload,
                    score, parent_local_id, parent_server_id, follow_up_required, creation_seq, resume_field_id,
                    review_state, review_revision, review_decided_by_id, review_decided_by_name, review_decided_at,
                    review_comment, review_field_comments, merged_fields, conflict_fields, template_version, template_move,
                    template_version_kept
                FROM temp.reports_kept;
                DROP TABLE temp.reports_kept;
                CREATE INDEX reports_by_state ON reports (state, creation_seq);
                CREATE INDEX reports_by_review ON reports (review_state, creation_seq) WHERE review_state IS NOT NULL;
                CREATE INDEX reports_by_template ON reports (template_id, state);
                """),
        // Corrective actions (contract 1.2): each action the server last sent
        // (the whole of it, with the columns lists filter on), and the
        // person's changes and new actions waiting to be sent, in order, each
        // with the id that makes it count once on the server.
        Migration(
            name: "add-actions",
            sql: """
                CREATE TABLE actions (
                    id TEXT PRIMARY KEY NOT NULL,
                    body TEXT NOT NULL,
                    state TEXT NOT NULL,
                    facility_id TEXT NOT NULL,
                    assignee_id TEXT,
                    due_at TEXT,
                    report_server_id TEXT,
                    updated_at TEXT NOT NULL
                );
                CREATE INDEX actions_by_due ON actions (due_at, id);
                CREATE TABLE action_outbox (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    request_id TEXT NOT NULL UNIQUE,
                    action_id TEXT,
                    kind TEXT NOT NULL CHECK (kind = 'new' OR kind = 'update'),
                    body TEXT NOT NULL,
                    queued_at REAL NOT NULL,
                    refusal TEXT
                );
                """),
        // Photos of the person's action changes: each file in the photo folder,
        // the queued change it shows (its request id), and whether the server
        // holds it yet; uploaded once the change itself is recorded.
        Migration(
            name: "add-action-photos",
            sql: """
                CREATE TABLE action_photos (
                    local_id TEXT PRIMARY KEY NOT NULL,
                    request_id TEXT NOT NULL,
                    action_id TEXT NOT NULL,
                    file_name TEXT NOT NULL,
                    byte_size INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    state TEXT NOT NULL DEFAULT 'pending'
                        CHECK (state = 'pending' OR state = 'uploaded' OR state = 'refused'),
                    refusal TEXT
                );
                CREATE INDEX action_photos_by_state ON action_photos (state, request_id);
                """),
        // A template's pass threshold (contract 1.2), kept beside its schema
        // for every version, as the server sends it.
        Migration(
            name: "add-pass-threshold",
            sql: """
                ALTER TABLE templates ADD COLUMN pass_threshold REAL;
                ALTER TABLE template_versions ADD COLUMN pass_threshold REAL;
                """),
    ]

    /// The migrator over `all`: the ledger `schema_migrations`, `user_version`
    /// counting the steps applied, and the jqc mark written with the first step.
    static let migrator = Migrator(
        ledger: "schema_migrations",
        steps: all.map { Migrator.Step(name: $0.name, sql: $0.sql) },
        applicationID: applicationID)

    /// Applies every step the store lacks, each in its own immediate
    /// transaction with its `schema_migrations` row and the `user_version`
    /// bump; two processes opening a new store together apply each step once.
    static func migrate(_ db: StoreDatabase, path: String) throws(StorageError) {
        do throws(SQLiteError) {
            try migrator.migrate(db.sqlite)
        } catch  where error.code == .newerSchema {
            throw StoreFile.newerStore(path: path, version: (try? db.userVersion()) ?? all.count + 1)
        } catch {
            throw StorageError(error)
        }
    }
}
