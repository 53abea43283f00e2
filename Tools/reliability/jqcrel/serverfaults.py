"""Faults of a deployment, on the server's side of the crash loop on
PostgreSQL: the database crashes (`pg_ctl stop -m immediate`) or its
postmaster is SIGKILLed, then restarted after a pause; the network between the
instances and the database stalls (nothing moves, no RST), drops every
connection, or delays every chunk, then heals. One fault a trial, at a random
moment of the agent's cycle; the trial's invariants are checked after it
healed."""

import os
import subprocess
import threading
import time

from .postgres import ROOT
from .world import ToolError

KINDS = ("pg-crash", "pg-kill", "stall", "drop", "delay")


class ServerFaults:
    def __init__(self, cluster, link, rng):
        self.cluster = cluster
        self.link = link
        self.rng = rng
        self.counts = {kind: 0 for kind in KINDS}
        self.thread = None
        self.error = None

    def inject_later(self, delay):
        """Starts one fault, picked at random, `delay` seconds from now; `heal` waits until it is over."""
        kind = self.rng.choice(KINDS)
        pause = self.rng.uniform(0.3, 3.0)
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

    def _run(self, kind, delay, pause):
        try:
            time.sleep(delay)
            if kind in ("pg-crash", "pg-kill"):
                self._cluster("crash" if kind == "pg-crash" else "kill")
                time.sleep(pause)
                self._cluster("restart")
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
