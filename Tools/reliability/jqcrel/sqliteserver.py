"""The server-faults run on SQLite: one jqc-server whose database, photo
folder and upload folder live on a small disk (a tmpfs the run fills), which
the run SIGKILLs and starts again, and whose database an operator backs up
while it serves (`jqc-server admin backup`) and later restores into a fresh
file with a new generation (`jqc-server admin restore`). Looks like a
`ServerPair` to the crash loop and to `ServerFaults`."""

import json
import os
import shutil
import signal
import subprocess
import threading

from .smalldisk import SmallDisk
from .world import Server, ToolError

# Room for a long run's reports and photos, and a restore's copy of them beside.
SMALL_DISK_MB = 384


class SqliteServer:
    def __init__(self, bin_dir, work, faults, seed):
        self.bin_dir = bin_dir
        self.work = work
        self.disk = SmallDisk(SMALL_DISK_MB)
        self.generation_number = 0
        self.server = Server(bin_dir, work, name="server", faults=faults, seed=seed,
                             db=os.path.join(self.disk.folder("generation-0"), "server.sqlite"))
        self.server.photo_dir = self.server.db + ".photos"
        self.cluster = None
        self.link = None
        self.fault_kinds = ("server-kill", "disk-full", "restore")
        self.kills = 0
        self.restores = 0

    # What the crash loop and the checker read.
    @property
    def db(self):
        return self.server.db

    @property
    def photo_dir(self):
        return self.server.photo_dir

    @property
    def url(self):
        return self.server.url

    def start(self):
        self.server.start()
        return self

    def route(self, device):
        """Points the device at the server's address (a restarted server listens on a new port)."""
        path = os.path.join(device.home, "credentials.json")
        with open(path) as f:
            saved = json.load(f)
        saved["server_url"] = self.server.url
        with open(path + ".tmp", "w") as f:
            json.dump(saved, f)
        os.chmod(path + ".tmp", 0o600)
        os.replace(path + ".tmp", path)
        return 0

    def kill(self):
        """SIGKILLs the server, as a crash or the OOM killer would."""
        process = self.server.process
        if process and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()
            self.kills += 1

    def restart(self):
        """Starts the server again if it is not running (on a new port)."""
        if self.server.process.poll() is not None:
            self.server.process.stdout.close()
            self.server.log.close()
            self.server.start()

    def kill_later(self, which, delay):
        timer = threading.Timer(delay, self.kill)
        timer.start()
        return timer

    def backup(self, path):
        """`jqc-server admin backup` while the server serves: SQLite's online backup and the photos beside."""
        self._admin(["backup", "--db", self.server.db, "-o", path])

    def restore(self, path):
        """The operator's restore: the server stopped, `admin restore` of the
        backup into a fresh file (with its photos and a new generation), the
        server started on it; the old database removed to give the room back."""
        self.server.stop()
        old = self.server.db
        self.generation_number += 1
        fresh = os.path.join(self.disk.folder(f"generation-{self.generation_number}"), "server.sqlite")
        self._admin(["restore", path, "--db", fresh])
        shutil.rmtree(os.path.dirname(old), ignore_errors=True)
        shutil.rmtree(path + ".photos", ignore_errors=True)
        self.server.db = fresh
        self.server.photo_dir = fresh + ".photos"
        self.server.start()
        self.restores += 1

    def _admin(self, args):
        done = subprocess.run([os.path.join(self.bin_dir, "jqc-server"), "admin"] + args,
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise ToolError(f"jqc-server admin {args[0]} exited {done.returncode}: {done.stderr.strip()}")

    def slowest_requests(self):
        return self.server.slowest_requests()

    def fault_counts(self):
        counts = dict(self.server.fault_counts())
        counts["server_kills"] = self.kills
        counts["refused_507"] = self.server.answered(507)
        return counts

    def stop(self):
        self.server.stop()
        self.disk.unmount()
