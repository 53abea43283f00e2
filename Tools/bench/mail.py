#!/usr/bin/env python3
"""Mail benchmarks: the outbox's sending rate, and what mail costs ingestion.

throughput: a release jqc-server --demo on SQLite makes `--messages`
serious-issue alerts (reports with a critical issue each, the supervisor
having an address) while its relay refuses every connection, so each message
is made, tried once and put off for a day. The server is stopped and every
message made due again. Then, alternating, `--repeat` times each:

- this build: the server started on that database with the relay an SMTP
  sink on loopback (Tools/bench/smtpsink.py), its two senders handing the
  messages over; the time from its "listening" line to the sink's last
  message;
- Python's smtplib: the same messages (their stored bytes and recipients)
  sent to the same sink over one connection.

Target: this build's median rate at least half smtplib's.

ingest: the ingest benchmark's clients and batches (Tools/bench/ingest.py,
4 clients x 10 batches of 100 new reports) against the server with mail off
and with mail on (the sink as relay, the supervisor and the inspector with
addresses, every alert the supervisor may have), alternating. Target: the
rate with mail at least 90% of the rate without.
"""
import argparse
import os
import smtplib
import socket
import sqlite3
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from bench import log, run as bench_run  # noqa: E402
from ingest import Fatal, login, run_once, start_server  # noqa: E402
from smtpsink import SMTPSink  # noqa: E402

MAIL = ["--mail-from", "bench@example.org", "--public-url", "http://bench.example.invalid"]


def admin(binary, db, *words):
    done = subprocess.run([binary, "admin", "--db", db, *words], capture_output=True, text=True)
    if done.returncode != 0:
        raise Fatal(f"admin {' '.join(words)}: {done.stderr.strip()}")


def dead_port():
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def reports_with_issues(size):
    import json
    import uuid
    reports = [{
        "local_id": str(uuid.uuid4()), "template_id": "lobby-walk", "facility_id": "F-100", "area_id": "A-102",
        "payload": {"answers": {"entrance": "fail", "glass": 2}, "follow_up_required": False},
        "issues": [{"local_id": str(uuid.uuid4()), "severity": "critical", "description": "Handrail loose"}],
    } for _ in range(size)]
    return json.dumps({"device_id": str(uuid.uuid4()), "app_version": "0.1.0", "schema_version": 1,
                       "reports": reports}).encode()


def count(db, sql):
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        return conn.execute(sql).fetchone()[0]


def fill(binary, work, messages):
    """A database whose outbox holds `messages` messages, all due now."""
    import http.client
    relay = f"smtp://127.0.0.1:{dead_port()}"
    proc, port = start_server(binary, work, "outbox", extra=["--smtp-url", relay, *MAIL,
                                                            "--mail-first-retry-ms", "86400000"])
    db = os.path.join(work, "outbox.sqlite")
    try:
        admin(binary, db, "user", "update", "supervisor", "--email", "sam@example.org")
        token = login(port)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        for _ in range(messages // 100):
            conn.request("POST", "/api/v1/reports/sync", body=reports_with_issues(100),
                         headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise Fatal(f"sync: HTTP {response.status}")
        deadline = time.monotonic() + 600
        while count(db, "SELECT COUNT(*) FROM mail_messages WHERE attempts > 0") < messages:
            if time.monotonic() > deadline:
                raise Fatal("the outbox did not make every message within 10 minutes")
            time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    made = count(db, "SELECT COUNT(*) FROM mail_messages")
    if made != messages:
        raise Fatal(f"the outbox made {made} messages, not {messages}")
    return db


def make_due(db):
    with sqlite3.connect(db, timeout=30) as conn:
        conn.execute("UPDATE mail_messages SET state = 'pending', attempts = 0, next_attempt_at = 0, "
                     "lease_until = NULL, lease_owner = NULL, sent_at = NULL")


def ours(binary, db, sink, messages):
    """Messages per second this build hands to the sink."""
    import re
    make_due(db)
    sink.reset()
    proc = subprocess.Popen([binary, "--db", db, "--host", "127.0.0.1", "--port", "0", "--smtp-url", sink.url, *MAIL],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        began = time.monotonic()
        if not re.match(r"listening on ", line):
            raise Fatal(f"the server did not start: {line!r}")
        if not sink.wait_for(messages, 600):
            raise Fatal(f"only {sink.count()} of {messages} messages arrived")
        elapsed = time.monotonic() - began
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    if len(set(sink.ids)) != messages:
        raise Fatal(f"{messages} messages arrived under {len(set(sink.ids))} Message-IDs")
    return messages / elapsed


def smtplib_rate(db, sink, messages):
    """Messages per second Python's smtplib hands to the sink over one connection."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT recipient, body FROM mail_messages ORDER BY id").fetchall()
    sink.reset()
    began = time.monotonic()
    with smtplib.SMTP("127.0.0.1", sink.port) as client:
        for recipient, body in rows:
            client.sendmail("bench@example.org", [recipient], body.encode("ascii"))
    if not sink.wait_for(messages, 60):
        raise Fatal("smtplib's messages did not all arrive")
    return messages / (time.monotonic() - began)


def throughput(args):
    os.makedirs(args.work, exist_ok=True)
    binary = os.path.join(args.bin, "jqc-server")
    log(f"making {args.messages:,} messages")
    db = fill(binary, args.work, args.messages)
    sink = SMTPSink()
    rates = {"this build": [], "smtplib": []}
    for run in range(args.repeat):
        rates["this build"].append(ours(binary, db, sink, args.messages))
        rates["smtplib"].append(smtplib_rate(db, sink, args.messages))
        log(f"run {run + 1}: this build {rates['this build'][-1]:,.0f}/s, smtplib {rates['smtplib'][-1]:,.0f}/s")
    medians = {label: statistics.median(values) for label, values in rates.items()}
    print(f"[throughput] {args.messages:,} messages to an SMTP sink on loopback, median of {args.repeat} runs:")
    for label, values in rates.items():
        print(f"  {label:>10}: {medians[label]:8,.0f} messages/s   (runs: {', '.join(f'{v:,.0f}' for v in values)})")
    ratio = medians["this build"] / medians["smtplib"]
    print(f"  ratio this build / smtplib: {ratio:.2f}  target >= 0.5: {'PASS' if ratio >= 0.5 else 'FAIL'}")


def ingest_cost(args):
    os.makedirs(args.work, exist_ok=True)
    binary = os.path.join(args.bin, "jqc-server")
    sink = SMTPSink()

    def addresses(port):
        db = os.path.join(args.work, "with-mail.sqlite")
        admin(binary, db, "user", "update", "supervisor", "--email", "sam@example.org")
        admin(binary, db, "user", "update", "inspector", "--email", "ivy@example.org")

    variants = [("mail off", "without-mail", (), None),
                ("mail on", "with-mail", ("--smtp-url", sink.url, *MAIL), addresses)]
    rates = {label: [] for label, *_ in variants}
    for run in range(args.repeat):
        for label, name, extra, after in variants:
            rate = run_once(binary, args.work, name, 4, 10, 100, extra=extra, after=after)
            rates[label].append(rate)
            log(f"run {run + 1}: {label}: {rate:,.0f} reports/s")
    medians = {label: statistics.median(values) for label, values in rates.items()}
    print(f"[ingest] 4 clients x 10 batches x 100 new reports, SQLite, median of {args.repeat} runs:")
    for label, values in rates.items():
        print(f"  {label:>8}: {medians[label]:8,.0f} reports/s   (runs: {', '.join(f'{v:,.0f}' for v in values)})")
    ratio = medians["mail on"] / medians["mail off"]
    print(f"  ratio on / off: {ratio:.3f}  target >= 0.90: {'PASS' if ratio >= 0.9 else 'FAIL'}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=["throughput", "ingest"])
    args = parser.parse_args()
    if args.only in (None, "throughput"):
        throughput(args)
    if args.only in (None, "ingest"):
        ingest_cost(args)
    return 0


if __name__ == "__main__":
    bench_run(main, "mail")
