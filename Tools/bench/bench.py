#!/usr/bin/env python3
"""JanitorialQC sync benchmarks: jqc-agent against the curl command-line tool.

Driven by Tools/bench/run, which builds the release binaries and prepares a
Python venv with Pillow; see the usage there and BENCHMARKS.md.

Everything runs on 127.0.0.1 against `jqc-server --demo` with fresh databases
in the work directory. Honest shortcuts, documented here and in BENCHMARKS.md:

* Pending reports are made by creating ONE completed report with `jqc`
  (start / answer / complete) and cloning its `reports` row and its
  `report_revisions` rows inside the profile's SQLite store: a new local_id
  (an uppercase UUID, the store's canonical text form; the wire form is
  lowercase), a higher creation_seq, and the `sequences` counter moved past
  them. Everything else (answers, score, state PENDING) is the seed's.
* Photos are real JPEGs (Pillow, ~300 KB) written into the profile's photo
  folder as `<UUID>.jpg` (mode 0600) with `photos` rows exactly as
  `jqc photo add` writes them (field 14, PENDING, byte size, SHA-256), and
  the report's field-14 answer lists their lowercase ids as `jqc` does.
* To time the photo phase alone, the reports must be ACCEPTED with their
  photos pending. A first `jqc-agent run --once` is made with the photo
  folder moved aside: the reports are accepted, every upload fails with
  PHOTO_FILE_MISSING and the report stays PENDING awaiting photos. The
  folder is put back, the photos reset to PENDING and the reports' retry
  state cleared (attempt 0, due now, no error); the timed
  `jqc-agent run --once` then only pulls reference data and uploads photos.
"""

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import time
import uuid
from datetime import datetime, timezone

APP_VERSION = "0.1.0"      # AppVersion.current (Apps/JQCApp/JQCCommandLine.swift)
SCHEMA_VERSION = 1         # Report.currentSchemaVersion
BATCH = 100                # SyncRequest.maximumBatch
PHOTOS_PER_REPORT = 10
PARALLEL = 4               # SyncEngine.Configuration.maxConcurrentUploads


def unique_jpeg(data, marker):
    """The JPEG `data` with a comment segment (COM) naming `marker` after its
    start marker: the same picture, bytes no other file has. The server keeps
    photos by content hash and stores a photo it already holds without
    writing it again; every upload the benchmarks time, the agent's and
    curl's alike, is of bytes the server does not hold yet, so each is
    written and flushed."""
    if data[:2] != b"\xff\xd8":
        raise Fatal("a photo of the pool is not a JPEG")
    text = ("jqc-bench " + marker).encode()
    return data[:2] + b"\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text + data[2:]


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


class Fatal(Exception):
    """A benchmark that cannot run; every script of Tools/bench raises this one."""


def run(main, name):
    """Runs a script's `main` and exits with its code; a `Fatal` is one line on stderr and exit 1."""
    try:
        sys.exit(main())
    except Fatal as error:
        print(f"{name}: {error}", file=sys.stderr)
        sys.exit(1)


def server_times(log_path, route, repeat, send):
    """The server's own time, in ms, of each of `repeat` requests made by
    calling `send()` (which checks its answer): the `duration_ms` of the
    access lines of `route` (the pattern the log names, not the path) that
    they added to the server's JSON Lines log at `log_path`, in order.
    Fatal unless there is one such line a request."""
    with open(log_path) as log:
        before = len(log.readlines())
    for _ in range(repeat):
        send()
    with open(log_path) as log:
        lines = log.readlines()[before:]
    times = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("kind") == "access" and entry.get("route") == route:
            times.append(float(entry["duration_ms"]))
    if len(times) != repeat:
        raise Fatal(f"expected {repeat} access lines of {route}, found {len(times)}")
    return times


def photo_pool(folder, n):
    """`n` different JPEGs of 1600 x 1200 written into `folder` (Pillow);
    their paths. Each is a smooth random colour field with grain, which
    compresses like a phone photo (~300 KB at quality 85)."""
    from PIL import Image
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(5)
    pool = []
    # Grain is slow to make; a few large sheets are cut at random offsets.
    grain = [Image.effect_noise((1800, 1400), 28).convert("RGB") for _ in range(3)]
    for i in range(n):
        small = Image.frombytes("RGB", (40, 30), bytes(rng.getrandbits(8) for _ in range(40 * 30 * 3)))
        img = small.resize((1600, 1200), Image.BICUBIC)
        x, y = rng.randrange(200), rng.randrange(200)
        noise = grain[i % len(grain)].crop((x, y, x + 1600, y + 1200))
        img = Image.blend(img, noise, 0.12)
        path = os.path.join(folder, f"p{i:04d}.jpg")
        img.save(path, "JPEG", quality=85)
        pool.append(path)
    return pool


class Bench:
    def __init__(self, args):
        self.bin = args.bin
        self.work = args.work
        self.quick = args.quick
        self.servers = []
        self.results = []   # (name, value, unit)
        self.targets = []   # (name, figure text, target text, pass)
        self.failures = []  # (a) agent runs that failed
        self.cpu = {}       # label -> CPU seconds (user + system) of the timed process
        self.server_cpu_used = {}  # label -> CPU seconds the servers used meanwhile
        self.cpu_split = {}  # label -> (user, system) CPU seconds of the timed process
        self.server_cpu_split = {}  # label -> (user, system) CPU seconds the servers used meanwhile

    # ---------- processes ----------

    def start_server(self, name):
        db = os.path.join(self.work, f"server-{name}.sqlite")
        proc = subprocess.Popen([os.path.join(self.bin, "jqc-server"), "--db", db, "--host", "127.0.0.1",
                                 "--port", "0", "--demo"],
                                stdout=subprocess.PIPE, stderr=open(os.path.join(self.work, f"server-{name}.log"), "w"),
                                text=True)
        self.servers.append(proc)
        proc.bench_name = name
        line = proc.stdout.readline().strip()
        m = re.match(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if not m:
            raise Fatal(f"jqc-server did not start: {line!r}")
        log(f"server {name}: {m.group(1)}")
        return m.group(1)

    def server_cpu(self):
        """CPU seconds (user, system) each running server has used so far."""
        tick = os.sysconf("SC_CLK_TCK")
        cpu = {}
        for proc in self.servers:
            try:
                fields = open(f"/proc/{proc.pid}/stat").read().rsplit(")", 1)[1].split()
                cpu[proc.bench_name] = (int(fields[11]) / tick, int(fields[12]) / tick)
            except (OSError, IndexError, ValueError):
                pass
        return cpu

    def stop_servers(self):
        for proc in self.servers:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()

    def jqc(self, home, *args, stdin=None):
        cmd = [os.path.join(self.bin, "jqc"), "--home", home, *args]
        r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
        if r.returncode != 0:
            raise Fatal(f"{' '.join(cmd)} -> {r.returncode}\n{r.stdout}\n{r.stderr}")
        return r.stdout

    def timed(self, cmd, label):
        """Runs cmd under /usr/bin/time -v; returns (wall seconds, max RSS KiB, returncode)."""
        tfile = os.path.join(self.work, f"time-{label}.txt")
        out = open(os.path.join(self.work, f"out-{label}.txt"), "w")
        # What earlier steps wrote (profiles, photo copies, the run before) is
        # flushed first, so that no timed run pays for another's writeback.
        os.sync()
        before = self.server_cpu()
        t0 = time.monotonic()
        r = subprocess.run(["/usr/bin/time", "-v", "-o", tfile, *cmd], stdout=out, stderr=subprocess.STDOUT)
        wall = time.monotonic() - t0
        after = self.server_cpu()
        used = [(after[k][0] - before.get(k, (0, 0))[0], after[k][1] - before.get(k, (0, 0))[1]) for k in after]
        self.server_cpu_split[label] = (sum(u for u, _ in used), sum(s for _, s in used))
        self.server_cpu_used[label] = sum(self.server_cpu_split[label])
        rss, user, system = 0, 0.0, 0.0
        for line in open(tfile):
            if "Maximum resident set size" in line:
                rss = int(line.split(":")[1])
            if "User time" in line:
                user = float(line.split(":")[1])
            if "System time" in line:
                system = float(line.split(":")[1])
        self.cpu[label] = user + system
        self.cpu_split[label] = (user, system)
        return wall, rss, r.returncode

    @staticmethod
    def split(user_system):
        """CPU seconds as "total s (user / system)"."""
        user, system = user_system
        return f"{user + system:.2f} s ({user:.2f} / {system:.2f})"

    def agent(self, home, label):
        logf = os.path.join(self.work, f"agent-{label}.log")
        wall, rss, rc = self.timed([os.path.join(self.bin, "jqc-agent"), "--home", home, "run", "--once",
                                    "--log-file", logf], label)
        if rc != 0:
            raise Fatal(f"jqc-agent run --once ({label}) exited {rc}; see {logf}")
        return wall, rss

    # ---------- profiles ----------

    def profile(self, name, url):
        home = os.path.join(self.work, f"profile-{name}")
        self.jqc(home, "login", "--server", url, "--username", "inspector", "--password-stdin", stdin="inspector-pass\n")
        self.jqc(home, "sync")  # reference data (templates, facilities)
        return home

    def seed_report(self, home):
        """One completed Washroom QC report made through jqc; returns its local_id."""
        out = self.jqc(home, "start", "--template", "101", "--facility", "F-100", "--area", "A-101", "--json")
        local_id = json.loads(out)["local_id"]
        for field, value in (("2", "4"), ("3", "5"), ("4", "pass"), ("6", "Good"), ("10", "3"),
                             ("15", "Mirrors streaky, refilled soap"), ("18", "Bench Inspector")):
            self.jqc(home, "answer", local_id, field, value)
        self.jqc(home, "complete", local_id)
        return local_id.upper()

    def clone_reports(self, home, seed, count, photos_per_report=0, photo_pool=None):
        """Clones the seed into `count` PENDING reports in all (seed included); with
        photos, gives each report `photos_per_report` stored photos on field 14."""
        db = sqlite3.connect(os.path.join(home, "jqc.sqlite"))
        db.row_factory = sqlite3.Row
        cols = [r[1] for r in db.execute("PRAGMA table_info(reports)")]
        rev_cols = [r[1] for r in db.execute("PRAGMA table_info(report_revisions)")]
        row = dict(db.execute("SELECT * FROM reports WHERE local_id = ?", (seed,)).fetchone())
        revs = [dict(r) for r in db.execute("SELECT * FROM report_revisions WHERE report_local_id = ?", (seed,))]
        seq = db.execute("SELECT max(creation_seq) FROM reports").fetchone()[0]
        photo_seq = db.execute("SELECT value FROM sequences WHERE name='photo'").fetchone()[0]
        photo_dir = os.path.join(home, "photos")
        ids = [seed]
        with db:
            for i in range(count - 1):
                new = dict(row)
                new["local_id"] = str(uuid.uuid4()).upper()
                seq += 1
                new["creation_seq"] = seq
                new["updated_at_device"] = row["updated_at_device"] + i * 0.001
                db.execute(f"INSERT INTO reports ({','.join(cols)}) VALUES ({','.join('?' * len(cols))})",
                           [new[c] for c in cols])
                for rev in revs:
                    r2 = dict(rev)
                    r2["report_local_id"] = new["local_id"]
                    db.execute(f"INSERT INTO report_revisions ({','.join(rev_cols)}) VALUES ({','.join('?' * len(rev_cols))})",
                               [r2[c] for c in rev_cols])
                ids.append(new["local_id"])
            db.execute("UPDATE sequences SET value = ? WHERE name = 'report'", (seq,))
            if photos_per_report:
                k = 0
                for rid in ids:
                    answers = json.loads(db.execute("SELECT answers FROM reports WHERE local_id = ?", (rid,)).fetchone()[0])
                    pids = []
                    for _ in range(photos_per_report):
                        src = photo_pool[k % len(photo_pool)]
                        k += 1
                        pid = str(uuid.uuid4()).upper()
                        name = pid + ".jpg"
                        dst = os.path.join(photo_dir, name)
                        data = unique_jpeg(open(src, "rb").read(), pid)
                        with open(dst, "wb") as out:
                            out.write(data)
                        os.chmod(dst, 0o600)
                        photo_seq += 1
                        db.execute("""INSERT INTO photos (local_id, report_local_id, field_id, issue_local_id, file_name,
                                      upload_state, original_bytes, byte_size, sha256, creation_seq)
                                      VALUES (?, ?, '14', NULL, ?, 'PENDING', ?, ?, ?, ?)""",
                                   (pid, rid, name, len(data), len(data), hashlib.sha256(data).hexdigest(), photo_seq))
                        pids.append(pid.lower())
                    answers["14"] = pids
                    text = json.dumps(answers, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                    db.execute("UPDATE reports SET answers = ? WHERE local_id = ?", (text, rid))
                    db.execute("""UPDATE report_revisions SET answers = ? WHERE report_local_id = ?
                                  AND seq = (SELECT max(seq) FROM report_revisions WHERE report_local_id = ?)""",
                               (text, rid, rid))
                db.execute("UPDATE sequences SET value = ? WHERE name = 'photo'", (photo_seq,))
        db.close()
        return ids

    def count(self, home, sql):
        db = sqlite3.connect(os.path.join(home, "jqc.sqlite"))
        try:
            return db.execute(sql).fetchone()[0]
        finally:
            db.close()

    # ---------- wire ----------

    def login_token(self, url):
        r = subprocess.run(["curl", "-sS", "-X", "POST", url + "/api/v1/auth/login", "-H", "Content-Type: application/json",
                            "--data-binary", json.dumps({"username": "inspector", "password": "inspector-pass"})],
                           capture_output=True, text=True)
        try:
            return json.loads(r.stdout)["data"]["access_token"]
        except Exception:
            raise Fatal(f"curl login failed: {r.stdout} {r.stderr}")

    @staticmethod
    def rfc3339(t):
        return None if t is None else datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    def wire_batches(self, home):
        """The sync requests the agent sends, built from the store the way
        SyncRequestBody writes them (every key, nulls included, the template
        version when known, and the merge it asks for): the same JSON value
        as the agent's bodies."""
        db = sqlite3.connect(os.path.join(home, "jqc.sqlite"))
        db.row_factory = sqlite3.Row
        device = db.execute("SELECT value FROM meta WHERE key='device_id'").fetchone()[0].lower()
        rows = db.execute("SELECT * FROM reports WHERE state='PENDING' ORDER BY creation_seq").fetchall()
        reports = []
        for r in rows:
            report = {"local_id": r["local_id"].lower(), "server_id": r["server_id"], "base_revision": r["base_revision"],
                      "assignment_id": r["assignment_id"], "template_id": r["template_id"]}
            # The version the report was filled on (contract 1.1), named when the store knows it, as the agent does.
            if r["template_version"] is not None:
                report["template_version"] = r["template_version"]
            reports.append(report | {
                "facility_id": r["facility_id"],
                "area_id": r["area_id"], "parent_local_id": r["parent_local_id"] and r["parent_local_id"].lower(),
                "parent_server_id": r["parent_server_id"],
                "completed_at_device": self.rfc3339(r["completed_at_device"]),
                "payload": {"answers": json.loads(r["answers"]), "score": r["score"],
                            "follow_up_required": bool(r["follow_up_required"])},
                "issues": [],
            })
        db.close()
        batches = []
        for i in range(0, len(reports), BATCH):
            # The agent asks every server for merges of disjoint edits (contract 1.1, "merge": "fields").
            batches.append(json.dumps({"device_id": device, "app_version": APP_VERSION, "schema_version": SCHEMA_VERSION,
                                       "reports": reports[i:i + BATCH], "merge": "fields"}, separators=(",", ":")))
        return device, batches

    def headers(self, token, device):
        return [f"Authorization: Bearer {token}", f"X-JQC-App-Version: {APP_VERSION}",
                f"X-JQC-Device-Id: {device}", "Accept: application/json"]

    @staticmethod
    def q(s):
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

    # ---------- photos ----------

    def make_photo_pool(self, n):
        pool = photo_pool(os.path.join(self.work, "pool"), n)
        sizes = [os.path.getsize(p) for p in pool]
        log(f"photo pool: {n} JPEGs, mean {sum(sizes) / len(sizes) / 1024:.0f} KiB "
            f"(min {min(sizes) / 1024:.0f}, max {max(sizes) / 1024:.0f})")
        return pool

    def photo_profile(self, name, url, n_photos, pool):
        """A profile whose reports are ACCEPTED with n_photos pending (see module doc)."""
        home = self.profile(name, url)
        seed = self.seed_report(home)
        n_reports = max(1, n_photos // PHOTOS_PER_REPORT)
        self.clone_reports(home, seed, n_reports, PHOTOS_PER_REPORT, pool)
        photos = os.path.join(home, "photos")
        held = photos + ".held"
        os.rename(photos, held)
        os.mkdir(photos, 0o700)
        self.agent(home, f"{name}-accept")
        os.rmdir(photos)
        os.rename(held, photos)
        db = sqlite3.connect(os.path.join(home, "jqc.sqlite"))
        with db:
            db.execute("UPDATE photos SET upload_state = 'PENDING', last_error = NULL")
            # As if no upload had been tried yet: due now, no backoff, no error.
            db.execute("""UPDATE reports SET attempt_count = 0, next_attempt_at = NULL,
                          last_error_code = NULL, last_error_message = NULL""")
        db.close()
        accepted = self.count(home, "SELECT count(*) FROM reports WHERE state='PENDING' AND accepted_revision IS NOT NULL")
        pending = self.count(home, "SELECT count(*) FROM photos WHERE upload_state='PENDING'")
        if accepted != n_reports or pending != n_reports * PHOTOS_PER_REPORT:
            raise Fatal(f"{name}: expected {n_reports} accepted reports awaiting photos, got {accepted}; photos pending {pending}")
        return home, n_reports * PHOTOS_PER_REPORT

    def upload_photos_agent(self, home, label):
        wall, rss = self.agent(home, label)
        left = self.count(home, "SELECT count(*) FROM photos WHERE upload_state <> 'UPLOADED'")
        if left:
            raise Fatal(f"{label}: {left} photos not uploaded; see agent-{label}.log")
        return wall, rss

    # ---------- benchmarks ----------

    def bench_reports(self, n, repeat):
        """(a), `repeat` times on fresh servers and profiles; the median ratio
        decides, as for (b): single runs of both sides scatter with the disk."""
        runs = [self.reports_once(n, f"a{i + 1}" if repeat > 1 else "a") for i in range(repeat)]
        mid = sorted(runs, key=lambda r: r["ratio"])[len(runs) // 2]
        self.failures = [f for r in runs for f in r["failures"]]
        self.results += [(f"(a) agent: {n} reports, median run", mid["agent_s"], "s"),
                         (f"(a) curl: {n} reports, same run", mid["curl_s"], "s"),
                         ("(a) agent CPU (user+sys)", mid["agent_cpu"], "s"),
                         ("(a) curl CPU (user+sys)", mid["curl_cpu"], "s"),
                         ("(a) server CPU while the agent ran", mid["server_agent"], "s"),
                         ("(a) server CPU while curl ran", mid["server_curl"], "s"),
                         ("(a) agent / curl, every run", " ".join(f"{r['ratio']:.2f}" for r in runs), ""),
                         ("(a) agent / curl, median", mid["ratio"], "x"), ("(a) agent max RSS", mid["agent_rss"] / 1024, "MiB")]
        self.targets.append((f"(a) reports agent/curl (median of {repeat})", f"{mid['ratio']:.2f}", "<= 1.25", mid["ratio"] <= 1.25))
        most = max(r["runs"] for r in runs)
        self.targets.append(("(a) one agent run syncs all", f"{most} run(s)", "1 run", most == 1))

    def reports_once(self, n, name):
        log(f"(a) {n} pending reports, run {name}")
        url_agent = self.start_server(f"{name}-agent")
        url_curl = self.start_server(f"{name}-curl")
        home = self.profile(name, url_agent)
        seed = self.seed_report(home)
        self.clone_reports(home, seed, n)
        pending = self.count(home, "SELECT count(*) FROM reports WHERE state='PENDING'")
        device, batches = self.wire_batches(home)
        bdir = os.path.join(self.work, f"batches-{name}")
        os.makedirs(bdir, exist_ok=True)
        token = self.login_token(url_curl)
        cfg = []
        for i, body in enumerate(batches):
            path = os.path.join(bdir, f"batch-{i:04d}.json")
            open(path, "w").write(body)
            cfg.append(f"url = {self.q(url_curl + '/api/v1/reports/sync')}")
            for h in self.headers(token, device) + ["Content-Type: application/json"]:
                cfg.append(f"header = {self.q(h)}")
            cfg.append(f"data-binary = {self.q('@' + path)}")
            cfg.append(f"output = {self.q(os.path.join(bdir, f'response-{i:04d}.json'))}")
            cfg.append('write-out = "%{http_code}\\n"')
            cfg.append("next")
        cfgpath = os.path.join(self.work, f"curl-reports-{name}.cfg")
        open(cfgpath, "w").write("\n".join(cfg[:-1]) + "\n")
        log(f"(a) {pending} PENDING in the store, {len(batches)} batches of up to {BATCH}")

        # One `run --once` should sync everything. Should a run fail (exit 1,
        # logged as cycle_failed), it is run again, as cron would, and the
        # times are added up; the extra runs are reported as a failed target.
        agent_s, agent_rss, cpu, server_cpu, runs, failures = 0.0, 0, 0.0, 0.0, 0, []
        logf = os.path.join(self.work, f"agent-{name}-agent.log")
        while True:
            runs += 1
            label = f"{name}-agent" if runs == 1 else f"{name}-agent-{runs}"
            wall, rss, rc = self.timed([os.path.join(self.bin, "jqc-agent"), "--home", home, "run", "--once",
                                        "--log-file", logf], label)
            agent_s += wall
            agent_rss = max(agent_rss, rss)
            cpu += self.cpu[label]
            server_cpu += self.server_cpu_used[label]
            synced = self.count(home, "SELECT count(*) FROM reports WHERE state='SYNCED'")
            if rc == 0 and synced == n:
                break
            last = [json.loads(line) for line in open(logf)][-1]
            failures.append(f"run {runs}: exit {rc} after {synced} SYNCED: {last.get('code')}: {last.get('message')}")
            log(f"(a) agent {failures[-1]}")
            if rc not in (0, 1) or runs >= 10:
                raise Fatal(f"(a) agent: {synced} of {n} reports SYNCED after {runs} runs; see {logf}")
        log(f"(a) agent: {agent_s:.2f} s in {runs} run(s), CPU {cpu:.2f} s, max RSS {agent_rss / 1024:.1f} MiB, "
            f"server CPU {server_cpu:.2f} s")

        label = f"{name}-curl"
        curl_s, _, rc = self.timed(["curl", "-sS", "--fail-with-body", "-K", cfgpath], label)
        codes = [line.strip() for line in open(os.path.join(self.work, f"out-{label}.txt")).read().splitlines()]
        accepted = 0
        for i in range(len(batches)):
            data = json.load(open(os.path.join(bdir, f"response-{i:04d}.json")))
            accepted += sum(1 for r in data["data"]["results"] if r["status"] == "ACCEPTED")
        if rc != 0 or codes.count("200") != len(batches) or accepted != n:
            raise Fatal(f"(a) curl: rc {rc}, {codes.count('200')} of {len(batches)} batches 200, {accepted} of {n} ACCEPTED")
        log(f"(a) curl: {curl_s:.2f} s, CPU {self.cpu[label]:.2f} s, server CPU {self.server_cpu_used[label]:.2f} s, "
            f"ratio {agent_s / curl_s:.2f}")
        self.stop_servers()
        self.servers = [p for p in self.servers if p.poll() is None]
        return {"agent_s": agent_s, "curl_s": curl_s, "ratio": agent_s / curl_s, "agent_cpu": cpu,
                "curl_cpu": self.cpu[label], "server_agent": server_cpu, "server_curl": self.server_cpu_used[label],
                "agent_rss": agent_rss, "runs": runs, "failures": failures}

    def bench_photos(self, n, url, pool, repeat):
        """(b), `repeat` times on fresh profiles; the median ratio decides,
        since each run lasts about a second and one run is mostly noise.
        An untimed round comes first: the server's photo folder starts empty,
        and whoever sent first made most of its 256 hash folders (flushing
        the folder above after each), which no server in service does and
        which fell on the first run's agent alone."""
        log("(b) warm-up round (untimed): the server's hash folders are made")
        self.photos_once(n, url, pool, "b0")
        # Rounds alternate which side goes first, the agent in the first (see `photos_once`).
        runs = [self.photos_once(n, url, pool, f"b{i + 1}", agent_first=i % 2 == 0) for i in range(repeat)]
        runs.sort(key=lambda r: r["ratio"])
        mid = runs[len(runs) // 2]
        total, n = mid["total"], mid["n"]
        self.results += [(f"(b) agent: {n} photos ({total / n / 1024:.0f} KiB avg), median run", mid["agent_s"], "s"),
                         (f"(b) curl --parallel-max {PARALLEL}: {n} photos, same run", mid["curl_s"], "s"),
                         ("(b) agent CPU (user+sys)", mid["agent_cpu"], "s"),
                         ("(b) curl CPU (user+sys)", mid["curl_cpu"], "s"),
                         ("(b) agent / curl, every run", " ".join(f"{r['ratio']:.2f}" for r in runs), ""),
                         ("(b) agent / curl, rounds the agent went first",
                          " ".join(f"{r['ratio']:.2f}" for r in runs if r["agent_first"]), ""),
                         ("(b) agent / curl, median", mid["ratio"], "x"), ("(b) agent max RSS", mid["agent_rss"] / 1024, "MiB"),
                         ("(b) curl, resumable route (agent's requests), same run", mid["resumable_s"], "s"),
                         ("(b) agent / curl resumable, median run", mid["agent_s"] / mid["resumable_s"], "x")]
        self.targets.append((f"(b) photos agent/curl (median of {repeat})", f"{mid['ratio']:.2f}", "<= 1.2", mid["ratio"] <= 1.2))

    def photos_once(self, n, url, pool, name, agent_first=True):
        """One round of (b): the agent's timed run and curl's on the same
        pictures, then curl making the agent's own requests. `agent_first`
        says which of the two goes first: `bench_photos` alternates them, so
        that whatever the first of a round pays falls on both sides (the
        rounds timed both ways are in BENCHMARKS.md, "The order of (b)'s
        runs")."""
        log(f"(b) {n} photos, run {name}, {'agent' if agent_first else 'curl'} first")
        home, n = self.photo_profile(name, url, n, pool)
        total = self.count(home, "SELECT sum(byte_size) FROM photos")

        # The same pictures, to the same reports, with fresh photo ids and bytes the server does not hold yet.
        db = sqlite3.connect(os.path.join(home, "jqc.sqlite"))
        device = db.execute("SELECT value FROM meta WHERE key='device_id'").fetchone()[0].lower()
        rows = db.execute("""SELECT p.file_name, p.sha256, p.field_id, r.server_id FROM photos p
                             JOIN reports r ON r.local_id = p.report_local_id ORDER BY p.creation_seq""").fetchall()
        db.close()
        token = self.login_token(url)
        cfg = []
        for (file_name, _, field, server_id), (path, sha) in zip(rows, self.fresh_copies(home, rows, f"{name}-multipart")):
            pid = str(uuid.uuid4())
            cfg.append(f"url = {self.q(f'{url}/api/v1/reports/{server_id}/photos')}")
            for h in self.headers(token, device):
                cfg.append(f"header = {self.q(h)}")
            cfg.append(f"form = {self.q('local_id=' + pid)}")
            cfg.append(f"form = {self.q('field_id=' + field)}")
            cfg.append(f"form = {self.q('sha256=' + sha)}")
            cfg.append(f"form = {self.q(f'file=@{path};type=image/jpeg;filename={pid}.jpg')}")
            cfg.append('output = "/dev/null"')
            cfg.append('write-out = "%{http_code}\\n"')
            cfg.append("next")
        cfgpath = os.path.join(self.work, f"curl-photos-{name}.cfg")
        open(cfgpath, "w").write("\n".join(cfg[:-1]) + "\n")
        label = f"{name}-curl"

        def agent():
            wall, rss = self.upload_photos_agent(home, f"{name}-agent")
            log(f"(b) agent: {wall:.2f} s, CPU {self.split(self.cpu_split[name + '-agent'])}, "
                f"max RSS {rss / 1024:.1f} MiB, server CPU {self.split(self.server_cpu_split[name + '-agent'])}")
            return wall, rss

        def curl():
            wall, _, rc = self.timed(["curl", "-sS", "--no-progress-meter", "--parallel", "--parallel-max", str(PARALLEL), "-K", cfgpath], label)
            codes = [line.strip() for line in open(os.path.join(self.work, f"out-{label}.txt")).read().splitlines()]
            if rc != 0 or codes.count("201") != n:
                raise Fatal(f"(b) curl: rc {rc}, {codes.count('201')} of {n} photos 201")
            log(f"(b) curl: {wall:.2f} s, CPU {self.split(self.cpu_split[label])}, "
                f"server CPU {self.split(self.server_cpu_split[label])}")
            return wall

        if agent_first:
            agent_s, agent_rss = agent()
            curl_s = curl()
        else:
            curl_s = curl()
            agent_s, agent_rss = agent()
        log(f"(b) ratio {agent_s / curl_s:.2f}")
        resumable_s = self.photos_resumable_curl(home, url, token, device, rows, name)
        log(f"(b) curl, resumable route: {resumable_s:.2f} s, agent / that {agent_s / resumable_s:.2f}")
        return {"n": n, "total": total, "agent_s": agent_s, "curl_s": curl_s, "ratio": agent_s / curl_s,
                "agent_cpu": self.cpu[name + "-agent"], "curl_cpu": self.cpu[label], "agent_rss": agent_rss,
                "resumable_s": resumable_s, "agent_first": agent_first}

    def fresh_copies(self, home, rows, name):
        """Each of the profile's photos as curl will send it, the same
        picture with bytes the server does not hold yet (`unique_jpeg`):
        the server writes and flushes curl's photos as it does the agent's.
        Written before the clock starts; [(path, sha256)] in `rows`' order."""
        folder = os.path.join(self.work, f"copies-{name}")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        copies = []
        for i, (file_name, *_rest) in enumerate(rows):
            pool_bytes = open(os.path.join(home, "photos", file_name), "rb").read()
            data = unique_jpeg(pool_bytes, f"{name}-{i}")
            path = os.path.join(folder, f"{i:04d}.jpg")
            with open(path, "wb") as out:
                out.write(data)
            copies.append((path, hashlib.sha256(data).hexdigest()))
        return copies

    def photos_resumable_curl(self, home, url, token, device, rows, name):
        """The same files by the route the agent takes with a contract-1.1
        server (POST /reports/{id}/uploads, then one PATCH with every byte),
        fresh photo ids, 4 at a time: curl doing the agent's requests. Timed
        as the two curl runs (the POSTs, then the PATCHes), not the Python
        reading the upload urls between them."""
        begin, ids = [], []
        copies = self.fresh_copies(home, rows, f"{name}-resumable")
        for i, ((file_name, _, field, server_id), (path, sha)) in enumerate(zip(rows, copies)):
            pid = str(uuid.uuid4())
            body = os.path.join(self.work, f"resumable-{name}-{i:04d}.json")
            open(body, "w").write(json.dumps({"local_id": pid, "field_id": field, "sha256": sha,
                                              "byte_size": os.path.getsize(path)}))
            ids.append((path, os.path.join(self.work, f"resumable-{name}-{i:04d}.answer")))
            begin.append(f"url = {self.q(f'{url}/api/v1/reports/{server_id}/uploads')}")
            for h in self.headers(token, device) + ["Content-Type: application/json"]:
                begin.append(f"header = {self.q(h)}")
            begin.append(f"data-binary = {self.q('@' + body)}")
            begin.append(f"output = {self.q(ids[-1][1])}")
            begin.append('write-out = "%{http_code}\\n"')
            begin.append("next")
        cfg1 = os.path.join(self.work, f"curl-resumable-begin-{name}.cfg")
        open(cfg1, "w").write("\n".join(begin[:-1]) + "\n")
        t1, _, rc1 = self.timed(["curl", "-sS", "--no-progress-meter", "--parallel", "--parallel-max", str(PARALLEL), "-K", cfg1], f"{name}-resumable-begin")
        patch = []
        for path, answer in ids:
            upload = json.load(open(answer))["data"]["upload"]["url"]
            patch.append(f"url = {self.q(url.rstrip('/') + upload)}")
            patch.append('request = "PATCH"')
            for h in self.headers(token, device) + ["Content-Type: application/offset+octet-stream", "Upload-Offset: 0"]:
                patch.append(f"header = {self.q(h)}")
            patch.append(f"data-binary = {self.q('@' + path)}")
            patch.append('output = "/dev/null"')
            patch.append('write-out = "%{http_code}\\n"')
            patch.append("next")
        cfg2 = os.path.join(self.work, f"curl-resumable-patch-{name}.cfg")
        open(cfg2, "w").write("\n".join(patch[:-1]) + "\n")
        t2, _, rc2 = self.timed(["curl", "-sS", "--no-progress-meter", "--parallel", "--parallel-max", str(PARALLEL), "-K", cfg2], f"{name}-resumable-patch")
        codes = [line.strip() for line in open(os.path.join(self.work, f"out-{name}-resumable-patch.txt")).read().splitlines()]
        if rc1 != 0 or rc2 != 0 or codes.count("201") != len(rows):
            raise Fatal(f"(b) curl resumable: rc {rc1}/{rc2}, {codes.count('201')} of {len(rows)} photos 201")
        return t1 + t2

    def bench_rss(self, small, large, url, pool):
        log(f"(c) peak RSS, {small} and {large} photos")
        figures = {}
        for n in (small, large):
            home, n = self.photo_profile(f"c{n}", url, n, pool)
            wall, rss = self.upload_photos_agent(home, f"c{n}-agent")
            figures[n] = rss / 1024
            log(f"(c) {n} photos: max RSS {rss / 1024:.1f} MiB ({wall:.2f} s)")
            self.results.append((f"(c) agent max RSS, {n} photos", rss / 1024, "MiB"))
        ratio = figures[large] / figures[small]
        self.results.append((f"(c) RSS {large} / {small}", ratio, "x"))
        peak = max(figures.values())
        self.targets.append(("(c) peak RSS", f"{peak:.1f} MiB", "< 64 MiB", peak < 64))
        self.targets.append((f"(c) RSS {large}/{small} photos", f"{ratio:.2f}", "<= 1.2", ratio <= 1.2))

    def report(self):
        print()
        print("=" * 72)
        print(f"JanitorialQC benchmarks{' (QUICK MODE: smaller counts)' if self.quick else ''}")
        print("=" * 72)
        for name, value, unit in self.results:
            shown = value if isinstance(value, str) else f"{value:.2f}"
            print(f"  {name:<48} {shown:>10} {unit}")
        print()
        print(f"  {'target':<32} {'figure':>12} {'target':>10}  result")
        for name, figure, target, ok in self.targets:
            print(f"  {name:<32} {figure:>12} {target:>10}  {'PASS' if ok else 'FAIL'}")
        for failure in self.failures:
            print(f"  (a) agent {failure}")
        print()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--only", default="abc", help="which benchmarks: any of a, b, c")
    p.add_argument("--repeat", type=int, default=5, help="runs of (b); the median ratio decides")
    p.add_argument("--repeat-a", type=int, default=3, help="runs of (a); the median ratio decides")
    args = p.parse_args()
    if os.path.exists(args.work):
        shutil.rmtree(args.work)
    os.makedirs(args.work)
    b = Bench(args)
    reports, photos, (small, large) = (1000, 50, (20, 200)) if args.quick else (10_000, 500, (100, 1000))
    try:
        if "a" in args.only:
            b.bench_reports(reports, max(1, args.repeat_a))
        if "b" in args.only or "c" in args.only:
            pool = b.make_photo_pool(min(max(photos, large if "c" in args.only else 0), 500))
            url = b.start_server("photos")
            if "b" in args.only:
                b.bench_photos(photos, url, pool, max(1, args.repeat))
            if "c" in args.only:
                b.bench_rss(small, large, url, pool)
        b.report()
    except Fatal as e:
        b.report()
        print(f"bench: cannot run: {e}", file=sys.stderr)
        return 1
    finally:
        b.stop_servers()
    return 0


if __name__ == "__main__":
    sys.exit(main())
