"""Concurrent use: `jqc answer` in a loop on drafts while a long-running
`jqc-agent run --interval` syncs the same store, a second agent is started
now and then (it must exit 73 at once), and `jqc sync` runs in the
foreground from time to time. Afterwards every answer written is the one
stored, every completed report reached the server with exactly those answers,
and no process ever surfaced "database is locked"."""

import json
import os
import random
import signal
import subprocess
import threading
import time

from .invariants import Checker, Findings
from .workgen import WorkGenerator
from .world import Device, Server, ToolError

LOCKED = ("database is locked", "SQLITE_BUSY", "database is busy")


def run_concurrent(bin_dir, work, seconds, seed, log=print):
    rng = random.Random(seed)
    server = Server(bin_dir, work, name="concurrent-server", seed=seed).start()
    started = time.monotonic()
    stats = {"seconds": seconds, "answers": 0, "completed": 0, "issues": 0, "foreground_syncs": 0,
             "second_agents": 0, "second_agent_exit_codes": {}, "locked_messages": 0}
    findings = Findings()
    try:
        device = Device(bin_dir, os.path.join(work, "concurrent-device"))
        device.login(server.url)
        device.jqc("sync")
        generator = WorkGenerator(device, rng, os.path.join(work, "concurrent-photos-in"))
        agent_log = open(os.path.join(work, "concurrent-agent.log"), "w")
        agent = device.agent("run", "--interval", "1", stdout=agent_log, stderr=subprocess.STDOUT)
        stop = threading.Event()
        side = threading.Thread(target=side_traffic, args=(device, stop, stats, findings, random.Random(seed + 1)))
        side.start()
        expected = {}   # draft local id -> {field: stored JSON value}
        draft = new_draft(device, expected)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if rng.random() < 0.05:
                generator.issue(draft)
                stats["issues"] += 1
                continue
            field, value = rng.choice(ANSWERS)(rng)
            done = device.jqc("answer", draft, field, str(value), "--json", ok=(0, 1, 4, 5, 75))
            note_locked(done.stderr + done.stdout, stats, findings, "jqc answer")
            if done.returncode != 0:
                findings.add("losses", f"jqc answer {field} {value!r} exited {done.returncode}: {done.stderr.strip()}")
                continue
            expected[draft][field] = json.loads(done.stdout)["answer"]
            stats["answers"] += 1
            if len(expected[draft]) >= 5 and rng.random() < 0.15:
                for required, value in (("entrance", "pass"), ("glass", 3)):
                    if required not in expected[draft]:
                        out = device.jqc("answer", draft, required, str(value), "--json")
                        expected[draft][required] = json.loads(out.stdout)["answer"]
                device.jqc("complete", draft)
                generator.completed.append(draft)
                stats["completed"] += 1
                draft = new_draft(device, expected)
        stop.set()
        side.join()
        agent.send_signal(signal.SIGTERM)
        agent.wait(timeout=60)
        agent_log.close()
        with open(os.path.join(work, "concurrent-agent.log"), errors="replace") as f:
            note_locked(f.read(), stats, findings, "jqc-agent")
        if agent.returncode != 0:
            findings.add("losses", f"the interval agent stopped with exit {agent.returncode} on SIGTERM")
        for _ in range(20):
            device.jqc("sync", ok=(0, 1, 75))
            if device.json("status")["pending"] == 0:
                break
        # Every answer is the last one written, on the device and, once completed, on the server.
        for local_id, answers in expected.items():
            stored = device.json("show", local_id)["answers"]
            for field, value in answers.items():
                if stored.get(field) != value:
                    findings.add("losses", f"report {local_id} field {field}: stored {stored.get(field)!r}, written {value!r}")
        generator.drafts = [d for d in expected if d not in generator.completed]
        checker = Checker(device, server)
        found, summary = checker.check(generator.completed, generator.drafts, final=True)
        for kind in Findings.KINDS:
            for text in found.items[kind]:
                findings.add(kind, text, "after the run")
        stats.update({"server_reports": summary["server_reports"], "run_seconds": round(time.monotonic() - started, 1),
                      "duplicates": findings.count("duplicates"), "losses": findings.count("losses"),
                      "mismatches": findings.count("mismatches"), "corruption": findings.count("corruption")})
        return stats, findings
    finally:
        server.stop()


def new_draft(device, expected):
    local_id = device.json("start", "--template", "lobby-walk", "--facility", "F-100", "--area", "A-102")["local_id"]
    expected[local_id] = {}
    return local_id


ANSWERS = [
    lambda rng: ("entrance", rng.choice(["pass", "fail", "n/a"])),
    lambda rng: ("glass", rng.randint(1, 5)),
    lambda rng: ("seating", rng.choice(["OK", "Needs attention"])),
    lambda rng: ("hazards", rng.choice(["yes", "no"])),
    lambda rng: ("notes", f"note {rng.randint(0, 10**9)} ✓"),
]


def side_traffic(device, stop, stats, findings, rng):
    """A second agent now and then (must exit 73) and foreground `jqc sync`."""
    while not stop.is_set():
        time.sleep(rng.uniform(0.2, 1.0))
        if rng.random() < 0.5:
            second = device.agent("run", "--once", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out, err = second.communicate(timeout=60)
            stats["second_agents"] += 1
            code = second.returncode
            stats["second_agent_exit_codes"][code] = stats["second_agent_exit_codes"].get(code, 0) + 1
            note_locked(out + err, stats, findings, "second jqc-agent")
            if code != 73:
                findings.add("mismatches", f"a second agent exited {code}, not 73, while one was running")
        else:
            done = device.jqc("sync", ok=(0, 1, 73, 75))
            stats["foreground_syncs"] += 1
            note_locked(done.stderr + done.stdout, stats, findings, "jqc sync")
            if done.returncode != 0:
                findings.add("mismatches", f"jqc sync beside the agent exited {done.returncode}: {done.stderr.strip()}")


def note_locked(text, stats, findings, who):
    for marker in LOCKED:
        if marker in text:
            stats["locked_messages"] += 1
            findings.add("losses", f"{who} surfaced '{marker}'")
