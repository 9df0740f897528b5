#!/usr/bin/python3
"""The web app in a real browser: headless Chromium (Debian's) driven by selenium on a real
`arkivator serve`, as a household uses it.

Usage (what `make test` runs):
    /usr/bin/python3 scripts/test/browser_test.py --arkivator .build/debug/arkivator [--out .test-artifacts/browser]

Steps: choose the password on the first-run page, sign out and in again (a wrong password first), upload two photos from samples/ (each its own
letter) and wait until both are filed, add a household member, correct the person of the lab
result in review, search, open the document and copy its text, delete it and undo. A screenshot
of each page is saved in OUT at desktop (1280x800) and phone (390x844) size. Exit status 0 when
every step held, 1 with the failing step named, 2 when Chromium, selenium or axe-core is missing.

Every page photographed is also checked with axe-core (the copy the PyPI package
axe-selenium-python ships, installed by `make test-deps`) at both sizes, its target-size rule
switched on: a violation of serious or critical impact fails the test, each printed with the
elements it concerns; so does a visible control that Tab cannot reach. The review page
says why a letter waits and skips one by keyboard; lists show thumbnails (kept by the browser);
on a phone the filters fold behind one button and a letter's page comes before its text.
"""

import argparse
import importlib.util
import re
import json
import http.client
import struct
import urllib.parse
import zlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "riktig hest batteri"
PHONE = (390, 844)

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("browser test: selenium is missing (apt-get install python3-selenium)", file=sys.stderr)
    sys.exit(2)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds=10):
    """Returns once something listens on 127.0.0.1:PORT (or after SECONDS)."""
    for _ in range(int(seconds * 10)):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)


def axe_source():
    """axe-core's axe.min.js as the PyPI package axe-selenium-python ships it (found without
    importing the package, whose Python part needs a newer Python than Debian's); None if missing."""
    spec = importlib.util.find_spec("axe_selenium_python")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "node_modules" / "axe-core" / "axe.min.js"
        if path.exists():
            return path.read_text(encoding="utf-8")
    return None


class Check:
    def __init__(self, driver, base, out, axe=None):
        self.driver, self.base, self.out, self.axe = driver, base, out, axe
        self.violations = []
        self.checked = 0
        self.lesser = {}

    def step(self, name):
        print(f"browser test: {name}", flush=True)

    def open(self, path):
        self.driver.get(self.base + path)

    def shot(self, name):
        # The test runs on a phone-sized screen; each page is also photographed at desktop size,
        # and checked by axe-core at both.
        for label, (w, h) in (("desktop", (1280, 800)), ("phone", PHONE)):
            self.driver.set_window_size(w, h)
            time.sleep(0.2)
            self.driver.save_screenshot(str(self.out / f"{name}-{label}.png"))
            if name != "failure":
                self.accessible(f"{name} ({label})")
        self.driver.set_window_size(*PHONE)

    def accessible(self, where):
        """Runs axe-core on the page as it stands; notes each violation of serious or critical impact."""
        if self.axe is None:
            return
        if not self.driver.execute_script("return typeof window.axe === 'object'"):
            self.driver.execute_script(self.axe)
        found = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations'], rules: {'target-size': {enabled: true}}})"
            ".then(r => done(r.violations), e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));")
        self.checked += 1
        # Keyboard: every visible control can be reached with Tab (axe-core checks the labels).
        unreachable = self.driver.execute_script(
            "return [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, "
            "[role=button], [onclick]')].filter(e => e.getClientRects().length && !e.disabled && e.tabIndex < 0)"
            ".map(e => e.outerHTML.slice(0, 120));")
        for element in unreachable:
            self.violations.append(f"{where}: not reachable by keyboard (Tab): {element}")
        for violation in found or []:
            if violation.get("impact") not in ("serious", "critical"):
                self.lesser[violation["id"]] = self.lesser.get(violation["id"], 0) + 1
                continue
            lines = [f"{where}: {violation['id']} ({violation['impact']}): {violation['help']}"]
            for node in violation.get("nodes", [])[:5]:
                summary = " ".join((node.get("failureSummary") or "").split())
                lines.append(f"    {' '.join(map(str, node.get('target', [])))}: {summary}")
            self.violations.append("\n".join(lines))

    def text(self):
        # The page may be replaced while it is read (a form just posted): then it is read again.
        for _ in range(20):
            try:
                return self.driver.find_element(By.TAG_NAME, "body").text
            except WebDriverException:
                time.sleep(0.1)
        return ""

    def expect(self, condition, what):
        if not condition:
            self.shot("failure")
            raise AssertionError(what)

    def wait(self, condition, what, timeout=120):
        try:
            WebDriverWait(self.driver, timeout, poll_frequency=0.5,
                          ignored_exceptions=(WebDriverException,)).until(lambda d: condition())
        except Exception:
            self.shot("failure")
            raise AssertionError(f"waited {timeout} s: {what}")


def blank_png(path, width=1240, height=1754):
    """A white page (8-bit gray PNG): nothing on it to read."""
    row = b"\x00" + b"\xff" * width
    data = zlib.compress(row * height, 9)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def review_says_why_and_skips(c, work):
    """A page with no text: review shows it with the banner and what to do; "Hopp over" (by
    keyboard) moves on to a letter that says why it waits; the letter is then deleted."""
    d = c.driver
    c.step("review: a page without text, why each letter waits, «Hopp over» by keyboard")
    blank = work / "blank.png"
    blank_png(blank)
    c.open("/upload")
    d.find_element(By.ID, "files").send_keys(str(blank))
    d.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
    c.wait(lambda: "arkivert" in c.text() or "til gjennomsyn" in c.text(), "the blank page filed")
    c.open("/review")
    text = c.text()
    c.expect("4 venter" in text and "Ingen tekst funnet — skriv inn selv eller ta bildet på nytt" in text,
             f"the blank page first, with the banner: {text[:400]}")
    links = [a.get_attribute("href") for a in d.find_elements(By.CSS_SELECTOR, ".notice.warning a")]
    c.expect(any(h.endswith("#tekst") for h in links) and any(h.endswith("/upload") for h in links),
             f"the banner links to typing the text and to taking the photo again: {links}")
    c.expect(d.find_elements(By.CSS_SELECTOR, ".pages img"), "the page is shown")
    blank_id = d.find_element(By.CSS_SELECTOR, "h2.doc-title a").get_attribute("href").rsplit("/", 1)[-1]
    c.shot("05-review-no-text")
    skip = d.find_element(By.XPATH, "//button[normalize-space()='Hopp over']")
    skip.send_keys(Keys.ENTER)
    c.wait(lambda: "hoppet over" in c.text(), "the next letter after «Hopp over»")
    text = c.text()
    c.expect("Hvorfor brevet venter" in text and "Ingen i husstanden passet til brevet" in text,
             f"the next letter says why it waits: {text[:500]}")
    c.expect(blank_id not in d.find_element(By.CSS_SELECTOR, "h2.doc-title a").get_attribute("href"),
             "a skipped letter is not shown again at once")
    c.shot("05-review-reasons")
    c.open(f"/documents/{blank_id}")
    d.find_element(By.CSS_SELECTOR, "form[action$='/delete'] button").click()
    c.wait(lambda: "Angre" in c.text(), "the blank page deleted")


def thumbnails_in_lists(c):
    """Every letter in the library shows its first page, small, kept by the browser."""
    d = c.driver
    c.step("thumbnails in the library list, cached by the browser")

    def loaded():
        images = d.find_elements(By.CSS_SELECTOR, "ol.documents img.thumb")
        return len(images) == 3 and all(d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", i)
                                        for i in images)
    c.wait(loaded, "three thumbnails shown", timeout=30)
    source = d.find_element(By.CSS_SELECTOR, "ol.documents img.thumb").get_attribute("src")
    c.expect("?v=" in source, f"a thumbnail made at filing has a versioned address: {source}")
    cookie = "; ".join(f"{k['name']}={k['value']}" for k in d.get_cookies())

    def fetch(headers):
        address = urllib.parse.urlsplit(source)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        connection.request("GET", f"{address.path}?{address.query}", headers=headers)
        answer = connection.getresponse()
        body = answer.read()
        connection.close()
        return answer.status, answer.headers, body
    status, headers, body = fetch({"Cookie": cookie})
    cache, etag = headers.get("Cache-Control", ""), headers.get("ETag")
    c.expect(status == 200 and body[:2] == b"\xff\xd8" and len(body) < 20000, f"a small JPEG ({status}, {len(body)} bytes)")
    c.expect("immutable" in cache and "private" in cache and etag, f"kept by the browser: {cache} {etag}")
    status, _, _ = fetch({"Cookie": cookie, "If-None-Match": etag})
    c.expect(status == 304, f"asked again with its ETag: not modified ({status})")
    status, _, body = fetch({})
    c.expect(status != 200 or body[:2] != b"\xff\xd8", f"no thumbnail without signing in ({status})")


def filters_fold_on_a_phone(c):
    """At 390 px the filters are behind one button; at 1280 px they are shown."""
    d = c.driver
    c.step("phone: the filters fold behind one button")
    c.open("/")
    form = d.find_element(By.CSS_SELECTOR, "details.filters-fold form")
    c.expect(not form.is_displayed(), "the filters are folded on a phone")
    d.find_element(By.CSS_SELECTOR, "details.filters-fold summary").click()
    c.expect(form.is_displayed(), "one press shows them")
    d.set_window_size(1280, 800)
    c.open("/")
    c.expect(d.find_element(By.CSS_SELECTOR, "details.filters-fold form").is_displayed(), "shown on a wide screen")
    d.set_window_size(*PHONE)


def page_before_text_on_a_phone(c):
    """On a phone a letter's page image comes before its long text."""
    d = c.driver
    image = d.find_element(By.CSS_SELECTOR, ".pages img")
    text = d.find_element(By.ID, "text")
    c.expect(image.location["y"] < text.location["y"], "the page image above the text on a phone")


def appointment_on_the_document_page(c):
    """The photographed innkalling's page shows its appointment: day, time, place."""
    c.step("the innkalling's page shows its appointment")
    c.open("/")
    links = [a.get_attribute("href") for a in c.driver.find_elements(By.CSS_SELECTOR, "a[href*='/documents/']")
             if "Innkalling" in a.text]
    c.expect(bool(links), "the library links the innkalling")
    if not links:
        return
    c.driver.get(links[0])
    section = c.driver.find_elements(By.CSS_SELECTOR, "section.appointments")
    c.expect(bool(section), "the document page has an appointment section")
    text = section[0].text if section else ""
    c.expect("2025-03-27 kl. 10:30" in text and "bygg B" in text,
             f"the appointment's day, time and place are shown: {text!r}")
    c.shot("05-appointment")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkivator", default=str(REPO / ".build/debug/arkivator"))
    ap.add_argument("--out", type=Path, default=REPO / ".test-artifacts/browser")
    a = ap.parse_args()
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver_path:
        print("browser test: chromium and chromium-driver are missing (apt-get install chromium chromium-driver)", file=sys.stderr)
        return 2
    a.out.mkdir(parents=True, exist_ok=True)
    for old in a.out.glob("*.png"):
        old.unlink()
    work = Path(tempfile.mkdtemp(prefix="arkivator-browser-"))
    library, port = work / "bibliotek", free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, OMP_THREAD_LIMIT="1", LANG="nb_NO.UTF-8")
    log = open(a.out / "serve.log", "w")
    server = subprocess.Popen([a.arkivator, "serve", "--library", str(library), "--listen", f"127.0.0.1:{port}"],
                              stdout=log, stderr=subprocess.STDOUT, env=env)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=nb-NO"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": "nb-NO,nb"})
    axe = axe_source()
    if axe is None:
        print("browser test: axe-core is missing (make test-deps installs the PyPI package axe-selenium-python)",
              file=sys.stderr)
        return 2
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_window_size(*PHONE)
    driver.set_script_timeout(60)
    c = Check(driver, base, a.out, axe)
    try:
        wait_for_port(port)

        c.step("first run: choose the password with the code serve printed")
        c.open("/")
        c.expect("/setup" in driver.current_url, f"first visit goes to the first-run page, not {driver.current_url}")
        c.shot("01-setup")
        log.flush()
        code = re.search(r"[A-Z0-9]{4}-[A-Z0-9]{4}", (a.out / "serve.log").read_text())
        c.expect(code is not None, "serve printed the one-time code in its terminal")
        driver.find_element(By.ID, "code").send_keys(code.group(0))
        driver.find_element(By.ID, "password").send_keys(PASSWORD)
        driver.find_element(By.ID, "again").send_keys(PASSWORD)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        c.wait(lambda: "Bibliotek" in driver.title, "the library after the password")

        c.step("sign out and in again")
        driver.find_element(By.CSS_SELECTOR, "form[action='/logout'] button").click()
        c.wait(lambda: "/login" in driver.current_url, "the sign-in page after signing out")
        driver.find_element(By.ID, "password").send_keys("feil passord")
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        c.wait(lambda: "Feil passord" in c.text(), "a wrong password is refused in plain words")
        c.shot("01-login")
        driver.find_element(By.ID, "password").send_keys(PASSWORD)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        c.wait(lambda: "Bibliotek" in driver.title, "the library after signing in")

        c.step("settings: copies to a folder on this machine")
        copies = work / "kopier"
        copies.mkdir()
        c.open("/settings")
        driver.find_element(By.CSS_SELECTOR, "input[name=kind][value=folder]").click()
        driver.find_element(By.ID, "folder-path").send_keys(str(copies))
        driver.find_element(By.CSS_SELECTOR, "form[action='/settings/destination'] button").click()
        c.wait(lambda: "Lagret" in c.text(), "the destination is saved, and it says so")
        c.shot("02-settings")

        c.step("upload a two-page letter: its files reach the folder with only serve running")
        c.open("/upload")
        pages = [REPO / "samples/epikrise-skann_p1.jpg", REPO / "samples/epikrise-skann_p2.jpg"]
        driver.find_element(By.ID, "files").send_keys("\n".join(str(p) for p in pages))
        driver.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
        c.wait(lambda: "arkivert" in c.text(), "the letter filed")
        started = time.monotonic()

        def copied():
            names = [p.name for p in copies.rglob("*") if p.is_file()]
            return (any(n.endswith(".docx") for n in names) and any(n.endswith(".jpeg") for n in names)
                    and any(n.endswith(".pdf") for n in names))
        c.wait(copied, "the .docx, the page images and the PDF in the destination folder", timeout=60)
        print(f"browser test: the copies reached the folder {time.monotonic() - started:.1f} s after filing", flush=True)

        c.step("upload two photos, each its own letter")
        c.open("/upload")
        photos = [REPO / "samples/innkalling-foto.jpg", REPO / "samples/labsvar-ren.png"]
        driver.find_element(By.ID, "files").send_keys("\n".join(str(p) for p in photos))
        driver.find_element(By.CSS_SELECTOR, "input[name=grouping][value=each]").click()
        driver.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
        c.wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#progress li")) == 2
               and all("arkivert" in li.text for li in driver.find_elements(By.CSS_SELECTOR, "#progress li")),
               "both photos filed")
        results = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#progress li")]
        c.expect(any("Innkalling" in r for r in results) and all(re.search(r"\d{4}-\d{2}-\d{2}", r) for r in results)
                 and all("til gjennomsyn" in r for r in results),
                 f"each result says what was found (title, type, date) and that it waits for review: {results}")
        c.shot("02-upload")
        c.open("/")
        c.expect("3 dokumenter" in c.text(), "three documents in the library")
        c.shot("03-library")
        thumbnails_in_lists(c)
        filters_fold_on_a_phone(c)
        appointment_on_the_document_page(c)

        c.step("add a household member")
        c.open("/family")
        driver.find_element(By.ID, "name").send_keys("Erik Haugland")
        driver.find_element(By.CSS_SELECTOR, "form[action='/family/add'] button").click()
        c.wait(lambda: "Erik Haugland" in c.text(), "the member listed")
        c.shot("04-family")

        c.step("remove a member after a question, and undo")
        driver.find_element(By.ID, "name").send_keys("Feil Navn")
        driver.find_element(By.CSS_SELECTOR, "form[action='/family/add'] button").click()
        c.wait(lambda: "Feil Navn" in c.text(), "the second member listed")
        row = [r for r in driver.find_elements(By.CSS_SELECTOR, "tbody tr") if "Feil Navn" in r.text][0]
        row.find_elements(By.CSS_SELECTOR, "details summary")[-1].click()
        c.expect("Fjerne «Feil Navn»" in row.text, "removing asks first")
        row.find_element(By.CSS_SELECTOR, "form[action$='/remove'] button").click()
        c.wait(lambda: "Fjernet «Feil Navn»" in c.text() and "Angre" in c.text(), "the undo notice")
        c.shot("04-family-removed")
        driver.find_element(By.CSS_SELECTOR, ".notice form[action='/family/restore'] button").click()
        c.wait(lambda: "er tilbake i husstanden" in c.text() and "Feil Navn" in c.text(), "the member is back")

        c.step("correct the person in review")
        c.open("/review")
        c.expect("3 venter" in c.text(), "the letters wait for review (no household member yet)")
        c.shot("05-review")
        review_says_why_and_skips(c, work)
        c.open("/review")
        c.expect("3 venter" in c.text(), "the letter without text is gone, and three still wait")
        for _ in range(3):
            title = driver.find_element(By.ID, "title").get_attribute("value")
            if "Prøvesvar" in title:
                Select(driver.find_element(By.ID, "person")).select_by_visible_text("Erik Haugland")
            driver.find_element(By.CSS_SELECTOR, "form.edit button[type=submit]").click()
            time.sleep(0.3)
        c.expect("Ingenting venter" in c.text(), "the review queue is empty after three saves")
        c.open("/?person=Erik")
        c.expect("1 dokument\n" in c.text() + "\n" and "Prøvesvar" in c.text(), "the lab result is filed to Erik now")

        c.step("search")
        c.open("/search?q=Hemoglobin")
        marks = driver.find_elements(By.CSS_SELECTOR, "ol.documents mark")
        c.expect(marks and marks[0].text.lower() == "hemoglobin", "the hit is highlighted")
        c.shot("06-search")

        c.step("open the document and copy its text")
        driver.find_element(By.CSS_SELECTOR, "ol.documents a").click()
        c.wait(lambda: driver.find_elements(By.ID, "text"), "the document page")
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base,
                               "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        c.open(driver.current_url.replace(base, ""))
        copy = driver.find_element(By.ID, "copy")
        c.expect(copy.is_displayed(), "the copy button is shown")
        copy.click()
        c.wait(lambda: copy.text == "Kopiert", "the button says it copied", timeout=10)
        copied = driver.execute_async_script("navigator.clipboard.readText().then(arguments[0], () => arguments[0](null));")
        shown = driver.find_element(By.ID, "text").text
        c.expect(copied is not None and copied.strip() == shown.strip() and "Hemoglobin" in copied,
                 "the clipboard holds the document's text")
        c.shot("07-document")
        page_before_text_on_a_phone(c)

        c.step("delete and undo")
        document_url = driver.current_url
        driver.find_element(By.CSS_SELECTOR, "form[action$='/delete'] button").click()
        c.wait(lambda: "Angre" in c.text(), "the undo notice")
        c.expect("2 dokumenter" in c.text(), "the deleted letter left the library")
        c.shot("08-deleted")
        c.open("/trash")
        c.expect("Gjenopprett" in c.text(), "the trash lists the deleted letter")
        c.shot("08-trash")
        driver.back()
        driver.find_element(By.CSS_SELECTOR, ".notice button").click()
        c.wait(lambda: driver.current_url == document_url and "papirkurven" not in c.text(), "back after undo")
        c.open("/")
        c.expect("3 dokumenter" in c.text(), "every letter in the library again")

        c.step("a WebDAV server that stops: Settings and the library say why")
        dav_port = free_port()
        (work / "dav" / "Arkiv").mkdir(parents=True)
        dav = subprocess.Popen(["rclone", "serve", "webdav", "--addr", f"127.0.0.1:{dav_port}", str(work / "dav")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_port(dav_port)
            c.open("/settings")
            driver.find_element(By.CSS_SELECTOR, "input[name=kind][value=webdav]").click()
            driver.find_element(By.ID, "webdav-url").send_keys(f"http://127.0.0.1:{dav_port}/Arkiv")
            driver.find_element(By.CSS_SELECTOR, "form[action='/settings/destination'] button").click()
            c.wait(lambda: "Lagret" in c.text(), "the WebDAV destination is saved while the server answers")
        finally:
            dav.terminate()
            dav.wait(10)
        c.open("/upload")
        driver.find_element(By.ID, "files").send_keys(str(REPO / "samples/vedtak-digital.pdf"))
        driver.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
        c.wait(lambda: "arkivert" in c.text(), "the letter filed")

        def told():
            c.open("/settings")
            return driver.find_elements(By.CSS_SELECTOR, "#main p.problem[role=status]")
        c.wait(told, "Settings says why the copies wait", timeout=60)
        reason = driver.find_element(By.CSS_SELECTOR, "#main p.problem[role=status]").text
        c.expect("127.0.0.1" in reason or "svarer ikke" in reason or "nås ikke" in reason, f"the reason names the server: {reason}")
        c.shot("09-settings-waiting")
        def banner():
            c.open("/")
            found = driver.find_elements(By.CSS_SELECTOR, ".notice.warning")
            return found and "Prøv igjen" in found[0].text
        c.wait(banner, "the library says the copies wait, with «Prøv igjen»", timeout=30)
        c.shot("10-library-waiting")
        c.step(f"accessibility: {c.checked} pages checked by axe-core; of minor or moderate impact: "
               + (", ".join(f"{k} ({v})" for k, v in sorted(c.lesser.items())) or "none"))
        if c.violations:
            print("browser test: axe-core found violations of serious or critical impact:", file=sys.stderr)
            for violation in c.violations:
                print("  " + violation, file=sys.stderr)
            raise AssertionError(f"{len(c.violations)} accessibility violations (listed above)")
        print(f"browser test: every step held; screenshots in {a.out}")
        return 0
    except AssertionError as failure:
        print(f"browser test FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        driver.quit()
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
