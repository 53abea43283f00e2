#!/usr/bin/env python3
"""Server ingestion benchmark: clients posting batches of new reports.

Driven by Tools/bench/ingest; see the usage there and BENCHMARKS.md.

Each server under test is a release `jqc-server --demo` on 127.0.0.1 with a
fresh SQLite database, or with `--postgres` a fresh database in a throwaway
PostgreSQL cluster (the baseline, a build before PostgreSQL, stays on SQLite). Every client signs in as the demo inspector on its
own, then posts its batches one after another on one keep-alive
connection; the clients run at the same time. Every report is new (a fresh
local_id), valid (template `lobby-walk`, facility F-100, area A-102), and
must come back ACCEPTED, or the run fails. The figure is accepted reports
divided by the wall time from the first request to the last answer.

`--webhook` measures this build twice in each run, alternating: without a
webhook, and with one sent every event whose receiver accepts connections
and never answers (each delivery waits out its 10 s timeout, then is
retried). The ratio of the two rates is the cost of webhooks to ingestion.

`--fleet N` measures a crowd instead: N clients at once, each posting one
batch, resending it after `Retry-After` whenever the server sheds load with
503, until every report is ACCEPTED. Its figures are the longest single
request, the 503s answered, the wall time, and the server's peak resident
memory (VmHWM).
"""

import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
import uuid

from bench import Fatal  # one error type for every script here; the others take it from this module


def log(msg):
    print(f"[ingest {time.strftime('%H:%M:%S')}] {msg}", flush=True)


ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class Postgres:
    """A throwaway cluster (Tools/postgres/cluster); a fresh database per run."""

    def __init__(self, work):
        self.folder = os.path.join(work, "postgres")
        shutil.rmtree(self.folder, ignore_errors=True)
        done = subprocess.run([os.path.join(ROOT, "Tools/postgres/cluster"), "start", self.folder],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise Fatal(f"could not start PostgreSQL: {done.stderr.strip()}")
        self.url = done.stdout.strip().splitlines()[-1]
        self.count = 0

    def fresh(self):
        self.count += 1
        name = f"bench_{self.count}"
        port = self.url.rsplit(":", 1)[1].split("/")[0]
        psql = sorted(__import__("glob").glob("/usr/lib/postgresql/*/bin/psql"))[-1]
        subprocess.run([psql, "-h", "127.0.0.1", "-p", port, "-U", "jqc", "-d", "jqc", "-qAt", "-c",
                        f"CREATE DATABASE {name}"], check=True, env=dict(os.environ, PGPASSWORD="jqc-test"))
        return self.url.rsplit("/", 1)[0] + "/" + name

    def stop(self):
        subprocess.run([os.path.join(ROOT, "Tools/postgres/cluster"), "stop", self.folder], capture_output=True)


class SilentReceiver:
    """A webhook receiver that accepts every connection and never answers."""

    def __init__(self):
        import socket
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.held = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(connection)


def add_webhook(binary, db, work, url):
    """`jqc-server admin webhook add` on the database before the server starts."""
    secret = os.path.join(work, "webhook-secret")
    with open(secret, "w") as f:
        f.write(uuid.uuid4().hex + uuid.uuid4().hex + "\n")
    done = subprocess.run([binary, "admin", "webhook", "add", url, "--db", db, "--secret-file", secret,
                           "--allow-private-targets"], capture_output=True, text=True)
    if done.returncode != 0:
        raise Fatal(f"admin webhook add: {done.stderr.strip()}")


def start_server(binary, work, label, postgres=None, extra=(), webhook=None):
    if postgres:
        db = postgres.fresh()
    else:
        db = os.path.join(work, f"{label}.sqlite")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        shutil.rmtree(db + ".photos", ignore_errors=True)
    if webhook:
        add_webhook(binary, db, work, webhook)
    proc = subprocess.Popen([binary, "--db", db, "--host", "127.0.0.1", "--port", "0", "--demo", *extra],
                            stdout=subprocess.PIPE, stderr=open(os.path.join(work, f"{label}.log"), "w"), text=True)
    line = proc.stdout.readline().strip()
    match = re.match(r"listening on http://127\.0\.0\.1:(\d+)", line)
    if not match:
        proc.kill()
        raise Fatal(f"{binary} did not start: {line!r}")
    return proc, int(match.group(1))


def request(conn, method, path, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, "/api/v1" + path, body=body, headers=headers)
    response = conn.getresponse()
    data = response.read()
    if response.status != 200:
        raise Fatal(f"{method} {path}: HTTP {response.status}: {data[:200]!r}")
    return json.loads(data)["data"]


def batch_body(size):
    reports = []
    for _ in range(size):
        reports.append({
            "local_id": str(uuid.uuid4()), "template_id": "lobby-walk", "facility_id": "F-100", "area_id": "A-102",
            "completed_at_device": "2026-01-05T09:30:00Z",
            "payload": {"answers": {"entrance": "pass", "glass": 4, "seating": "OK", "hazards": True,
                                    "notes": "Glass doors smeared near the handles; mats straight."},
                        "follow_up_required": False},
            "issues": [],
        })
    return json.dumps({"device_id": str(uuid.uuid4()), "app_version": "0.1.0", "schema_version": 1,
                       "reports": reports}).encode()


def peak_rss_mb(pid):
    """The process's peak resident set (VmHWM), in MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def login(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    token = request(conn, "POST", "/auth/login",
                    json.dumps({"username": "inspector", "password": "inspector-pass"}))["access_token"]
    conn.close()
    return token


def check_accepted(results, size):
    if len(results) != size or any(r["status"] != "ACCEPTED" for r in results):
        raise Fatal(f"not every report was accepted: {results[:1]}")


def together(count, label, client):
    """Runs client(index, ready) on `count` threads; each calls ready() when set
    to go, and all go at once. Returns the wall time from the go to the last end."""
    errors = []
    start = threading.Barrier(count + 1)

    def run(index):
        try:
            client(index, start.wait)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.monotonic()
    for thread in threads:
        thread.join()
    if errors:
        raise Fatal(f"{label}: {errors[0]}")
    return time.monotonic() - began


def run_fleet(binary, work, label, clients, size, postgres=None):
    """`clients` clients at once, one batch each, resent after Retry-After until accepted."""
    proc, port = start_server(binary, work, label, postgres)
    try:
        token = login(port)
        bodies = [batch_body(size) for _ in range(clients)]
        longest = [0.0] * clients
        shed = [0] * clients

        def client(index, ready):
            ready()
            while True:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                began = time.monotonic()
                conn.request("POST", "/api/v1/reports/sync", body=bodies[index],
                             headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
                response = conn.getresponse()
                data = response.read()
                longest[index] = max(longest[index], time.monotonic() - began)
                conn.close()
                if response.status == 503:
                    shed[index] += 1
                    time.sleep(float(response.getheader("Retry-After") or "1"))
                    continue
                if response.status != 200:
                    raise Fatal(f"HTTP {response.status}: {data[:200]!r}")
                check_accepted(json.loads(data)["data"]["results"], size)
                return

        elapsed = together(clients, label, client)
        return {"longest": max(longest), "shed": sum(shed), "seconds": elapsed, "rss": peak_rss_mb(proc.pid)}
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def run_once(binary, work, label, clients, batches, size, postgres=None, webhook=None, extra=(), after=None):
    """Reports accepted per second; `extra` options for the server, `after(port)` run once it listens."""
    proc, port = start_server(binary, work, label, postgres, extra=extra, webhook=webhook)
    try:
        if after:
            after(port)
        tokens = []
        for _ in range(clients):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            tokens.append(request(conn, "POST", "/auth/login",
                                  json.dumps({"username": "inspector", "password": "inspector-pass"}))["access_token"])
            conn.close()
        bodies = [[batch_body(size) for _ in range(batches)] for _ in range(clients)]
        accepted = [0] * clients

        def client(index, ready):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            ready()
            for body in bodies[index]:
                results = request(conn, "POST", "/reports/sync", body, tokens[index])["results"]
                check_accepted(results, size)
                accepted[index] += len(results)
            conn.close()

        elapsed = together(clients, label, client)
        return sum(accepted) / elapsed
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser(prog="Tools/bench/ingest")
    parser.add_argument("--server", required=True, help="the jqc-server under test")
    parser.add_argument("--baseline", help="another jqc-server to measure in the same run")
    parser.add_argument("--work", required=True)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--batches", type=int, default=10, help="batches per client")
    parser.add_argument("--batch", type=int, default=100, help="reports per batch")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--postgres", action="store_true", help="this build on PostgreSQL (a throwaway cluster)")
    parser.add_argument("--fleet", type=int, default=0, help="N clients at once, one batch each, instead")
    parser.add_argument("--webhook", action="store_true", help="this build without and with a webhook that never answers")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    servers = [("this build", args.server)] + ([("baseline", args.baseline)] if args.baseline else [])
    if args.webhook:
        return webhook_cost(args)
    if args.fleet:
        postgres = Postgres(args.work) if args.postgres else None
        try:
            return fleet(args, servers, postgres)
        except Fatal as error:
            print(f"ingest: {error}", file=sys.stderr)
            return 1
        finally:
            if postgres:
                postgres.stop()
    # The baseline (a build before PostgreSQL) stays on SQLite.
    rates = alternate(args, [(label, binary, label == "this build", None) for label, binary in servers])
    if rates is None:
        return 1
    medians = report(args, "this build on PostgreSQL" if args.postgres else "SQLite", "", rates)
    if args.baseline:
        print(f"  ratio this build / baseline: {medians['this build'] / medians['baseline']:.2f}")
    return 0


def alternate(args, variants):
    """Each variant (label, server binary, on PostgreSQL when --postgres, webhook URL or None) run in turn,
    --repeat times; the rates by label, or None (the reason said) when a run failed."""
    rates = {label: [] for label, *_ in variants}
    postgres = None
    try:
        if args.postgres:
            postgres = Postgres(args.work)
        for run in range(args.repeat):
            for label, binary, on_postgres, webhook in variants:
                rate = run_once(binary, args.work, label.replace(" ", "-"), args.clients, args.batches, args.batch,
                                postgres if on_postgres else None, webhook=webhook)
                rates[label].append(rate)
                log(f"run {run + 1}: {label}: {rate:,.0f} reports/s")
    except Fatal as error:
        print(f"ingest: {error}", file=sys.stderr)
        return None
    finally:
        if postgres:
            postgres.stop()
    return rates


def report(args, store, note, rates):
    """Prints the medians of `rates` and each run's figure; returns the medians."""
    total = args.clients * args.batches * args.batch
    print(f"[{store}] {args.clients} clients x {args.batches} batches x {args.batch} new reports ({total:,} per run), "
          f"median of {args.repeat} runs{note}:")
    medians = {label: statistics.median(values) for label, values in rates.items()}
    width = max(len(label) for label in rates)
    for label, values in rates.items():
        print(f"  {label:>{width}}: {medians[label]:8,.0f} reports/s   (runs: {', '.join(f'{v:,.0f}' for v in values)})")
    return medians


def webhook_cost(args):
    """This build without a webhook and with one whose receiver never answers, alternating; the ratio of the medians."""
    receiver = SilentReceiver()
    url = f"http://127.0.0.1:{receiver.port}/hook"
    rates = alternate(args, [("without a webhook", args.server, True, None), ("with a webhook", args.server, True, url)])
    if rates is None:
        return 1
    medians = report(args, "PostgreSQL" if args.postgres else "SQLite", "; the webhook's receiver accepts connections and never answers",
                     rates)
    ratio = medians["with a webhook"] / medians["without a webhook"]
    print(f"  ratio with / without: {ratio:.3f}  target >= 0.95: {'PASS' if ratio >= 0.95 else 'FAIL'}")
    return 0


def fleet(args, servers, postgres):
    print(f"{args.fleet} clients at once, one batch of {args.batch} new reports each"
          + (", this build on PostgreSQL" if postgres else "") + ":")
    for run in range(args.repeat):
        for label, binary in servers:
            store = postgres if label == "this build" else None
            figures = run_fleet(binary, args.work, label.replace(" ", "-"), args.fleet, args.batch, store)
            print(f"  run {run + 1}: {label:>10}: longest request {figures['longest']:5.1f} s, {figures['shed']:4d} answered 503, "
                  f"all accepted in {figures['seconds']:5.1f} s, peak RSS {figures['rss']:5.0f} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
