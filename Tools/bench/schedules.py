"""Schedules' horizon made by two instances at once, on PostgreSQL.

Each round: a fresh database of a throwaway cluster is made by a release
jqc-server --demo (started and stopped: the demo's people, forms and
sites); 10,000 daily schedules (07:00-11:00 UTC, from tomorrow for 13 days,
all within the 14-day horizon) are written with one INSERT ... SELECT, as
an import would leave them, none made yet. Two release instances are then
started together on that database; each makes visits at start (batches of
100 schedules, those the other holds skipped). The figure is the time from
their start until the database holds every visit, polled every 0.2 s; the
round then checks each visit is there once (one per schedule and window)
and says how many each instance made (their logs). Target: under 60 s.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.dirname(__file__))
from ingest import Fatal, Postgres  # noqa: E402
from reviews import psql  # noqa: E402

TARGET_SECONDS = 60.0
DAYS = 13

FILL = """
INSERT INTO schedules (id, template_id, facility_id, area_ids, inspector_ids, rule, time_window, zone, start_date,
                       end_date, paused_at, version, made_until, made_count, created_at, updated_at)
SELECT 'SCH-bench-' || n, 'lobby-walk', 'F-200', '["A-201"]', '["{inspector}"]', 'FREQ=DAILY', '07:00-11:00', 'UTC',
       '{start}', '{end}', NULL, 1, NULL, 0, '{now}', '{now}'
FROM generate_series(1, {count}) AS n;
ANALYZE schedules;
"""


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def start(binary, url, log_path, extra=()):
    process = subprocess.Popen([binary, "--db", url, "--host", "127.0.0.1", "--port", "0", "--log-level", "info",
                                *extra], stdout=subprocess.PIPE, stderr=open(log_path, "w"), text=True)
    line = process.stdout.readline().strip()
    if not line.startswith("listening on http://"):
        process.kill()
        raise Fatal(f"jqc-server did not start: {line!r}; see {log_path}")
    return process


def stop(process):
    process.terminate()
    process.wait(timeout=30)


def made_by(log_path):
    text = open(log_path).read()
    return sum(int(n) for n in re.findall(r"made (\d+) scheduled visit", text))


def one_round(options, postgres, number):
    url = postgres.fresh()
    binary = os.path.join(options.bin, "jqc-server")
    stop(start(binary, url, os.path.join(options.work, f"seed-{number}.log"), ["--demo"]))
    inspector = psql(url, "SELECT id FROM users WHERE username = 'inspector'")
    today = datetime.now(timezone.utc).date()
    psql(url, FILL.format(inspector=inspector, start=today + timedelta(days=1), end=today + timedelta(days=DAYS),
                          now=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), count=options.schedules))
    expected = options.schedules * DAYS
    logs = [os.path.join(options.work, f"round-{number}-{side}.log") for side in ("one", "two")]
    began = time.monotonic()
    servers = [start(binary, url, path) for path in logs]
    try:
        made = 0
        while time.monotonic() - began < 600:
            made = int(psql(url, "SELECT COUNT(*) FROM assignments WHERE schedule_id IS NOT NULL"))
            if made >= expected:
                break
            time.sleep(0.2)
        seconds = time.monotonic() - began
    finally:
        for server in servers:
            stop(server)
    distinct = int(psql(url, "SELECT COUNT(DISTINCT (schedule_id, window_start)) FROM assignments "
                             "WHERE schedule_id IS NOT NULL"))
    if made != expected or distinct != expected:
        raise Fatal(f"round {number}: {made} visits, {distinct} distinct, expected {expected}")
    shares = [made_by(path) for path in logs]
    log(f"round {number}: {expected:,} visits in {seconds:.1f} s; made by each instance: {shares[0]:,} and {shares[1]:,}")
    return seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--schedules", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    os.makedirs(options.work, exist_ok=True)
    postgres = Postgres(options.work)
    try:
        times = [one_round(options, postgres, n + 1) for n in range(options.repeat)]
    finally:
        postgres.stop()
    median = statistics.median(times)
    verdict = "PASS" if median < TARGET_SECONDS else "FAIL"
    print(f"[schedules] {options.schedules:,} schedules x {DAYS} days, two instances on PostgreSQL, "
          f"median of {len(times)} rounds:")
    print(f"  horizon made in {median:.1f} s (runs: {', '.join(f'{t:.1f}' for t in times)})  "
          f"target < {TARGET_SECONDS:.0f} s: {verdict}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Fatal as error:
        print(f"schedules: {error}", file=sys.stderr)
        sys.exit(1)
