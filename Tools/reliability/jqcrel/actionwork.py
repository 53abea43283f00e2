"""Corrective actions in the crash loop: comments queued on the device on
the actions its reports' serious issues became, half of them with a photo,
some of the queuing commands killed mid-way. Every comment the device
acknowledged must reach the server exactly once, with each of its photos
once; a killed one is either queued whole (and then sent whole) or not at
all; nothing stays queued or refused once the device has settled."""

import subprocess

from .invariants import read_only
from .world import wait_or_kill

NOTE = "crash-loop note"


class ActionWork:
    """The comments queued in one run, and what each must end as."""

    def __init__(self, device, server, rng, png):
        self.device = device
        self.server = server
        self.rng = rng
        self.png = png
        self.expected = {}   # comment -> photos the queuing command answered with
        self.killed = {}     # comment -> photos given to a command killed before it answered
        self.kills = 0
        self.photos = 0

    def step(self, kill_delay=None):
        """Queues one comment, with a photo half the time, on an action the
        device holds; with `kill_delay`, the command is SIGKILLed after it.
        False when the device holds no action yet."""
        held = sorted(action["id"] for action in self.device.json("actions")["actions"])
        if not held:
            return False
        text = f"{NOTE} {self.rng.randrange(10**9)}"
        args = ["action", "comment", self.rng.choice(held), text]
        photos = 1 if self.rng.random() < 0.5 else 0
        if photos:
            args += ["--photo", self.png()]
        self.photos += photos
        if kill_delay is None:
            self.expected[text] = len(self.device.json(*args)["queued"]["photos"])
            return True
        process = subprocess.Popen(self.device.command("jqc", args), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env=self.device.env)
        killed, code = wait_or_kill(process, kill_delay)
        if killed:
            self.kills += 1
            self.killed[text] = photos
        elif code == 0:
            self.expected[text] = photos
        return True

    def server_state(self):
        """(comment -> [update ids], update id -> photos) as the server's database holds them."""
        comments = f"SELECT id, comment FROM action_updates WHERE comment LIKE '{NOTE} %'"
        photos = "SELECT update_id, COUNT(*) FROM action_photos WHERE update_id IS NOT NULL GROUP BY update_id"
        if self.server.db.startswith("postgres://"):
            from .postgres import query_json
            rows = query_json(self.server.db, f"SELECT COALESCE(json_agg(json_build_array(id, comment)), '[]') FROM ({comments}) c")
            counted = query_json(self.server.db, f"SELECT COALESCE(json_agg(json_build_array(update_id, count)), '[]') FROM ({photos}) p")
        else:
            with read_only(self.server.db) as db:
                rows = db.execute(comments).fetchall()
                counted = db.execute(photos).fetchall()
        by_text = {}
        for update_id, comment in rows:
            by_text.setdefault(comment, []).append(update_id)
        return by_text, {update_id: count for update_id, count in counted}

    def device_left(self):
        """Changes still queued or refused, and photos not sent, on the device."""
        with read_only(self.device.store) as db:
            queued = db.execute("SELECT COUNT(*) FROM action_outbox WHERE refusal IS NULL").fetchone()[0]
            refused = db.execute("SELECT refusal FROM action_outbox WHERE refusal IS NOT NULL").fetchall()
            photos = db.execute("SELECT state, refusal FROM action_photos WHERE state != 'uploaded'").fetchall()
        return queued, [r[0] for r in refused], photos

    def caught_up(self):
        queued, _, photos = self.device_left()
        return queued == 0 and not [p for p in photos if p[0] == "pending"]

    def check(self, found, final=False):
        """No comment on the server twice; at the end, each acknowledged one once with its photos."""
        by_text, photos = self.server_state()
        for text, ids in sorted(by_text.items()):
            if len(ids) > 1:
                found.add("duplicates", f"action comment {text!r} was recorded {len(ids)} times")
        if not final:
            return
        for text, wanted in sorted(self.expected.items()):
            ids = by_text.get(text, [])
            if len(ids) != 1:
                found.add("losses", f"action comment {text!r} is on the server {len(ids)} times, not once")
            elif photos.get(ids[0], 0) != wanted:
                found.add("losses", f"action comment {text!r} has {photos.get(ids[0], 0)} of its {wanted} photos")
        for text, given in sorted(self.killed.items()):
            ids = by_text.get(text, [])
            if len(ids) == 1 and photos.get(ids[0], 0) != given:
                found.add("losses", f"action comment {text!r}, its command killed, has {photos.get(ids[0], 0)} "
                                    f"of the {given} photos it was given")
        queued, refused, unsent = self.device_left()
        if queued:
            found.add("losses", f"{queued} action changes are still queued on the device after the last sync")
        for reason in refused:
            found.add("losses", f"an action change was refused: {reason}")
        for state, reason in unsent:
            found.add("losses", f"an action photo is {state} on the device" + (f" ({reason})" if reason else ""))

    def stats(self):
        return {"action_comments": len(self.expected) + len(self.killed), "action_comment_kills": self.kills,
                "action_photos": self.photos}
