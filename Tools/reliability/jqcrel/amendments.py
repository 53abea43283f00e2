"""Amendments that meet a supervisor's edit: a synced Lobby walkthrough report
is amended on the device (its notes) while, on the server, the glass rating
is corrected (so the two merge) or, one time in four, the notes too (a
conflict, which the inspector resolves by keeping theirs). Under the crash
loop's kills and faults, every amendment must end SYNCED with both changes
(a merge) or with the inspector's (a conflict resolved), on the device and
on the server, with no revision stored twice."""

import json
import sqlite3
import subprocess


class Amendments:
    """The amendments made in one run, and what each must end as."""

    def __init__(self, device, server, bin_dir, rng, words):
        self.device = device
        self.server = server
        self.bin_dir = bin_dir
        self.rng = rng
        self.words = words
        self.expected = {}     # local id -> {field: answer} the final answers must hold
        self.count = {}        # local id -> amendments made
        self.open = set()      # local ids amended and not yet SYNCED again
        self.merges_made = 0
        self.conflicts_made = 0
        self.resolved = 0
        self.taken_back = 0    # supervisors' edits a restore took back before the device merged them

    def server_went_back(self, device_reports, server_reports, server_revisions):
        """The server was restored from a backup older than a supervisor's
        edit the device has not merged yet: that edit is gone with everything
        else the server did after the backup, and is no longer expected. The
        inspector's own change still is (the device sends it again). Returns
        how many edits were so taken back."""
        taken_back = 0
        for local_id in sorted(self.open):
            wanted = self.expected.get(local_id, {})
            if "glass" not in wanted or device_reports.get(local_id, {}).get("answers", {}).get("glass") == wanted["glass"]:
                continue
            held = server_reports.get(local_id)
            latest = server_revisions.get(held[0], []) if held else []
            if not latest or latest[-1][1].get("answers", {}).get("glass") != wanted["glass"]:
                del wanted["glass"]
                taken_back += 1
        self.taken_back += taken_back
        return taken_back

    def revisions_allowed(self, local_id):
        """The revisions a report may have on the server: its first, and per
        amendment the supervisor's edit and the device's one upload."""
        return 1 + 2 * self.count.get(local_id, 0)

    def _synced_lobby_reports(self):
        with sqlite3.connect(f"file:{self.device.store}?mode=ro", uri=True) as db:
            return [(row[0].lower(), row[1], json.loads(row[2])) for row in db.execute(
                "SELECT local_id, server_id, answers FROM reports WHERE state = 'SYNCED' AND template_id = 'lobby-walk'")]

    def amend_one(self, lost=frozenset()):
        """Amends one synced lobby report while the server's copy is edited;
        False when none is synced yet. Reports in `lost` (a restored server no
        longer holds them as the device does) are not picked."""
        candidates = [r for r in self._synced_lobby_reports() if r[0] not in self.open and r[0] not in lost]
        if not candidates:
            return False
        local_id, server_id, answers = self.rng.choice(sorted(candidates))
        notes = f"amended {self.rng.randrange(10**6)} " + self.rng.choice(self.words)
        same_field = self.rng.random() < 0.25
        glass = answers.get("glass")
        server_glass = self.rng.choice([g for g in range(1, 6) if g != glass])
        server_answer = ("notes", json.dumps(f"corrected on the server {self.rng.randrange(10**6)}")) if same_field \
            else ("glass", str(server_glass))
        self.device.jqc("amend", local_id)
        self.device.jqc("answer", local_id, "notes", notes)
        self.device.jqc("complete", local_id)
        edit = subprocess.run([f"{self.bin_dir}/jqc-server", "admin", "--db", self.server.db, "edit-report", server_id,
                               "--answer", f"{server_answer[0]}={server_answer[1]}"], capture_output=True, text=True, timeout=120)
        if edit.returncode != 0:
            raise RuntimeError(f"jqc-server admin edit-report exited {edit.returncode}: {edit.stderr.strip()}")
        self.open.add(local_id)
        self.count[local_id] = self.count.get(local_id, 0) + 1
        if same_field:
            self.conflicts_made += 1
            self.expected[local_id] = {"notes": notes}
        else:
            self.merges_made += 1
            self.expected[local_id] = {"notes": notes, "glass": server_glass}
        return True

    def resolve_conflicts(self):
        """The inspector keeps their answers on every report in CONFLICT (it uploads at the next cycle)."""
        for report in self.device.json("conflicts").get("conflicts", []):
            self.device.jqc("resolve", report["local_id"], "--keep-mine")
            self.resolved += 1

    def check(self, found, device_reports, final=False):
        """Amended reports SYNCED again hold what they must; at the end, all are SYNCED."""
        for local_id in sorted(self.open):
            report = device_reports.get(local_id, {})
            state = report.get("state")
            if state == "SYNCED":
                self.open.discard(local_id)
            elif final:
                found.add("losses", f"amended report {local_id} is {state or 'missing'} after the last sync")
        for local_id, wanted in self.expected.items():
            report = device_reports.get(local_id, {})
            if local_id in self.open or report.get("state") != "SYNCED":
                continue
            for field, answer in wanted.items():
                if report["answers"].get(field) != answer:
                    found.add("losses", f"amended report {local_id}: field {field} is {report['answers'].get(field)!r}, "
                                        f"not {answer!r} (lost in a merge or a resolution)")

    def stats(self):
        return {"amendments": sum(self.count.values()), "merges_made": self.merges_made,
                "conflicts_made": self.conflicts_made, "conflicts_resolved": self.resolved,
                "edits_taken_back_by_restores": self.taken_back}
