"""The supervisor's console, used as its people use it, in headless Chromium.

Run by `Tools/console-check/run`, which starts the server; this makes the
data (world.py) and walks the console (browser.py), stopping at the first
check that does not hold with one line saying what was expected and what was
seen. What it proves is issue 22's "Done when": sign-in, the queue's
filters, a report's page with its photo loading, a return with a comment on
one field that the inspector's `jqc sync` then shows, the XSS strings shown
as text with no script run, forms refused without their CSRF token, an
inspector kept from another's report and photo, the security headers,
screenshots of the queue, a report and a site chart for a person to look at,
and a corrective action's whole life: flagged with /issue in the runner,
made once, assigned in the console, finished offline by crew with a photo,
verified from jqc, its thread and photo shown on the action's page.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
import time
import traceback
import urllib.parse
from pathlib import Path

from selenium.webdriver.support.ui import Select

from browser import Browser, Http, set_cookie_attributes
from checks import CheckFailed, Tally, shorten
from world import (
    XSS_ANSWER_ATTRIBUTE, XSS_ANSWER_SCRIPT, XSS_FACILITY_NAME, XSS_ISSUE_ATTRIBUTE, XSS_ISSUE_SCRIPT,
    XSS_LABEL_ATTRIBUTE, XSS_LABEL_SCRIPT, XSS_TEMPLATE_NAME, TEMPLATE_ID, Device, Report, ServerAdmin,
    CLIENT_TEMPLATE_ID, api_get, api_send, client_template_document, template_document, write_png,
)

COOKIE = "jqc_console"
SUPERVISOR = ("supervisor", "supervisor-pass", "Sam Supervisor")
INSPECTOR = ("inspector", "inspector-pass", "Ivy Inspector")
SECOND_INSPECTOR_PASSWORD = "second-inspector-pass"
SECOND_INSPECTOR_NAME = "Nina Second"
FIELD_COMMENT = 'Glass "streaky" & <b>dull</b>: rate it again'
GENERAL_COMMENT = "Redo the entrance <script>window.__xss=9</script>"
STATES = ("awaiting_review", "approved", "returned", "rejected")
ACTION_ISSUE = "Soap dispenser empty <script>window.__xss=10</script>"
CREW_PASSWORD = "crew-check-pass"
CREW_NAME = "Cora Crew"


def policy_problems(policy: str) -> list[str]:
    """What in a Content-Security-Policy lets in more than the console's own
    files: a source other than 'self' or 'none' (images may also be data:),
    inline or eval'd script or style, or no default-src to fall back on."""
    directives: dict[str, list[str]] = {}
    for part in policy.split(";"):
        tokens = part.split()
        if tokens:
            directives[tokens[0].lower()] = [token.lower() for token in tokens[1:]]
    problems = [] if "default-src" in directives else ["no default-src"]
    for name, sources in directives.items():
        if not name.endswith("-src"):
            continue
        for source in sources:
            if source in ("'self'", "'none'") or (name == "img-src" and source == "data:"):
                continue
            problems.append(f"{name} {source}")
    return problems


class ConsoleCheck:
    def __init__(self, args: argparse.Namespace, tally: Tally) -> None:
        self.base = args.base.rstrip("/")
        self.work = Path(args.work)
        self.shots = Path(args.screenshots)
        self.t = tally
        self.admin = ServerAdmin(args.server_bin, args.db)
        self.jqc_bin = args.jqc_bin
        run = secrets.token_hex(3)
        self.run_id = run
        self.facility_id = f"F-CC-{run}"
        self.second_username = f"nina-{run}"
        self.crew_username = f"cora-{run}"
        self.browsers: dict[str, Browser] = {}
        self.written: list[Path] = []

    # The parts of a run

    def run(self) -> None:
        self.make_world()
        self.signed_out()
        self.sign_in_supervisor()
        self.filter_queue()
        self.open_report()
        self.open_photo()
        self.refuse_without_csrf()
        self.check_headers()
        self.return_with_field_comment()
        self.inspector_sees_comment()
        self.stale_revision()
        self.printable_view()
        self.sites_and_team()
        self.corrective_action()
        self.graded_report()
        self.clients()
        self.sign_out()
        self.second_inspector()
        self.coverage()
        self.my_email()

    def close(self) -> None:
        for browser in self.browsers.values():
            try:
                browser.quit()
            except Exception:
                pass

    def keep_evidence(self) -> None:
        """The page each browser showed when a check failed, for a person to look at."""
        for person, browser in self.browsers.items():
            try:
                self.shots.mkdir(parents=True, exist_ok=True)
                page = self.shots / f"failure-{person}.html"
                page.write_text(browser.driver.page_source)
                shot = browser.screenshot(self.shots / f"failure-{person}.png")
                print(f"console-check: {person}'s browser was at {browser.path}: {shot}, {page}", file=sys.stderr)
            except Exception:
                pass

    # Set-up: an admin, two inspectors and a supervisor, through the real programs

    def make_world(self) -> None:
        t = self.t
        t.begin("set-up: a template, a site and a second inspector (jqc-server admin); reports through jqc")
        template = self.work / "console-check-template.json"
        template.write_text(json.dumps(template_document()))
        self.admin.run("publish-template", str(template))
        self.admin.run("add-facility", self.facility_id, "--name", XSS_FACILITY_NAME, "--address", "1 Check Road")
        self.admin.run("add-user", self.second_username, "--role", "inspector", "--display-name",
                       SECOND_INSPECTOR_NAME, stdin=SECOND_INSPECTOR_PASSWORD + "\n")
        photo = self.work / "evidence.png"
        write_png(photo)

        self.ivy = Device(self.jqc_bin, self.work / "ivy", "the inspector")
        self.ivy.login(self.base, INSPECTOR[0], INSPECTOR[1])
        self.ivy.sync()
        # A: the XSS strings in answers and issues, a photo in the photo field.
        self.a = self.ivy.inspect(self.facility_id, [("2", "pass"), ("3", "4"), ("4", XSS_ANSWER_SCRIPT), ("5", XSS_ANSWER_ATTRIBUTE)],
                                  photos=[("6", photo)], issues=[("high", XSS_ISSUE_SCRIPT), ("critical", XSS_ISSUE_ATTRIBUTE)])
        # D: the same site, a critical failure (the site's chart has a low point).
        self.d = self.ivy.inspect(self.facility_id, [("2", "fail"), ("3", "2"), ("7", "Mats missing")])
        # B: another site, so the site filter has something to leave out.
        self.b = self.ivy.inspect("F-100", [("2", "pass"), ("3", "5")])
        sent = self.ivy.sync()
        t.equal(sent["photos_uploaded"], 1, "the inspector's sync to upload the photo")
        for report in (self.a, self.d, self.b):
            self.ivy.learn_server_id(report)

        self.nina = Device(self.jqc_bin, self.work / "nina", "the second inspector")
        self.nina.login(self.base, self.second_username, SECOND_INSPECTOR_PASSWORD)
        self.nina.sync()
        self.c = self.nina.inspect(self.facility_id, [("2", "pass"), ("3", "3")])
        self.nina.sync()
        self.nina.learn_server_id(self.c)

        self.sam = Device(self.jqc_bin, self.work / "sam", "the supervisor")
        self.sam.login(self.base, SUPERVISOR[0], SUPERVISOR[1])
        t.done()

    def server_review(self, report: Report) -> dict:
        """The report's review as the server reports it to the supervisor's jqc (not through the console)."""
        return self.sam.jqc("review", "show", report.server_id)

    def browser(self, person: str) -> Browser:
        if person not in self.browsers:
            profile = self.work / f"chromium-{person}"
            profile.mkdir()
            self.browsers[person] = Browser(self.base, person, profile)
        return self.browsers[person]

    def page_is_safe(self, b: Browser, where: str) -> None:
        """No injected script ran or became markup, the page loaded nothing
        from elsewhere, and the browser refused nothing under the policy."""
        t = self.t
        t.expect(not b.injected(), f"no script from an inspector's or template's text to run or become markup on {where}", b.injected())
        t.expect(not b.foreign_resources(), f"{where} to load only the console's own files", b.foreign_resources())
        violations = b.policy_violations()
        t.expect(not violations, f"no Content-Security-Policy refusal on {where}", violations)

    def page_fits(self, b: Browser, where: str) -> None:
        """The page fits a 1280 px window: nothing cut off at the right, no sideways scrolling."""
        self.t.expect(b.overflow() is None, f"{where} to fit the 1280 px window without scrolling sideways", b.overflow())

    def field(self, b: Browser, field_id: str):
        return b.one(f'div.field[data-field-id="{field_id}"]', f"field {field_id}")

    def sign_in(self, b: Browser, username: str, password: str) -> None:
        b.open("/console/sign-in")
        form = b.one("form#sign-in", "the sign-in form")
        b.one("input[name=csrf]", "the sign-in form's CSRF token", within=form)
        username_box = b.one("input[name=username]", "the user name box", within=form)
        username_box.clear()
        username_box.send_keys(username)
        b.one("input[name=password]", "the password box", within=form).send_keys(password)
        b.submit_and_wait(b.one("button[type=submit]", "the sign-in button", within=form))

    def session(self, b: Browser) -> Http:
        """A plain HTTP client holding the browser's session cookie."""
        cookie = b.cookie(COOKIE)
        if not cookie:
            raise CheckFailed(f"expected {b.person}'s browser to hold the {COOKIE} cookie, saw {[c['name'] for c in b.driver.get_cookies()]}")
        return Http(self.base, {COOKIE: cookie["value"]})

    # Signed out

    def signed_out(self) -> None:
        t = self.t
        t.begin("signed out: /console/ sends to sign-in; a wrong password is refused")
        anonymous = Http(self.base)
        answer = anonymous.request("GET", "/console/")
        t.expect(answer.status in (302, 303) and urllib.parse.urlsplit(answer.header("Location")).path == "/console/sign-in",
                 "GET /console/ signed out to redirect to /console/sign-in", f"{answer.status} Location {answer.header('Location')!r}")
        b = self.browser("supervisor")
        b.open("/console/")
        b.wait_for_route("/console/sign-in")
        self.sign_in(b, SUPERVISOR[0], "not-the-password")
        t.equal(b.route, "/console/sign-in", "the page after a wrong password")
        error = b.one(".error", "an error saying the sign-in failed")
        t.expect(error.is_displayed() and error.text.strip(), "the sign-in error to be shown", error.get_attribute("outerHTML"))
        b.open("/console/queue")
        b.wait_for_route("/console/sign-in")
        t.done()

    def sign_in_supervisor(self) -> None:
        t = self.t
        t.begin("the supervisor signs in; the session cookie is HttpOnly and SameSite=Strict")
        b = self.browser("supervisor")
        self.sign_in(b, SUPERVISOR[0], SUPERVISOR[1])
        b.wait_for_route("/console/queue")
        nav = b.one("nav", "the navigation")
        links = {urllib.parse.urlsplit(a.get_attribute("href")).path for a in b.all("a", within=nav)}
        for path in ("/console/queue", "/console/sites", "/console/team"):
            t.expect(path in links, f"the navigation to link to {path}", sorted(links))
        t.expect(not any(link.startswith("/console/admin") for link in links),
                 "no administration link for a supervisor (not an admin)", sorted(links))
        b.one("form#sign-out input[name=csrf]", "the sign-out form with its CSRF token")
        cookie = b.cookie(COOKIE)
        t.expect(cookie is not None, f"a {COOKIE} cookie after signing in", [c["name"] for c in b.driver.get_cookies()])
        t.expect(cookie.get("httpOnly") is True, f"the {COOKIE} cookie to be HttpOnly", cookie)
        t.equal(cookie.get("sameSite"), "Strict", f"the {COOKIE} cookie's SameSite")

        # The same, as the server sends it.
        client = Http(self.base)
        page = client.request("GET", "/console/sign-in")
        self.expect_page_headers(page, "the sign-in page")
        inputs = client.form("/console/sign-in", "sign-in")
        t.expect(bool(inputs.get("csrf")), "the sign-in form to carry a csrf value", inputs)
        refused = Http(self.base, dict(client.cookies)).request(
            "POST", "/console/sign-in", {"username": SUPERVISOR[0], "password": SUPERVISOR[1]})
        t.equal(refused.status, 403, "the status of a sign-in posted without its csrf field")
        forged = set_cookie_attributes(refused, COOKIE)
        t.expect(forged is None or not forged["value"], "no session cookie for a sign-in without its csrf field",
                 refused.headers.get_all("Set-Cookie"))
        answer = client.request("POST", "/console/sign-in", {**inputs, "username": SUPERVISOR[0], "password": SUPERVISOR[1]})
        t.expect(answer.status == 303 and urllib.parse.urlsplit(answer.header("Location")).path == "/console/queue",
                 "a sign-in to answer 303 to /console/queue", f"{answer.status} Location {answer.header('Location')!r}")
        attributes = set_cookie_attributes(answer, COOKIE)
        t.expect(attributes is not None, f"the sign-in response to set {COOKIE}", answer.headers.get_all("Set-Cookie"))
        t.expect("httponly" in attributes, f"Set-Cookie {COOKIE} to say HttpOnly", attributes)
        t.equal(attributes.get("samesite"), "strict", f"Set-Cookie {COOKIE}'s SameSite")
        t.expect("secure" not in attributes, f"Set-Cookie {COOKIE} without Secure on plain loopback HTTP (the server is not told it is behind TLS)", attributes)
        t.done()

    def expect_page_headers(self, page, where: str) -> None:
        t = self.t
        policy = page.header("Content-Security-Policy")
        t.expect(bool(policy), f"{where} to carry a Content-Security-Policy", dict(page.headers))
        t.expect(not policy_problems(policy), f"{where}'s Content-Security-Policy to allow only the console's own files",
                 f"{policy!r}: {policy_problems(policy)}")
        t.equal(page.header("X-Frame-Options").upper(), "DENY", f"{where}'s X-Frame-Options")

    # The queue

    def queue_rows(self, b: Browser) -> dict:
        """The queue's rows by server id; none when the page has no table (nothing matches)."""
        tables = b.all("table#queue")
        return {row.get_attribute("data-server-id"): row for table in tables for row in b.all("tr.report", within=table)}

    def counts(self, b: Browser) -> dict[str, int]:
        found = {}
        for state in STATES:
            element = b.one(f'#counts [data-state="{state}"] .count', f"the count of {state} reports")
            digits = re.sub(r"[^0-9]", "", element.text)
            if not digits:
                raise CheckFailed(f"expected the count of {state} reports to be a number, saw {element.text!r}")
            found[state] = int(digits)
        return found

    def apply_filters(self, b: Browser, **filters: str) -> None:
        for name, value in filters.items():
            b.select(name, value, value)
        b.submit_and_wait(b.one("form#filters button", "the filters' button"))
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(b.driver.current_url).query, keep_blank_values=True)
        for name, value in filters.items():
            self.t.equal(query.get(name, [""])[0], value, f"the queue's address' {name} after filtering")
            chosen = Select(b.one(f"form#filters select[name={name}]", f"the {name} filter")).first_selected_option
            self.t.equal(chosen.get_attribute("value"), value, f"the {name} filter's choice after the page came back")

    def filter_queue(self) -> None:
        t = self.t
        t.begin("the supervisor filters the queue by state, site and inspector")
        b = self.browser("supervisor")
        b.open("/console/queue")
        everyone = {self.a.server_id, self.c.server_id, self.d.server_id}
        self.apply_filters(b, state="", facility=self.facility_id)
        t.equal(set(self.queue_rows(b)), everyone, "the site's reports in every state (two inspectors')")
        self.counts_before = self.counts(b)
        t.equal(self.counts_before, {"awaiting_review": 3, "approved": 0, "returned": 0, "rejected": 0}, "the site's counts per state")
        t.contains(b.text(), XSS_FACILITY_NAME, "the queue page")
        t.contains(b.text(), XSS_TEMPLATE_NAME, "the queue page")
        self.page_is_safe(b, "the queue")
        self.written.append(b.screenshot(self.shots / "queue.png"))
        self.page_fits(b, "the queue")
        self.apply_filters(b, state="approved")
        t.equal(set(self.queue_rows(b)), set(), "the site's approved reports (none yet)")
        self.apply_filters(b, state="awaiting_review", inspector=self.ivy.user["id"])
        rows = self.queue_rows(b)
        t.equal(set(rows), {self.a.server_id, self.d.server_id}, "the site's reports awaiting review by the first inspector")
        row = rows[self.a.server_id]
        for css, wanted in (("td.inspector", INSPECTOR[2]), ("td.facility", XSS_FACILITY_NAME), ("td.template", XSS_TEMPLATE_NAME)):
            t.contains(b.one(css, css, within=row).text, wanted, f"the queue row's {css}")
        state = b.one("td.state", "the row's state", within=row).text.lower().replace("_", " ")
        t.contains(state, "awaiting", "the queue row's state")
        t.contains(b.one("td.score", "the row's score", within=row).text, "90", "the queue row's score (0.9)")
        self.page_is_safe(b, "the filtered queue")
        t.done()

    # A report's page

    def open_report(self) -> None:
        t = self.t
        t.begin("the supervisor opens the report: answers by section, issues, score, its photo loads")
        b = self.browser("supervisor")
        link = self.one_link(b, self.a)
        b.submit_and_wait(link)
        b.wait_for_route(f"/console/reports/{self.a.server_id}")
        sections = b.all("section.form-section")
        t.expect(len(sections) >= 2, "a section.form-section for each of the template's two sections", len(sections))
        t.contains(self.field(b, "2").text, XSS_LABEL_SCRIPT, "field 2's label")
        t.contains(self.field(b, "3").text, XSS_LABEL_ATTRIBUTE, "field 3's label")
        t.contains(b.one(".label", "field 2's .label", within=self.field(b, "2")).text, XSS_LABEL_SCRIPT, "field 2's .label")
        t.contains(b.one(".answer", "field 4's .answer", within=self.field(b, "4")).text, XSS_ANSWER_SCRIPT, "field 4's answer")
        t.contains(b.one(".answer", "field 5's .answer", within=self.field(b, "5")).text, XSS_ANSWER_ATTRIBUTE, "field 5's answer")
        hidden = self.field(b, "7").get_attribute("class").split()
        t.expect("hidden-field" in hidden, "field 7 (shown only when field 2 fails) to be marked hidden-field", hidden)
        shown = self.field(b, "4").get_attribute("class").split()
        t.expect("hidden-field" not in shown, "field 4 (always shown) not to be marked hidden-field", shown)

        issues = b.all("#issues .issue")
        t.equal(len(issues), 2, "the number of #issues .issue")
        descriptions = " | ".join(b.one(".description", "an issue's description", within=i).text for i in issues)
        severities = " | ".join(b.one(".severity", "an issue's severity", within=i).text.lower() for i in issues)
        t.contains(descriptions, XSS_ISSUE_SCRIPT, "the issues' descriptions")
        t.contains(descriptions, XSS_ISSUE_ATTRIBUTE, "the issues' descriptions")
        t.contains(severities, "high", "the issues' severities")
        t.contains(severities, "critical", "the issues' severities")
        t.contains(b.one("#score", "the score").text, "90", "the score (0.9)")
        t.contains(b.one("#review-state", "the review state").text.lower().replace("_", " "), "awaiting", "the review state")

        thumbs = b.all(f'div.field[data-field-id="6"] a.photo-link > img.photo-thumb')
        t.equal(len(thumbs), 1, "the number of photo thumbnails in the photo field")
        width = b.image_width(thumbs[0])
        t.expect(width > 0, "the photo thumbnail to load (naturalWidth above 0)", f"naturalWidth {width}, src {thumbs[0].get_attribute('src')}")
        href = thumbs[0].find_element("xpath", "..").get_attribute("href")
        self.photo_path = f"/console/reports/{self.a.server_id}/photos/{self.a.photo_ids[0]}"
        t.equal(urllib.parse.urlsplit(href).path, self.photo_path, "the thumbnail's link (the full photo)")

        form = b.one("form#decision", "the decision form")
        t.equal(form.get_attribute("method").lower(), "post", "the decision form's method")
        t.equal(urllib.parse.urlsplit(form.get_attribute("action")).path, f"/console/reports/{self.a.server_id}/review",
                "the decision form's action")
        revision = str(self.server_review(self.a)["revision"])
        t.equal(b.one("input[name=revision]", "the decision's revision", within=form).get_attribute("value"), revision,
                "the decision form's revision (the server's current one)")
        t.expect(bool(b.one("input[name=csrf]", "the decision's CSRF token", within=form).get_attribute("value")),
                 "the decision form to carry a csrf value", form.get_attribute("outerHTML")[:200])
        for element, what in ((b.one('textarea[name="field_comment:3"]', "field 3's comment box", within=self.field(b, "3")), "field 3's comment box"),
                              (b.one("textarea[name=comment]", "the decision's comment box"), "the comment box")):
            t.equal(b.script("return arguments[0].form && arguments[0].form.id", element), "decision", f"the form {what} belongs to")
        for decision in ("approve", "return", "reject"):
            b.one(f"button[name=decision][value={decision}]", f"the {decision} button", within=form)
        self.events_before = len(b.all("#events li"))
        t.expect(self.events_before >= 1, "#events to list at least the report's arrival", self.events_before)
        self.page_is_safe(b, "the report page")
        self.written.append(b.screenshot(self.shots / "report.png"))
        self.page_fits(b, "the report page")
        t.done()

    def one_link(self, b: Browser, report: Report):
        rows = self.queue_rows(b)
        if report.server_id not in rows:
            raise CheckFailed(f"expected report {report.server_id} in the queue at {b.path}, saw {list(rows)}")
        link = b.one("a.open", "the report's link", within=rows[report.server_id])
        self.t.equal(urllib.parse.urlsplit(link.get_attribute("href")).path, f"/console/reports/{report.server_id}",
                     "the queue row's link")
        return link

    def open_photo(self) -> None:
        t = self.t
        t.begin("the full photo opens for the supervisor, and for nobody signed out")
        b = self.browser("supervisor")
        b.open(self.photo_path)
        images = b.all("img")
        t.expect(len(images) == 1 and b.image_width(images[0]) > 0, "the full photo to open as an image in the browser",
                 f"{len(images)} images, page text {b.text()[:100]!r}")
        photo = self.session(b).request("GET", self.photo_path)
        t.equal(photo.status, 200, "the full photo's status")
        t.expect(photo.header("Content-Type").startswith("image/jpeg") and photo.body[:3] == b"\xff\xd8\xff",
                 "the full photo to be a JPEG (the device's compressed copy)", f"{photo.header('Content-Type')} {photo.body[:8]!r}")
        t.expect("public" not in photo.header("Cache-Control").lower(), "the photo not to be cacheable as public",
                 photo.header("Cache-Control"))
        anonymous = Http(self.base).request("GET", self.photo_path)
        t.expect(anonymous.status != 200 and not anonymous.header("Content-Type").startswith("image/"),
                 "the photo refused to a request with no session", f"{anonymous.status} {anonymous.header('Content-Type')}")
        b.back()
        b.wait_for_route(f"/console/reports/{self.a.server_id}")
        t.done()

    # CSRF

    def refuse_without_csrf(self) -> None:
        t = self.t
        t.begin("forms posted without their CSRF token are refused, and change nothing")
        b = self.browser("supervisor")
        client = self.session(b)
        before = self.server_review(self.a)
        review_path = f"/console/reports/{self.a.server_id}/review"
        revision = str(before["revision"])
        for csrf in (None, "0" * 43):
            form = {"revision": revision, "decision": "approve", "comment": "forged"}
            if csrf is not None:
                form["csrf"] = csrf
            answer = client.request("POST", review_path, form)
            what = "without its csrf field" if csrf is None else "with a made-up csrf value"
            t.equal(answer.status, 403, f"the status of the decision form posted {what}")
        answer = client.request("POST", "/console/sign-out", {})
        t.equal(answer.status, 403, "the status of the sign-out form posted without its csrf field")
        t.equal(client.request("GET", "/console/queue").status, 200, "the queue's status with the session a forged sign-out tried to end")
        after = self.server_review(self.a)
        t.equal(after["review"]["state"], before["review"]["state"], "the report's review state after the forged decisions")
        t.equal(len(after["events"]), len(before["events"]), "the number of the report's events after the forged decisions")
        b.open(f"/console/reports/{self.a.server_id}")
        t.contains(b.one("#review-state", "the review state").text.lower().replace("_", " "), "awaiting",
                   "the report page's review state after the forged decisions")
        t.done()

    def check_headers(self) -> None:
        t = self.t
        t.begin("every console page carries the Content-Security-Policy and X-Frame-Options: DENY")
        client = self.session(self.browser("supervisor"))
        for path in ("/console/queue", f"/console/reports/{self.a.server_id}", f"/console/reports/{self.a.server_id}/print",
                     "/console/sites", f"/console/sites/{self.facility_id}", "/console/team"):
            page = client.request("GET", path)
            t.equal(page.status, 200, f"the status of {path}")
            t.expect(page.header("Content-Type").startswith("text/html"), f"{path} to be HTML", page.header("Content-Type"))
            self.expect_page_headers(page, path)
        t.done()

    # The review loop

    def return_with_field_comment(self) -> None:
        t = self.t
        t.begin("the supervisor returns the report with a comment on field 3")
        b = self.browser("supervisor")
        b.open(f"/console/reports/{self.a.server_id}")
        b.one('textarea[name="field_comment:3"]', "field 3's comment box").send_keys(FIELD_COMMENT)
        b.one("textarea[name=comment]", "the decision's comment box").send_keys(GENERAL_COMMENT)
        b.submit_and_wait(b.one("form#decision button[name=decision][value=return]", "the return button"))
        b.wait_for_route(f"/console/reports/{self.a.server_id}")
        notice = b.one("#notice", "a notice that the decision was recorded")
        t.expect(notice.is_displayed() and notice.text.strip(), "the notice to say something", notice.get_attribute("outerHTML"))
        t.contains(b.one("#review-state", "the review state").text.lower(), "returned", "the review state after returning")
        events = b.all("#events li")
        t.expect(len(events) > self.events_before, "a new #events entry for the return", f"{len(events)} entries, before {self.events_before}")
        t.contains(" | ".join(e.text for e in events), SUPERVISOR[2], "the events (who returned it)")
        shown = b.text() + " ".join(area.get_attribute("value") for area in b.all("textarea"))
        t.contains(shown, GENERAL_COMMENT, "the report page after returning (the supervisor's comment)")
        t.contains(shown, FIELD_COMMENT, "the report page after returning (the comment on field 3)")
        self.page_is_safe(b, "the report page after the return")
        review = self.server_review(self.a)["review"]
        t.equal(review["state"], "returned", "the server's review state after the console's return")
        t.done()

    def inspector_sees_comment(self) -> None:
        t = self.t
        t.begin("the inspector's jqc sync brings the return and the comment at field 3")
        summary = self.ivy.sync()
        t.expect(any(item.get("server_id") == self.a.server_id for item in summary.get("returned", [])),
                 "jqc sync --json to list the report as returned", summary.get("returned"))
        returned = self.ivy.jqc("returned")["returned"]
        item = next((r for r in returned if r["local_id"] == self.a.local_id), None)
        t.expect(item is not None, "jqc returned to list the report", returned)
        review = item["review"]
        t.equal(review["state"], "returned", "jqc returned's review state")
        t.equal(review["comment"], GENERAL_COMMENT, "jqc returned's comment")
        t.equal(review["field_comments"], [{"field_id": "3", "comment": FIELD_COMMENT}], "jqc returned's field comments")
        t.equal(review["decided_by"]["display_name"], SUPERVISOR[2], "who jqc returned says returned it")
        shown = self.ivy.jqc("show", self.a.local_id)
        t.equal(shown["review"]["field_comments"], [{"field_id": "3", "comment": FIELD_COMMENT}], "jqc show's field comments")

        b = self.browser("supervisor")
        b.open("/console/queue")
        self.apply_filters(b, state="", facility=self.facility_id)
        t.equal(self.counts(b), {"awaiting_review": 2, "approved": 0, "returned": 1, "rejected": 0},
                "the site's counts per state after the return")
        self.apply_filters(b, state="returned")
        t.equal(set(self.queue_rows(b)), {self.a.server_id}, "the site's returned reports")
        self.apply_filters(b, state="awaiting_review")
        t.equal(set(self.queue_rows(b)), {self.c.server_id, self.d.server_id}, "the site's reports still awaiting review")
        t.done()

    def stale_revision(self) -> None:
        t = self.t
        t.begin("a decision on a stale revision is refused with the changes shown; then approved")
        b = self.browser("supervisor")
        b.open(f"/console/reports/{self.a.server_id}")
        stale_csrf = b.one("form#decision input[name=csrf]", "the decision's CSRF token").get_attribute("value")
        stale_revision = b.one("form#decision input[name=revision]", "the decision's revision").get_attribute("value")
        self.ivy.jqc("amend", self.a.local_id)
        self.ivy.jqc("answer", self.a.local_id, "3", "5")
        self.ivy.jqc("complete", self.a.local_id)
        self.ivy.sync()
        current = str(self.server_review(self.a)["revision"])
        t.expect(current != stale_revision, "the inspector's corrected report to be a new revision", f"revision {current}")
        b.submit_and_wait(b.one("form#decision button[name=decision][value=approve]", "the approve button"))
        stale = b.one("#stale", "the stale-revision notice")
        t.contains(stale.text + b.text(), XSS_LABEL_ATTRIBUTE, "the stale-revision page (the changed field 3)")
        self.page_is_safe(b, "the stale-revision page")
        answer = self.session(b).request("POST", f"/console/reports/{self.a.server_id}/review",
                                         {"revision": stale_revision, "decision": "approve", "comment": "", "csrf": stale_csrf})
        t.equal(answer.status, 409, "the status of a decision on a stale revision")
        state = self.server_review(self.a)["review"]["state"]
        t.expect(state != "approved", "the stale approvals to record nothing (the server's review not approved)", state)

        b.open(f"/console/reports/{self.a.server_id}")
        t.equal(b.one("form#decision input[name=revision]", "the decision's revision").get_attribute("value"), current,
                "the decision form's revision after the inspector's correction")
        t.contains(b.one("#changes", "what changed since the previous revision").text, XSS_LABEL_ATTRIBUTE,
                   "#changes (field 3 was changed)")
        b.submit_and_wait(b.one("form#decision button[name=decision][value=approve]", "the approve button"))
        b.wait_for_route(f"/console/reports/{self.a.server_id}")
        t.contains(b.one("#review-state", "the review state").text.lower(), "approved", "the review state after approving")
        self.ivy.sync()
        t.equal(self.ivy.jqc("show", self.a.local_id)["review"]["state"], "approved", "jqc show's review state after the approval")
        t.done()

    def printable_view(self) -> None:
        t = self.t
        t.begin("the printable view shows the answers and the decision")
        b = self.browser("supervisor")
        b.open(f"/console/reports/{self.a.server_id}/print")
        text = b.text()
        for literal in (XSS_LABEL_SCRIPT, XSS_ANSWER_SCRIPT, XSS_ANSWER_ATTRIBUTE, XSS_ISSUE_SCRIPT):
            t.contains(text, literal, "the printable view")
        t.contains(text.lower(), "approved", "the printable view (the decision)")
        self.page_is_safe(b, "the printable view")
        t.done()

    def sites_and_team(self) -> None:
        t = self.t
        t.begin("the sites list, the site's score chart and the team")
        b = self.browser("supervisor")
        b.open("/console/sites")
        site_path = f"/console/sites/{self.facility_id}"
        links = [a for a in b.all("a.site") if urllib.parse.urlsplit(a.get_attribute("href")).path == site_path]
        t.equal(len(links), 1, f"the number of a.site links to {site_path}")
        t.contains(links[0].text, XSS_FACILITY_NAME, "the site's link")
        self.page_is_safe(b, "the sites page")
        self.page_fits(b, "the sites page")
        b.submit_and_wait(links[0])
        b.wait_for_route(site_path)
        chart = b.one("svg#score-chart", "the site's score chart")
        size = chart.size
        t.expect(chart.is_displayed() and size["width"] > 0 and size["height"] > 0, "the score chart to be drawn on the page", size)
        points = b.all("circle", within=chart)
        t.equal(len(points), 3, "the number of points the site's chart draws (its three inspections)")
        t.contains(b.text(), XSS_FACILITY_NAME, "the site page")
        self.page_is_safe(b, "the site page")
        self.written.append(b.screenshot(self.shots / "site.png"))
        self.page_fits(b, "the site page")
        b.open("/console/team")
        team = b.one("table#team", "the team table").text
        t.contains(team, INSPECTOR[2], "the team table")
        t.contains(team, SECOND_INSPECTOR_NAME, "the team table")
        self.page_is_safe(b, "the team page")
        self.page_fits(b, "the team page")
        t.done()

    def corrective_action(self) -> None:
        t = self.t
        t.begin("an issue flagged with /issue becomes one action; the supervisor assigns it in the console; "
                "crew finish it offline with a photo; the inspector verifies it from jqc")
        self.admin.run("add-user", self.crew_username, "--role", "crew", "--display-name", CREW_NAME,
                       stdin=CREW_PASSWORD + "\n")
        local = self.ivy.jqc("start", "--template", TEMPLATE_ID, "--facility", self.facility_id)["local_id"]
        self.ivy.jqc("answer", local, "2", "pass")
        self.ivy.jqc("answer", local, "3", "4")
        said = self.ivy.run_form(local, f"/issue critical {ACTION_ISSUE}\n/q\n")
        t.contains(said, "flagged", "the runner's answer to /issue")
        self.ivy.jqc("complete", local)
        self.ivy.sync()
        self.ivy.sync()
        self.sam.sync()
        made = [a for a in self.sam.jqc("actions", "--facility", self.facility_id)["actions"] if a["title"] == ACTION_ISSUE]
        t.equal(len(made), 1, "actions the flagged issue became, after a second sync")
        action_id = made[0]["id"]

        b = self.browser("supervisor")
        b.open(f"/console/actions?facility={urllib.parse.quote(self.facility_id)}")
        b.one(f'tr.action[data-action-id="{action_id}"]', "the action's row in the actions list")
        self.page_is_safe(b, "the actions page")
        b.open(f"/console/actions/{action_id}")
        form = b.one("form#assign-form", "the assign form")
        Select(b.one("select[name=assignee]", "the assignee list", within=form)).select_by_value(self.crew_username)
        b.script("arguments[0].value = '2030-01-31'", b.one("input[name=due]", "the due date", within=form))
        b.submit_and_wait(b.one("button[type=submit]", "the assign form's Save button", within=form))
        b.wait_for_route(f"/console/actions/{action_id}")
        t.contains(b.one("#action-facts", "the action's facts").text, CREW_NAME, "the action's assignee after Save")

        photo = self.work / "fixed.png"
        write_png(photo, 200, 150)
        cora = Device(self.jqc_bin, self.work / "cora", "the crew member")
        cora.login(self.base, self.crew_username, CREW_PASSWORD)
        cora.sync()
        t.expect(any(a["id"] == action_id for a in cora.jqc("actions", "--mine")["actions"]),
                 "the action among the crew member's own", action_id)
        cora.route_to("http://127.0.0.1:9")
        done = cora.jqc("action", "done", action_id, "--comment", "Refilled and wiped", "--photo", str(photo))
        t.equal(len(done["queued"]["photos"]), 1, "photos queued with the crew member's 'done', offline")
        cora.route_to(self.base)
        sent = cora.sync()["actions"]
        t.equal((sent["sent"], sent["photos_sent"]), (1, 1), "the change and its photo sent at the next sync")

        self.ivy.sync()
        self.ivy.jqc("action", "verify", action_id, "--comment", "Checked: full")
        self.ivy.sync()
        b.open(f"/console/actions/{action_id}")
        t.contains(b.one("#action-facts", "the action's facts").text.lower(), "verified", "the action's state")
        steps = b.all("#thread li.update")
        t.equal(len(steps), 3, "steps in the thread (assigned, done, verified)")
        image = b.one("#thread li.update img.photo-thumb", "the crew member's photo in the thread")
        t.expect(b.image_width(image) > 0, "the photo to load from the console", image.get_attribute("src"))
        self.page_is_safe(b, "the action's page")
        t.done()

    def graded_report(self) -> None:
        t = self.t
        t.begin("an APPA-style form with a pass mark: the inspector answers its scale by name, jqc says failed and "
                "names the deficient item, the server agrees, the console shows it failed")
        appa = Path(__file__).resolve().parents[2] / "Tests/Fixtures/templates/appa-five-level.json"
        self.admin.run("template", "publish", str(appa))
        self.ivy.sync()
        local = self.ivy.jqc("start", "--template", "appa-five-level", "--facility", self.facility_id)["local_id"]
        said = self.ivy.run_form(local, "casual inattention\nordinary tidiness\norderly spotlessness\npass\n\n/q\n")
        t.contains(said, "Casual inattention 3/5, 50%  deficient", "the runner's answer by a step's name")
        completed = self.ivy.jqc("complete", local)
        t.equal((completed["passed"], completed["deficiencies"]), (False, ["floors"]), "jqc complete's verdict")
        shown = self.ivy.jqc("show", local)
        t.equal((shown["passed"], shown["deficiencies"]), (False, ["floors"]), "jqc show's verdict")
        self.ivy.sync()
        server_id = self.ivy.jqc("show", local)["server_id"]
        report = api_get(self.base, INSPECTOR, f"/reports/{server_id}")["report"]
        t.equal((report["passed"], report["deficiencies"]), (False, ["floors"]), "the server's own verdict")
        b = self.browser("supervisor")
        b.open(f"/console/reports/{server_id}")
        score = b.one("section#score", "the report's score")
        t.expect("failed" in (score.get_attribute("class") or "").split(), "the score marked failed",
                 score.get_attribute("class"))
        t.contains(score.text, "Failed: below the pass mark (pass mark 80%)", "the verdict under the score")
        colour = b.script("return getComputedStyle(arguments[0].querySelector('.percent')).color", score)
        t.equal(colour, "rgb(185, 28, 28)", "the colour of a failed score (red, not green)")
        b.one('div.field.deficient[data-field-id="floors"] .badge.deficient', "the deficient item marked")
        t.expect(not b.has('div.field.deficient[data-field-id="trash"]'), "a sound item not marked", "trash")
        b.open(f"/console/queue?state=&outcome=failed&facility={urllib.parse.quote(self.facility_id)}")
        b.one(f'tr.report[data-server-id="{server_id}"] td.score.failed', "the failed report in the failed queue")
        self.page_is_safe(b, "the failed queue")
        b.open(f"/console/sites/{urllib.parse.quote(self.facility_id)}")
        failing = b.one("section#failing-items", "the site's items that fail most")
        t.contains(failing.text, "Floors", "the site's items that fail most")
        self.page_is_safe(b, "the site page with its items that fail most")
        b.open("/console/rollups?by=site")
        row = b.one(f'#rollup-table tr[data-key="{self.facility_id}"]', "the site's row of the month's roll-up")
        t.contains(row.text, XSS_FACILITY_NAME, "the site's name in the roll-up")
        self.page_is_safe(b, "the roll-ups page")
        b.open(f"/console/rollups?by=item&facility={urllib.parse.quote(self.facility_id)}")
        t.contains(b.one("#rollup-table", "the items' roll-up").text, "Floors", "the items' roll-up")
        csv_link = b.one("a#rollup-csv", "the roll-up's CSV link").get_attribute("href")
        answer = self.session(b).request("GET", urllib.parse.urlsplit(csv_link).path + "?" + urllib.parse.urlsplit(csv_link).query)
        t.equal(answer.status, 200, "the roll-up's CSV")
        t.contains(answer.body.decode(), "Floors", "the roll-up's CSV")
        t.done()

    def clients(self) -> None:
        t = self.t
        t.begin("two clients and a supervisor: each client sees their own building's approved report without its "
                "private field, photo or comment, no internal action, and follows a request for service to done")
        form = self.work / "client-template.json"
        form.write_text(json.dumps(client_template_document()))
        self.admin.run("template", "publish", str(form))
        clara, colin = (f"clara-{self.run_id}", "clara-pass-123"), (f"colin-{self.run_id}", "colin-pass-123")
        self.admin.run("user", "add", clara[0], "--role", "client", "--facility", self.facility_id, stdin=clara[1] + "\n")
        self.admin.run("user", "add", colin[0], "--role", "client", "--facility", "F-100", stdin=colin[1] + "\n")
        inside, shown = self.work / "inside.png", self.work / "shown.png"
        write_png(inside, 160, 120)
        write_png(shown, 200, 150)
        self.ivy.sync()

        def report(facility: str, notes: str, approve: bool) -> str:
            local = self.ivy.jqc("start", "--template", CLIENT_TEMPLATE_ID, "--facility", facility)["local_id"]
            self.ivy.jqc("answer", local, "clean", "pass")
            self.ivy.jqc("answer", local, "notes", notes)
            self.ivy.jqc("answer", local, "remarks", XSS_ANSWER_SCRIPT)
            self.ivy.jqc("photo", "add", local, "--field", "inside", str(inside))
            self.ivy.jqc("photo", "add", local, "--field", "shown", str(shown))
            self.ivy.jqc("complete", local)
            self.ivy.sync()
            server_id = self.ivy.jqc("show", local)["server_id"]
            if approve:
                api_send(self.base, SUPERVISOR, "POST", f"/reports/{server_id}/review", {
                    "decision": "approve", "revision": 1,
                    "field_comments": [{"field_id": "notes", "comment": "PRIVATE-COMMENT"}]})
            return server_id

        mine = report(self.facility_id, "SECRET-NOTE", approve=True)
        waiting = report(self.facility_id, "not reviewed", approve=False)
        theirs = report("F-100", "OTHER-SECRET", approve=True)
        internal = api_send(self.base, SUPERVISOR, "POST", "/actions", {
            "id": str(__import__("uuid").uuid4()), "facility_id": self.facility_id,
            "title": "INTERNAL-ACTION", "internal": True})["action"]["id"]

        b = self.browser("clara")
        self.sign_in(b, clara[0], clara[1])
        b.open("/console/")
        b.wait_for_route("/console/buildings")
        rows = b.all("#buildings tr[data-facility]")
        t.equal([row.get_attribute("data-facility") for row in rows], [self.facility_id], "the buildings clara sees")
        self.page_is_safe(b, "the client's buildings")
        b.open(f"/console/buildings/{urllib.parse.quote(self.facility_id)}")
        listed = [row.get_attribute("data-server-id") for row in b.all("#inspections tr.report")]
        t.expect(mine in listed and waiting not in listed, "the approved report listed, the one under review not", listed)
        b.open(f"/console/reports/{mine}")
        page = b.text()
        for hidden in ("SECRET-NOTE", "PRIVATE-COMMENT", "Crew notes", "Private photos"):
            t.expect(hidden not in page, f"'{hidden}' absent from the client's report page", hidden)
        t.contains(b.one('div.field[data-field-id="remarks"] .answer', "the public remarks").text, XSS_ANSWER_SCRIPT,
                   "an answer shown to the client as text")
        image = b.one('div.field[data-field-id="shown"] img.photo-thumb', "the public photo")
        t.expect(b.image_width(image) > 0, "the public photo to load for the client", image.get_attribute("src"))
        self.page_is_safe(b, "the client's report page")
        for path in (f"/console/reports/{theirs}", f"/console/reports/{waiting}", f"/console/actions/{internal}",
                     "/console/sites", "/console/team"):
            t.equal(self.session(b).request("GET", path).status, 404, f"{path} for clara")
        b.open("/console/actions")
        t.expect("INTERNAL-ACTION" not in b.text(), "the internal action absent from the client's list", "")

        b.open("/console/requests/new")
        request_form = b.one("form#request-form", "the request form")
        b.one("input[name=title]", "the title", within=request_form).send_keys("Spill by the lift " + ACTION_ISSUE)
        spill = self.work / "spill.png"
        write_png(spill, 240, 180)
        b.one("input[type=file][name=file]", "the photo box", within=request_form).send_keys(str(spill))
        forged = self.session(b).request("POST", "/console/requests/new",
                                         form={"facility": self.facility_id, "title": "FORGED-REQUEST"})
        t.equal(forged.status, 403, "a request for service posted without the form's CSRF token")
        b.submit_and_wait(b.one("button[type=submit]", "the Send button", within=request_form))
        action_id = b.path.split("?")[0].rsplit("/", 1)[-1]
        self.page_is_safe(b, "the client's request")
        photo = b.one("img.photo-thumb", "the request's photo")
        t.equal(b.image_width(photo), 240, "the request's photo, as the client sent it")
        thread = b.one("form#move-form", "the client's comment form")
        b.one("textarea[name=comment]", "the comment box", within=thread).send_keys("Still wet " + XSS_ISSUE_SCRIPT)
        b.submit_and_wait(b.one('button[name=state][value=""]', "the Comment only button", within=thread))
        t.contains(b.one("#thread", "the request's thread").text, "Still wet " + XSS_ISSUE_SCRIPT, "the client's comment")
        self.page_is_safe(b, "the client's request with its comment")
        listed = api_send(self.base, SUPERVISOR, "GET", f"/actions/{action_id}")["action"]
        t.equal(listed["source"]["kind"], "client", "the request's source as the supervisors read it")
        sam = self.browser("supervisor")
        sam.open(f"/console/actions?facility={urllib.parse.quote(self.facility_id)}")
        sam.one(f'tr.action[data-action-id="{action_id}"]', "the client's request in the supervisors' list")
        t.expect("FORGED-REQUEST" not in sam.text(), "the forged request absent from the supervisors' list", "")
        sam.open(f"/console/actions/{action_id}")
        t.equal(sam.image_width(sam.one("img.photo-thumb", "the request's photo for the supervisor")), 240,
                "the request's photo, as the supervisor sees it")
        t.contains(sam.one("#thread", "the request's thread").text, "Still wet " + XSS_ISSUE_SCRIPT,
                   "the client's comment for the supervisor")
        self.page_is_safe(sam, "the client's request, as the supervisor sees it")
        api_send(self.base, SUPERVISOR, "POST", f"/actions/{action_id}/updates", {
            "id": str(__import__("uuid").uuid4()), "assignee": self.crew_username})
        api_send(self.base, (self.crew_username, CREW_PASSWORD), "POST", f"/actions/{action_id}/updates", {
            "id": str(__import__("uuid").uuid4()), "state": "done", "comment": "Mopped " + XSS_ANSWER_ATTRIBUTE})
        b.open(f"/console/actions/{action_id}")
        t.contains(b.one("#action-facts", "the request's facts").text.lower(), "done", "the request's state for clara")
        t.contains(b.one("#thread", "the request's thread").text, "Mopped " + XSS_ANSWER_ATTRIBUTE, "the crew's comment")
        self.page_is_safe(b, "the done request, for the client")

        c = self.browser("colin")
        self.sign_in(c, colin[0], colin[1])
        for path in (f"/console/reports/{mine}", f"/console/actions/{action_id}",
                     f"/console/buildings/{urllib.parse.quote(self.facility_id)}"):
            t.equal(self.session(c).request("GET", path).status, 404, f"{path} for colin")
        t.done()

    def sign_out(self) -> None:
        t = self.t
        t.begin("signing out ends the session")
        b = self.browser("supervisor")
        client = self.session(b)
        b.open("/console/queue")
        b.submit_and_wait(b.one("form#sign-out button", "the sign-out button"))
        b.wait_for_route("/console/sign-in")
        answer = client.request("GET", "/console/queue")
        t.expect(answer.status in (302, 303) and urllib.parse.urlsplit(answer.header("Location")).path == "/console/sign-in",
                 "the signed-out session's cookie to be sent to sign in", f"{answer.status} Location {answer.header('Location')!r}")
        t.done()

    # Another inspector

    def coverage(self) -> None:
        t = self.t
        t.begin("an admin adds a schedule on the administration page; its visit done through jqc start shows on time "
                "on the coverage page and in its CSV; the site page shows this month's coverage; the site's name stays text")
        today = time.strftime("%Y-%m-%d", time.gmtime())
        schedule = f"SCH-cc-{self.run_id}"
        self.add_schedule(schedule, today)
        self.ivy.sync()
        report = self.ivy.inspect(self.facility_id, [("2", "pass"), ("3", "4")])
        shown = self.ivy.jqc("show", report.local_id)
        visit = f"{schedule}-v1-{today.replace('-', '')}"
        t.equal(shown.get("assignment_id"), visit, "the assignment jqc start took")
        self.ivy.sync()
        b = self.browser("supervisor")
        self.sign_in(b, SUPERVISOR[0], SUPERVISOR[1])
        b.open(f"/console/coverage?facility={urllib.parse.quote(self.facility_id)}")
        row = b.one(f'#coverage-table tr[data-facility="{self.facility_id}"][data-area=""]', "the site's row of visits")
        cells = [cell.text for cell in b.all("td.num", within=row)]
        t.equal(cells[:5], ["1", "1", "0", "0", "0"], "visits, on time, late, missed and open of the site's row")
        t.contains(row.text, XSS_FACILITY_NAME, "the site's name as text in the coverage table")
        self.page_is_safe(b, "the coverage page")
        csv_link = b.one("a#coverage-csv", "the coverage's CSV link").get_attribute("href")
        parts = urllib.parse.urlsplit(csv_link)
        answer = self.session(b).request("GET", parts.path + "?" + parts.query)
        t.equal(answer.status, 200, "the coverage's CSV")
        lines = [line for line in answer.body.decode().split("\r\n") if line.startswith(self.facility_id + ",")]
        t.expect(any(",,(whole site),1,1,0,0,0," in line for line in lines), "the site's visit on time in the CSV", lines)
        b.open(f"/console/sites/{urllib.parse.quote(self.facility_id)}")
        t.contains(b.one("section#site-coverage", "the site page's coverage").text, "Coverage this month",
                   "the site page's coverage")
        self.page_is_safe(b, "the site page with its coverage")
        t.done()

    def add_schedule(self, schedule: str, today: str) -> None:
        """An admin adds a one-day schedule at the check's site from the
        schedules page, its window nearly the whole day (UTC) so the visit is
        due today whenever the check runs; the page lists it in words."""
        t = self.t
        admin = (f"ada-{self.run_id}", "ada-admin-pass-1")
        self.admin.run("user", "add", admin[0], "--role", "admin", stdin=admin[1] + "\n")
        b = self.browser("admin")
        self.sign_in(b, admin[0], admin[1])
        b.open("/console/admin/schedules")
        form = b.one('form[action="/console/admin/schedule-add"]', "the form to add a schedule")
        Select(b.one("select[name=template_id]", "the form's choice of form", within=form)).select_by_value(TEMPLATE_ID)
        Select(b.one("select[name=facility_id]", "the form's choice of site", within=form)).select_by_value(self.facility_id)
        for name, value in (("inspectors", INSPECTOR[0]), ("rrule", "FREQ=DAILY"), ("window", "00:00-23:59"),
                            ("start", today), ("end", today), ("zone", "UTC"), ("id", schedule)):
            b.script("arguments[0].value = arguments[1]", b.one(f"input[name={name}]", f"the {name} box", within=form), value)
        b.submit_and_wait(b.one("button[type=submit]", "the add button", within=form))
        t.equal(b.path, "/console/admin/schedules?notice=saved", "the page after adding a schedule")
        row = b.one(f'#admin-schedules tr[data-schedule="{schedule}"]', "the new schedule's row")
        t.contains(row.text, f"every day, 00:00-23:59, until {today}", "the schedule in words")
        t.contains(row.text, XSS_FACILITY_NAME, "the site's name as text in the schedule's row")
        self.page_is_safe(b, "the schedules page")
        self.page_fits(b, "the schedules page")

    def my_email(self) -> None:
        t = self.t
        t.begin("the supervisor sets their address and choices on My e-mail and a reload shows them kept; "
                "an address holding markup is refused, shown as text, and nothing changes")
        b = self.browser("supervisor")  # signed in since the coverage check
        b.open("/console/mail")
        form = b.one("form#mail-form", "the My e-mail form")
        box = b.one("input[name=email]", "the address box", within=form)
        box.clear()
        box.send_keys("sam@example.org")
        missed = b.one('input[name="alert_visit-missed"]', "the missed-visit alert's box", within=form)
        t.expect(missed.is_selected(), "a supervisor's missed-visit alert on until changed", missed.get_attribute("outerHTML"))
        missed.click()
        b.one('input[name=digest][value=weekly]', "the weekly digest choice", within=form).click()
        b.submit_and_wait(b.one("button[type=submit]", "the Save button", within=form))
        t.equal(b.path, "/console/mail?notice=saved", "the page after saving My e-mail")

        def kept(where: str) -> None:
            b.open("/console/mail")
            t.equal(b.one("input[name=email]", "the address box").get_attribute("value"), "sam@example.org",
                    f"the address {where}")
            t.expect(not b.one('input[name="alert_visit-missed"]', "the missed-visit box").is_selected(),
                     f"the missed-visit alert off {where}", "ticked")
            t.expect(b.one('input[name="alert_serious-issue"]', "the serious-issue box").is_selected(),
                     f"the serious-issue alert still on {where}", "not ticked")
            t.expect(b.one('input[name=digest][value=weekly]', "the weekly choice").is_selected(),
                     f"the weekly digest chosen {where}", "not chosen")

        kept("after a reload")
        form = b.one("form#mail-form", "the My e-mail form")
        box = b.one("input[name=email]", "the address box", within=form)
        # The browser would refuse this address itself; the server must too, when a form skips that check.
        b.script("arguments[0].type = 'text'; arguments[0].value = arguments[1]", box, XSS_ANSWER_SCRIPT + "@example.org")
        b.submit_and_wait(b.one("button[type=submit]", "the Save button", within=form))
        error = b.one(".error", "the reason the address was refused")
        t.expect(error.text.strip() != "", "a reason shown for the refused address", error.text)
        self.page_is_safe(b, "My e-mail with a refused address")
        kept("after the refused address")
        t.done()

    def second_inspector(self) -> None:
        t = self.t
        t.begin("the second inspector sees only their own report, and not the first one's report or photo")
        b = self.browser("second-inspector")
        self.sign_in(b, self.second_username, SECOND_INSPECTOR_PASSWORD)
        b.wait_for_route("/console/queue")
        t.equal(set(self.queue_rows(b)), {self.c.server_id}, "the second inspector's queue")
        client = self.session(b)
        report_path = f"/console/reports/{self.a.server_id}"
        for path, what in ((report_path, "the first inspector's report page"), (self.photo_path, "the first inspector's photo"),
                           (report_path + "/print", "the first inspector's printable report")):
            answer = client.request("GET", path)
            t.equal(answer.status, 404, f"the status of {what} for the second inspector")
            t.expect(not answer.header("Content-Type").startswith("image/"), f"no image for {what}", answer.header("Content-Type"))
            t.expect(XSS_ANSWER_SCRIPT not in answer.text, f"none of the first inspector's answers in {what}", answer.text[:100])
        b.open(report_path)
        t.expect(not b.has("div.field") and XSS_ANSWER_SCRIPT not in b.text(),
                 "the first inspector's report not shown to the second in the browser", b.text()[:100])
        b.open(self.photo_path)
        widths = [b.image_width(image) for image in b.all("img")]
        t.expect(not any(widths), "no photo shown to the second inspector at the first one's photo address", widths)

        b.open(f"/console/reports/{self.c.server_id}")
        t.expect(b.has("div.field"), "the second inspector's own report to open", b.text()[:100])
        t.expect(not b.has("form#decision") and not b.has('textarea[name^="field_comment:"]'),
                 "no decision form for an inspector", b.one("body", "the page").get_attribute("innerHTML")[:200])
        csrf = b.one("form#sign-out input[name=csrf]", "the sign-out form's CSRF token").get_attribute("value")
        before = self.server_review(self.c)
        answer = client.request("POST", f"/console/reports/{self.c.server_id}/review",
                                {"revision": str(before["revision"]), "decision": "approve", "comment": "", "csrf": csrf})
        t.equal(answer.status, 403, "the status of an inspector's decision on their own report")
        t.equal(self.server_review(self.c)["review"]["state"], before["review"]["state"], "the review state after an inspector's decision")
        self.page_is_safe(b, "the second inspector's report page")
        t.done()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the server's address, http://127.0.0.1:PORT")
    parser.add_argument("--db", required=True, help="the server's database, for jqc-server admin")
    parser.add_argument("--server-bin", required=True)
    parser.add_argument("--jqc-bin", required=True)
    parser.add_argument("--work", required=True, help="a folder for profiles and files, removed by the caller")
    parser.add_argument("--screenshots", required=True, help="where the screenshots go")
    args = parser.parse_args()

    started = time.monotonic()
    tally = Tally()
    check = ConsoleCheck(args, tally)
    failed = 0
    try:
        check.run()
    except CheckFailed as failure:
        failed = 1
        print(f"console-check: FAIL {tally.step}: {failure}", file=sys.stderr)
        check.keep_evidence()
    except Exception as error:
        failed = 1
        print(f"console-check: FAIL {tally.step}: the check itself broke: {type(error).__name__}: {shorten(error, 300)}", file=sys.stderr)
        traceback.print_exc()
        check.keep_evidence()
    finally:
        check.close()
    if not failed:
        for path in check.written:
            print(f"console-check: screenshot {path}")
    print(f"console-check: {time.monotonic() - started:.1f} s", file=sys.stderr)
    print(tally.closing(failed))
    return failed


if __name__ == "__main__":
    sys.exit(main())
