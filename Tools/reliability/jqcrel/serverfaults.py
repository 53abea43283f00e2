"""Faults of a deployment, on the server's side of the crash loop. On
PostgreSQL (two instances, `postgres.py`): the database crashes (`pg_ctl stop -m immediate`) or its
postmaster is SIGKILLed, then restarted after a pause; the network between the
instances and the database stalls (nothing moves, no RST), drops every
connection, or delays every chunk, then heals; the server's disk (the
database's tablespace and the upload folders, a small tmpfs) fills to the last
byte, then has room again; or an operator's `pg_dump` is taken mid-cycle and,
once the cycle is over, restored with a new generation, so that what was
accepted after it is gone from the server and the device must send it again.
On SQLite (one server, `sqliteserver.py`): the server SIGKILLed and started
again, its disk full, a backup (`admin backup`) restored (`admin restore`).
One fault a trial, at a random moment of the agent's cycle; the trial's
invariants are checked after it healed."""

import os
import subprocess
import threading
import time

from .postgres import ROOT
from .world import ToolError


# No request may take longer, whatever the fault: the server's own bounds
# (4 s to connect to the database, 6 s an exchange, 3 s waiting for a pooled
# connection) leave it answering 503 well within this, on a loaded machine too.
HANG_SECONDS = 30


class ServerFaults:
    def __init__(self, pair, work, rng):
        self.pair = pair
        self.cluster = pair.cluster
        self.link = pair.link
        self.work = work
        self.rng = rng
        self.kinds = list(pair.fault_kinds)
        self.counts = {kind: 0 for kind in self.kinds}
        self.thread = None
        self.error = None
        self.backup = None             # the backup taken, and the trials to go before it is restored
        self.trials_to_restore = 0

    def inject_later(self, delay):
        """Starts one fault, picked at random, `delay` seconds from now; `heal` waits until it is over."""
        # One backup at a time: it is restored one to three trials after it was taken.
        kind = self.rng.choice([k for k in self.kinds if k != "restore" or not self.backup])
        # A stall outlasts the server's deadlines one time in two: those requests must be answered 503.
        pause = self.rng.uniform(0.3, 12.0 if kind == "stall" else 3.0)
        if kind == "disk-full":
            # Full as the cycle starts, so that its reports and photos meet it (a full disk
            # only shows when a table or an upload must grow).
            delay = 0
        self.counts[kind] += 1
        self.thread = threading.Thread(target=self._run, args=(kind, delay, pause), daemon=True)
        self.thread.start()
        return kind

    def heal(self):
        """Waits for the fault to be over (the database up, the link passing); raises if it could not be undone."""
        if self.thread:
            self.thread.join(timeout=120)
            if self.thread.is_alive():
                raise ToolError("a database fault did not end within 120 s")
            self.thread = None
        if self.error:
            error, self.error = self.error, None
            raise ToolError(error)

    def restore_if_due(self):
        """Restores the backup taken one to three trials ago, if its turn has
        come; returns whether it did. What the server accepted since is gone."""
        if not self.backup:
            return False
        self.trials_to_restore -= 1
        if self.trials_to_restore > 0:
            return False
        path, self.backup = self.backup, None
        self.pair.restore(path)
        os.remove(path)
        return True

    def _run(self, kind, delay, pause):
        try:
            time.sleep(delay)
            if kind == "server-kill":
                self.pair.kill()
                time.sleep(pause)
                self.pair.restart()
            elif kind in ("pg-crash", "pg-kill"):
                self._cluster("crash" if kind == "pg-crash" else "kill")
                time.sleep(pause)
                self._cluster("restart")
            elif kind == "disk-full":
                self.pair.disk.fill()
                time.sleep(pause + 1)
                self.pair.disk.make_room()
            elif kind == "restore":
                path = os.path.join(self.work, "backup")
                self.pair.backup(path)
                self.backup = path
                self.trials_to_restore = self.rng.randint(1, 3)
            else:
                self.link.set({"stall": "blackhole", "drop": "drop", "delay": "delay"}[kind])
                time.sleep(pause)
                self.link.set("pass")
        except Exception as error:    # reported by `heal`, on the run's thread
            self.error = f"{kind}: {error}"

    def _cluster(self, command):
        done = subprocess.run([os.path.join(ROOT, "Tools/postgres/cluster"), command, self.cluster.folder],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise ToolError(f"Tools/postgres/cluster {command}: {done.stderr.strip()}")
