#!/usr/bin/env python3
"""Roll-ups of grades on a large PostgreSQL database.

A release jqc-server --demo on a fresh database of a throwaway cluster, its
time zone set to Europe/Paris. 500 sites of four areas each and 1,000,000
reports received evenly over 2026 (about 83,000 a month) are written with
INSERT ... SELECT, each with a score, a pass or fail (a third of them with
no pass mark) and 0 to 3 deficiencies, each deficiency a row of its own as
the server keeps them; then VACUUM ANALYZE (as autovacuum leaves tables in
service). A supervisor signs in through the console's form and opens each
roll-up page `--repeat` times on one keep-alive connection; the figure is
the server's own time for it, the `duration_ms` of its access-log line:
the reading of the sums, the names of the groups and the HTML.

Targets: one site's month by area, a median under 200 ms; the whole
organisation's month by site, a median under 1 s.
"""
import argparse
import functools
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from bench import server_times, run as bench_run  # noqa: E402
from console import Browser  # noqa: E402
from ingest import Postgres, start_server  # noqa: E402
from reviews import psql  # noqa: E402

FILL = """
INSERT INTO facilities (id, name, address, project_name, position)
SELECT 'S-' || lpad(s::text, 3, '0'), 'Bench site ' || s, s || ' Bench Road', 'Bench', 100 + s
FROM generate_series(1, {sites}) AS s;
INSERT INTO areas (id, facility_id, name, area_type, position)
SELECT 'S-' || lpad(s::text, 3, '0') || '-' || a, 'S-' || lpad(s::text, 3, '0'), 'Area ' || a,
       (ARRAY['washroom', 'lobby', 'kitchen', 'office'])[a], a
FROM generate_series(1, {sites}) AS s, generate_series(1, 4) AS a;
INSERT INTO reports (server_id, local_id, owner_id, template_id, facility_id, area_id, current_revision, score,
                     passed, deficiency_count, follow_up_required, accepted_at)
SELECT 'R-bench-' || n, 'l-bench-' || n, 'U-INSPECTOR', 'lobby-walk',
       'S-' || lpad((1 + n % {sites})::text, 3, '0'), 'S-' || lpad((1 + n % {sites})::text, 3, '0') || '-' || (1 + n % 4),
       1, ((n::bigint * 7919) % 1000) / 1000.0,
       CASE WHEN n % 3 = 0 THEN NULL ELSE ((n::bigint * 7919) % 1000) >= 800 END, n % 4, false,
       to_char(timestamp '2026-01-01' + (n * (31536000.0 / {reports})) * interval '1 second',
               'YYYY-MM-DD"T"HH24:MI:SS"Z"')
FROM generate_series(1, {reports}) AS n;
INSERT INTO report_deficiencies (server_id, field_id, template_id, facility_id, accepted_at)
SELECT r.server_id, 'f' || k, r.template_id, r.facility_id, r.accepted_at
FROM reports r, generate_series(1, 3) AS k WHERE k <= r.deficiency_count;
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--reports", type=int, default=1_000_000)
    parser.add_argument("--sites", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=10)
    options = parser.parse_args()
    shutil.rmtree(options.work, ignore_errors=True)
    os.makedirs(options.work)
    postgres = Postgres(options.work)
    server = None
    try:
        log_path = os.path.join(options.work, "access.log")
        binary = os.path.join(options.bin, "jqc-server")
        server, port = start_server(binary, options.work, "rollups", postgres=postgres,
                                    extra=("--log-file", log_path))
        url = postgres.url.rsplit("/", 1)[0] + f"/bench_{postgres.count}"
        subprocess.run([binary, "admin", "--db", url, "settings", "set", "timezone", "Europe/Paris"],
                       check=True, capture_output=True)
        print(f"[rollups] writing {options.reports:,} reports over {options.sites} sites", flush=True)
        psql(url, FILL.format(reports=options.reports, sites=options.sites))
        psql(url, "VACUUM ANALYZE")
        browser = Browser(port)
        browser.sign_in("supervisor", "supervisor-pass")
        reads = [
            ("/console/rollups?by=area&facility=S-042&month=2026-06", "one site's month by area", 200.0),
            ("/console/rollups?by=site&month=2026-06", "the organisation's month by site", 1000.0),
            ("/console/rollups?by=item&month=2026-06", "the organisation's month by item", 1000.0),
        ]
        passed = True
        for path, label, target in reads:
            times = server_times(log_path, "/console/rollups", options.repeat,
                                 functools.partial(browser.page, path, 'id="rollup-table"'))
            median = statistics.median(times)
            verdict = median < target
            passed &= verdict
            print(f"  {label}: median {median:.1f} ms, worst {max(times):.1f} ms over {len(times)} "
                  f"[{'PASS' if verdict else 'FAIL'}, target median < {target:.0f} ms]", flush=True)
        for title, sql in [
            ("month by site", "EXPLAIN SELECT r.facility_id, COUNT(*) FROM reports r WHERE r.accepted_at >= "
                              "'2026-05-31T22:00:00Z' AND r.accepted_at < '2026-06-30T22:00:00Z' GROUP BY 1"),
            ("site's month by area", "EXPLAIN SELECT r.area_id, COUNT(*) FROM reports r WHERE r.accepted_at >= "
                                     "'2026-05-31T22:00:00Z' AND r.accepted_at < '2026-06-30T22:00:00Z' "
                                     "AND r.facility_id = 'S-042' GROUP BY 1"),
        ]:
            plan = psql(url, sql).splitlines()
            print(f"  plan, {title}: " + " / ".join(line.strip() for line in plan[:4]))
        return 0 if passed else 1
    finally:
        if server:
            server.terminate()
            server.wait()
        postgres.stop()


if __name__ == "__main__":
    bench_run(main, "rollups")
