#!/usr/bin/env python3
"""Exports of many reports as JSON Lines, from PostgreSQL and SQLite, against
psql's \\copy and sqlite3 -json reading the same rows, with peak RSS.

Method: for each store a release jqc-server --demo on a fresh database (a
throwaway PostgreSQL cluster, or a SQLite file); N reports of the demo
inspector are written straight into its tables (one INSERT ... SELECT, each
report with its current revision: five answers, no issues, a review
position each), then ANALYZE. A supervisor then reads GET /exports/reports
to its end on one connection, counting lines (the figure: reports a second,
from the request to the last byte). In the same run, on the same rows in
the same order, the database's own tool writes them out: psql -c "\\copy
(SELECT ... the export's join ...) TO STDOUT" and sqlite3 -json, each to a
pipe that is read and dropped as ours is. The ratio is ours to theirs (the
issue asks for at least 0.5). The server's peak resident set (VmHWM) is
reset (/proc/PID/clear_refs) after the sign-in, whose argon2id check takes
64 MiB and gives it back, and read after the export: the export's own peak
must stay under 64 MB. Its whole-life peak is printed beside it.
"""
import argparse
import glob
import http.client
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from bench import run as bench_run  # noqa: E402
from ingest import Fatal, Postgres, peak_rss_mb, request, start_server  # noqa: E402

RSS_LIMIT_MB = 64.0
RATIO_TARGET = 0.5

PAYLOAD = ('{"answers":{"entrance":"pass","glass":4,"hazards":true,"notes":"Glass doors smeared near the handles; '
           'mats straight. Report ',
           '","seating":"OK"},"follow_up_required":false,"score":0.9}')

FILL_POSTGRES = """
INSERT INTO reports (server_id, local_id, owner_id, template_id, facility_id, area_id, completed_at_device, current_revision, score,
                     follow_up_required, accepted_at, review_state, reviewed_revision, review_change)
SELECT 'R-bench-' || n, md5('bench' || n)::uuid::text, (SELECT id FROM users WHERE username = 'inspector'), 'lobby-walk',
       'F-100', 'A-102', '2026-01-05T09:30:00Z', 1, 0.9, false, '2026-01-05T09:31:00Z', 'awaiting_review', 1, n
FROM generate_series(1, {count}) AS n;
INSERT INTO report_revisions (server_id, revision, payload, issues, source, author_id, created_at)
SELECT 'R-bench-' || n, 1, '{p0}' || n || '{p1}', '[]', 'device', (SELECT id FROM users WHERE username = 'inspector'),
       '2026-01-05T09:31:00Z'
FROM generate_series(1, {count}) AS n;
UPDATE counters SET value = {count} WHERE name = 'reviews';
ANALYZE;
"""

FILL_SQLITE = """
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {count})
INSERT INTO reports (server_id, seq, local_id, owner_id, template_id, facility_id, area_id, completed_at_device, current_revision,
                     score, follow_up_required, accepted_at, review_state, reviewed_revision, review_change)
SELECT 'R-bench-' || i, i, printf('%08x-0000-4000-8000-%012x', i, i), (SELECT id FROM users WHERE username = 'inspector'),
       'lobby-walk', 'F-100', 'A-102', '2026-01-05T09:30:00Z', 1, 0.9, 0, '2026-01-05T09:31:00Z', 'awaiting_review', 1, i
FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {count})
INSERT INTO report_revisions (server_id, revision, payload, issues, source, author_id, created_at)
SELECT 'R-bench-' || i, 1, '{p0}' || i || '{p1}', '[]', 'device', (SELECT id FROM users WHERE username = 'inspector'),
       '2026-01-05T09:31:00Z'
FROM n;
ANALYZE;
"""

# The export's rows, as the database's own tool writes them: the same join, the same order.
ROWS = """
SELECT r.server_id, r.local_id, r.template_id, r.facility_id, r.area_id, r.completed_at_device, r.current_revision, r.score,
       r.follow_up_required, r.accepted_at, r.review_state, r.review_change, v.base_revision, v.payload, v.issues, v.created_at,
       u.username
FROM reports r JOIN report_revisions v ON v.server_id = r.server_id AND v.revision = r.current_revision
JOIN users u ON u.id = r.owner_id ORDER BY r.review_change
"""


def psql_binary():
    return sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1]


def psql_args(url):
    port = url.rsplit(":", 1)[1].split("/")[0]
    database = url.rsplit("/", 1)[1]
    return [psql_binary(), "-h", "127.0.0.1", "-p", port, "-U", "jqc", "-d", database, "-qAt"]


def timed_pipe(command, env=None):
    """Runs `command`, reading its stdout to the end and dropping it; seconds and bytes."""
    started = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, env=env)
    total = 0
    while True:
        block = proc.stdout.read(1 << 20)
        if not block:
            break
        total += len(block)
    if proc.wait() != 0:
        raise Fatal(f"{command[0]} failed")
    return time.monotonic() - started, total


def timed_export(port, token):
    """GET /exports/reports read to its end; seconds, bytes, reports, the end line."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    started = time.monotonic()
    conn.request("GET", "/api/v1/exports/reports", headers={"Authorization": f"Bearer {token}"})
    response = conn.getresponse()
    if response.status != 200:
        raise Fatal(f"export: HTTP {response.status}: {response.read()[:200]!r}")
    total = lines = 0
    tail = b""
    while True:
        block = response.read(1 << 20)
        if not block:
            break
        total += len(block)
        lines += block.count(b"\n")
        tail = (tail + block)[-400:]
    seconds = time.monotonic() - started
    end = json.loads(tail.rstrip(b"\n").rsplit(b"\n", 1)[-1])
    return seconds, total, lines - 1, end


def run_store(store, options, postgres):
    label = f"exports-{store}"
    server, port = start_server(options.server, options.work, label, postgres=postgres if store == "postgres" else None)
    try:
        db = postgres.url.rsplit("/", 1)[0] + f"/bench_{postgres.count}" if store == "postgres" \
            else os.path.join(options.work, f"{label}.sqlite")
        print(f"[exports] {store}: writing {options.reports:,} reports", flush=True)
        if store == "postgres":
            sql = FILL_POSTGRES.format(count=options.reports, p0=PAYLOAD[0], p1=PAYLOAD[1])
            subprocess.run(psql_args(db) + ["-c", sql], check=True, capture_output=True,
                           env=dict(os.environ, PGPASSWORD="jqc-test"))
        else:
            sql = FILL_SQLITE.format(count=options.reports, p0=PAYLOAD[0], p1=PAYLOAD[1])
            subprocess.run(["sqlite3", db], input=sql, text=True, check=True, capture_output=True)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        token = request(conn, "POST", "/auth/login", json.dumps({"username": "supervisor", "password": "supervisor-pass"}))["access_token"]
        conn.close()
        lifetime = peak_rss_mb(server.pid)
        with open(f"/proc/{server.pid}/clear_refs", "w") as f:
            f.write("5")
        print(f"[exports] {store}: exporting", flush=True)
        ours, ours_bytes, count, end = timed_export(port, token)
        if count != options.reports or end.get("count") != options.reports:
            raise Fatal(f"{store}: the export held {count} reports, not {options.reports:,}")
        rss = peak_rss_mb(server.pid)
        print(f"[exports] {store}: the database's own tool on the same rows", flush=True)
        if store == "postgres":
            theirs, theirs_bytes = timed_pipe(psql_args(db) + ["-c", f"\\copy ({' '.join(ROWS.split())}) TO STDOUT"],
                                              env=dict(os.environ, PGPASSWORD="jqc-test"))
            tool = "psql \\copy"
        else:
            theirs, theirs_bytes = timed_pipe(["sqlite3", "-json", db, ROWS])
            tool = "sqlite3 -json"
        ratio = theirs / ours
        result = {
            "store": store, "reports": options.reports,
            "ours_s": ours, "ours_rate": options.reports / ours, "ours_mb": ours_bytes / 1e6,
            "tool": tool, "theirs_s": theirs, "theirs_rate": options.reports / theirs, "theirs_mb": theirs_bytes / 1e6,
            "ratio": ratio, "rss_mb": rss, "lifetime_rss_mb": lifetime,
        }
        verdict = "PASS" if ratio >= RATIO_TARGET and rss < RSS_LIMIT_MB else "FAIL"
        print(f"  {store}: export {ours:.1f} s ({result['ours_rate']:,.0f} reports/s, {result['ours_mb']:.0f} MB); "
              f"{tool} {theirs:.1f} s ({result['theirs_rate']:,.0f} rows/s, {result['theirs_mb']:.0f} MB); "
              f"ratio {ratio:.2f} (target >= {RATIO_TARGET}); server peak RSS during the export {rss:.1f} MB "
              f"(limit {RSS_LIMIT_MB:.0f}; before it, start-up and sign-in included: {lifetime:.1f} MB) [{verdict}]",
              flush=True)
        return result, verdict
    finally:
        server.terminate()
        server.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--reports", type=int, default=1_000_000)
    parser.add_argument("--store", choices=["postgres", "sqlite", "both"], default="both")
    options = parser.parse_args()
    shutil.rmtree(options.work, ignore_errors=True)
    os.makedirs(options.work)
    stores = ["postgres", "sqlite"] if options.store == "both" else [options.store]
    postgres = Postgres(options.work) if "postgres" in stores else None
    verdicts = []
    try:
        for store in stores:
            _, verdict = run_store(store, options, postgres)
            verdicts.append(verdict)
    finally:
        if postgres:
            postgres.stop()
    return 0 if all(v == "PASS" for v in verdicts) else 1


if __name__ == "__main__":
    bench_run(main, "exports")
