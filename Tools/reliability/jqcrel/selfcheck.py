"""Shows that the invariant checks can fail: a clean synced world passes,
then each kind of damage, made on a copy, is reported under its kind."""

import json
import os
import random
import shutil
import sqlite3
from types import SimpleNamespace

from .amendments import Amendments
from .crashloop import first_sync, settle
from .invariants import Checker
from .workgen import WorkGenerator
from .world import Device, Server, ToolError


def damages():
    """(name, kind the checker must report, change made to the copied world)."""
    def server_sql(sql):
        return lambda world: execute(world.server.db, sql)

    def flip_server_photo(world):
        path = first_file(world.server.photo_dir)
        with open(path, "r+b") as f:
            f.write(b"\x00\x01")

    return [
        ("a second revision of one report", "duplicates",
         server_sql("INSERT INTO report_revisions (server_id, revision, base_revision, payload, issues, source, author_id, created_at) "
                    "SELECT server_id, revision + 1, base_revision, payload, issues, source, "
                    "author_id, created_at FROM report_revisions LIMIT 1")),
        ("a synced report missing on the server", "losses",
         server_sql("DELETE FROM report_revisions WHERE server_id = (SELECT server_id FROM reports LIMIT 1); "
                    "DELETE FROM photos WHERE server_id = (SELECT server_id FROM reports LIMIT 1); "
                    "DELETE FROM reports WHERE server_id = (SELECT server_id FROM reports LIMIT 1)")),
        ("an uploaded photo missing on the server", "losses", server_sql("DELETE FROM photos WHERE rowid = (SELECT min(rowid) FROM photos)")),
        ("server answers that differ", "mismatches",
         server_sql("UPDATE report_revisions SET payload = json_set(payload, '$.answers.injected', 1) WHERE rowid = (SELECT min(rowid) FROM report_revisions)")),
        ("server photo bytes changed", "corruption", flip_server_photo),
        ("a completed report gone from the device", "losses", remove_device_report),
        ("an amendment's answer lost in a merge (on both sides alike)", "losses", lose_amended_answer),
        # The server went back to a backup without the report; the device saw the new generation and did not send it again.
        ("a report a restore lost, not sent again after the device saw the new generation", "losses",
         lambda world: (restore_without(world), execute(world.device.store, ADOPT_GENERATION))),
    ]


RESTORED_GENERATION = "self-check-restored"
ADOPT_GENERATION = f"INSERT OR REPLACE INTO meta (key, value) VALUES ('server_generation', '{RESTORED_GENERATION}')"


def restore_without(world):
    """The server as a restore of a backup taken before its first report leaves it: that report gone, a new generation."""
    first = "(SELECT server_id FROM reports ORDER BY rowid LIMIT 1)"
    execute(world.server.db, f"DELETE FROM report_revisions WHERE server_id = {first}; "
                             f"DELETE FROM photos WHERE server_id = {first}; DELETE FROM reports WHERE server_id = {first}; "
                             f"UPDATE settings SET value = '{RESTORED_GENERATION}' WHERE key = 'server_generation'")


def amended_answer(world):
    """The first SYNCED report with a text answer: (local id, server id, field, answer)."""
    with sqlite3.connect(world.device.store) as db:
        for local_id, server_id, answers in db.execute(
                "SELECT local_id, server_id, answers FROM reports WHERE state = 'SYNCED' ORDER BY creation_seq"):
            for field, answer in sorted(json.loads(answers).items()):
                if isinstance(answer, str) and answer:
                    return local_id.lower(), server_id, field, answer
    raise ToolError("the self-check world has no SYNCED report with a text answer")


def lose_amended_answer(world):
    """Replaces the answer an amendment must keep, on the device and in the server's latest revision alike."""
    local_id, server_id, field, _ = amended_answer(world)
    path = "$." + "answers." + json.dumps(field)
    execute(world.device.store, f"UPDATE reports SET answers = json_set(answers, '$.{json.dumps(field)}', 'lost') "
                                f"WHERE lower(local_id) = '{local_id}'")
    execute(world.server.db, f"UPDATE report_revisions SET payload = json_set(payload, '{path}', 'lost') WHERE server_id = '{server_id}' "
                             f"AND revision = (SELECT max(revision) FROM report_revisions WHERE server_id = '{server_id}')")


def remove_device_report(world):
    """Deletes one SYNCED report from the device store with its photos, issues and revisions."""
    with sqlite3.connect(world.device.store) as db:
        row = db.execute("SELECT local_id FROM reports WHERE state = 'SYNCED' ORDER BY creation_seq LIMIT 1").fetchone()
        if row is None:
            raise ToolError("the self-check world has no SYNCED report to remove")
        for table, column in (("photos", "report_local_id"), ("issues", "report_local_id"),
                              ("report_revisions", "report_local_id"), ("reports", "local_id")):
            db.execute(f"DELETE FROM {table} WHERE {column} = ?", row)


def execute(path, sql):
    with sqlite3.connect(path) as db:
        before = db.total_changes
        db.executescript(sql)
        if db.total_changes == before:
            raise ToolError(f"a self-check damage changed nothing: {sql}")


def first_file(folder):
    for directory, _, files in sorted(os.walk(folder)):
        for name in sorted(files):
            if "incoming" not in directory:
                return os.path.join(directory, name)
    raise ToolError(f"no photo under {folder}")


def run_self_check(bin_dir, work, seed, log=print):
    rng = random.Random(seed)
    server = Server(bin_dir, os.path.join(work, "clean")).start()
    try:
        device = Device(bin_dir, os.path.join(work, "clean", "device"))
        device.login(server.url)
        first_sync(device)
        generator = WorkGenerator(device, rng, os.path.join(work, "photos-in"))
        while generator.photos == 0 or len(generator.completed) < 4:
            generator.make_report()
        settle(device, log)
        # Every kind of damage needs something to damage: at least one photo on
        # the server (photos on drafts never reach it), so work goes on until one is.
        for _ in range(20):
            if server_photo_count(server.db) > 0:
                break
            generator.make_report()
            settle(device, log)
    finally:
        server.stop()
    clean = SimpleNamespace(server=server, device=device)
    # What an amendment of the first synced report with a text answer must keep.
    local_id, _, field, answer = amended_answer(clean)
    amendments = Amendments(None, None, bin_dir, rng, [])
    amendments.expected[local_id] = {field: answer}
    found, _ = Checker(device, server, amendments).check(generator.completed, generator.drafts, final=True)
    failures = [f"the clean world was reported: {line}" for line in found.lines()]
    # A restore the device has not seen yet is not a loss: it will send the report again.
    world = copy_world(clean, os.path.join(work, "restored"))
    restore_without(world)
    checker = Checker(world.device, world.server, amendments)
    checker.server_went_back()
    found, _ = checker.check(generator.completed, generator.drafts)
    failures += [f"a restore the device has not seen yet was reported: {line}" for line in found.lines()]
    for index, (name, kind, damage) in enumerate(damages()):
        world = copy_world(clean, os.path.join(work, f"damaged-{index}"))
        damage(world)
        checker = Checker(world.device, world.server, amendments)
        if "restore" in name:
            checker.server_went_back()
        found, _ = checker.check(generator.completed, generator.drafts, final=True)
        if found.count(kind) == 0:
            failures.append(f"{name}: not reported as {kind}")
        else:
            log(f"self-check: {name} -> {found.items[kind][0]}")
    return failures


def server_photo_count(db):
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return connection.execute("SELECT COUNT(*) FROM photos").fetchone()[0]
    finally:
        connection.close()


def copy_world(world, target):
    shutil.copytree(os.path.dirname(world.server.db), target, ignore=shutil.ignore_patterns("*.log"))
    server = SimpleNamespace(db=os.path.join(target, os.path.basename(world.server.db)))
    server.photo_dir = server.db + ".photos"
    device_home = os.path.join(target, os.path.relpath(world.device.home, os.path.dirname(world.server.db)))
    device = SimpleNamespace(home=device_home, store=os.path.join(device_home, "jqc.sqlite"),
                             photo_dir=os.path.join(device_home, "photos"))
    return SimpleNamespace(server=server, device=device)
