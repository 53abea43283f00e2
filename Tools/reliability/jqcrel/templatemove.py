"""Drafts moving onto a new template version while `jqc templates import` is
SIGKILLed at a random moment. A template of the device's own (the server
never hears of it, and its drafts are never completed) gets a new version at
each step: a field removed, a field retyped between text and number, a new
required field, a condition. Right after each kill, every draft of the
template must be wholly on the old version (answers exactly as they were) or
wholly on the new one, all of them on the same version (the move is one
transaction), and no answer lost: each is kept (as it was, or read by the
retyped field) or set aside in the report's history. The inspector then
imports again, unkilled, and the same must hold on the new version."""

import json
import os
import subprocess
import time

from .world import wait_or_kill

TEMPLATE = "rel-move"


def schema(version):
    """Version N of the template: `count` is text on odd versions and a number
    on even ones; `old-N` exists only in version N (removed in N+1); `req-N`
    is a required field new in N; from version 2 on, `why` is required while
    the note says "sink"."""
    fields = [{"id": "note", "type": "text", "label": "Note"},
              {"id": "count", "type": "text" if version % 2 else "number", "label": "Count"},
              {"id": f"old-{version}", "type": "text", "label": f"Asked in version {version} only"},
              {"id": f"req-{version}", "type": "pass_fail", "label": f"New in version {version}", "required": True}]
    if version >= 2:
        fields.append({"id": "why", "type": "textarea", "label": "Why the sink?",
                       "required_when": {"field": "note", "op": "eq", "value": "sink"}})
    return {"templates": [{"id": TEMPLATE, "name": "Moving template", "version": version,
                           "form_schema": {"fields": fields}}]}


def same_answer(before, after):
    """An answer kept, as it was or read by a retyped field ("12" and 12)."""
    if before == after:
        return True
    return isinstance(before, (int, float, str)) and isinstance(after, (int, float, str)) and str(before) == str(after)


class TemplateMover:
    """Makes drafts on the moving template and imports its next version under a kill."""

    def __init__(self, device, rng, scratch, drafts):
        self.device = device
        self.rng = rng
        self.scratch = scratch
        os.makedirs(scratch, exist_ok=True)
        self.drafts = drafts      # the run's list of drafts that must never reach the server
        self.mine = []
        self.version = 0
        self.steps = 0
        # What an import that moves drafts takes here, learnt from those not killed: kills
        # land in its second half, where the template is stored and the drafts move.
        self.estimate = 0.03

    def _import(self, version, delay=None):
        path = os.path.join(self.scratch, f"{TEMPLATE}-v{version}.json")
        with open(path, "w") as f:
            json.dump(schema(version), f)
        args = ["templates", "import", path]
        if delay is None:
            self.device.jqc(*args)
            return False
        began = time.monotonic()
        process = subprocess.Popen(self.device.command("jqc", args), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env=self.device.env)
        killed, _ = wait_or_kill(process, delay)
        if not killed:
            self.estimate = 0.5 * self.estimate + 0.5 * (time.monotonic() - began)
        return killed

    def _new_draft(self):
        rng = self.rng
        local_id = self.device.json("start", "--template", TEMPLATE, "--facility", "F-100")["local_id"]
        answers = {"note": rng.choice(["sink", "café ✓", "quote \"x\"", "=SUM(A1)"]),
                   "count": rng.choice(["12", "3", "a dozen"]) if self.version % 2 else str(rng.randint(0, 20)),
                   f"old-{self.version}": rng.choice(["kept nowhere", "asked once"])}
        if rng.random() < 0.5:
            answers[f"req-{self.version}"] = rng.choice(["pass", "fail"])
        for field in rng.sample(sorted(answers), rng.randint(1, len(answers))):
            self.device.jqc("answer", local_id, field, answers[field], ok=(0, 4))
        self.mine.append(local_id)
        self.drafts.append(local_id)

    def _state(self):
        """Each draft's version, answers and set-aside answers, as show --json has them."""
        return {local_id: self.device.json("show", local_id) for local_id in self.mine}

    def step(self, kill_rng):
        """One new version imported under a kill at a random moment of its second half, checked,
        then imported again unkilled and checked. Returns (killed, moved, problems):
        whether the import was still running when killed, whether the drafts
        were on the new version right after, and each problem found."""
        if self.version == 0:
            self.version = 1
            self._import(1)
        for _ in range(self.rng.randint(2, 4)):
            self._new_draft()
        before = self._state()
        old, new = self.version, self.version + 1
        killed = self._import(new, kill_rng.uniform(0.5, 1.1) * self.estimate)
        after = self._state()
        moved = all(shown["template_version"] == new for shown in after.values())
        problems = self._check(before, old, new, after, after_kill=True)
        self._import(new)
        problems += self._check(before, old, new, self._state(), after_kill=False)
        self.version = new
        self.steps += 1
        return killed, moved, problems

    def _check(self, before, old, new, after, after_kill):
        problems = []
        when = "right after the killed import" if after_kill else "after the import was done again"
        versions = {shown["template_version"] for shown in after.values()}
        if after_kill and len(versions) > 1:
            problems.append(f"{when}: the drafts of '{TEMPLATE}' are on versions {sorted(versions)}; one transaction moves them all")
        if not after_kill and versions != {new}:
            problems.append(f"{when}: the drafts of '{TEMPLATE}' are on versions {sorted(versions)}, not {new}")
        for local_id, was in before.items():
            now = after[local_id]
            if now["state"] != "DRAFT":
                problems.append(f"draft {local_id} {when}: its state is {now['state']}")
            if now["template_version"] == old:
                if now["answers"] != was["answers"]:
                    problems.append(f"draft {local_id} {when}: on version {old} with answers {now['answers']}, not {was['answers']}")
                continue
            if now["template_version"] != new:
                problems.append(f"draft {local_id} {when}: on version {now['template_version']}, neither {old} nor {new}")
                continue
            aside = [(item["field_id"], item["answer"]) for item in now["set_aside"]]
            for field, answer in was["answers"].items():
                if answer is None:
                    continue
                kept = field in now["answers"] and same_answer(answer, now["answers"][field])
                if not kept and (field, answer) not in aside:
                    problems.append(f"draft {local_id} {when}: the answer {answer!r} to field {field} is neither kept "
                                    f"nor set aside (answers {now['answers']}, set aside {aside})")
            move = now.get("template_move") or {}
            if move.get("to_version") != new or move.get("from_version") != old:
                problems.append(f"draft {local_id} {when}: its note says {move}, not a move from {old} to {new}")
        return problems
