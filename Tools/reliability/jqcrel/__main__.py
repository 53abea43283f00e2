"""Command line of the reliability tools; see Tools/reliability/run."""

import argparse
import json
import os
import shutil
import sys
import time

from .concurrent import run_concurrent
from .crashloop import run_crash_loop
from .iofaults import FaultFindings, run_io_faults
from .selfcheck import run_self_check
from .serverfaults import HANG_SECONDS
from .soak import run_soak
from .world import ToolError


def log(message):
    print(f"[reliability {time.strftime('%H:%M:%S')}] {message}", flush=True)


def main():
    parser = argparse.ArgumentParser(prog="Tools/reliability/run")
    parser.add_argument("what", nargs="*", metavar="PART",
                        help="self-check, crash-loop, concurrent, io-faults (the default: these four), server-faults and/or soak (PostgreSQL)")
    parser.add_argument("--bin", required=True, help="folder with jqc, jqc-agent and jqc-server")
    parser.add_argument("--work", required=True, help="scratch folder (emptied first)")
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=120, help="length of the concurrent-use run")
    parser.add_argument("--runs", type=int, default=1000, help="faulted program runs of the I/O-fault run")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    parser.add_argument("--max-kill-delay", type=float, default=3.0)
    parser.add_argument("--report", help="write the figures as JSON to this file")
    parser.add_argument("--soak-seconds", type=float, default=600, help="length of the soak")
    parser.add_argument("--soak-rate", type=float, default=50, help="reports a second the soak's fleet sends")
    parser.add_argument("--postgres", action="store_true",
                        help="crash loop on PostgreSQL: two server instances on one database of a throwaway cluster")
    parser.add_argument("--sqlite", action="store_true",
                        help="server faults on SQLite: one server on a small disk (a tmpfs; needs root), killed, "
                             "its disk filled, a backup restored")
    args = parser.parse_args()
    parts = ("self-check", "crash-loop", "concurrent", "io-faults", "server-faults", "soak")
    # The default run is the first four; server-faults and soak (PostgreSQL) are asked for by name.
    args.what = args.what or list(parts[:4])
    unknown = [part for part in args.what if part not in parts]
    if unknown:
        parser.error(f"unknown part {unknown[0]!r}; choose from {', '.join(parts)}")

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    figures = {"seed": args.seed}
    failed = False
    try:
        if "self-check" in args.what:
            log("self-check: the invariant checks must see each kind of damage")
            problems = run_self_check(args.bin, os.path.join(args.work, "self-check"), args.seed, log=log)
            figures["self_check"] = {"problems": problems}
            for line in problems:
                log("  " + line)
            failed |= bool(problems)
        for part in ("crash-loop", "server-faults"):
            if part not in args.what:
                continue
            faulted = part == "server-faults"
            on_sqlite = faulted and args.sqlite
            log(f"{'server faults' if faulted else 'crash loop'}: {args.trials} trials, seed {args.seed}"
                + (", one SQLite server on a small disk" if on_sqlite
                   else ", two instances on PostgreSQL" if args.postgres or faulted else ""))
            stats, found = run_crash_loop(args.bin, os.path.join(args.work, part), args.trials, args.seed,
                                          max_kill_delay=args.max_kill_delay, log=log, postgres=args.postgres,
                                          server_faults=faulted, sqlite=on_sqlite)
            figures[part.replace("-", "_")] = stats
            log(f"{part}: " + ", ".join(f"{k} {stats[k]}" for k in (
                "trials", "kills", "finished_before_kill", "import_kills", "edit_kills", "amendments", "merges_made", "conflicts_made",
                "template_moves", "template_move_kills", "template_move_kills_after_move", "leftover_photo_files", "retries",
                "synced_in_trials", "settle_cycles",
                "reports_completed", "photos",
                "issues", "reinspections", "server_reports", "server_photos")))
            if "action_comments" in stats:
                log(f"{part}: action comments {stats['action_comments']} (commands killed {stats['action_comment_kills']}), "
                    f"with {stats['action_photos']} photos")
            if faulted:
                log(f"{part}: database faults {stats['database_faults']}; restores {stats['restores']}, after which the "
                    f"device had {stats['reports_to_send_again']} reports and {stats['photos_to_send_again']} photos to send again, "
                    f"and {stats['edits_taken_back_by_restores']} supervisors' edits not yet merged were taken back")
                log(f"{part}: slowest request {stats['slowest_request_s']} s; requests held past {HANG_SECONDS} s (hangs): {stats['hangs']}")
                for line in stats["hung_requests"]:
                    log("  hang: " + line)
                failed |= stats["hangs"] > 0
            log(f"{part}: faults injected {stats['faults']}; duplicates {stats['duplicates']}, losses {stats['losses']}, "
                f"mismatches {stats['mismatches']}, corruption {stats['corruption']}; {stats['seconds']} s")
            for line in found.lines():
                log("  " + line)
            failed |= bool(found)
        if "soak" in args.what:
            log(f"soak: {args.soak_seconds:g} s at {args.soak_rate:g} reports/s, seed {args.seed}")
            stats, found = run_soak(args.bin, os.path.join(args.work, "soak"), args.soak_seconds, args.seed,
                                    rate=args.soak_rate, log=log)
            figures["soak"] = stats
            log("soak: " + ", ".join(f"{k} {v}" for k, v in stats.items()))
            for line in found.lines():
                log("  " + line)
            failed |= bool(found)
        if "concurrent" in args.what:
            log(f"concurrent use: {args.seconds:g} s, seed {args.seed}")
            stats, found = run_concurrent(args.bin, os.path.join(args.work, "concurrent"), args.seconds, args.seed, log=log)
            figures["concurrent"] = stats
            log("concurrent use: " + ", ".join(f"{k} {v}" for k, v in stats.items()))
            for line in found.lines():
                log("  " + line)
            failed |= bool(found)
        if "io-faults" in args.what:
            log(f"I/O faults: {args.runs} faulted runs, seed {args.seed}")
            stats, found = run_io_faults(args.bin, os.path.join(args.work, "io-faults"), args.runs, args.seed, log=log)
            figures["io_faults"] = stats
            log("I/O faults: " + ", ".join(f"{k} {stats[k]}" for k in (
                "runs", "refused", "server_starts", "server_refused_start", "server_b_slow_clients", "reports_completed",
                "server_a_reports", "server_a_photos", "server_b_reports", "server_b_photos", "seconds")))
            log(f"I/O faults: by command {stats['by_command']}")
            log(f"I/O faults: by point {stats['by_point']}; by errno {stats['by_errno']}; exit codes {stats['exit_codes']}")
            log("I/O faults: " + ", ".join(f"{kind} {stats[kind]}" for kind in FaultFindings.KINDS))
            for line in found.lines():
                log("  " + line)
            failed |= bool(found)
    except ToolError as error:
        log(f"could not run: {error}")
        return 2
    if args.report:
        with open(args.report, "w") as f:
            json.dump(figures, f, indent=2, sort_keys=True)
    log("FAILED: see the findings above" if failed else "every check passed: no duplicates, no losses, no corruption")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
