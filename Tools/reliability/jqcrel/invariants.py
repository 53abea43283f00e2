"""What must hold between a device store and the server after every trial.

The device's acknowledged set (reports SYNCED or holding a server id, photos
UPLOADED) must be on the server; everything on the server must be something
the device completed, byte for byte; nothing may be on the server twice; both
databases must pass `PRAGMA integrity_check`."""

import hashlib
import json
import os
import sqlite3


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def read_only(path):
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)


def integrity(connection):
    rows = connection.execute("PRAGMA integrity_check").fetchall()
    return "ok" if rows == [("ok",)] else "; ".join(r[0] for r in rows[:5])


class Findings:
    """Problems found, by kind; a clean run has none."""

    KINDS = ("duplicates", "losses", "mismatches", "corruption")

    def __init__(self):
        self.items = {kind: [] for kind in self.KINDS}
        self.seen = set()

    def add(self, kind, text, where=None):
        """Records a problem once, however many later checks see it again."""
        if (kind, text) in self.seen:
            return
        self.seen.add((kind, text))
        self.items[kind].append(f"{where}: {text}" if where else text)

    def count(self, kind):
        return len(self.items[kind])

    def __bool__(self):
        return any(self.items.values())

    def lines(self, limit=20):
        out = []
        for kind in self.KINDS:
            for text in self.items[kind][:limit]:
                out.append(f"{kind}: {text}")
        return out


class Checker:
    """Checks one device against one server; remembers what was acknowledged before."""

    def __init__(self, device, server, amendments=None):
        self.device = device
        self.server = server
        self.amendments = amendments          # the run's amendments (jqcrel.amendments), if it makes any
        self.ever_acknowledged = set()        # report local ids (lowercase) once SYNCED on the device
        self.ever_uploaded = set()            # photo local ids once UPLOADED on the device
        self.verified_files = {}              # path -> sha256 already checked
        # After the server went back to an older backup: what it lost, which
        # the device must send again once it has seen the new generation.
        self.rewound = set()                  # report local ids
        self.rewound_photos = set()           # photo local ids
        self.rewound_generation = None

    def _hash(self, path):
        stat = os.stat(path)
        key = (path, stat.st_size, stat.st_mtime_ns)
        if key not in self.verified_files:
            self.verified_files[key] = sha256_file(path)
        return self.verified_files[key]

    def device_state(self):
        with read_only(self.device.store) as db:
            check = integrity(db)
            reports = {r[0].lower(): {"server_id": r[1], "state": r[2], "answers": json.loads(r[3]),
                                      "error": r[4]}
                       for r in db.execute(
                           "SELECT local_id, server_id, state, answers, last_error_message FROM reports")}
            photos = {r[0].lower(): {"report": r[1].lower(), "state": r[2], "sha256": r[3], "file": r[4], "field": r[5]}
                      for r in db.execute("SELECT local_id, report_local_id, upload_state, sha256, file_name, field_id FROM photos")}
            issues = {}
            for r in db.execute("SELECT local_id, report_local_id, severity, description FROM issues"):
                issues.setdefault(r[1].lower(), {})[r[0].lower()] = (r[2], r[3])
            self.device_generation = (db.execute("SELECT value FROM meta WHERE key = 'server_generation'").fetchone() or [None])[0]
        return check, reports, photos, issues

    def server_went_back(self):
        """The server was restored from an older backup: what it no longer
        holds as the device last saw it (a report, a revision, a photo) stops
        counting as acknowledged, until the device has seen the new generation
        and, for each, sent it again and been told so once more."""
        _, d_reports, d_photos, d_issues = self.device_state()
        _, s_reports, s_revisions, s_photos, _ = self.server_state()
        # What the device was told before the trial was checked counts too.
        acknowledged = self.ever_acknowledged | {i for i, r in d_reports.items() if r["state"] == "SYNCED"}
        uploaded = self.ever_uploaded | {p for p, v in d_photos.items() if v["state"] == "UPLOADED"}
        for local_id in sorted(acknowledged):
            held = s_reports.get(local_id)
            latest = s_revisions.get(held[0], []) if held else []
            device = d_reports.get(local_id, {})
            photos_lost = any(v["report"] == local_id and p in uploaded and p not in s_photos for p, v in d_photos.items())
            if not latest or photos_lost or latest[-1][1].get("answers") != device.get("answers") \
                    or {i["local_id"].lower(): (i["severity"], i["description"]) for i in latest[-1][2]} != d_issues.get(local_id, {}):
                self.ever_acknowledged.discard(local_id)
                self.rewound.add(local_id)
        for photo_id in sorted(uploaded):
            if photo_id not in s_photos:
                self.ever_uploaded.discard(photo_id)
                self.rewound_photos.add(photo_id)
        self.rewound_generation = self.server_generation()
        if self.amendments:
            self.amendments.server_went_back(d_reports, s_reports, s_revisions)
        return len(self.rewound), len(self.rewound_photos)

    def knows_generation(self):
        """Whether the device has stored the generation the server holds now (always, before any restore)."""
        if self.rewound_generation is None:
            return True
        with read_only(self.device.store) as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'server_generation'").fetchone()
        return (row[0] if row else None) == self.server_generation()

    def server_generation(self):
        """The data generation the server's database holds."""
        if self.server.db.startswith("postgres://"):
            from .postgres import query_json
            return query_json(self.server.db, "SELECT to_json(value) FROM settings WHERE key = 'server_generation'")
        with read_only(self.server.db) as db:
            row = db.execute("SELECT value FROM settings WHERE key = 'server_generation'").fetchone()
        return row[0] if row else None

    def server_state(self):
        if self.server.db.startswith("postgres://"):
            from .postgres import server_state
            return server_state(self.server.db)
        with read_only(self.server.db) as db:
            check = integrity(db)
            reports = {}
            for local_id, server_id in db.execute("SELECT local_id, server_id FROM reports"):
                reports.setdefault(local_id.lower(), []).append(server_id)
            revisions = {}
            for server_id, revision, payload, issues in db.execute(
                    "SELECT server_id, revision, payload, issues FROM report_revisions ORDER BY server_id, revision"):
                revisions.setdefault(server_id, []).append((revision, json.loads(payload), json.loads(issues)))
            photos = {}
            for local_id, server_id, sha in db.execute("SELECT local_id, server_id, sha256 FROM photos"):
                photos.setdefault(local_id.lower(), []).append((server_id, sha))
        hashed = {}
        for _, rows in photos.items():
            path = os.path.join(self.server.photo_dir, rows[0][1][:2], rows[0][1])
            hashed[rows[0][1]] = self._hash(path) if os.path.exists(path) else None
        return check, reports, revisions, photos, hashed

    def check(self, generated_completed, generated_drafts, final=False):
        """Every invariant; with `final`, the server must hold exactly what the device completed."""
        found = Findings()
        amending = set(self.amendments.open) if self.amendments else set()
        d_check, d_reports, d_photos, d_issues = self.device_state()
        s_check, s_reports, s_revisions, s_photos, s_bytes = self.server_state()
        if d_check != "ok":
            found.add("corruption", f"device store: {d_check}")
        if s_check != "ok":
            found.add("corruption", f"server database: {s_check}")
        if self.device_generation == self.rewound_generation:
            # The device has checked the restored server: what it sent again and was told so counts again.
            self.rewound = {i for i in self.rewound if d_reports.get(i, {}).get("state") != "SYNCED"}
            self.rewound_photos = {p for p in self.rewound_photos if d_photos.get(p, {}).get("state") != "UPLOADED"}

        # Nothing generated disappears from the device; drafts stay drafts.
        for local_id in generated_completed:
            state = d_reports.get(local_id, {}).get("state")
            if state not in ("PENDING", "SYNCED") and not (local_id in amending and state == "CONFLICT"):
                error = d_reports.get(local_id, {}).get("error")
                found.add("losses", f"completed report {local_id} is {state or 'missing'} on the device"
                          + (f" ({error})" if error else ""))
        for local_id in generated_drafts:
            if d_reports.get(local_id, {}).get("state") != "DRAFT":
                found.add("losses", f"draft {local_id} is no longer a draft on the device")

        # The server never holds anything twice.
        by_server_id = {}
        for local_id, server_ids in s_reports.items():
            if len(server_ids) > 1:
                found.add("duplicates", f"report {local_id} has {len(server_ids)} server records")
            for server_id in server_ids:
                by_server_id[server_id] = local_id
        for server_id, revisions in s_revisions.items():
            local_id = by_server_id.get(server_id, server_id)
            allowed = self.amendments.revisions_allowed(local_id) if self.amendments else 1
            if len(revisions) > allowed:
                found.add("duplicates", f"report {local_id} has {len(revisions)} revisions, at most {allowed} made")
        for photo_id, rows in s_photos.items():
            if len(rows) > 1:
                found.add("duplicates", f"photo {photo_id} stored {len(rows)} times")

        # Everything on the server is what the device completed, unchanged.
        for local_id, server_ids in s_reports.items():
            device = d_reports.get(local_id)
            if device is None or device["state"] == "DRAFT":
                found.add("mismatches", f"server has report {local_id} the device never completed")
                continue
            if local_id in self.rewound:
                continue    # the server holds it as it was before; the device sends it again
            if device["server_id"] and device["server_id"] != server_ids[0]:
                found.add("mismatches", f"report {local_id}: device server id {device['server_id']} != {server_ids[0]}")
            latest = s_revisions.get(server_ids[0], [])
            if not latest:
                found.add("losses", f"report {local_id} has a server record without a revision")
                continue
            _, payload, issues = latest[-1]
            # An amendment on its way up is compared once SYNCED again.
            if local_id in amending and device["state"] != "SYNCED":
                continue
            if payload.get("answers") != device["answers"]:
                found.add("mismatches", f"report {local_id}: server answers differ from the device's")
            server_issues = {i["local_id"].lower(): (i["severity"], i["description"]) for i in issues}
            if server_issues != d_issues.get(local_id, {}):
                found.add("mismatches", f"report {local_id}: server issues differ from the device's")
        for photo_id, rows in s_photos.items():
            server_id, sha = rows[0]
            device = d_photos.get(photo_id)
            if device is None or by_server_id.get(server_id) != device["report"]:
                found.add("mismatches", f"server has photo {photo_id} the device does not have on that report")
                continue
            if sha != device["sha256"]:
                found.add("mismatches", f"photo {photo_id}: server hash {sha} != device hash {device['sha256']}")
            if s_bytes.get(sha) is None:
                found.add("losses", f"photo {photo_id}: the server has its record but not its bytes")
            elif s_bytes[sha] != sha:
                found.add("corruption", f"photo {photo_id}: the server's bytes do not hash to {sha}")

        # Everything the device was told is safe is on the server.
        for local_id, report in d_reports.items():
            if report["state"] == "SYNCED" and local_id not in self.rewound:
                self.ever_acknowledged.add(local_id)
        for photo_id, photo in d_photos.items():
            device_path = os.path.join(self.device.photo_dir, photo["file"])
            if not os.path.exists(device_path):
                found.add("losses", f"photo {photo_id}: its file is gone from the device")
            elif self._hash(device_path) != photo["sha256"]:
                found.add("corruption", f"photo {photo_id}: the device's file does not hash to its recorded SHA-256")
            if photo["state"] == "UPLOADED" and photo_id not in self.rewound_photos:
                self.ever_uploaded.add(photo_id)
        # An image field lists exactly the photos recorded on it.
        for local_id, report in d_reports.items():
            for field, value in report["answers"].items():
                recorded = {p for p, v in d_photos.items() if v["report"] == local_id and v["field"] == field}
                if recorded and set(value if isinstance(value, list) else []) != recorded:
                    found.add("mismatches", f"report {local_id} field {field} lists other photos than those recorded on it")
            for photo_id, photo in d_photos.items():
                if photo["report"] == local_id and photo["field"] and photo_id not in report["answers"].get(photo["field"], []):
                    found.add("mismatches", f"photo {photo_id} is recorded on field {photo['field']} of {local_id} but not listed there")
        recorded_files = {p["file"] for p in d_photos.values()}
        leftovers = [n for n in os.listdir(self.device.photo_dir) if n not in recorded_files] \
            if os.path.isdir(self.device.photo_dir) else []

        for local_id in self.ever_acknowledged:
            if local_id in amending:
                continue
            if d_reports.get(local_id, {}).get("state") != "SYNCED":
                found.add("losses", f"report {local_id} was SYNCED and is now {d_reports.get(local_id, {}).get('state')}")
            if local_id not in s_reports:
                found.add("losses", f"report {local_id} is SYNCED on the device but not on the server")
            for photo_id, photo in d_photos.items():
                if photo["report"] == local_id and photo["state"] != "UPLOADED":
                    found.add("mismatches", f"report {local_id} is SYNCED with photo {photo_id} {photo['state']}")
        for photo_id in self.ever_uploaded:
            if photo_id not in s_photos:
                found.add("losses", f"photo {photo_id} is UPLOADED on the device but not on the server")

        if final:
            completed = {i for i, r in d_reports.items() if r["state"] != "DRAFT"}
            if set(s_reports) != completed:
                missing = sorted(completed - set(s_reports))[:5]
                found.add("losses", f"server holds {len(s_reports)} reports, the device completed {len(completed)}"
                                    + (f"; missing: {', '.join(missing)}" if missing else ""))
            if set(s_photos) != {p for p, v in d_photos.items() if v["report"] in completed}:
                found.add("losses", f"server holds {len(s_photos)} photos of {len(d_photos)} on the device")
            for local_id in completed:
                if d_reports[local_id]["state"] != "SYNCED":
                    found.add("losses", f"report {local_id} is {d_reports[local_id]['state']} after the last sync")
            # Every agent cycle that ends starts retention by removing the photo files killed imports left.
            if leftovers:
                found.add("mismatches", f"{len(leftovers)} files no photo record names are still in the device's "
                                        f"photo folder after the last sync: {', '.join(sorted(leftovers)[:5])}")
        if self.amendments:
            self.amendments.check(found, d_reports, final=final)
        summary = {"device_reports": len(d_reports), "server_reports": len(s_reports),
                   "device_photos": len(d_photos), "server_photos": len(s_photos),
                   "synced": sum(1 for r in d_reports.values() if r["state"] == "SYNCED"),
                   "pending": sum(1 for r in d_reports.values() if r["state"] == "PENDING"),
                   "photos_pending": sum(1 for p in d_photos.values() if p["state"] != "UPLOADED"),
                   "leftover_files": len(leftovers), "waiting_to_send_again": len(self.rewound)}
        return found, summary
