#!/usr/bin/env python3
"""A site's monthly summary PDF against Chromium printing the print views.

A release jqc-server --demo on a fresh SQLite database (or, with
`--postgres`, a fresh database of a throwaway cluster), the template of
Tests/Fixtures/templates/appa-five-level.json published with `admin
template publish`. Everything else goes through the API, as devices and a
supervisor make it: the demo inspector signs in and sends `--inspections`
reports (500) of that template at F-100 in batches of 100 (`POST
/reports/sync`), its three areas in turn, ratings of 1 or 2 and the sharps
container passed; one report in five is deficient (floors rated 3 to 5).
`--photos` JPEGs (200; 1600 x 1200, about 300 KB, each different, made
with Pillow as Tools/bench/run makes its pool) are sent as multipart
(`POST /reports/{id}/photos`) on the deficient reports' `floors` field, in
turn, so that the summary shows them. The demo supervisor approves every
report (`POST /reports/{id}/review`): the summary counts approved reports.
The reports are received during the run, so the month is this month, UTC
(the demo's time zone).

A, the summary: `jqc-server document site F-100 --month M -o FILE` under
`/usr/bin/time -v` (wall time, peak RSS), with the server still running on
the database; and the console's `GET /console/sites/F-100/summary?month=M`
by the supervisor signed in through the console's form (console.py's
Browser), whose figure is the server's own time, the `duration_ms` of its
access-log line. `--repeat` times each (5); medians. Each PDF is checked:
pdftotext finds the count of inspections in it, pdfimages the photos (the
summary shows at most 48, SiteSummary.photoLimit).

B, what a manager did before: headless Chromium, driven by Selenium as
Tools/console-check drives it (its Browser class, its options), signs the
supervisor in through the form, then for each of the same reports opens
`/console/reports/{id}/print`, makes its lazy photos load (as a print of
the page would show them) and prints the page to PDF with the DevTools
command `Page.printToPDF` (A4, backgrounds), writing each file. The figure
is the wall time from the first page opened to the last file written
(Chromium's start and the sign-in left out); the server's share of it is
summed from the access log. Every photo must have loaded.

Targets: B / A at least 5, A being the slower of the command's and the
console's medians; the command's peak RSS under 96 MB. The load average is
printed at the start and the end: A and B are measured in the same run, on
the same machine, one after the other.
"""
import argparse
import base64
import hashlib
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from bench import Fatal, photo_pool, server_times, run as bench_run  # noqa: E402
from clients import machine  # noqa: E402
from console import Browser  # noqa: E402
from ingest import Postgres, start_server  # noqa: E402

TEMPLATE = os.path.join(ROOT, "Tests/Fixtures/templates/appa-five-level.json")
SITE, AREAS = "F-100", ("A-101", "A-102", "A-103")
DEFICIENT_EVERY = 5
TARGET_RATIO, TARGET_RSS_MB = 5.0, 96.0
SUMMARY_PHOTOS = 48  # SiteSummary.photoLimit
SUMMARY_ROUTE = "/console/sites/{facility_id}/summary"

# Lazy photos load as a print of the page would show them; the count that loaded.
LOAD_IMAGES = """
const done = arguments[arguments.length - 1];
const images = Array.from(document.images);
for (const image of images) image.loading = 'eager';
Promise.all(images.map(image => image.complete ? null
    : new Promise(resolve => { image.addEventListener('load', resolve); image.addEventListener('error', resolve); })))
  .then(() => done(images.filter(image => image.naturalWidth > 0).length));
"""


def log(msg):
    print(f"[documents {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def load():
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


class Api:
    """One keep-alive connection to /api/v1 as one signed-in person."""

    def __init__(self, port, username, password):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.token = None
        self.token = self.json("POST", "/auth/login", {"username": username, "password": password})["access_token"]

    def send(self, method, path, body, content_type, expect):
        headers = {"Content-Type": content_type, "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        self.conn.request(method, "/api/v1" + path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        if response.status not in expect:
            raise Fatal(f"{method} /api/v1{path}: HTTP {response.status}: {data[:300]!r}")
        return json.loads(data)["data"]

    def json(self, method, path, value):
        return self.send(method, path, json.dumps(value).encode(), "application/json", (200,))

    def photo(self, server_id, field_id, data):
        """Contract 1.0's multipart upload: the parts `local_id`, `field_id`, `sha256` and `file`."""
        boundary = uuid.uuid4().hex
        fields = {"local_id": str(uuid.uuid4()), "field_id": field_id, "sha256": hashlib.sha256(data).hexdigest()}
        body = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
                        for name, value in fields.items())
        body += (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{fields["local_id"]}.jpg"\r\n'
                 "Content-Type: image/jpeg\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        self.send("POST", f"/reports/{server_id}/photos", body, f"multipart/form-data; boundary={boundary}", (201,))


def answers(index, rng):
    """The answers of report `index`: every DEFICIENT_EVERY-th one has its floors rated 3 to 5 (deficient)."""
    deficient = index % DEFICIENT_EVERY == 0
    return {"floors": rng.randint(3, 5) if deficient else rng.randint(1, 2), "restrooms": rng.randint(1, 2),
            "trash": rng.randint(1, 2), "sharps": "pass",
            "crew_notes": f"Round {index + 1}: mop heads changed, cart restocked."}, deficient


def fill(binary, db, port, options, work):
    """The template published, the reports sent, photographed and approved; their server ids and the photos' bytes."""
    published = subprocess.run([binary, "admin", "--db", db, "template", "publish", TEMPLATE],
                               capture_output=True, text=True)
    if published.returncode != 0:
        raise Fatal(f"admin template publish: {published.stderr.strip()}")
    inspector = Api(port, "inspector", "inspector-pass")
    rng = random.Random(7)
    reports, deficient = [], []
    device = str(uuid.uuid4())
    for start in range(0, options.inspections, 100):
        batch = []
        for index in range(start, min(start + 100, options.inspections)):
            given, is_deficient = answers(index, rng)
            batch.append({"local_id": str(uuid.uuid4()), "template_id": "appa-five-level", "facility_id": SITE,
                          "area_id": AREAS[index % len(AREAS)],
                          "completed_at_device": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                          "payload": {"answers": given, "follow_up_required": False}, "issues": []})
            if is_deficient:
                deficient.append(len(reports) + len(batch) - 1)
        results = inspector.json("POST", "/reports/sync", {"device_id": device, "app_version": "0.1.0",
                                                           "schema_version": 1, "reports": batch})["results"]
        refused = [r for r in results if r["status"] != "ACCEPTED"]
        if refused:
            raise Fatal(f"a report was not accepted: {refused[0]}")
        reports += [r["server_id"] for r in results]
    pool = photo_pool(os.path.join(work, "photos"), options.photos)
    sizes = [os.path.getsize(path) for path in pool] or [0]
    log(f"{len(reports)} reports accepted ({len(deficient)} deficient); {len(pool)} photos made, "
        f"{sum(sizes) / len(sizes) / 1024:.0f} KiB on average ({min(sizes) / 1024:.0f}-{max(sizes) / 1024:.0f})")
    for number, path in enumerate(pool):
        with open(path, "rb") as f:
            inspector.photo(reports[deficient[number % len(deficient)]], "floors", f.read())
    supervisor = Api(port, "supervisor", "supervisor-pass")
    for server_id in reports:
        supervisor.json("POST", f"/reports/{server_id}/review", {"decision": "approve", "revision": 1})
    log(f"{len(pool)} photos sent on the deficient reports' floors; {len(reports)} reports approved")
    return reports, sum(sizes)


def timed(command, work, label):
    """`command` under /usr/bin/time -v: (wall seconds, peak RSS in MiB, CPU seconds)."""
    report = os.path.join(work, f"time-{label}.txt")
    began = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-v", "-o", report, *command], capture_output=True, text=True)
    wall = time.monotonic() - began
    if done.returncode != 0:
        raise Fatal(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
    figures = {}
    with open(report) as f:
        for line in f:
            name, _, value = line.strip().rpartition(": ")
            figures[name] = value
    cpu = float(figures["User time (seconds)"]) + float(figures["System time (seconds)"])
    return wall, int(figures["Maximum resident set size (kbytes)"]) / 1024, cpu


def check_summary(path, inspections, photos):
    """Fatal unless the PDF at `path` counts `inspections` and shows min(photos, 48) photos; its pages."""
    text = subprocess.run(["pdftotext", "-layout", path, "-"], capture_output=True, text=True, check=True).stdout
    if not re.search(rf"Inspections\s+{inspections}\b", text):
        raise Fatal(f"{path} does not count {inspections} inspections")
    listed = subprocess.run(["pdfimages", "-list", path], capture_output=True, text=True, check=True).stdout
    images = sum(1 for line in listed.splitlines()[2:] if " jpeg " in line)
    if images != min(photos, SUMMARY_PHOTOS):
        raise Fatal(f"{path} holds {images} JPEGs, not {min(photos, SUMMARY_PHOTOS)}")
    return pdf_pages(path)


def pdf_pages(path):
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


def summaries(binary, db, port, pid, log_path, month, options, work):
    """A: the command's runs and the console's; their figures."""
    path = os.path.join(work, "summary.pdf")
    command = [binary, "document", "site", SITE, "--db", db, "--month", month, "-o", path]
    runs = [timed(command, work, f"summary-{n}") for n in range(options.repeat)]
    pages = check_summary(path, options.inspections, options.photos)
    walls, rss = [r[0] for r in runs], [r[1] for r in runs]
    log(f"A, the command: {', '.join(f'{w:.2f}' for w in walls)} s; peak RSS "
        f"{', '.join(f'{r:.1f}' for r in rss)} MiB; CPU {', '.join(f'{r[2]:.2f}' for r in runs)} s; "
        f"{pages} pages, {os.path.getsize(path) / 1024:.0f} KiB")
    browser = Browser(port)
    browser.sign_in("supervisor", "supervisor-pass")
    walls_console = []

    def fetch():
        began = time.monotonic()
        status, body = browser.send("GET", f"/console/sites/{SITE}/summary?month={month}")
        walls_console.append(time.monotonic() - began)
        if status != 200 or not body.startswith("%PDF"):
            raise Fatal(f"the console's summary answered {status}: {body[:120]!r}")

    server_rss = rss_mb(pid)
    times = server_times(log_path, SUMMARY_ROUTE, options.repeat, fetch)
    log(f"A, the console: server time {', '.join(f'{t:.0f}' for t in times)} ms; at the client "
        f"{', '.join(f'{w:.2f}' for w in walls_console)} s; the server's RSS {server_rss:.0f} MiB before, "
        f"{rss_mb(pid):.0f} MiB after")
    return {"cli": statistics.median(walls), "rss": max(rss), "rss_median": statistics.median(rss),
            "cpu": statistics.median(r[2] for r in runs), "console": statistics.median(times) / 1000,
            "console_wall": statistics.median(walls_console), "pages": pages, "bytes": os.path.getsize(path)}


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


def chromium_prints(port, reports, photos, log_path, work):
    """B: each report's print view printed to PDF by headless Chromium; its figures."""
    sys.path.insert(0, os.path.join(ROOT, "Tools", "console-check"))
    from browser import Browser as Chromium  # Selenium: the venv of Tools/bench/documents
    from checks import CheckFailed
    folder = os.path.join(work, "prints")
    os.makedirs(folder)
    chromium = Chromium(f"http://127.0.0.1:{port}", "supervisor", os.path.join(work, "chromium-profile"))
    try:
        chromium.open("/console/sign-in")
        form = chromium.one("form#sign-in", "the sign-in form")
        chromium.one("input[name=username]", "the user name box", within=form).send_keys("supervisor")
        chromium.one("input[name=password]", "the password box", within=form).send_keys("supervisor-pass")
        chromium.submit_and_wait(chromium.one("button[type=submit]", "the sign-in button", within=form))
        if chromium.cookie("jqc_console") is None:
            raise Fatal(f"Chromium did not sign in: it is at {chromium.path}")
        with open(log_path) as f:
            before = len(f.readlines())
        loaded, sizes, each = 0, [], []
        began = time.monotonic()
        for number, server_id in enumerate(reports):
            start = time.monotonic()
            chromium.driver.get(f"http://127.0.0.1:{port}/console/reports/{server_id}/print")
            loaded += chromium.driver.execute_async_script(LOAD_IMAGES)
            pdf = chromium.driver.execute_cdp_cmd("Page.printToPDF", {
                "printBackground": True, "paperWidth": 8.27, "paperHeight": 11.69, "transferMode": "ReturnAsBase64"})
            data = base64.b64decode(pdf["data"])
            with open(os.path.join(folder, f"{number:04d}-{server_id}.pdf"), "wb") as out:
                out.write(data)
            sizes.append(len(data))
            each.append(time.monotonic() - start)
        wall = time.monotonic() - began
        peak = chromium_peak_mb(chromium.driver.service.process.pid)
    except CheckFailed as failed:
        raise Fatal(f"Chromium: {failed}") from None
    finally:
        chromium.quit()
    if loaded != photos:
        raise Fatal(f"Chromium's print views loaded {loaded} photos, not {photos}")
    server = {}
    with open(log_path) as f:
        for line in f.readlines()[before:]:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("kind") == "access":
                server[entry["route"]] = server.get(entry["route"], 0.0) + float(entry["duration_ms"])
    pages = sum(pdf_pages(os.path.join(folder, name)) for name in os.listdir(folder))
    log(f"B, Chromium: {len(reports)} print views printed in {wall:.1f} s (median {statistics.median(each):.3f} s "
        f"a view, slowest {max(each):.3f} s); {loaded} photos loaded; {pages} pages, {sum(sizes) / 1048576:.1f} MiB; "
        f"server time {sum(server.values()) / 1000:.1f} s ("
        + ", ".join(f"{route} {ms / 1000:.1f} s" for route, ms in sorted(server.items(), key=lambda kv: -kv[1]))
        + f"); the peak RSS of Chromium's processes adds to {peak:.0f} MiB (shared pages counted in each)")
    return {"wall": wall, "each": statistics.median(each), "bytes": sum(sizes), "server": sum(server.values()) / 1000,
            "pages": pages}


def chromium_peak_mb(driver_pid):
    """The sum of the peak RSS (VmHWM) of chromedriver's descendants still running."""
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    parents[int(name)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    family, grown = {driver_pid}, True
    while grown:
        found = {pid for pid, parent in parents.items() if parent in family} - family
        family |= found
        grown = bool(found)
    total = 0
    for pid in family - {driver_pid}:
        try:
            with open(f"/proc/{pid}/status") as f:
                total += next((int(line.split()[1]) for line in f if line.startswith("VmHWM:")), 0)
        except OSError:
            pass
    return total / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--inspections", type=int, default=500)
    parser.add_argument("--photos", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5, help="summaries made each way")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster, not a SQLite file")
    options = parser.parse_args()
    if options.inspections < DEFICIENT_EVERY or options.photos < 0 or options.repeat < 1:
        parser.error(f"--inspections must be at least {DEFICIENT_EVERY}, --photos at least 0, --repeat at least 1")
    shutil.rmtree(options.work, ignore_errors=True)
    os.makedirs(options.work)
    log(machine())
    log(f"at the start: {load()}")
    postgres = Postgres(options.work) if options.postgres else None
    server = None
    try:
        binary = os.path.join(options.bin, "jqc-server")
        log_path = os.path.join(options.work, "access.log")
        server, port = start_server(binary, options.work, "documents", postgres=postgres,
                                    extra=("--log-file", log_path))
        db = (postgres.url.rsplit("/", 1)[0] + f"/bench_{postgres.count}" if postgres
              else os.path.join(options.work, "documents.sqlite"))
        reports, photo_bytes = fill(binary, db, port, options, options.work)
        month = time.strftime("%Y-%m", time.gmtime())
        log(f"A: the summary of {SITE} for {month}, {options.repeat} times each way; {load()}")
        a = summaries(binary, db, port, server.pid, log_path, month, options, options.work)
        log(f"B: Chromium prints {len(reports)} print views; {load()}")
        b = chromium_prints(port, reports, options.photos, log_path, options.work)
        slower = max(a["cli"], a["console"])
        ratio = b["wall"] / slower
        passed_ratio, passed_rss = ratio >= TARGET_RATIO, a["rss"] < TARGET_RSS_MB
        store = "PostgreSQL" if postgres else "SQLite"
        print(f"\n{options.inspections} inspections at {SITE} in {month}, {options.photos} photos "
              f"({photo_bytes / 1048576:.1f} MiB), all approved; {store}; at the end: {load()}")
        print(f"  A, `jqc-server document site`: median {a['cli']:.2f} s of wall time, CPU {a['cpu']:.2f} s; "
              f"{a['pages']} pages, {min(options.photos, SUMMARY_PHOTOS)} photos, {a['bytes'] / 1048576:.1f} MiB")
        print(f"  A, the console's summary: median {a['console'] * 1000:.0f} ms of server time "
              f"({a['console_wall']:.2f} s at the client)")
        print(f"  B, Chromium printing {len(reports)} print views: {b['wall']:.1f} s "
              f"({b['each']:.3f} s a view, median; the server's share {b['server']:.1f} s); "
              f"{b['pages']} pages, {b['bytes'] / 1048576:.1f} MiB")
        print(f"  B / A: {ratio:.1f} (the command {b['wall'] / a['cli']:.1f}, the console {b['wall'] / a['console']:.1f}) "
              f"[{'PASS' if passed_ratio else 'FAIL'}, target at least {TARGET_RATIO:.0f}]")
        print(f"  the command's peak RSS: {a['rss']:.1f} MiB at most, median {a['rss_median']:.1f} MiB "
              f"[{'PASS' if passed_rss else 'FAIL'}, target under {TARGET_RSS_MB:.0f} MB]")
        return 0 if passed_ratio and passed_rss else 1
    finally:
        if server:
            server.terminate()
            server.wait()
        if postgres:
            postgres.stop()


if __name__ == "__main__":
    bench_run(main, "documents")
