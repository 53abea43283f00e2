"""Headless Chromium through Debian's chromedriver, and a plain HTTP client
for what a browser hides (status codes, headers, a form posted without its
token). Both talk to the loopback server only."""

from __future__ import annotations

import html.parser
import http.client
import os
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from checks import CheckFailed, shorten

WAIT_SECONDS = 15

# Selenium Manager must never look for a driver or a browser on the network.
os.environ["SE_OFFLINE"] = "1"


class Browser:
    """One person's browser: its own profile, so its own cookies."""

    def __init__(self, base: str, person: str, profile_dir: Path) -> None:
        self.base = base
        self.person = person
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in (
            "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000",
            f"--user-data-dir={profile_dir}", "--no-first-run", "--no-default-browser-check",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-extensions", "--disable-default-apps", "--disable-dev-shm-usage",
            # Any host but the loopback server fails to resolve: the console must need nothing else.
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        ):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.set_page_load_timeout(60)

    def quit(self) -> None:
        self.driver.quit()

    # Navigation

    def open(self, path: str) -> None:
        self.forget_log()
        self.driver.get(self.base + path)

    def back(self) -> None:
        self.forget_log()
        self.driver.back()

    def forget_log(self) -> None:
        """Drops what the browser logged so far: what is read after belongs to the next page."""
        self.driver.get_log("browser")

    @property
    def path(self) -> str:
        parts = urllib.parse.urlsplit(self.driver.current_url)
        return parts.path + (f"?{parts.query}" if parts.query else "")

    @property
    def route(self) -> str:
        return urllib.parse.urlsplit(self.driver.current_url).path

    def wait(self, condition: Callable[[], object], expected: str, seen: Callable[[], object]) -> object:
        """Waits for the condition to hold; a time-out is a failed check that
        says what was expected and what the page showed then."""
        try:
            return WebDriverWait(self.driver, WAIT_SECONDS).until(lambda _: condition())
        except TimeoutException:
            raise CheckFailed(f"expected {expected} within {WAIT_SECONDS} s, saw {shorten(seen())}") from None

    def wait_for_route(self, route: str) -> None:
        self.wait(lambda: self.route == route, f"{self.person}'s browser to be at {route}", lambda: self.path)

    def submit_and_wait(self, button: WebElement) -> None:
        """Clicks a submit button and waits until the next page has replaced this one."""
        html_element = self.driver.find_element(By.TAG_NAME, "html")
        label = shorten(button.get_attribute("outerHTML"), 80)
        self.forget_log()
        button.click()

        def replaced() -> bool:
            try:
                html_element.tag_name
                return False
            except Exception:
                return self.driver.execute_script("return document.readyState") == "complete"

        self.wait(replaced, f"a new page after clicking {label}", lambda: self.path)

    # Reading the page

    def one(self, css: str, what: str, within: WebElement | None = None) -> WebElement:
        try:
            return (within or self.driver).find_element(By.CSS_SELECTOR, css)
        except NoSuchElementException:
            raise CheckFailed(f"expected {what} ({css}) on {self.path}, saw none") from None

    def all(self, css: str, within: WebElement | None = None) -> list[WebElement]:
        return (within or self.driver).find_elements(By.CSS_SELECTOR, css)

    def has(self, css: str) -> bool:
        return bool(self.all(css))

    def select(self, name: str, value: str, what: str) -> None:
        element = self.one(f"form#filters select[name={name}]", f"the queue's {name} filter")
        try:
            Select(element).select_by_value(value)
        except NoSuchElementException:
            values = [option.get_attribute("value") for option in Select(element).options]
            raise CheckFailed(f"expected the {name} filter to offer {what} (value {value!r}), saw values {values}") from None

    def text(self) -> str:
        return self.driver.find_element(By.TAG_NAME, "body").text

    def script(self, source: str, *args: object) -> object:
        return self.driver.execute_script(source, *args)

    def injected(self) -> list[str]:
        """What an injected string did to the page: the value a script set,
        script elements or handler attributes that hold one."""
        found = self.script("""
            const found = [];
            if (typeof window.__xss !== 'undefined') found.push('window.__xss = ' + window.__xss);
            for (const s of document.scripts) if (s.textContent.includes('__xss')) found.push('a <script> element: ' + s.outerHTML);
            for (const e of document.querySelectorAll('*')) for (const a of e.attributes)
                if (a.name.startsWith('on')) found.push('a handler attribute: ' + e.outerHTML.slice(0, 120));
            return found;""")
        return list(found)

    def foreign_resources(self) -> list[str]:
        """Resources the page loaded from anywhere but the console's server."""
        origin = self.base.rstrip("/")
        names = self.script("return performance.getEntriesByType('resource').map(e => e.name)")
        return [name for name in names if not name.startswith(origin + "/")]

    def policy_violations(self) -> list[str]:
        """Content-Security-Policy refusals the browser logged on this page."""
        return [entry["message"] for entry in self.driver.get_log("browser")
                if "Content Security Policy" in entry.get("message", "")]

    def overflow(self) -> str | None:
        """What sticks out past the window's right edge, making the page
        scroll sideways (None when the page fits the window's width)."""
        return self.script("""
            const width = document.documentElement.clientWidth;
            if (document.documentElement.scrollWidth <= width) return null;
            for (const e of document.body.querySelectorAll('*')) {
                const right = e.getBoundingClientRect().right;
                if (right > width + 1) {
                    const name = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/ +/).join('.') : '');
                    return name + ' reaches ' + Math.round(right) + ' px in a window ' + width + ' px wide';
                }
            }
            return 'the page is ' + document.documentElement.scrollWidth + ' px wide in a window ' + width + ' px wide';""")

    def image_width(self, element: WebElement) -> int:
        """The natural width of an image once the browser finished loading it
        (0: it did not load), scrolled to first, as a person would, so a
        lazily loaded one is fetched."""
        self.script("arguments[0].scrollIntoView({block: 'center'})", element)
        self.wait(lambda: self.script("return arguments[0].complete", element),
                  f"the image {element.get_attribute('src')} to finish loading", lambda: "still loading")
        return int(self.script("return arguments[0].naturalWidth", element))

    def cookie(self, name: str) -> dict | None:
        return self.driver.get_cookie(name)

    def screenshot(self, path: Path) -> Path:
        """The whole page, however long, at the window's width."""
        path.parent.mkdir(parents=True, exist_ok=True)
        height = int(self.script("return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)"))
        self.driver.set_window_size(1280, max(1000, min(height + 140, 6000)))
        try:
            if not self.driver.save_screenshot(str(path)):
                raise CheckFailed(f"expected a screenshot at {path}, saw the browser refuse to write it")
        finally:
            self.driver.set_window_size(1280, 1000)
        return path


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def header(self, name: str) -> str:
        return self.headers.get(name, "")

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class FormInputs(html.parser.HTMLParser):
    """The named inputs of one form of a page (by its id), with their values."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.found = False
        self.values: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "form" and attributes.get("id") == self.form_id:
            self.inside = self.found = True
        elif self.inside and tag == "input" and attributes.get("name"):
            self.values[attributes["name"]] = attributes.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


@dataclass
class Http:
    """A client that follows no redirect and keeps the cookies it is given."""
    base: str
    cookies: dict[str, str] = field(default_factory=dict)

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> Response:
        parts = urllib.parse.urlsplit(self.base)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        headers = {}
        body = None
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            response = Response(answer.status, answer.headers, answer.read())
        finally:
            connection.close()
        for line in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = line.partition("=")
            value = rest.split(";", 1)[0]
            if value and "max-age=0" not in line.lower():
                self.cookies[name.strip()] = value
            else:
                self.cookies.pop(name.strip(), None)
        return response

    def form(self, path: str, form_id: str) -> dict[str, str]:
        """GETs a page and returns the inputs of its form `form_id`."""
        page = self.request("GET", path)
        parser = FormInputs(form_id)
        parser.feed(page.text)
        if page.status != 200 or not parser.found:
            raise CheckFailed(f"expected {path} to answer 200 with form#{form_id}, saw {page.status} {shorten(page.text, 100)}")
        return parser.values


def set_cookie_attributes(response: Response, name: str) -> dict[str, str] | None:
    """The attributes of the Set-Cookie for `name`, lowercased (None when it is not set)."""
    for line in response.headers.get_all("Set-Cookie") or []:
        first, *attributes = [part.strip() for part in line.split(";")]
        if first.partition("=")[0] == name:
            result = {"value": first.partition("=")[2]}
            for attribute in attributes:
                key, _, value = attribute.partition("=")
                result[key.lower()] = value.lower()
            return result
    return None
