"""The I/O-fault run: every command of jqc, jqc-agent and jqc-server run
again and again under libfiu, with one POSIX call failing at random (write,
pwrite, fsync, fdatasync, open, ftruncate, rename or mkdir) with ENOSPC, EIO,
EAGAIN or EINTR; then the faults stop and everything syncs.

After every faulted run: it ended by itself within its time limit, it was not
killed by a signal and did not trap, its exit code is a documented one, the
store passes `PRAGMA integrity_check`, and no answer that was ever committed
reads differently. At the end every completed report is on its server exactly
once, with its photos (the crash loop's Checker)."""

import json
import os
import random
import signal
import socket
import subprocess
import time

from .crashloop import first_sync, settle
from .invariants import Checker, Findings, integrity, read_only
from .workgen import WorkGenerator, washroom_required, washroom_signer
from .world import Device, Server, ToolError

FIU_LIBRARIES = "/usr/lib/fiu"
POINTS = {
    "write": "posix/io/rw/write",
    "pwrite": "posix/io/rw/pwrite",
    "fsync": "posix/io/sync/fsync",
    "fdatasync": "posix/io/sync/fdatasync",
    "open": "posix/io/oc/open",
    "ftruncate": "posix/io/rw/ftruncate",
    "rename": "posix/io/dir/rename",
    "mkdir": "posix/io/dir/mkdir",     # from mkdir_preload.c: libfiu does not wrap mkdir
}
ERRNOS = {"ENOSPC": 28, "EIO": 5, "EAGAIN": 11, "EINTR": 4}
# The exit codes of docs/commands.md, and 141 for a reader that closed the output.
DOCUMENTED_EXITS = {0, 1, 2, 3, 4, 5, 6, 7, 73, 75, 141}
# Words the Swift runtime prints when a program traps.
TRAP_WORDS = ("Fatal error", "Crash", "Backtrace", "Unexpectedly found nil", "unexpectedError")

# Commands and how often each is drawn.
COMMANDS = [("answer", 16), ("complete", 8), ("photo", 8), ("issue", 6), ("start", 6), ("read", 14),
            ("export", 6), ("agent", 12), ("sync", 6), ("login", 5), ("server", 8), ("admin", 5)]
TIME_LIMIT = {"agent": 120, "sync": 120, "server": 60}
# How long device B's requests to the faulted server B are waited for.
TRAFFIC_LIMIT = 20


class FaultFindings(Findings):
    """The crash loop's findings, plus what only an I/O fault can cause."""

    KINDS = Findings.KINDS + ("hangs", "signals", "traps", "exits")


def build_mkdir_preload(work):
    """Compiles the mkdir failure point against the installed libfiu, and the
    library that lets opens under /proc/ pass by every failure point; returns
    both, the latter first (it must come before libfiu's in LD_PRELOAD)."""
    built = []
    for name in ("proc_open_preload", "mkdir_preload"):
        source = os.path.join(os.path.dirname(__file__), "..", "fiu", f"{name}.c")
        library = os.path.join(work, f"{name}.so")
        done = subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", library, source, "-lfiu", "-ldl"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise ToolError(f"cannot build {name}.c (is libfiu-dev installed?): {done.stderr.strip()}")
        built.append(library)
    for name in ("fiu_run_preload.so", "fiu_posix_preload.so"):
        if not os.path.exists(os.path.join(FIU_LIBRARIES, name)):
            raise ToolError(f"{FIU_LIBRARIES}/{name} is missing; install fiu-utils (Tools/setup does)")
    return built


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Fault:
    """One failure point, one errno, one probability: the environment that arms it."""

    def __init__(self, rng, preload):
        self.point = rng.choice(sorted(POINTS))
        self.errno_name = rng.choice(sorted(ERRNOS))
        self.probability = rng.choice([0.02, 0.05, 0.1, 0.2, 0.3, 0.5])
        self.preload = preload

    def env(self, base):
        env = dict(base)
        env["FIU_ENABLE"] = (f"enable_random name={POINTS[self.point]},probability={self.probability},"
                             f"failinfo={ERRNOS[self.errno_name]}")
        env["FIU_CTRL_FIFO"] = ""
        proc_open, mkdir = self.preload
        env["LD_PRELOAD"] = " ".join([proc_open, os.path.join(FIU_LIBRARIES, "fiu_run_preload.so"),
                                      os.path.join(FIU_LIBRARIES, "fiu_posix_preload.so"), mkdir])
        return env

    def __str__(self):
        return f"{self.point} {self.errno_name} p={self.probability}"


class FaultRun:
    """Device A syncs with a clean server; device B syncs with server B, which runs under faults."""

    def __init__(self, bin_dir, work, seed, log):
        self.bin_dir = bin_dir
        self.work = work
        self.rng = random.Random(seed)
        self.log = log
        self.preload = build_mkdir_preload(work)
        self.findings = FaultFindings()
        self.stats = {"runs": 0, "by_command": {}, "by_point": {}, "by_errno": {}, "exit_codes": {},
                      "refused": 0, "server_starts": 0, "server_refused_start": 0, "server_b_slow_clients": 0}
        self.committed = {}      # local id -> {field: value} read back after a command said it saved
        self.drafts = []         # device A drafts with the required answers given
        self.completed = []      # device A reports completed (must reach the server)
        self.left_drafts = []    # drafts never completed (must never reach the server)

    # MARK: - the world

    def setup(self):
        self.server = Server(self.bin_dir, self.work, name="server-a", seed=1).start()
        self.device = Device(self.bin_dir, os.path.join(self.work, "device-a"))
        self.device.login(self.server.url)
        self.device.jqc("settings", "retention-days", "3650")
        first_sync(self.device)
        self.generator = WorkGenerator(self.device, self.rng, os.path.join(self.work, "photos-in"))
        for _ in range(4):
            self.new_draft()
        # Server B: its own database and a fixed port, so device B's sign-in outlives its restarts.
        self.server_b = Server(self.bin_dir, self.work, name="server-b", seed=2)
        self.port_b = free_port()
        self.device_b = Device(self.bin_dir, os.path.join(self.work, "device-b"))
        self.device_b_signed_in = False
        self.generator_b = WorkGenerator(self.device_b, self.rng, os.path.join(self.work, "photos-in-b"))
        for command in ("templates", "facilities"):
            self.device_b.jqc(command, "import", os.path.join(os.path.dirname(__file__), "..", "..", "demo", f"{command}.json"))

    def new_draft(self):
        local_id = self.device.json("start", "--template", "101", "--facility", "F-100", "--area", "A-101")["local_id"]
        for field, value in washroom_required(self.rng).items():
            self.device.jqc("answer", local_id, str(field), str(value))
        self.committed[local_id] = self.answers(local_id)
        self.drafts.append(local_id)
        return local_id

    def answers(self, local_id):
        return self.device.json("show", local_id)["answers"]

    # MARK: - one faulted run

    def run(self, program, args, fault, stdin=None, limit=60, device=None):
        """Runs one program under `fault`; records what must never happen. Returns its exit code or None."""
        device = device or self.device
        command = [os.path.join(self.bin_dir, program)] + (["--home", device.home] if program != "jqc-server" else []) + args
        try:
            done = subprocess.run(command, input=stdin, capture_output=True, text=True, errors="replace",
                                  env=fault.env(device.env), timeout=limit)
        except subprocess.TimeoutExpired:
            self.findings.add("hangs", f"{program} {' '.join(args[:3])} under {fault} did not end within {limit} s")
            return None
        return self.judge(program, args, fault, done.returncode, done.stderr)

    def judge(self, program, args, fault, code, stderr):
        what = f"{program} {' '.join(args[:2])} under {fault}"
        self.stats["exit_codes"][str(code)] = self.stats["exit_codes"].get(str(code), 0) + 1
        if code < 0:
            self.findings.add("signals", f"{what} died of {signal.Signals(-code).name}")
            return None
        if any(word in stderr for word in TRAP_WORDS):
            self.findings.add("traps", f"{what} trapped: {stderr.strip()[:200]}")
        if code not in DOCUMENTED_EXITS:
            self.findings.add("exits", f"{what} exited {code}, not a documented code: {stderr.strip()[:200]}")
        if code != 0:
            self.stats["refused"] += 1
        return code

    def check_store(self, device, what):
        with read_only(device.store) as db:
            check = integrity(db)
        if check != "ok":
            self.findings.add("corruption", f"after {what}: device store: {check}")

    def check_committed(self, what):
        """Every answer once read back as saved still reads the same."""
        for local_id, saved in self.committed.items():
            now = self.answers(local_id)
            for field, value in saved.items():
                if now.get(field) != value:
                    self.findings.add("losses", f"after {what}: report {local_id} field {field} reads {now.get(field)!r}, "
                                                f"was saved as {value!r}")

    # MARK: - the commands

    def do_answer(self, fault):
        local_id = self.rng.choice(self.drafts)
        before = self.committed[local_id].get("15")
        typed = self.generator.text(5)
        code = self.run("jqc", ["answer", local_id, "15", typed], fault)
        now = self.answers(local_id).get("15")
        if code == 0 and now != typed:
            self.findings.add("losses", f"jqc answer under {fault} exited 0 but field 15 reads {now!r}, not {typed!r}")
        elif now not in (before, typed):
            self.findings.add("corruption", f"jqc answer under {fault}: field 15 reads {now!r}, neither {before!r} nor {typed!r}")
        self.committed[local_id] = self.answers(local_id)

    def do_complete(self, fault):
        local_id = self.drafts.pop(self.rng.randrange(len(self.drafts)))
        # Signed last, with no fault: a signature vouches for the answers as they stand.
        self.device.jqc("answer", local_id, "18", washroom_signer(self.rng))
        self.committed[local_id] = self.answers(local_id)
        code = self.run("jqc", ["complete", local_id], fault)
        state = self.device.json("show", local_id)["state"]
        if state == "DRAFT":
            if code == 0:
                self.findings.add("losses", f"jqc complete under {fault} exited 0 but {local_id} is still a draft")
            self.drafts.append(local_id)
        elif state in ("PENDING", "SYNCING", "SYNCED"):
            self.completed.append(local_id)
        else:
            self.findings.add("corruption", f"jqc complete under {fault}: {local_id} is {state}")
        if len(self.drafts) < 3:
            self.new_draft()

    def do_photo(self, fault):
        local_id = self.rng.choice(self.drafts)
        before = len(self.device.json("show", local_id)["photos"])
        code = self.run("jqc", ["photo", "add", local_id, "--field", "14", self.generator.png()], fault)
        after = len(self.device.json("show", local_id)["photos"])
        if code == 0 and after != before + 1:
            self.findings.add("losses", f"jqc photo add under {fault} exited 0 but the report has {after} photos, not {before + 1}")
        elif after not in (before, before + 1):
            self.findings.add("corruption", f"jqc photo add under {fault}: {before} photos became {after}")
        self.committed[local_id] = self.answers(local_id)

    def do_issue(self, fault):
        local_id = self.rng.choice(self.drafts)
        before = len(self.device.json("show", local_id)["issues"])
        code = self.run("jqc", ["issue", "add", local_id, "--severity", "low", "--description", self.generator.text(3)], fault)
        after = len(self.device.json("show", local_id)["issues"])
        if code == 0 and after != before + 1:
            self.findings.add("losses", f"jqc issue add under {fault} exited 0 but the report has {after} issues")

    def do_start(self, fault):
        before = {r["local_id"] for r in self.device.json("list")["reports"]}
        code = self.run("jqc", ["start", "--template", "lobby-walk", "--facility", "F-100", "--area", "A-102"], fault)
        made = {r["local_id"] for r in self.device.json("list")["reports"]} - before
        if code == 0 and len(made) != 1:
            self.findings.add("losses", f"jqc start under {fault} exited 0 but made {len(made)} reports")
        if len(made) > 1:
            self.findings.add("duplicates", f"jqc start under {fault} made {len(made)} reports")
        for local_id in made:
            self.left_drafts.append(local_id)

    def do_read(self, fault):
        local_id = self.rng.choice(self.drafts + self.completed)
        args = self.rng.choice([["list"], ["list", "--json"], ["show", local_id], ["status", "--json"], ["templates"],
                                ["whoami"], ["issues"], ["assignments"]])
        self.run("jqc", args, fault)

    def do_export(self, fault):
        local_id = self.rng.choice(self.drafts + self.completed)
        target = os.path.join(self.work, "export.json")
        before = open(target, "rb").read() if os.path.exists(target) else None
        code = self.run("jqc", ["export", local_id, "--format", "json", "-o", target], fault)
        if os.path.exists(target):
            try:
                with open(target) as f:
                    json.load(f)
            except ValueError:
                self.findings.add("corruption", f"jqc export under {fault} left a half-written export (exit {code})")
        elif before is not None:
            self.findings.add("losses", f"jqc export under {fault} removed the previous export")
        leftovers = [n for n in os.listdir(self.work) if n.endswith(".part")]
        if leftovers:
            self.findings.add("corruption", f"jqc export under {fault} left temporary files {leftovers} (exit {code})")
            for name in leftovers:
                os.remove(os.path.join(self.work, name))

    def do_agent(self, fault):
        metrics = os.path.join(self.work, "agent.prom")
        code = self.run("jqc-agent", ["run", "--once", "--log-file", os.path.join(self.work, "agent.log"),
                                      "--metrics-file", metrics], fault, limit=TIME_LIMIT["agent"])
        if os.path.exists(metrics):
            text = open(metrics, errors="replace").read()
            if not text.endswith("\n") or "jqc_sync_cycles_total" not in text:
                self.findings.add("corruption", f"jqc-agent under {fault} left a half-written metrics file (exit {code})")
        self.check_device_a(f"jqc-agent under {fault}")

    def do_sync(self, fault):
        self.run("jqc", ["sync"], fault, limit=TIME_LIMIT["sync"])
        self.check_device_a(f"jqc sync under {fault}")

    def do_login(self, fault):
        self.run("jqc", ["login", "--server", self.server.url, "--username", "inspector", "--password-stdin"],
                 fault, stdin="inspector-pass\n")
        whoami = self.device.jqc("whoami", ok=(0, 1, 6))
        if whoami.returncode != 0:
            self.findings.add("losses", f"jqc login under {fault} lost the saved sign-in: {whoami.stderr.strip()}")
            self.device.login(self.server.url)

    def do_server(self, fault):
        """Server B under faults: start it, let device B sync through it, stop it with SIGTERM."""
        self.stats["server_starts"] += 1
        args = ["--db", self.server_b.db, "--host", "127.0.0.1", "--port", str(self.port_b), "--demo"]
        log = open(self.server_b.log_path, "a")
        log_start = log.tell()
        env = fault.env(dict(os.environ))
        process = subprocess.Popen([os.path.join(self.bin_dir, "jqc-server")] + args, stdout=subprocess.PIPE,
                                   stderr=log, text=True, errors="replace", env=env)
        try:
            line = read_line(process, 30)
            if line.startswith("listening on "):
                url = line.split()[-1]
                for _ in range(self.rng.randint(0, 2)):
                    self.generator_b.make_report()
                if not self.device_b_signed_in:
                    code = self.traffic(["login", "--server", url, "--username", "inspector", "--password-stdin"],
                                        stdin="inspector-pass\n")
                    self.device_b_signed_in = code == 0
                if self.device_b_signed_in:
                    self.traffic(["sync"])
                process.send_signal(signal.SIGTERM)
            else:
                self.stats["server_refused_start"] += 1
            try:
                process.wait(timeout=TIME_LIMIT["server"])
            except subprocess.TimeoutExpired:
                if line.startswith("listening on "):
                    self.findings.add("hangs", f"jqc-server under {fault} did not stop within {TIME_LIMIT['server']} s of SIGTERM")
                else:
                    self.findings.add("hangs", f"jqc-server under {fault} neither printed its address nor exited")
                process.kill()
                process.wait()
                return
        finally:
            process.stdout.close()
            log.close()
        self.judge("jqc-server", ["serve"], fault, process.returncode, text_from(self.server_b.log_path, log_start))
        if os.path.exists(self.server_b.db):
            with read_only(self.server_b.db) as db:
                check = integrity(db)
            if check != "ok":
                self.findings.add("corruption", f"after jqc-server under {fault}: server database: {check}")

    def traffic(self, args, stdin=None, limit=TRAFFIC_LIMIT):
        """Device B (not faulted) talks to the faulted server B. A request the
        faulted server is slow to answer (it may wait for a wake-up that a failed
        write never sent) is not waited out: after `limit` seconds the client is
        SIGKILLed, which the crash loop shows is safe, and the run goes on."""
        process = subprocess.Popen(self.device_b.command("jqc", args), stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True, env=self.device_b.env)
        try:
            process.communicate(input=stdin, timeout=limit)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            self.stats["server_b_slow_clients"] += 1
            return None
        return process.returncode

    def do_admin(self, fault):
        """An admin command of jqc-server on server B's database while it is stopped."""
        if not os.path.exists(self.server_b.db):
            return self.do_server(fault)
        name = f"user{self.rng.randint(1, 10**9)}"
        self.run("jqc-server", ["admin", "--db", self.server_b.db, "add-user", name, "--role", "inspector"],
                 fault, stdin="a long enough password\n")
        with read_only(self.server_b.db) as db:
            check = integrity(db)
        if check != "ok":
            self.findings.add("corruption", f"after jqc-server admin under {fault}: server database: {check}")

    def check_device_a(self, what):
        found, _ = self.checker.check(self.completed, self.left_drafts)
        for kind in Findings.KINDS:
            for text in found.items[kind]:
                self.findings.add(kind, text, f"after {what}")

    # MARK: - the whole run

    def go(self, runs):
        started = time.monotonic()
        self.setup()
        self.checker = Checker(self.device, self.server)
        commands, weights = zip(*COMMANDS)
        try:
            for number in range(1, runs + 1):
                command = self.rng.choices(commands, weights)[0]
                fault = Fault(self.rng, self.preload)
                for key, value in (("by_command", command), ("by_point", fault.point), ("by_errno", fault.errno_name)):
                    self.stats[key][value] = self.stats[key].get(value, 0) + 1
                getattr(self, f"do_{command}")(fault)
                self.stats["runs"] += 1
                self.check_store(self.device, f"{command} under {fault}")
                if number % 25 == 0 or number == runs:
                    self.check_committed(f"run {number}")
                if number % 100 == 0:
                    self.log(f"run {number}: {len(self.completed)} completed, {len(self.drafts)} drafts; "
                             f"{'; '.join(self.findings.lines(3)) or 'invariants hold'}")
            if runs >= 50 and self.stats["refused"] == 0:
                raise ToolError(f"{runs} faulted runs and not one refused anything: the faults were not injected "
                                f"(is {FIU_LIBRARIES} libfiu's?)")
            self.settle_all()
        finally:
            self.server.stop()
            self.server_b.stop()
        self.stats.update({
            "seconds": round(time.monotonic() - started, 1),
            "reports_completed": len(self.completed) + len(self.generator_b.completed),
            **{kind: self.findings.count(kind) for kind in FaultFindings.KINDS},
        })
        return self.stats, self.findings

    def settle_all(self):
        """The faults stop: both devices sync until nothing is pending; the servers must hold exactly what was completed."""
        self.check_committed("the last run")
        settle(self.device, self.log)
        found, summary = self.checker.check(self.completed, self.left_drafts, final=True)
        self.stats["server_a_reports"] = summary["server_reports"]
        self.stats["server_a_photos"] = summary["server_photos"]
        merge(self.findings, found, "device A after the faults stopped")
        self.check_committed("the last sync")

        self.server_b.start()
        try:
            # This start picked a port of its own: device B signs in there.
            self.device_b.login(self.server_b.url)
            for _ in range(2):
                self.generator_b.make_report()
            settle(self.device_b, self.log)
            found, summary = Checker(self.device_b, self.server_b).check(self.generator_b.completed, self.generator_b.drafts,
                                                                         final=True)
            self.stats["server_b_reports"] = summary["server_reports"]
            self.stats["server_b_photos"] = summary["server_photos"]
            merge(self.findings, found, "device B after the faults stopped")
        finally:
            self.server_b.stop()


def read_line(process, limit):
    """The first stdout line of `process`, or '' when it ends or stays silent for `limit` seconds."""
    import selectors
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    if not selector.select(timeout=limit):
        return ""
    return process.stdout.readline().strip()


def text_from(path, offset):
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read().decode("utf-8", "replace")


def merge(into, found, where):
    for kind in Findings.KINDS:
        for text in found.items[kind]:
            into.add(kind, text, where)


def run_io_faults(bin_dir, work, runs, seed, log=print):
    os.makedirs(work, exist_ok=True)
    return FaultRun(bin_dir, work, seed, log).go(runs)
