"""The data the console is checked against, made as people make it: an admin
with `jqc-server admin` on the server's database, inspectors and a supervisor
with the real `jqc` CLI, each on a profile of their own (`--home`)."""

from __future__ import annotations

import json
import struct
import subprocess
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from checks import CheckFailed

# Each string sets a different value, so a script that runs says where it came from.
XSS_LABEL_SCRIPT = "<script>window.__xss=1</script>"
XSS_LABEL_ATTRIBUTE = '"><img src=x onerror="window.__xss=2">'
XSS_ANSWER_SCRIPT = "<script>window.__xss=3</script>"
XSS_ANSWER_ATTRIBUTE = '"><img src=x onerror="window.__xss=4">'
XSS_ISSUE_SCRIPT = "<script>window.__xss=5</script>"
XSS_ISSUE_ATTRIBUTE = '"><img src=x onerror="window.__xss=6">'
XSS_TEMPLATE_NAME = "Console check <script>window.__xss=7</script>"
XSS_FACILITY_NAME = 'Quay "><img src=x onerror="window.__xss=8"> Depot'

TEMPLATE_ID = "console-check"


def template_document() -> dict:
    """A template whose labels and name are the XSS strings, with two
    sections, a scored critical field, a photo field and a field hidden
    unless the critical one fails."""
    return {
        "id": TEMPLATE_ID,
        "name": XSS_TEMPLATE_NAME,
        "version": 1,
        "form_schema": {"fields": [
            {"id": 1, "type": "section", "label": "Entrance"},
            {"id": 2, "type": "pass_fail", "label": XSS_LABEL_SCRIPT, "required": True, "critical": True},
            {"id": 3, "type": "rating", "label": XSS_LABEL_ATTRIBUTE, "required": True, "max": 5},
            {"id": 4, "type": "text", "label": "Attendant on duty"},
            {"id": 5, "type": "textarea", "label": "Notes"},
            {"id": 7, "type": "text", "label": "What failed at the entrance",
             "visible_when": {"field": 2, "op": "eq", "value": "fail"}},
            {"id": 8, "type": "section", "label": "Evidence"},
            {"id": 6, "type": "image", "label": "Evidence photos"},
        ]},
    }


def write_png(path: Path, width: int = 320, height: int = 240) -> None:
    """A real RGB PNG (a colour gradient), written with zlib alone."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(
        b"\x00" + b"".join(bytes((x * 255 // width, y * 255 // height, 160)) for x in range(width))
        for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def run_program(argv: list[str], what: str, stdin: str | None = None, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess:
    result = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=120)
    if result.returncode not in ok:
        said = (result.stderr.strip() or result.stdout.strip()).splitlines()
        raise CheckFailed(f"expected {what} to succeed, saw exit {result.returncode}: {said[0] if said else '(no output)'}")
    return result


class ServerAdmin:
    """`jqc-server admin` on the server's database, as the organisation's admin runs it."""

    def __init__(self, server_bin: str, db: str) -> None:
        self.server_bin = server_bin
        self.db = db

    def run(self, *args: str, stdin: str | None = None) -> dict:
        argv = [self.server_bin, "admin", "--db", self.db, *args, "--json"]
        result = run_program(argv, f"'jqc-server admin {args[0]}'", stdin=stdin)
        return json.loads(result.stdout) if result.stdout.strip() else {}


@dataclass
class Report:
    """A report as its inspector's device knows it."""
    local_id: str
    facility_id: str
    photo_ids: list[str] = field(default_factory=list)
    issue_ids: list[str] = field(default_factory=list)
    server_id: str = ""


class Device:
    """One person's `jqc` profile."""

    def __init__(self, jqc_bin: str, home: Path, person: str) -> None:
        self.jqc_bin = jqc_bin
        self.home = home
        self.person = person
        self.user: dict = {}

    def jqc(self, *args: str, stdin: str | None = None, ok: tuple[int, ...] = (0,)) -> dict:
        argv = [self.jqc_bin, "--home", str(self.home), "--json", *args]
        result = run_program(argv, f"{self.person}'s 'jqc {' '.join(args[:2])}'", stdin=stdin, ok=ok)
        return json.loads(result.stdout)

    def route_to(self, base: str) -> None:
        """Points the profile at another server address (a closed port: the device is offline)."""
        credentials = self.home / "credentials.json"
        saved = json.loads(credentials.read_text())
        saved["server_url"] = base
        credentials.write_text(json.dumps(saved))

    def run_form(self, local_id: str, typed: str) -> str:
        """`jqc run` on a report with `typed` as the person's keystrokes; what it printed."""
        argv = [self.jqc_bin, "--home", str(self.home), "run", local_id]
        return run_program(argv, f"{self.person}'s 'jqc run'", stdin=typed).stdout

    def login(self, base: str, username: str, password: str) -> None:
        answer = self.jqc("login", "--server", base, "--username", username, "--password-stdin", stdin=password + "\n")
        self.user = answer["user"]

    def sync(self) -> dict:
        summary = self.jqc("sync")
        if summary.get("outcome") != "done" or summary.get("rejected") or summary.get("failed"):
            raise CheckFailed(f"expected {self.person}'s jqc sync to send everything, saw {json.dumps(summary)}")
        return summary

    def inspect(self, facility_id: str, answers: list[tuple[str, str]], photos: list[tuple[str, Path]] = (),
                issues: list[tuple[str, str]] = ()) -> Report:
        """Starts a report on the check's template, answers it, attaches
        photos to fields and issues, and completes it (PENDING)."""
        started = self.jqc("start", "--template", TEMPLATE_ID, "--facility", facility_id)
        report = Report(local_id=started["local_id"], facility_id=facility_id)
        for field_id, value in answers:
            self.jqc("answer", report.local_id, field_id, value)
        for field_id, path in photos:
            added = self.jqc("photo", "add", report.local_id, "--field", field_id, str(path))
            report.photo_ids += [photo["local_id"] for photo in added["photos"]]
        for severity, description in issues:
            report.issue_ids.append(self.jqc("issue", "add", report.local_id, "--severity", severity,
                                             "--description", description)["local_id"])
        self.jqc("complete", report.local_id)
        return report

    def learn_server_id(self, report: Report) -> None:
        shown = self.jqc("show", report.local_id)
        if not shown.get("server_id"):
            raise CheckFailed(f"expected report {report.local_id} to have a server id after sync, saw {shown.get('state')}")
        report.server_id = shown["server_id"]


def api_get(base: str, person: tuple, path: str) -> dict:
    """`GET /api/v1{path}` as `person` (user name, password), signed in through the API; its `data`."""
    import urllib.request

    def call(request: urllib.request.Request) -> dict:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())["data"]

    login = urllib.request.Request(
        base + "/api/v1/auth/login", data=json.dumps({"username": person[0], "password": person[1]}).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    token = call(login)["access_token"]
    return call(urllib.request.Request(base + "/api/v1" + path, headers={"Authorization": f"Bearer {token}"}))


def client_template_document() -> dict:
    """A form with a private text and a private photo field beside public ones."""
    return {
        "id": CLIENT_TEMPLATE_ID,
        "name": "Client check walk",
        "version": 1,
        "form_schema": {"fields": [
            {"id": "clean", "type": "pass_fail", "label": "Lobby clean", "required": True},
            {"id": "notes", "type": "text", "label": "Crew notes", "private": True},
            {"id": "inside", "type": "image", "label": "Private photos", "private": True},
            {"id": "shown", "type": "image", "label": "Photos"},
            {"id": "remarks", "type": "text", "label": "Remarks"},
        ]},
    }


CLIENT_TEMPLATE_ID = "client-check"


def api_send(base: str, person: tuple, method: str, path: str, body: dict | None = None) -> dict:
    """`method /api/v1{path}` as `person`, with a JSON body; its `data`."""
    import urllib.request

    login = urllib.request.Request(
        base + "/api/v1/auth/login", data=json.dumps({"username": person[0], "password": person[1]}).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(login, timeout=30) as response:
        token = json.loads(response.read())["data"]["access_token"]
    request = urllib.request.Request(
        base + "/api/v1" + path, data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"}, method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())["data"]
