#!/usr/bin/env python3
"""The console's review queue on a large PostgreSQL database: GET
/console/queue pages on 100,000 reports, server time per page.

Method: a release jqc-server --demo on a fresh database of a throwaway
cluster (Tools/postgres/cluster); 100,000 reports are written with one
INSERT ... SELECT from generate_series (the fill of Tools/bench/reviews.py:
70% awaiting review, 20% approved, 8% returned, 2% rejected), half of them
made by a second inspector, then ANALYZE. A supervisor signs in through the
console's own form (its token cookie, its CSRF field) and opens each page
`--repeat` times on one keep-alive connection; the figure is the server's
own time for it, the `duration_ms` of its line in the server's access log
(--log-file), median and worst. Each page is the whole work of the queue:
the page of 50 reports, the total matching, the counts of every state, the
filters' choices (sites, inspectors, forms) and the HTML. The target:
under 100 ms per page. The query plans are printed (EXPLAIN) to show the
index each read uses.
"""
import argparse
import functools
import http.client
import os
import re
import shutil
import statistics
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
from bench import server_times, run as bench_run  # noqa: E402
from ingest import Fatal, Postgres, start_server  # noqa: E402
from reviews import FILL, psql  # noqa: E402

TARGET_MS = 100.0

SECOND_INSPECTOR = """
INSERT INTO users (id, username, password_hash, role, display_name)
SELECT 'U-BENCH-2', 'bench2', password_hash, 'inspector', 'Bea Bench' FROM users WHERE id = 'U-INSPECTOR';
UPDATE reports SET owner_id = 'U-BENCH-2', facility_id = 'F-200' WHERE server_id LIKE 'R-bench-%' AND right(server_id, 1) IN ('1', '3', '5', '7', '9');
ANALYZE reports;
"""


class Browser:
    """One keep-alive connection with the console's cookies."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies = {}

    def send(self, method, path, form=None):
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read().decode("utf-8", "replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                cookie = rest.split(";", 1)[0]
                if cookie and "Max-Age=0" not in value:
                    self.cookies[key] = cookie
                else:
                    self.cookies.pop(key, None)
        return response.status, data

    def page(self, path, marker):
        """GET `path`; its page, or Fatal unless it answers 200 with `marker` in it."""
        status, page = self.send("GET", path)
        if status != 200 or marker not in page:
            raise Fatal(f"GET {path} answered {status}")
        return page

    def sign_in(self, username, password):
        status, page = self.send("GET", "/console/sign-in")
        token = re.search(r'name="csrf" value="([^"]+)"', page)
        if status != 200 or not token:
            raise Fatal(f"the sign-in page answered {status}")
        status, _ = self.send("POST", "/console/sign-in", {"csrf": token.group(1), "username": username, "password": password})
        if status != 303 or "jqc_console" not in self.cookies:
            raise Fatal(f"signing in answered {status}")


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
        server, port = start_server(options.server, options.work, "console", postgres=postgres,
                                    extra=("--log-file", log_path))
        url = postgres.url.rsplit("/", 1)[0] + f"/bench_{postgres.count}"
        print(f"[console] writing {options.reports:,} reports", flush=True)
        psql(url, FILL.format(count=options.reports))
        psql(url, SECOND_INSPECTOR)
        browser = Browser(port)
        browser.sign_in("supervisor", "supervisor-pass")
        deep = max(1, int(options.reports * 0.7) // 50 // 2)
        reads = [
            ("/console/queue", "the queue as it opens: awaiting review (70%), oldest first"),
            ("/console/queue?state=", "every state, newest first"),
            ("/console/queue?state=returned", "returned (8%)"),
            ("/console/queue?state=&sort=score", "every state, lowest score first"),
            (f"/console/queue?page={deep}", f"awaiting review, page {deep:,} (the middle)"),
            ("/console/queue?state=&inspector=U-BENCH-2&facility=F-200&from=2026-01-15&to=2026-02-15",
             "one inspector, one site, one month"),
        ]
        results = []
        for path, label in reads:
            times = server_times(log_path, "/console/queue", options.repeat,
                                 functools.partial(browser.page, path, 'id="counts"'))
            median, worst = statistics.median(times), max(times)
            verdict = "PASS" if worst < TARGET_MS else "FAIL"
            results.append(verdict)
            print(f"  {label}: median {median:.1f} ms, worst {worst:.1f} ms over {len(times)} [{verdict}, target < {TARGET_MS:.0f} ms]",
                  flush=True)
        print("[console] query plans")
        for title, sql in [
            ("awaiting, oldest first", "EXPLAIN SELECT server_id FROM reports r WHERE r.review_state = 'awaiting_review' "
                                       "ORDER BY r.seq ASC LIMIT 50 OFFSET 0"),
            ("counts per state", "EXPLAIN SELECT r.review_state, COUNT(*) FROM reports r GROUP BY r.review_state"),
            ("lowest score first", "EXPLAIN SELECT server_id FROM reports r ORDER BY r.score ASC NULLS LAST, r.seq DESC LIMIT 50"),
        ]:
            plan = psql(url, sql).splitlines()
            print(f"  {title}: " + " / ".join(line.strip() for line in plan[:3]))
        return 0 if all(verdict == "PASS" for verdict in results) else 1
    finally:
        if server:
            server.terminate()
            server.wait()
        postgres.stop()


if __name__ == "__main__":
    bench_run(main, "console")
