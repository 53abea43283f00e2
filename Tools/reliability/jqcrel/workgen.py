"""A seeded generator of inspection work, done through the real jqc: reports
of both demo templates with random answers, photos on the image field and on
issues, issues, drafts left open, and re-inspections of synced reports."""

import os
import subprocess

from .pngfile import write_png
from .world import wait_or_kill

WORDS = ["sink", "mirror", "dispenser", "floor", "drain", "café", "naïve", "Ünïcode ✓", "quote \"x\"",
         "comma, here", "semi;colon", "new\\nline", "=SUM(A1)", "<b>tag</b>", "emoji 🧽"]


def washroom_required(rng):
    """Answers to the required fields of Washroom QC (template 101) but its
    signature (field 18), which is given last: see `washroom_signer`."""
    return {2: rng.randint(1, 5), 3: rng.randint(1, 5), 4: rng.choice(["pass", "pass", "pass", "fail", "n/a"]),
            6: rng.choice(["Good", "Acceptable", "Poor"])}


def washroom_signer(rng):
    """Who signs a Washroom QC report (field 18): after every other answer,
    since a change after signing withdraws the signature."""
    return "Dana " + rng.choice(["Inspector", "Ōkubo"])


class WorkGenerator:
    """Makes reports in one profile; remembers what it made and what it expects."""

    def __init__(self, device, rng, scratch):
        self.device = device
        self.rng = rng
        self.scratch = scratch
        os.makedirs(scratch, exist_ok=True)
        self.completed = []   # local ids (wire form) completed: must reach the server
        self.drafts = []      # local ids left as drafts: must never reach the server
        self.photos = 0
        self.issues = 0
        self.reinspections = 0
        self._png = 0

    def text(self, words=3, pool=WORDS):
        return " ".join(self.rng.choice(pool) for _ in range(self.rng.randint(1, words)))

    def cell(self, words):
        """Text for one table cell: a row is typed as Col=value;Col=value."""
        return self.text(words, [w for w in WORDS if ";" not in w and "=" not in w])

    def png(self):
        self._png += 1
        return write_png(os.path.join(self.scratch, f"photo-{self._png}.png"), self.rng)

    def make_report(self, synced_ids=()):
        """One report; completed unless the dice leave it a draft."""
        rng = self.rng
        if synced_ids and rng.random() < 0.1:
            return self._reinspection(rng.choice(sorted(synced_ids)))
        if rng.random() < 0.7:
            local_id = self._washroom()
        else:
            local_id = self._lobby()
        for _ in range(rng.choice([0, 0, 1, 2])):
            self.issue(local_id)
        if rng.random() < 0.08:
            self.drafts.append(local_id)
            return local_id
        self.device.jqc("complete", local_id, ok=(0,))
        self.completed.append(local_id)
        return local_id

    def report_with_killed_import(self, delay):
        """A completed report whose `jqc photo add` was SIGKILLed after `delay` seconds.
        Returns True when the import was still running when it was killed."""
        local_id = self._start("--template", "101", "--facility", "F-200")
        for field, value in washroom_required(self.rng).items():
            self._answer(local_id, field, value)
        self._answer(local_id, 18, washroom_signer(self.rng))
        files = [self.png() for _ in range(self.rng.randint(2, 4))]
        killed = self._killed(["photo", "add", local_id, "--field", "14", *files], delay)
        self.device.jqc("complete", local_id)
        self.completed.append(local_id)
        self.photos += len(self.device.json("show", local_id)["photos"])
        return killed

    def report_with_killed_edits(self, answer_delay, complete_delay):
        """A completed report whose `jqc answer` and then `jqc complete` were each
        SIGKILLed after the given delays. A killed command either did its work or
        none of it: the answer reads as before or as typed, the report is a draft
        or completed, never anything between. The inspector then does again what
        did not happen. Returns (kills, problems): how many of the two commands
        were still running when killed, and each half-done edit found."""
        local_id = self._start("--template", "101", "--facility", "F-100", "--area", "A-101")
        for field, value in washroom_required(self.rng).items():
            self._answer(local_id, field, value)
        self._answer(local_id, 15, "before")
        typed = self.text(6)
        answer_killed = self._killed(["answer", local_id, "15", typed], answer_delay)
        problems = []
        note = self.device.json("show", local_id)["answers"].get("15")
        if note not in ("before", typed):
            problems.append(f"report {local_id}: after a killed `jqc answer`, field 15 reads {note!r}, "
                            f"neither the old 'before' nor the typed {typed!r}")
        if note != typed:
            self._answer(local_id, 15, typed)
        self._answer(local_id, 18, washroom_signer(self.rng))
        complete_killed = self._killed(["complete", local_id], complete_delay)
        state = self.device.json("show", local_id)["state"]
        if state == "DRAFT":
            self.device.jqc("complete", local_id)
        elif state not in ("PENDING", "SYNCING", "SYNCED"):
            problems.append(f"report {local_id}: after a killed `jqc complete`, its state is {state}")
        self.completed.append(local_id)
        return answer_killed + complete_killed, problems

    def _killed(self, args, delay):
        """Runs `jqc ARGS`, SIGKILLed after `delay` seconds; True when it was still running."""
        process = subprocess.Popen(self.device.command("jqc", args), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env=self.device.env)
        killed, _ = wait_or_kill(process, delay)
        return killed

    def _start(self, *args):
        return self.device.json("start", *args)["local_id"]

    def _answer(self, local_id, field, value, *extra):
        self.device.jqc("answer", local_id, str(field), str(value), *extra)

    def _washroom(self):
        rng = self.rng
        local_id = self._start("--template", "101", "--facility", "F-100", "--area", "A-101")
        answers = washroom_required(rng)
        optional = {5: rng.choice(["yes", "no"]), 7: rng.choice(["Day shift", "Night shift", "Contractor"]),
                    9: ",".join(rng.sample(["Paper towels", "Toilet paper", "Soap", "Sanitiser"], rng.randint(1, 3))),
                    10: rng.randint(-5, 500), 11: f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                    15: self.text(), 16: f"user{rng.randint(1, 99)}@example.org", 17: self.text(8)}
        for field in rng.sample(sorted(optional), rng.randint(0, len(optional))):
            answers[field] = optional[field]
        for field, value in answers.items():
            self._answer(local_id, field, value)
        for _ in range(rng.choice([0, 0, 1, 2])):
            self._answer(local_id, 12, f"Fixture={self.cell(1)};Problem={self.cell(2)};Action=fix", "--add-row")
        self._answer(local_id, 18, washroom_signer(rng))
        count = rng.choice([0, 0, 1, 1, 2, 3])
        if count:
            files = [self.png() for _ in range(count)]
            self.device.jqc("photo", "add", local_id, "--field", "14", *files)
            self.photos += count
        return local_id

    def _lobby(self):
        rng = self.rng
        local_id = self._start("--template", "lobby-walk", "--facility", "F-100", "--area", "A-102")
        self._answer(local_id, "entrance", rng.choice(["pass", "fail"]))
        self._answer(local_id, "glass", rng.randint(1, 5))
        if rng.random() < 0.5:
            self._answer(local_id, "seating", rng.choice(["OK", "Needs attention"]))
        if rng.random() < 0.5:
            self._answer(local_id, "notes", self.text(6))
        return local_id

    def issue(self, local_id):
        args = ["issue", "add", local_id, "--severity", self.rng.choice(["low", "medium", "high", "critical"]),
                "--description", self.text(4)]
        if self.rng.random() < 0.5:
            args += ["--photo", self.png()]
            self.photos += 1
        self.device.jqc(*args)
        self.issues += 1

    def _reinspection(self, parent):
        local_id = self.device.json("reinspect", parent)["local_id"]
        if self.device.json("show", local_id)["template_id"] == "lobby-walk":
            required = {"entrance": "pass", "glass": self.rng.randint(1, 5)}
        else:
            required = washroom_required(self.rng)
            required[18] = washroom_signer(self.rng)
        for field, value in required.items():
            self._answer(local_id, field, value)
        self.device.jqc("complete", local_id)
        self.completed.append(local_id)
        self.reinspections += 1
        return local_id
