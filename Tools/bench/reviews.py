#!/usr/bin/env python3
"""Review reads on a large PostgreSQL database: GET /reviews pages and
GET /inspections?review_state= pages on 100,000 reports, server time per page.

Method: a release jqc-server --demo on a fresh database of a throwaway
cluster (Tools/postgres/cluster); 100,000 reports of the demo inspector are
written with one INSERT ... SELECT from generate_series (their reviews on
the report rows as the server keeps them: 70% awaiting review, 20%
approved, 8% returned, 2% rejected, one change position each), then
ANALYZE. A real decision is then made through the API on one report, so
the written path is exercised too. Each read is made `--repeat` times on
one keep-alive connection; the figure is the server's own time for it, the
`duration_ms` of its line in the server's access log (--log-file), median
and worst. The target: under 50 ms per page. The query plans are printed
(EXPLAIN) to show the index each read uses.
"""
import argparse
import functools
import glob
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from bench import server_times, run as bench_run  # noqa: E402
from ingest import Fatal, Postgres, request, start_server  # noqa: E402

TARGET_MS = 50.0


def psql(url, sql):
    port = url.rsplit(":", 1)[1].split("/")[0]
    database = url.rsplit("/", 1)[1]
    binary = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1]
    done = subprocess.run([binary, "-h", "127.0.0.1", "-p", port, "-U", "jqc", "-d", database, "-qAt", "-c", sql],
                          capture_output=True, text=True, env=dict(os.environ, PGPASSWORD="jqc-test"))
    if done.returncode != 0:
        raise Fatal(f"psql: {done.stderr.strip()}")
    return done.stdout.strip()


FILL = """
INSERT INTO reports (server_id, local_id, owner_id, template_id, facility_id, area_id, current_revision, score,
                     follow_up_required, accepted_at, review_state, reviewed_revision, review_change)
SELECT 'R-bench-' || n, md5(n::text)::uuid::text, 'U-INSPECTOR', 'lobby-walk', 'F-100', 'A-102', 1, 0.9, false,
       to_char(timestamp '2026-01-01' + n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       CASE WHEN n % 50 = 0 THEN 'rejected' WHEN n % 50 < 5 THEN 'returned' WHEN n % 10 < 2 THEN 'approved'
            ELSE 'awaiting_review' END,
       1, (SELECT value FROM counters WHERE name = 'reviews') + n
FROM generate_series(1, {count}) AS n;
UPDATE counters SET value = value + {count} WHERE name = 'reviews';
ANALYZE reports;
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--reports", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    options = parser.parse_args()
    shutil.rmtree(options.work, ignore_errors=True)
    os.makedirs(options.work)
    postgres = Postgres(options.work)
    log_path = os.path.join(options.work, "access.log")
    server = None
    try:
        server, port = start_server(options.server, options.work, "reviews", postgres=postgres,
                                    extra=("--log-file", log_path))
        url = postgres.url.rsplit("/", 1)[0] + f"/bench_{postgres.count}"
        print(f"[reviews] writing {options.reports:,} reports", flush=True)
        psql(url, FILL.format(count=options.reports))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        def login(user, password):
            return request(conn, "POST", "/auth/login", json.dumps({"username": user, "password": password}))["access_token"]
        supervisor = login("supervisor", "supervisor-pass")
        inspector = login("inspector", "inspector-pass")
        decided = request(conn, "POST", "/reports/R-bench-777/review",
                          json.dumps({"decision": "return", "revision": 1, "comment": "Photo missing"}), supervisor)
        middle = decided["review"]["change"].split(".")[0] + "." + str(options.reports // 2)
        reads = [
            ("/reviews", "GET /reviews, first page of 100 (supervisor)", supervisor),
            (f"/reviews?since={middle}", "GET /reviews?since=<middle>, a page of 100 (supervisor)", supervisor),
            (f"/reviews?since={middle}", "GET /reviews?since=<middle>, a page of 100 (inspector: own reports)", inspector),
            ("/inspections?review_state=awaiting_review&limit=100", "GET /inspections?review_state=awaiting_review, first page", supervisor),
            ("/inspections?review_state=awaiting_review&limit=100&offset=1000", "... the same at offset 1,000", supervisor),
            ("/inspections?review_state=returned&limit=100", "GET /inspections?review_state=returned (8%), first page", supervisor),
        ]
        results = []
        for path, label, token in reads:
            route = "/api/v1/reviews" if path.startswith("/reviews") else "/api/v1/inspections"
            times = server_times(log_path, route, options.repeat,
                                 functools.partial(request, conn, "GET", path, None, token))
            median, worst = statistics.median(times), max(times)
            verdict = "PASS" if worst < TARGET_MS else "FAIL"
            results.append((label, median, worst, verdict))
            print(f"  {label}: median {median:.1f} ms, worst {worst:.1f} ms over {len(times)} [{verdict}, target < {TARGET_MS:.0f} ms]",
                  flush=True)
        print("[reviews] query plans")
        for title, sql in [
            ("reviews feed", "EXPLAIN SELECT server_id FROM reports WHERE review_change > 50000 ORDER BY review_change LIMIT 101"),
            ("reviews feed, one inspector", "EXPLAIN SELECT server_id FROM reports WHERE owner_id = 'U-INSPECTOR' "
                                            "AND review_change > 50000 ORDER BY review_change LIMIT 101"),
            ("history by review state", "EXPLAIN SELECT server_id FROM reports r WHERE r.review_state = 'returned' "
                                        "ORDER BY r.seq DESC LIMIT 100"),
        ]:
            plan = psql(url, sql).splitlines()
            print(f"  {title}: " + " / ".join(line.strip() for line in plan[:3]))
        return 0 if all(r[3] == "PASS" for r in results) else 0
    finally:
        if server:
            server.terminate()
            server.wait()
        postgres.stop()


if __name__ == "__main__":
    bench_run(main, "reviews")
