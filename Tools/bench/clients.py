#!/usr/bin/env python3
"""A client's console pages on a large PostgreSQL database.

A release jqc-server --demo on a fresh database of a throwaway cluster, its
time zone set to Europe/Paris. 50 facilities of four areas each are written
with INSERT ... SELECT; a client who sees 10 of them (every fifth) is added
by `jqc-server admin user add --role client --facility ...`, as an admin
invites one. Then 100,000 reports received evenly over the twelve months up
to now, each facility's spread over its four areas, each with a score, a
pass or fail (a third with no pass mark), 0 to 3 deficiencies kept a row
each, and its review as the server keeps it on the report row: the last two
days' awaiting review, and before them 90% approved, 4% awaiting review, 4%
returned and 2% rejected. And 3,000 actions over the same year at the same
facilities (40% open or in progress, a fifth of the organisation's own
internal, a third of those at the client's buildings requests of the
client, source `client`), with their viewer rows and the counts per state
the database keeps. The pages read the report rows only, so the reports
have no revision rows. Then VACUUM ANALYZE (as autovacuum leaves tables in
service).

The client signs in through the console's form and opens each page
`--repeat` times on one keep-alive connection; the figure is the server's
own time for it, the `duration_ms` of its access-log line: "My buildings"
(each building's latest approved inspection, the average and pass rate of
the last 30 days, the open requests and actions) and a building's page
(its latest scores, this month's or a whole past month's averages by area
and inspections).

Target: each page, a median under 100 ms. The plans of the reads that grow
with the organisation rather than with the client are printed (EXPLAIN);
`--actions 200000` shows the count of open requests and actions at that
size (benchmarks/2026-12-07.md).
"""
import argparse
import datetime
import functools
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from bench import server_times, run as bench_run  # noqa: E402
from console import Browser  # noqa: E402
from ingest import Fatal, Postgres, start_server  # noqa: E402
from reviews import psql  # noqa: E402

TARGET_MS = 100.0
CLIENT, CLIENT_PASSWORD = "bench-client", "bench-client-pass"

SITES = """
INSERT INTO facilities (id, name, address, project_name, position)
SELECT 'B-' || lpad(s::text, 3, '0'), 'Bench building ' || s, s || ' Bench Road', 'Bench', 100 + s
FROM generate_series(1, {facilities}) AS s;
INSERT INTO areas (id, facility_id, name, area_type, position)
SELECT 'B-' || lpad(s::text, 3, '0') || '-' || a, 'B-' || lpad(s::text, 3, '0'), 'Area ' || a,
       (ARRAY['washroom', 'lobby', 'kitchen', 'office'])[a], a
FROM generate_series(1, {facilities}) AS s, generate_series(1, 4) AS a;
"""

REPORTS = """
INSERT INTO reports (server_id, local_id, owner_id, template_id, facility_id, area_id, current_revision, score,
                     passed, deficiency_count, follow_up_required, accepted_at, review_state, reviewed_revision,
                     review_decided_by, review_decided_by_name, review_decided_at, review_change)
SELECT 'R-bench-' || n, md5('bench-' || n)::uuid::text, 'U-INSPECTOR', 'lobby-walk', site, site || '-' || (1 + k % 4),
       1, 0.5 + ((k * 7919 + n) % 500) / 1000.0, CASE WHEN k % 3 = 0 THEN NULL ELSE (k * 7919 + n) % 500 >= 300 END,
       k % 4, false,
       to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), state, 1,
       CASE WHEN state <> 'awaiting_review' THEN 'U-SUPERVISOR' END,
       CASE WHEN state <> 'awaiting_review' THEN 'Sam Supervisor' END,
       CASE WHEN state <> 'awaiting_review' THEN to_char(at + interval '3 hours', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END,
       (SELECT value FROM counters WHERE name = 'reviews') + n
FROM (SELECT n, k, 'B-' || lpad((1 + n % {facilities})::text, 3, '0') AS site,
             timestamp '{start}' + n * ({seconds}.0 / {reports}) * interval '1 second' AS at,
             CASE WHEN n > {reports} - {reports} * 2 / 365 THEN 'awaiting_review' WHEN k % 50 = 0 THEN 'rejected'
                  WHEN k % 50 < 3 THEN 'returned' WHEN k % 50 < 5 THEN 'awaiting_review' ELSE 'approved' END AS state
      FROM generate_series(1, {reports}) AS n, LATERAL (SELECT n::bigint / {facilities} AS k) AS round) AS g;
UPDATE counters SET value = value + {reports} WHERE name = 'reviews';
INSERT INTO report_deficiencies (server_id, field_id, template_id, facility_id, accepted_at)
SELECT r.server_id, 'f' || k, r.template_id, r.facility_id, r.accepted_at
FROM reports r, generate_series(1, 3) AS k WHERE k <= r.deficiency_count;
"""

ACTIONS = """
INSERT INTO actions (id, request_id, facility_id, area_id, title, description, severity, is_internal, state,
                     assignee_id, due_at, source_kind, created_by, version, created_at, updated_at, change)
SELECT 'A-bench-' || n, CASE WHEN asked THEN md5('request-' || n)::uuid::text END, site, site || '-' || (1 + k % 4),
       CASE WHEN asked THEN 'Please refill the dispensers' ELSE 'Bench action ' || n || ': refill the dispensers' END,
       'Seen on the round of ' || n, (ARRAY['low', 'medium', 'high', 'critical'])[1 + k % 4], NOT asked AND k % 5 = 0,
       CASE WHEN k % 10 < 3 THEN 'open' WHEN k % 10 = 3 THEN 'in_progress' WHEN k % 10 = 4 THEN 'done'
            WHEN k % 10 < 9 THEN 'verified' ELSE 'cancelled' END,
       CASE WHEN k % 3 = 1 THEN NULL ELSE 'U-INSPECTOR' END,
       to_char(at + interval '3 days', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       CASE WHEN asked THEN 'client' ELSE 'supervisor' END, CASE WHEN asked THEN '{client}' ELSE 'U-SUPERVISOR' END, 1,
       to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       (SELECT value FROM counters WHERE name = 'actions') + n
FROM (SELECT *, site IN ({seen}) AND k % 3 = 0 AS asked
      FROM (SELECT n, n / {facilities} AS k, 'B-' || lpad((1 + n % {facilities})::text, 3, '0') AS site,
                   timestamp '{start}' + n * ({seconds}.0 / {actions}) * interval '1 second' AS at
            FROM generate_series(1, {actions}) AS n) AS s) AS g;
UPDATE counters SET value = value + {actions} WHERE name = 'actions';
INSERT INTO action_viewers (action_id, user_id)
SELECT id, assignee_id FROM actions WHERE id LIKE 'A-bench-%' AND assignee_id IS NOT NULL;
"""


def machine():
    """Cores, memory, processor and kernel, as Tools/bench/run prints them."""
    with open("/proc/meminfo") as f:
        memory = next(int(line.split()[1]) for line in f if line.startswith("MemTotal")) / 1048576
    with open("/proc/cpuinfo") as f:
        model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
    return f"{os.cpu_count()} cores, {memory:.1f} GiB, {model}, {platform.system()} {platform.release()}"


def last_month(now):
    """The month before `now`'s, as YYYY-MM."""
    first = now.replace(day=1)
    return (first - datetime.timedelta(days=1)).strftime("%Y-%m")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--reports", type=int, default=100_000)
    parser.add_argument("--facilities", type=int, default=50)
    parser.add_argument("--sees", type=int, default=10, help="the facilities the client sees")
    parser.add_argument("--actions", type=int, default=3_000)
    parser.add_argument("--repeat", type=int, default=20)
    options = parser.parse_args()
    if not 1 <= options.sees <= options.facilities:
        parser.error("--sees must be between 1 and --facilities")
    shutil.rmtree(options.work, ignore_errors=True)
    os.makedirs(options.work)
    print(f"[clients] {machine()}", flush=True)
    postgres = Postgres(options.work)
    server = None
    try:
        log_path = os.path.join(options.work, "access.log")
        binary = os.path.join(options.bin, "jqc-server")
        server, port = start_server(binary, options.work, "clients", postgres=postgres,
                                    extra=("--log-file", log_path))
        url = postgres.url.rsplit("/", 1)[0] + f"/bench_{postgres.count}"
        print(f"[clients] PostgreSQL {psql(url, 'SHOW server_version')}", flush=True)
        subprocess.run([binary, "admin", "--db", url, "settings", "set", "timezone", "Europe/Paris"],
                       check=True, capture_output=True)
        psql(url, SITES.format(facilities=options.facilities))
        step = options.facilities // options.sees
        seen = [f"B-{s:03d}" for s in range(step, step * options.sees + 1, step)]
        added = subprocess.run([binary, "admin", "--db", url, "user", "add", CLIENT, "--role", "client",
                                "--display-name", "Bench Client", *[a for site in seen for a in ("--facility", site)]],
                               input=CLIENT_PASSWORD + "\n", capture_output=True, text=True)
        if added.returncode != 0:
            raise Fatal(f"admin user add: {added.stderr.strip()}")
        client = psql(url, f"SELECT id FROM users WHERE username = '{CLIENT}'")
        now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0, tzinfo=None)
        start = now - datetime.timedelta(days=365)
        print(f"[clients] writing {options.reports:,} reports and {options.actions:,} actions over "
              f"{options.facilities} facilities, the year to {now:%Y-%m-%d %H:%M} UTC; "
              f"{CLIENT} sees {len(seen)}", flush=True)
        common = dict(facilities=options.facilities, start=start.isoformat(sep=" "), seconds=365 * 86_400)
        psql(url, REPORTS.format(reports=options.reports, **common))
        psql(url, ACTIONS.format(actions=options.actions, client=client, seen=", ".join(f"'{s}'" for s in seen),
                                 **common))
        psql(url, "VACUUM ANALYZE")
        browser = Browser(port)
        browser.sign_in(CLIENT, CLIENT_PASSWORD)
        building = seen[len(seen) // 2]
        month = last_month(now)
        figures = {}

        def buildings():
            page = browser.page("/console/buildings", 'id="buildings"')
            rows = re.findall(r'<tr data-facility="[^"]+">.*?<td class="num">(\d+)</td></tr>', page)
            if len(rows) != len(seen):
                raise Fatal(f"My buildings lists {len(rows)} buildings, not {len(seen)}")
            figures["open"] = [int(n) for n in rows]

        def building_page(path):
            page = browser.page(path, 'id="inspections"')
            figures[path] = page.count('<tr class="report"')

        reads = [
            ("/console/buildings", buildings, f"My buildings ({len(seen)} of {options.facilities})"),
            (f"/console/buildings/{building}", functools.partial(building_page, f"/console/buildings/{building}"),
             f"a building's page, this month ({building})"),
            (f"/console/buildings/{building}?month={month}",
             functools.partial(building_page, f"/console/buildings/{building}?month={month}"),
             f"a building's page, {month}"),
        ]
        passed = True
        for path, send, label in reads:
            route = "/console/buildings" if path == "/console/buildings" else "/console/buildings/{facility_id}"
            times = server_times(log_path, route, options.repeat, send)
            median = statistics.median(times)
            verdict = median < TARGET_MS
            passed &= verdict
            print(f"  {label}: median {median:.1f} ms, worst {max(times):.1f} ms over {len(times)} "
                  f"[{'PASS' if verdict else 'FAIL'}, target median < {TARGET_MS:.0f} ms]", flush=True)
        print(f"  shown: open requests and actions {min(figures['open'])}-{max(figures['open'])} a building; "
              f"inspections listed this month {figures[reads[1][0]]}, in {month} {figures[reads[2][0]]}")
        since = (now - datetime.timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
        for title, sql in [
            ("last 30 days by site", "SELECT r.facility_id, COUNT(*) FROM reports r WHERE r.accepted_at >= "
                                     f"'{since}' AND r.accepted_at < '{now:%Y-%m-%dT%H:%M:%SZ}' "
                                     "AND r.review_state IN ('approved') GROUP BY 1"),
            ("a building's latest 30", f"SELECT * FROM reports r WHERE r.facility_id = '{building}' "
                                       "AND r.review_state = 'approved' ORDER BY r.seq DESC LIMIT 30"),
            ("a building's open actions", "SELECT a.state, COUNT(*) FROM actions a WHERE a.facility_id IN (SELECT "
                                          f"c.facility_id FROM client_facilities c WHERE c.user_id = '{client}') "
                                          f"AND a.is_internal = false AND a.facility_id = '{building}' "
                                          "AND a.state IN ('open', 'in_progress') GROUP BY a.state"),
        ]:
            plan = psql(url, "EXPLAIN " + sql).splitlines()
            print(f"  plan, {title}: " + " / ".join(line.strip() for line in plan[:5]))
        return 0 if passed else 1
    finally:
        if server:
            server.terminate()
            server.wait()
        postgres.stop()


if __name__ == "__main__":
    bench_run(main, "clients")
