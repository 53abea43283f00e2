#!/usr/bin/env python3
"""Corrective actions on a large PostgreSQL database.

(a) The feed on the device. A release jqc-server --demo on a fresh database
of a throwaway cluster; 10,000 actions the demo inspector may see are
written with one INSERT ... SELECT (each with its viewer row), then
ANALYZE. A fresh profile signs in and syncs once (the reference data),
untimed; then `jqc-agent run --once` is timed: it pulls the whole feed in
one cycle (100 pages of 100) and stores every action. curl then fetches the
same 100 pages (`GET /actions?limit=100&since=...`, the cursors being the
generation and the position) over one connection, timed. Rounds alternate
which side goes first; the median ratio agent/curl decides. Target: at most 2.

(b) The console's list. A second fresh database holds 1,000,000 actions
(three sites, four severities, half verified, a fifth open, a seventh
without a due time), loaded as a bulk load is (the trigger that keeps the
counts per state off, the counts added in one statement), then VACUUM ANALYZE (as autovacuum leaves a table in service). A supervisor signs in through the
console's form and opens each page `--repeat` times on one keep-alive
connection; the figure is the server's own time for it, the `duration_ms`
of its access-log line. Each page is the whole work of the list: 50
actions sorted by due time, the counts per state, the filters' choices and
the HTML. Target: a median under 100 ms per page.
"""
import argparse
import functools
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from bench import server_times, run as bench_run  # noqa: E402
from console import Browser  # noqa: E402
from ingest import Fatal, Postgres, login, start_server  # noqa: E402
from reviews import psql  # noqa: E402

FEED_TARGET = 2.0
LIST_TARGET_MS = 100.0

FILL = """
{before}
INSERT INTO actions (id, facility_id, title, description, severity, is_internal, state, assignee_id, due_at,
                     source_kind, created_by, version, created_at, updated_at, change)
SELECT 'A-bench-' || n, (ARRAY['F-100', 'F-200', 'F-300'])[1 + n % 3], 'Bench action ' || n || ': refill the dispensers',
       'Found on the round of ' || n, (ARRAY['low', 'medium', 'high', 'critical'])[1 + n % 4], false,
       CASE WHEN n % 10 < 5 THEN 'verified' WHEN n % 10 < 7 THEN 'open' WHEN n % 10 = 7 THEN 'in_progress'
            WHEN n % 10 = 8 THEN 'done' ELSE 'cancelled' END,
       CASE WHEN n % 4 = 0 THEN NULL ELSE 'U-INSPECTOR' END,
       CASE WHEN n % 7 = 0 THEN NULL
            ELSE to_char(timestamp '2026-01-01' + (n % 500000) * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END,
       'supervisor', 'U-SUPERVISOR', 1, '2026-01-01T08:00:00Z', '2026-01-01T08:00:00Z',
       (SELECT value FROM counters WHERE name = 'actions') + n
FROM generate_series(1, {count}) AS n;
{viewers}
{after}
UPDATE counters SET value = value + {count} WHERE name = 'actions';
ANALYZE actions;
ANALYZE action_viewers;
"""
VIEWERS = "INSERT INTO action_viewers (action_id, user_id) SELECT id, 'U-INSPECTOR' FROM actions;"
# A million rows are loaded as a bulk load is: the per-row trigger that keeps the counts per
# state off, and the counts then added in one statement, as the migration fills them.
BULK_BEFORE = "ALTER TABLE actions DISABLE TRIGGER action_counts_follow;"
BULK_AFTER = """
INSERT INTO action_counts (facility_id, severity, assignee_id, state, n)
SELECT facility_id, severity, COALESCE(assignee_id, ''), state, COUNT(*) FROM actions GROUP BY 1, 2, 3, 4
ON CONFLICT (facility_id, severity, assignee_id, state) DO UPDATE SET n = action_counts.n + EXCLUDED.n;
ALTER TABLE actions ENABLE TRIGGER action_counts_follow;
"""


def database_url(postgres):
    return postgres.url.rsplit("/", 1)[0] + f"/bench_{postgres.count}"


def timed(argv, out):
    started = time.monotonic()
    done = subprocess.run(argv, stdout=open(out, "w"), stderr=subprocess.STDOUT)
    return time.monotonic() - started, done.returncode


def feed_round(options, postgres, count, round_number, agent_first):
    server, port = start_server(os.path.join(options.bin, "jqc-server"), options.work, f"feed-{round_number}",
                                postgres=postgres)
    try:
        url = database_url(postgres)
        base = f"http://127.0.0.1:{port}"
        home = os.path.join(options.work, f"profile-{round_number}")
        shutil.rmtree(home, ignore_errors=True)
        jqc = [os.path.join(options.bin, "jqc"), "--home", home]
        subprocess.run(jqc + ["login", "--server", base, "--username", "inspector", "--password-stdin"],
                       input="inspector-pass\n", text=True, check=True, capture_output=True)
        subprocess.run(jqc + ["sync"], check=True, capture_output=True)
        psql(url, FILL.format(count=count, viewers=VIEWERS, before="", after=""))
        generation = psql(url, "SELECT value FROM settings WHERE key = 'server_generation'")
        token = login(port)
        pages = (count + 99) // 100
        config = []
        for page in range(pages):
            config += [f'url = "{base}/api/v1/actions?limit=100&since={generation}.{page * 100}"',
                       f'header = "Authorization: Bearer {token}"', 'header = "X-JQC-App-Version: 0.1.0"',
                       f'output = "{options.work}/page-{round_number}-{page}.json"', "next"]
        config_path = os.path.join(options.work, f"curl-{round_number}.cfg")
        open(config_path, "w").write("\n".join(config[:-1]) + "\n")
        agent = [os.path.join(options.bin, "jqc-agent"), "--home", home, "run", "--once"]
        curl = ["curl", "-sS", "--fail", "-K", config_path]
        times = {}
        for side in (["agent", "curl"] if agent_first else ["curl", "agent"]):
            os.sync()
            seconds, code = timed(agent if side == "agent" else curl, os.path.join(options.work, f"{side}-{round_number}.out"))
            if code != 0:
                raise Fatal(f"(a) {side} exited {code}")
            times[side] = seconds
        with sqlite3.connect(os.path.join(home, "jqc.sqlite")) as db:
            held = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        fetched = sum(len(json.load(open(f"{options.work}/page-{round_number}-{p}.json"))["data"]["actions"])
                      for p in range(pages))
        if held != count or fetched != count:
            raise Fatal(f"(a) the device holds {held} actions and curl fetched {fetched}, not {count}")
        ratio = times["agent"] / times["curl"]
        print(f"  (a) round {round_number}: agent {times['agent']:.2f} s, curl {times['curl']:.2f} s, ratio {ratio:.2f}",
              flush=True)
        return ratio
    finally:
        server.terminate()
        server.wait()


def list_pages(options, postgres, count):
    log_path = os.path.join(options.work, "access.log")
    server, port = start_server(os.path.join(options.bin, "jqc-server"), options.work, "list", postgres=postgres,
                                extra=("--log-file", log_path))
    try:
        url = database_url(postgres)
        print(f"[actions] (b) writing {count:,} actions", flush=True)
        psql(url, FILL.format(count=count, viewers="", before=BULK_BEFORE, after=BULK_AFTER))
        # As autovacuum leaves a table in service: its visibility map set, so index-only scans stay so.
        psql(url, "VACUUM ANALYZE actions")
        browser = Browser(port)
        browser.sign_in("supervisor", "supervisor-pass")
        reads = [
            ("/console/actions", "every action, the soonest due first"),
            ("/console/actions?state=open", "open (20%)"),
            ("/console/actions?overdue=1", "overdue"),
            ("/console/actions?facility=F-200&severity=critical", "one site, critical"),
            ("/console/actions?page=200", "every action, page 200"),
        ]
        results = []
        for path, label in reads:
            times = server_times(log_path, "/console/actions", options.repeat,
                                 functools.partial(browser.page, path, 'id="actions"'))
            median = statistics.median(times)
            verdict = "PASS" if median < LIST_TARGET_MS else "FAIL"
            results.append(verdict == "PASS")
            print(f"  (b) {label}: median {median:.1f} ms, worst {max(times):.1f} ms over {len(times)} "
                  f"[{verdict}, target median < {LIST_TARGET_MS:.0f} ms]", flush=True)
        for title, sql in [
            ("soonest due first", "EXPLAIN SELECT id FROM actions a ORDER BY (a.due_at IS NULL), a.due_at, a.change LIMIT 50"),
            ("counts per state", "EXPLAIN SELECT a.state, COUNT(*) FROM actions a GROUP BY a.state"),
        ]:
            plan = psql(url, sql).splitlines()
            print(f"  plan, {title}: " + " / ".join(line.strip() for line in plan[:3]))
        return all(results)
    finally:
        server.terminate()
        server.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--feed", type=int, default=10_000)
    parser.add_argument("--list", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--only", default="ab")
    options = parser.parse_args()
    shutil.rmtree(options.work, ignore_errors=True)
    os.makedirs(options.work)
    postgres = Postgres(options.work)
    passed = True
    try:
        if "a" in options.only:
            print(f"[actions] (a) the device pulls {options.feed:,} actions; curl fetches the same pages", flush=True)
            ratios = [feed_round(options, postgres, options.feed, n + 1, agent_first=n % 2 == 0)
                      for n in range(options.rounds)]
            median = statistics.median(ratios)
            verdict = median <= FEED_TARGET
            passed &= verdict
            print(f"  (a) agent / curl, median of {len(ratios)}: {median:.2f} "
                  f"[{'PASS' if verdict else 'FAIL'}, target <= {FEED_TARGET:.0f}]", flush=True)
        if "b" in options.only:
            passed &= list_pages(options, postgres, options.list)
        return 0 if passed else 1
    finally:
        postgres.stop()


if __name__ == "__main__":
    bench_run(main, "actions")
