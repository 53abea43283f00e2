"""The real programs a reliability run drives: one jqc-server on loopback and
one device profile used through jqc and jqc-agent."""

import json
import os
import signal
import subprocess
import time


def wait_or_kill(process, delay):
    """Waits up to `delay` seconds for `process`, then SIGKILLs it.
    Returns (killed, exit code or None)."""
    try:
        return False, process.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        process.wait()
        return True, None


class ToolError(Exception):
    """A run that could not be set up or driven (not a finding about the product)."""


class Server:
    """`jqc-server --demo` on 127.0.0.1 with a fresh database (or the
    PostgreSQL database `db` names) and optional faults."""

    def __init__(self, bin_dir, work, name="server", faults=None, seed=1, db=None):
        os.makedirs(work, exist_ok=True)
        self.bin_dir = bin_dir
        self.db = db or os.path.join(work, f"{name}.sqlite")
        self.upload_dir = os.path.join(work, f"{name}.uploads")
        self.log_path = os.path.join(work, f"{name}.log")
        self.photo_dir = self.db + ".photos"
        self.faults = faults or {}
        self.seed = seed
        self.process = None
        self.url = None

    def start(self):
        args = [os.path.join(self.bin_dir, "jqc-server"), "--db", self.db, "--host", "127.0.0.1",
                "--port", "0", "--demo", "--seed", str(self.seed)]
        if self.db.startswith("postgres://"):
            args += ["--upload-dir", self.upload_dir]
        for flag, value in self.faults.items():
            args += [f"--{flag}", str(value)]
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("listening on "):
            raise ToolError(f"jqc-server did not start: {line!r}; see {self.log_path}")
        self.url = line.split()[-1]
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process:
            self.process.stdout.close()
            self.log.close()

    def answered(self, status):
        """How many requests the server's access log shows answered with `status`."""
        with open(self.log_path, errors="replace") as f:
            return sum(1 for line in f if f'"status":{status}' in line)

    def slowest_requests(self):
        """(seconds, route, status) of every request in the access log, slowest first."""
        found = []
        with open(self.log_path, errors="replace") as f:
            for line in f:
                if '"kind":"access"' not in line:
                    continue
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue    # a line cut short by a kill
                found.append((entry.get("duration_ms", 0) / 1000, entry.get("route"), entry.get("status")))
        return sorted(found, reverse=True)

    def fault_counts(self):
        """Injected faults by kind, from the server's log lines."""
        counts = {}
        with open(self.log_path, errors="replace") as f:
            for line in f:
                if "injected fault " in line:
                    kind = line.split("injected fault ", 1)[1].split()[0]
                    counts[kind] = counts.get(kind, 0) + 1
        return counts


class Device:
    """One profile directory, used through the real jqc and jqc-agent."""

    def __init__(self, bin_dir, home, env=None):
        self.bin_dir = bin_dir
        self.home = home
        self.store = os.path.join(home, "jqc.sqlite")
        self.photo_dir = os.path.join(home, "photos")
        self.env = dict(os.environ, **(env or {}))
        self.env.pop("JQC_HOME", None)
        os.makedirs(home, exist_ok=True)

    def command(self, program, args):
        return [os.path.join(self.bin_dir, program), "--home", self.home] + list(args)

    def jqc(self, *args, stdin=None, ok=(0,)):
        """Runs jqc to the end; raises unless its exit code is one of `ok`."""
        done = subprocess.run(self.command("jqc", args), input=stdin, capture_output=True, text=True,
                              env=self.env, timeout=120)
        if done.returncode not in ok:
            raise ToolError(f"jqc {' '.join(args)} exited {done.returncode}: {done.stderr.strip() or done.stdout.strip()}")
        return done

    def json(self, *args):
        return json.loads(self.jqc(*args, "--json").stdout)

    def login(self, url, username="inspector", password="inspector-pass", attempts=60):
        """Signs in; a fault run may refuse or drop the first tries (exit 75)."""
        for _ in range(attempts):
            done = self.jqc("login", "--server", url, "--username", username, "--password-stdin",
                            stdin=password + "\n", ok=(0, 1, 75))
            if done.returncode == 0:
                return
            time.sleep(0.05)
        raise ToolError(f"could not sign in to {url}: {done.stderr.strip()}")

    def agent(self, *args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE):
        """Starts jqc-agent with these arguments; the caller waits or kills it."""
        return subprocess.Popen(self.command("jqc-agent", args), stdout=stdout, stderr=stderr, text=True, env=self.env)
