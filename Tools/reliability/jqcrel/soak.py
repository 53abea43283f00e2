"""The soak: a fleet ingests at a steady rate through two instances on one
PostgreSQL database while a supervisor reads exports and history pages, for
minutes on end. Afterwards sign-in still works, each instance's memory stayed
within its bound, PostgreSQL shows no query or transaction left open, and the
database holds every report the fleet was told was accepted, exactly once."""

import json
import os
import random
import threading
import time
import urllib.error
import urllib.request
import uuid

from .invariants import Findings
from .postgres import Cluster, query_json
from .world import Server

DEVICES = 8
BATCH = 5
# Memory an instance may gain between the end of the first fifth of the run
# and its end: a leak of a few hundred bytes a report would pass it within
# minutes at this rate, a steady working set never.
GROWTH_BOUND_MB = 64


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Client:
    """One signed-in user of the API, signing in again when told to."""

    def __init__(self, base, username, password):
        self.base, self.username, self.password = base, username, password
        self.token = None

    def request(self, method, path, body=None, timeout=60):
        for _ in range(3):
            if self.token is None:
                self.token = self._login()
            data = json.dumps(body).encode() if body is not None else None
            request = urllib.request.Request(self.base + "/api/v1" + path, data=data, method=method,
                                             headers={"Authorization": f"Bearer {self.token}",
                                                      "Content-Type": "application/json",
                                                      "X-JQC-App-Version": "0.1.0"})
            try:
                with urllib.request.urlopen(request, timeout=timeout) as response:
                    return response.status, response.read()
            except urllib.error.HTTPError as error:
                if error.code == 401:
                    self.token = None
                    continue
                return error.code, error.read()
        return 401, b""

    def _login(self):
        request = urllib.request.Request(self.base + "/api/v1/auth/login", method="POST",
                                         data=json.dumps({"username": self.username, "password": self.password}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())["data"]["access_token"]


def report(rng):
    return {"local_id": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "template_id": "lobby-walk",
            "facility_id": "F-100", "area_id": "A-102",
            "payload": {"answers": {"entrance": rng.choice(["pass", "fail"]), "glass": rng.randint(1, 5),
                                    "notes": f"soak {rng.randrange(10**9)}"}, "follow_up_required": False}}


def run_soak(bin_dir, work, seconds, seed, rate=50, log=print):
    """`rate` reports a second in all, for `seconds`; returns (figures, findings)."""
    os.makedirs(work, exist_ok=True)
    cluster = Cluster(os.path.join(work, "postgres"))
    instances = [Server(bin_dir, work, name=f"soak-{i}", seed=seed + i, db=cluster.url) for i in range(2)]
    found = Findings()
    try:
        for instance in instances:
            instance.start()
        accepted, lock = set(), threading.Lock()
        counts = {"batches": 0, "busy": 0, "errors": 0, "exports": 0, "history_pages": 0, "read_errors": 0}
        stop = threading.Event()
        deadline = time.monotonic() + seconds

        def device(index):
            rng = random.Random(seed * 1000 + index)
            client = Client(instances[index % 2].url, "inspector", "inspector-pass")
            interval = BATCH * DEVICES / rate
            next_at = time.monotonic() + rng.uniform(0, interval)
            pending = []
            while not stop.is_set():
                time.sleep(max(0.0, next_at - time.monotonic()))
                next_at += interval
                pending = pending or [report(rng) for _ in range(BATCH)]
                status, body = client.request("POST", "/reports/sync", {
                    "device_id": str(uuid.UUID(int=index + 1)), "app_version": "0.1.0", "schema_version": 1,
                    "merge": "fields", "reports": pending})
                with lock:
                    counts["batches"] += 1
                    if status == 200:
                        for result in json.loads(body)["data"]["results"]:
                            if result["status"] == "ACCEPTED":
                                accepted.add(result["local_id"].lower())
                        pending = []
                    elif status in (429, 503):
                        counts["busy"] += 1          # sent again, as a device does
                    else:
                        counts["errors"] += 1
                        found.add("corruption", f"a sync batch was answered {status}: {body[:200]!r}")
                        pending = []

        def reader(index):
            client = Client(instances[index % 2].url, "supervisor", "supervisor-pass")
            rng = random.Random(seed * 7 + index)
            while not stop.is_set():
                if rng.random() < 0.2:
                    status, _ = client.request("GET", "/exports/reports?format=jsonl", timeout=300)
                    key = "exports"
                else:
                    status, _ = client.request("GET", f"/inspections?limit=100&offset={rng.randrange(0, 2000)}")
                    key = "history_pages"
                with lock:
                    if status == 200:
                        counts[key] += 1
                    elif status not in (429, 503):
                        counts["read_errors"] += 1
                        found.add("corruption", f"a read was answered {status}")
                time.sleep(0.2)

        threads = [threading.Thread(target=device, args=(i,), daemon=True) for i in range(DEVICES)]
        threads += [threading.Thread(target=reader, args=(i,), daemon=True) for i in range(2)]
        for thread in threads:
            thread.start()
        samples = []
        while time.monotonic() < deadline:
            time.sleep(min(5.0, max(0.0, deadline - time.monotonic())))
            samples.append([rss_mb(instance.process.pid) for instance in instances])
            for instance in instances:
                if instance.process.poll() is not None:
                    found.add("losses", f"an instance exited ({instance.process.returncode}) during the soak")
                    stop.set()
        stop.set()
        for thread in threads:
            thread.join(timeout=120)

        # Afterwards: sign-in, memory, open queries, every accepted report once.
        for instance in instances:
            try:
                Client(instance.url, "inspector", "inspector-pass")._login()
            except Exception as error:
                found.add("losses", f"sign-in failed after the soak on {instance.url}: {error}")
        early = samples[max(0, len(samples) // 5 - 1)] if samples else [0, 0]
        peak = [max(s[i] for s in samples) for i in range(2)] if samples else [0, 0]
        last = samples[-1] if samples else [0, 0]
        for i in range(2):
            if last[i] - early[i] > GROWTH_BOUND_MB:
                found.add("corruption", f"instance {i} grew from {early[i]:.0f} MB to {last[i]:.0f} MB (bound: {GROWTH_BOUND_MB} MB)")
        time.sleep(2)
        open_queries = query_json(cluster.url, """
            SELECT COALESCE(json_agg(json_build_array(state, left(query, 80))), '[]') FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'""")
        for state, query in open_queries:
            found.add("corruption", f"after the soak PostgreSQL still shows a {state} query: {query}")
        stored = query_json(cluster.url, "SELECT json_build_array(count(*), count(DISTINCT lower(local_id))) FROM reports")
        if stored[0] != stored[1]:
            found.add("duplicates", f"{stored[0]} report records for {stored[1]} local ids")
        missing = query_json(cluster.url, "SELECT COALESCE(json_agg(lower(local_id)), '[]') FROM reports")
        lost = accepted - set(missing)
        if lost:
            found.add("losses", f"{len(lost)} reports the fleet was told were accepted are not stored")
        figures = dict(counts, seconds=seconds, rate=rate, accepted=len(accepted), stored=stored[0],
                       rss_mb_early=[round(x) for x in early], rss_mb_peak=[round(x) for x in peak],
                       rss_mb_last=[round(x) for x in last], open_queries=len(open_queries),
                       duplicates=found.count("duplicates"), losses=found.count("losses"),
                       corruption=found.count("corruption"))
        return figures, found
    finally:
        for instance in instances:
            instance.stop()
        cluster.stop()
