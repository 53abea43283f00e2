"""The crash loop: seeded inspection work, then `jqc-agent run --once` killed
with SIGKILL at a random moment, again and again, against a jqc-server that
injects faults, with every invariant checked after every trial; then cycles
without kills until everything is SYNCED and the server holds exactly what
the device completed."""

import os
import random
import subprocess
import time

from .actionwork import ActionWork
from .amendments import Amendments
from .invariants import Checker, Findings
from .workgen import WORDS, WorkGenerator
from .postgres import ServerPair
from .serverfaults import HANG_SECONDS, ServerFaults
from .sqliteserver import SqliteServer
from .templatemove import TemplateMover
from .world import Device, Server, ToolError, wait_or_kill

FAULTS = {"fault-rate": 0.08, "fault-drop": 0.05, "fault-after-accept": 0.25}
# `jqc photo add`, `jqc answer` and `jqc complete` take a few tens of
# milliseconds here; kills spread over this window land before, during and
# after their transaction.
COMMAND_KILL_WINDOW = (0.005, 0.06)


def run_crash_loop(bin_dir, work, trials, seed, max_kill_delay=3.0, initial_reports=12, log=print, postgres=False,
                   server_faults=False, sqlite=False):
    """With `postgres`, two instances on one PostgreSQL database serve the
    device, which is routed to either at each trial; now and then the one it
    uses is SIGKILLed mid-cycle and restarted. With `server_faults` (on
    PostgreSQL), most trials also meet a fault of the database or of the
    network to it (`serverfaults.py`), healed before the trial is checked;
    with `sqlite` too, they are faults of one SQLite server on a small disk
    instead (`sqliteserver.py`)."""
    sqlite_faults = server_faults and sqlite
    postgres = (postgres or server_faults) and not sqlite_faults
    rng = random.Random(seed)
    kill_rng = random.Random(seed * 7919 + 1)
    os.makedirs(work, exist_ok=True)
    if sqlite_faults:
        server = SqliteServer(bin_dir, work, FAULTS, seed).start()
    else:
        server = (ServerPair(bin_dir, work, FAULTS, seed, link=server_faults) if postgres
                  else Server(bin_dir, work, faults=FAULTS, seed=seed)).start()
    database_faults = ServerFaults(server, work, random.Random(seed * 13 + 5)) if server_faults else None
    if database_faults and "disk-full" not in database_faults.kinds:  # PostgreSQL as another user than root
        log("server faults: a small disk needs root to mount, so this run has no disk-full trials")
    started = time.monotonic()
    try:
        device = Device(bin_dir, os.path.join(work, "device"))
        device.login(server.url)
        # Synced reports stay for the whole run, so the acknowledged set only grows.
        device.jqc("settings", "retention-days", "3650")
        generator = WorkGenerator(device, rng, os.path.join(work, "photos-in"))
        amendments = Amendments(device, server, bin_dir, random.Random(seed * 31 + 7), WORDS)
        checker = Checker(device, server, amendments)
        mover = TemplateMover(device, rng, os.path.join(work, "templates-in"), generator.drafts)
        # Comments with photos on the actions the reports' serious issues became (not across restores,
        # which take actions back with everything else).
        actions = None if server_faults else ActionWork(device, server, random.Random(seed * 17 + 3), generator.png)
        first_sync(device)
        for _ in range(initial_reports):
            generator.make_report()

        stats = {"trials": 0, "kills": 0, "finished_before_kill": 0, "agent_exit_codes": {}, "retries": 0,
                 "import_kills": 0, "edit_kills": 0, "template_moves": 0, "template_move_kills": 0,
                 "template_move_kills_after_move": 0, "restores": 0, "reports_to_send_again": 0,
                 "photos_to_send_again": 0}
        findings = Findings()
        cycle = CycleLength(max_kill_delay)
        for trial in range(1, trials + 1):
            for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
                generator.make_report(synced_ids=checker.ever_acknowledged)
            if rng.random() < 0.25:
                stats["import_kills"] += generator.report_with_killed_import(kill_rng.uniform(*COMMAND_KILL_WINDOW))
            # A supervisor's correction meets the inspector's amendment: a merge, or a conflict.
            if rng.random() < 0.35:
                amendments.amend_one(lost=checker.rewound)
            edit_problems = []
            if rng.random() < 0.25:
                kills, edit_problems = generator.report_with_killed_edits(kill_rng.uniform(*COMMAND_KILL_WINDOW),
                                                                          kill_rng.uniform(*COMMAND_KILL_WINDOW))
                stats["edit_kills"] += kills
            if rng.random() < 0.25:
                # A new version of a template arrives while drafts exist, its import killed.
                killed_move, moved, move_problems = mover.step(kill_rng)
                stats["template_moves"] += 1
                stats["template_move_kills"] += killed_move
                # Killed, and the drafts had moved already: the kill came after the move's transaction.
                stats["template_move_kills_after_move"] += killed_move and moved
                edit_problems += move_problems
            if actions and rng.random() < 0.4:
                actions.step(kill_rng.uniform(*COMMAND_KILL_WINDOW) if rng.random() < 0.3 else None)
            # A random moment within what a whole cycle takes now, so most trials kill mid-cycle.
            delay = kill_rng.uniform(0, cycle.kill_window())
            instance_kill = None
            if sqlite_faults:
                server.route(device)
            if postgres:
                which = server.route(device)
                if kill_rng.random() < 0.2:
                    instance_kill = server.kill_later(which, kill_rng.uniform(0, cycle.kill_window()))
            if database_faults and rng.random() < 0.7:
                # Before the agent's kill, so that the fault meets its requests.
                database_faults.inject_later(kill_rng.uniform(0, delay))
            began = time.monotonic()
            killed, code = agent_with_kill(device, delay)
            if database_faults:
                database_faults.heal()
            if instance_kill:
                instance_kill.cancel()
                server.restart()
            if database_faults and database_faults.restore_if_due():
                reports_lost, photos_lost = checker.server_went_back()
                stats["restores"] += 1
                stats["reports_to_send_again"] += reports_lost
                stats["photos_to_send_again"] += photos_lost
            stats["trials"] += 1
            if killed:
                cycle.outlived(delay)
                stats["kills"] += 1
            else:
                cycle.finished(time.monotonic() - began)
                stats["finished_before_kill"] += 1
                stats["agent_exit_codes"][code] = stats["agent_exit_codes"].get(code, 0) + 1
                if code not in (0, 75):
                    raise ToolError(f"trial {trial}: jqc-agent run --once exited {code}")
            # An inspector presses retry: reports in backoff are due again at once.
            retried = device.json("retry")["retried"]
            stats["retries"] += len(retried)
            trial_findings, summary = checker.check(generator.completed, generator.drafts)
            if actions:
                actions.check(trial_findings)
            amendments.resolve_conflicts()
            for problem in edit_problems:
                trial_findings.add("corruption", problem)
            merge(findings, trial_findings, f"trial {trial}")
            if trial % 20 == 0 or trial_findings:
                log(f"trial {trial}: {f'killed after {delay:.2f}s' if killed else f'exit {code} before the kill'}; "
                    f"{summary['synced']} synced, {summary['pending']} pending, {summary['photos_pending']} photos pending; "
                    f"{'; '.join(trial_findings.lines(3)) or 'invariants hold'}")

        # What the killed cycles themselves got through, before any settling.
        synced_in_trials = summary["synced"] if trials else 0
        if postgres or sqlite_faults:
            server.restart()
            server.route(device)
        amendments.resolve_conflicts()
        # A device with nothing to send learns of a restore at its next cycle that reaches the
        # server (a failed reference pull sends no probe): settling goes on until it has.
        cycles = settle(device, log, after_cycle=amendments.resolve_conflicts,
                        caught_up=lambda: checker.knows_generation() and (actions is None or actions.caught_up()))
        final_findings, summary = checker.check(generator.completed, generator.drafts, final=True)
        if actions:
            actions.check(final_findings, final=True)
        merge(findings, final_findings, "after the last sync")
        stats.update({
            "seed": seed, "synced_in_trials": synced_in_trials, "settle_cycles": cycles, "seconds": round(time.monotonic() - started, 1),
            "reports_completed": len(generator.completed), "drafts": len(generator.drafts),
            "photos": generator.photos, "issues": generator.issues, "reinspections": generator.reinspections,
            **amendments.stats(),
            **(actions.stats() if actions else {}),
            "database_faults": database_faults.counts if database_faults else {},
            "faults": server.fault_counts(), "server_reports": summary["server_reports"],
            **(requests_held(server) if server_faults else {}),
            "leftover_photo_files": summary["leftover_files"],
            "server_photos": summary["server_photos"],
            "duplicates": findings.count("duplicates"), "losses": findings.count("losses"),
            "mismatches": findings.count("mismatches"), "corruption": findings.count("corruption"),
        })
        return stats, findings
    finally:
        server.stop()


def requests_held(server):
    """The slowest request the instances answered, and those that took longer than a hang."""
    slowest = server.slowest_requests()
    held = [f"{route} answered {status} after {seconds:.1f} s" for seconds, route, status in slowest if seconds > HANG_SECONDS]
    return {"slowest_request_s": round(slowest[0][0], 1) if slowest else 0, "hangs": len(held), "hung_requests": held[:10]}


class CycleLength:
    """What one agent cycle takes now, learnt from the trials: it grows with
    the work waiting and shrinks as the work drains. A finished cycle tells its
    length; a killed one only that it was longer than the delay, so the
    estimate then grows past that delay. Learning from finished cycles alone
    would shrink the window to the quick cycles that had nothing to send, and
    every later kill would land before the first request."""

    def __init__(self, longest):
        self.longest = longest
        self.estimate = longest

    def kill_window(self):
        return min(self.longest, 1.2 * self.estimate)

    def finished(self, seconds):
        self.estimate = 0.5 * self.estimate + 0.5 * seconds

    def outlived(self, delay):
        self.estimate = min(self.longest, max(self.estimate, delay) * 1.15)


def first_sync(device, attempts=30):
    """Pulls reference data before any work is made (faults may refuse a few tries)."""
    for _ in range(attempts):
        if device.jqc("sync", ok=(0, 1, 75)).returncode == 0:
            return
    raise ToolError("the first sync never succeeded")


def agent_with_kill(device, delay):
    """Runs one agent cycle; SIGKILLs it after `delay` seconds if it is still running."""
    agent = device.agent("run", "--once", stderr=subprocess.DEVNULL)
    return wait_or_kill(agent, delay)


def settle(device, log, limit=400, after_cycle=lambda: None, caught_up=lambda: True):
    """Runs the agent without kills until nothing is pending and `caught_up()`
    (the device knows the server's generation, after a restore); returns the
    cycles it took. `after_cycle` runs after each cycle (the inspector
    resolving what came back in conflict)."""
    for cycle in range(1, limit + 1):
        agent = device.agent("run", "--once")
        _, err = agent.communicate(timeout=300)
        if agent.returncode not in (0, 75):
            raise ToolError(f"jqc-agent exited {agent.returncode} while settling: {err.strip()}")
        device.jqc("retry")
        after_cycle()
        status = device.json("status")
        # A report waiting for photos is still PENDING; photos of drafts wait for their report.
        if status["pending"] == 0 and caught_up():
            return cycle
    log(f"still pending after {limit} cycles: {status}")
    return limit


def merge(into, found, where):
    for kind in Findings.KINDS:
        for text in found.items[kind]:
            into.add(kind, text, where)
