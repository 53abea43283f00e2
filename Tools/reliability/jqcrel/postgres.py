"""The crash loop's PostgreSQL mode: a throwaway cluster (Tools/postgres/cluster),
two jqc-server instances on its one database, the device routed to one or the
other at every trial as a load balancer would, and instances SIGKILLed in the
middle of agent cycles and restarted. The server's state is read with psql."""

import glob
import json
import os
import random
import signal
import subprocess
import threading

from .smalldisk import SmallDisk, can_mount
from .world import Server, ToolError

# The database's tablespace and the instances' upload folders, with `link`
# as root: room for a long run's reports and photos, filled by a disk-full fault.
SMALL_DISK_MB = 256

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def psql_binary(name="psql"):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise ToolError("PostgreSQL is not installed; run Tools/setup")
    return found[-1]


def url_parts(url):
    """(host, port, user, password, database) of a postgres:// URL."""
    rest = url.split("://", 1)[1]
    credentials, place = rest.split("@", 1)
    user, password = credentials.split(":", 1)
    hostport, database = place.split("/", 1)
    host, port = hostport.split(":", 1)
    return host, port, user, password, database


def run_client(program, url, args, database=None, timeout=300):
    """Runs a PostgreSQL client program (psql, pg_dump, pg_restore) against `url`
    (or another `database` of its cluster); raises with its message on failure."""
    host, port, user, password, name = url_parts(url)
    done = subprocess.run([psql_binary(program), "-h", host, "-p", port, "-U", user, "-d", database or name] + args,
                          capture_output=True, text=True, env=dict(os.environ, PGPASSWORD=password), timeout=timeout)
    if done.returncode != 0:
        raise ToolError(f"{program}: {done.stderr.strip()}")
    return done.stdout


class Cluster:
    """A throwaway cluster in `folder`, stopped and removed by `stop`."""

    def __init__(self, folder):
        self.folder = folder
        done = subprocess.run([os.path.join(ROOT, "Tools/postgres/cluster"), "start", folder],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise ToolError(f"could not start PostgreSQL: {done.stderr.strip()}")
        self.url = done.stdout.strip().splitlines()[-1]

    def stop(self):
        subprocess.run([os.path.join(ROOT, "Tools/postgres/cluster"), "stop", self.folder],
                       capture_output=True, timeout=120)


def query_json(url, sql):
    """The one JSON value `sql` selects, through psql."""
    out = run_client("psql", url, ["-qAt", "-v", "ON_ERROR_STOP=1", "-c", sql], timeout=120)
    return json.loads(out.strip() or "null")


def server_state(url):
    """(check, reports, revisions, photos, bytes) as the invariant checker reads them."""
    reports, revisions, photos, hashed = {}, {}, {}, {}
    for local_id, server_id in query_json(url, "SELECT COALESCE(json_agg(json_build_array(local_id, server_id)), '[]') FROM reports"):
        reports.setdefault(local_id.lower(), []).append(server_id)
    for server_id, revision, payload, issues in query_json(url, """
            SELECT COALESCE(json_agg(json_build_array(server_id, revision, payload::json, issues::json)
                                     ORDER BY server_id, revision), '[]') FROM report_revisions"""):
        revisions.setdefault(server_id, []).append((revision, payload, issues))
    for local_id, server_id, sha in query_json(url, "SELECT COALESCE(json_agg(json_build_array(local_id, server_id, sha256)), '[]') FROM photos"):
        photos.setdefault(local_id.lower(), []).append((server_id, sha))
    # What the stored chunks of each photo hash to, computed by PostgreSQL.
    for sha, computed in query_json(url, """
            SELECT COALESCE(json_agg(json_build_array(b.sha256, (
                SELECT encode(sha256(string_agg(c.bytes, ''::bytea ORDER BY c.chunk)), 'hex')
                FROM photo_chunks c WHERE c.sha256 = b.sha256))), '[]') FROM photo_blobs b"""):
        hashed[sha] = computed
    return "ok", reports, revisions, photos, hashed


class ServerPair:
    """Two jqc-server instances with faults on one PostgreSQL database. Looks
    like one `Server` to the crash loop: `url`, `db`, `fault_counts`, `stop`."""

    def __init__(self, bin_dir, work, faults, seed, link=False):
        self.cluster = Cluster(os.path.join(work, "postgres"))
        self.db = self.cluster.url
        self.bin_dir = bin_dir
        # With `link` as root, the database and the upload folders live on a small disk a fault can fill.
        self.disk = None
        if link and can_mount():
            self.disk = SmallDisk(SMALL_DISK_MB, owner="postgres")
            tablespace = self.disk.folder("tablespace", owner="postgres")
            self.admin_sql(f"CREATE TABLESPACE small LOCATION '{tablespace}'")
            self.admin_sql("ALTER DATABASE jqc SET TABLESPACE small")
        # With `link`, the instances reach the database through a proxy the run can stall or cut.
        self.link = None
        instance_db = self.db
        if link:
            from .dblink import DatabaseLink
            port = int(self.db.rsplit(":", 1)[1].split("/", 1)[0])
            self.link = DatabaseLink(port)
            instance_db = self.db.replace(f":{port}/", f":{self.link.port}/")
        self.photo_dir = None
        self.rng = random.Random(seed * 31 + 7)
        self.instances = [Server(bin_dir, work, name=f"instance-{i}", faults=faults, seed=seed + i, db=instance_db)
                          for i in range(2)]
        if self.disk:
            for i, instance in enumerate(self.instances):
                instance.upload_dir = self.disk.folder(f"uploads-{i}")
        # The faults `ServerFaults` may inject; filling a disk needs the small disk, which needs root.
        self.fault_kinds = ("pg-crash", "pg-kill", "stall", "drop", "delay") + (("disk-full",) if self.disk else ()) + ("restore",)
        self.kills = 0
        self.routed = [0, 0]
        self.restores = 0

    def admin_sql(self, sql):
        """One statement run on the cluster's `postgres` database, outside any transaction."""
        run_client("psql", self.db, ["-qAt", "-v", "ON_ERROR_STOP=1", "-c", sql], database="postgres")

    def backup(self, path):
        """What an operator's nightly `pg_dump -Fc` takes, while the instances go on serving."""
        run_client("pg_dump", self.db, ["-Fc", "-f", path])

    def restore(self, path):
        """The operator's restore, as docs/deploy.md tells it: the instances
        stopped, the database made again from the backup, a new generation
        given to it (`jqc-server admin new-generation`), the instances started
        on it (on new ports, as replaced machines would be)."""
        for instance in self.instances:
            instance.stop()
        name = url_parts(self.db)[4]
        self.admin_sql(f"DROP DATABASE {name} WITH (FORCE)")
        self.admin_sql(f"CREATE DATABASE {name}" + (" TABLESPACE small" if self.disk else ""))
        run_client("pg_restore", self.db, ["--no-owner", "--exit-on-error", path])
        done = subprocess.run([os.path.join(self.bin_dir, "jqc-server"), "admin", "new-generation", "--db", self.db],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise ToolError(f"jqc-server admin new-generation exited {done.returncode}: {done.stderr.strip()}")
        for instance in self.instances:
            instance.start()
        self.url = self.instances[0].url
        self.restores += 1

    def start(self):
        for instance in self.instances:
            instance.start()
        self.url = self.instances[0].url
        return self

    def route(self, device):
        """Points the device at one instance, picked at random, for its next cycle."""
        which = self.rng.randrange(2)
        self.routed[which] += 1
        path = os.path.join(device.home, "credentials.json")
        with open(path) as f:
            saved = json.load(f)
        saved["server_url"] = self.instances[which].url
        with open(path + ".tmp", "w") as f:
            json.dump(saved, f)
        os.chmod(path + ".tmp", 0o600)
        os.replace(path + ".tmp", path)
        return which

    def kill_later(self, which, delay):
        """SIGKILLs instance `which` after `delay` seconds; `restart` brings it back."""
        timer = threading.Timer(delay, lambda: self._kill(which))
        timer.start()
        return timer

    def _kill(self, which):
        process = self.instances[which].process
        if process and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            self.kills += 1

    def restart(self):
        """Starts again any instance that was killed (on a new port, as a replaced machine would be)."""
        for instance in self.instances:
            if instance.process.poll() is not None:
                instance.process.wait()
                instance.process.stdout.close()
                instance.log.close()
                instance.start()
        self.url = self.instances[0].url

    def slowest_requests(self):
        return sorted((r for instance in self.instances for r in instance.slowest_requests()), reverse=True)

    def fault_counts(self):
        counts = {}
        for instance in self.instances:
            for kind, count in instance.fault_counts().items():
                counts[kind] = counts.get(kind, 0) + count
        counts["instance_kills"] = self.kills
        # Requests refused because the server's disk was full (a disk-full fault's effect).
        counts["refused_507"] = sum(instance.answered(507) for instance in self.instances)
        return counts

    def stop(self):
        for instance in self.instances:
            instance.stop()
        if self.link:
            self.link.close()
        self.cluster.stop()
        if self.disk:
            self.disk.unmount()
