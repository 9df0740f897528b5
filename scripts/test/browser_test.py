#!/usr/bin/python3
"""The web app in a real browser: headless Chromium (Debian's) driven by selenium on a real
`arkivator serve`, as a household uses it.

Usage (what `make test` runs):
    /usr/bin/python3 scripts/test/browser_test.py --arkivator .build/debug/arkivator [--out .test-artifacts/browser]

Steps: choose the password on the first-run page, sign out and in again (a wrong password first), upload two photos from samples/ (each its own
letter) and wait until both are filed, add a household member, correct a word of a letter's text
in review (and bring the OCR's reading back), correct the person of the lab result in review, search, open the document and copy its text, delete it and undo. A screenshot
of each page is saved in OUT at desktop (1280x800) and phone (390x844) size. Exit status 0 when
every step held, 1 with the failing step named, 2 when Chromium, selenium or axe-core is missing.

Every page photographed is also checked with axe-core (the copy the PyPI package
axe-selenium-python ships, installed by `make test-deps`) at both sizes, its target-size rule
switched on: a violation of serious or critical impact fails the test, each printed with the
elements it concerns; so does a visible control that Tab cannot reach. The review page
says why a letter waits and skips one by keyboard; lists show thumbnails (kept by the browser);
on a phone the filters fold behind one button and a letter's page comes before its text.
Last, the upload page's tray: pages chosen and taken, reordered (buttons, mouse and finger), one
deleted and one retaken, sent as one letter whose pages come out in the tray's order; and the
plain form without JavaScript.
"""

import argparse
import base64
import datetime
import hashlib
import hmac
import importlib.util
import re
import json
import http.client
import struct
import urllib.error
import urllib.parse
import urllib.request
import zlib
import os
import shutil
import socket
import subprocess
import sys
import sqlite3
import tempfile
import time
from pathlib import Path

from localserver import free_port, wait_for_port

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "riktig hest batteri"
PHONE = (390, 844)

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("browser test: selenium is missing (apt-get install python3-selenium)", file=sys.stderr)
    sys.exit(2)


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
        self.scripts_off = False
        self.lesser = {}

    def step(self, name):
        # Each step's line says how long the one before took: where the test's minutes go.
        now = time.monotonic()
        took = f" ({now - self.started:.1f} s since the last step)" if getattr(self, "started", None) is not None else ""
        self.started = now
        print(f"browser test: {name}{took}", flush=True)

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
        """Runs axe-core on the page as it stands; notes each violation of serious or critical impact.
        On a page shown without JavaScript, scripts are let run for the check alone (the page's own
        scripts, blocked when it loaded, stay unrun)."""
        if self.axe is None:
            return
        if self.scripts_off:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
            try:
                self.scripts_off = False
                self.accessible(where)
            finally:
                self.scripts_off = True
                self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
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


def numbers_outlined_on_the_page(c):
    """The numbers OCR may have misread are outlined over the page image: an SVG the image's size
    lies on it, each outline named «Usikkert tall» (a clean letter may have none to outline)."""
    d = c.driver
    outlined = 0
    for frame in d.find_elements(By.CSS_SELECTOR, ".page-frame"):
        for svg in frame.find_elements(By.CSS_SELECTOR, "svg.number-marks"):
            a, b = frame.find_element(By.TAG_NAME, "img").rect, svg.rect
            c.expect(all(abs(a[k] - b[k]) <= 3 for k in ("x", "y", "width", "height")), f"the outlines lie on the image: {a} {b}")
            titles = d.execute_script("return [...arguments[0].querySelectorAll('rect title')].map(t => t.textContent)", svg)
            c.expect(titles and all("Usikkert tall" in t for t in titles), f"each outline is named: {titles[:3]}")
            outlined += len(titles)
    print(f"browser test: {outlined} outlines of numbers in doubt on the page", flush=True)


def files_of(arkivator, library, doc_id):
    """The document's archive files by kind, as `arkivator show --json` lists them."""
    shown = subprocess.run([arkivator, "show", doc_id, "--json", "--library", str(library)],
                           capture_output=True, text=True, check=True)
    document = json.loads(shown.stdout)
    return document, {f["kind"]: f["path"] for f in document["files"] if f["kind"] in ("docx", "pdf")}


def archive_text(arkivator, library, doc_id):
    """The body of the .docx (read by scripts/test/read_docx.py) and `pdftotext` of the PDF."""
    _, files = files_of(arkivator, library, doc_id)
    # The python3 that `make test` gives python-docx (this script runs on Debian's, for selenium).
    python = shutil.which("python3") or sys.executable
    docx = subprocess.run([python, str(REPO / "scripts/test/read_docx.py"), files["docx"]],
                          capture_output=True, text=True, check=True)
    body = "\n".join(json.loads(docx.stdout)["paragraphs"][1:])
    pdf = subprocess.run(["pdftotext", "-enc", "UTF-8", files["pdf"], "-"], capture_output=True, text=True, check=True)
    return body, pdf.stdout


def shot_of(c, driver, name, selector):
    """Screenshots at both sizes with the element SELECTOR scrolled to the top of the window."""
    for label, (w, h) in (("desktop", (1280, 800)), ("phone", PHONE)):
        driver.set_window_size(w, h)
        time.sleep(0.2)
        driver.execute_script("document.querySelector(arguments[0]).scrollIntoView()", selector)
        time.sleep(0.1)
        driver.save_screenshot(str(c.out / f"{name}-{label}.png"))
    driver.set_window_size(*PHONE)


def correct_text(c, driver, arkivator, library):
    """Corrects a misread word in review: search, the .docx and the PDF's text hold the new word and not
    the old; "Hent tilbake OCR-lesningen" on the document page brings the old one back everywhere."""
    c.step("correct a word of the text in review; search, the .docx and the PDF follow; the OCR reading comes back")
    c.open("/review")
    doc_id = driver.find_element(By.CSS_SELECTOR, "h2.doc-title a").get_attribute("href").rsplit("/", 1)[-1]
    document, _ = files_of(arkivator, library, doc_id)
    box = driver.find_element(By.ID, "side1")
    text = box.get_attribute("value")
    words = re.findall(r"\b[A-Za-zÆØÅæøå]{7,}\b", text)
    others = " ".join(words + [document["title"], document.get("institution") or "", document.get("specialty") or ""]
                      + document.get("keywords", [])).lower()
    # A word the letter holds once, part of no other word or field: the search can only find it here.
    old = next((w for w in words if others.count(w.lower()) == 1 and text.count(w) == 1), None)
    c.expect(old is not None, f"a word to correct in the text: {text[:200]}")
    new = "Korrekturlest"
    shot_of(c, driver, "05-review-text", "#tekst")
    box.clear()
    box.send_keys(text.replace(old, new, 1))
    driver.find_element(By.CSS_SELECTOR, "form.text-edit button[type=submit]").click()
    c.wait(lambda: "Teksten er lagret" in c.text(), "the review page says the text is saved")
    c.expect(new in driver.find_element(By.ID, "text").text, "the letter's text shows the corrected word")
    shot_of(c, driver, "05-review-text-saved", "#tekst")

    def found(word):
        c.open(f"/search?q={word}")
        return bool(driver.find_elements(By.CSS_SELECTOR, f"ol.documents a[href='/documents/{doc_id}']"))
    c.expect(found(new) and not found(old), f"search finds «{new}» and not «{old}»")
    docx, pdf = archive_text(arkivator, library, doc_id)
    c.expect(new in docx and old not in docx, f"the .docx holds «{new}», not «{old}»")
    c.expect(new in pdf and old not in pdf, f"pdftotext of the PDF holds «{new}», not «{old}»")

    c.open(f"/documents/{doc_id}")
    driver.find_element(By.CSS_SELECTOR, "#tekst summary").click()
    c.expect("Rettet: «" + old + "» → «" + new + "»" in c.text(), "the document page lists the correction as a version")
    shot_of(c, driver, "07-document-text", "#tekst")
    shot_of(c, driver, "07-document-text-versions", "ul.versions")
    driver.find_element(By.CSS_SELECTOR, "form[action$='/text/ocr'] button").click()
    c.wait(lambda: "er hentet tilbake" in c.text(), "the OCR reading is back, and it says so")
    c.expect(found(old) and not found(new), f"search finds «{old}» again and not «{new}»")
    docx, pdf = archive_text(arkivator, library, doc_id)
    c.expect(old in docx and new not in docx and old in pdf and new not in pdf,
             "the .docx and the PDF hold the OCR's reading again")


def capture(c, driver, base):
    """Issue 28, capture: three photos chosen and one taken, reordered with the buttons and by
    dragging (mouse and touch), one deleted and one retaken, sent as one letter; the filed letter's pages are in
    the tray's order (each fixture page has its own sender, so the order of their names in the
    letter's text is the order of its pages). Then the same form without JavaScript."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    fixtures = REPO / "Tests/Fixtures"

    def names():
        return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#tray-pages li .tray-info .meta")]

    def tile(name):
        return [li for li in driver.find_elements(By.CSS_SELECTOR, "#tray-pages li")
                if li.find_element(By.CSS_SELECTOR, ".tray-info .meta").text == name][0]

    def said():
        return driver.find_element(By.ID, "tray-said").get_attribute("textContent")

    c.step("capture: choose three photos and take one, see them before sending")
    c.open("/upload")
    c.expect(driver.find_element(By.ID, "camera").get_attribute("capture") == "environment"
             and driver.find_element(By.ID, "files").get_attribute("capture") is None,
             "«Ta bilde» opens the camera, «Velg bilder eller PDF» the pictures and files")
    for label in driver.find_elements(By.CSS_SELECTOR, ".picker label"):
        c.expect(label.size["height"] >= 44 and label.is_displayed(), f"a large control: {label.text} {label.size}")
    # A file that is no picture: a labelled tile, then refused by its bytes, named, and kept in the tray to delete.
    driver.find_element(By.ID, "files").send_keys(str(fixtures / "clean.txt"))
    driver.find_element(By.ID, "files").send_keys(str(fixtures / "clean.png"))
    c.wait(lambda: tile("clean.txt").find_element(By.CSS_SELECTOR, ".thumb").text == "Bilde", "a labelled tile", timeout=10)
    driver.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
    c.wait(lambda: "Side 1: Filen er ikke et bilde" in driver.find_element(By.ID, "upload-problem").text, "the refused page is named",
           timeout=20)
    c.expect(names() == ["clean.txt", "clean.png"], "the pages stay in the tray")
    for _ in range(2):
        driver.find_element(By.CSS_SELECTOR, "#tray-pages button[data-action=delete]").click()
    c.wait(lambda: not names(), "the tray is empty again", timeout=5)
    c.open("/upload")
    driver.find_element(By.ID, "files").send_keys("\n".join(str(fixtures / n) for n in ("skew.jpg", "clean.png", "photo2.jpg")))
    driver.find_element(By.ID, "camera").send_keys(str(REPO / "samples/innkalling-foto.jpg"))
    c.wait(lambda: names() == ["skew.jpg", "clean.png", "photo2.jpg", "innkalling-foto.jpg"], "four pages in the tray", timeout=10)
    c.wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#tray-pages .thumb img")) == 4, "a picture of each page", timeout=20)
    driver.find_element(By.ID, "files").send_keys(str(REPO / "samples/vedtak-digital.pdf"))
    c.wait(lambda: len(names()) == 5, "a PDF joins the tray", timeout=10)
    c.expect(tile("vedtak-digital.pdf").find_element(By.CSS_SELECTOR, ".thumb").text == "PDF", "a PDF gets a labelled tile")
    tile("vedtak-digital.pdf").find_element(By.CSS_SELECTOR, "button[data-action=delete]").click()
    c.wait(lambda: len(names()) == 4, "the PDF is deleted again", timeout=5)
    for button in driver.find_elements(By.CSS_SELECTOR, "#tray-pages button"):
        c.expect(button.size["height"] >= 44, f"a large button: {button.text} {button.size}")
    driver.execute_script("window.scrollTo(0, 0)")
    c.shot("11-capture-tray")

    c.step("capture: move a page up with the buttons, then drag one with the mouse and one with a finger")
    up = tile("photo2.jpg").find_element(By.CSS_SELECTOR, "button[data-action=up]")
    up.click()
    c.wait(lambda: "plass 2 av 4" in said(), "the new place is said aloud", timeout=5)
    active = driver.switch_to.active_element
    c.expect(active.get_attribute("data-action") == "up", "the focus stays on «Flytt opp» for the next press")
    active.click()
    c.wait(lambda: names()[0] == "photo2.jpg" and "plass 1 av 4" in said(), "moved to the top", timeout=5)
    c.expect(not tile("photo2.jpg").find_element(By.CSS_SELECTOR, "button[data-action=up]").is_enabled(),
             "the first page cannot move further up")
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", tile("photo2.jpg"))
    moved, target = tile("clean.png").find_element(By.CSS_SELECTOR, ".thumb"), tile("photo2.jpg").find_element(By.CSS_SELECTOR, ".thumb")
    # Held by its picture and let go over the upper half of the first page's: it goes before it.
    ActionChains(driver).click_and_hold(moved).pause(0.2).move_to_element_with_offset(target, 0, -30).pause(0.2) \
        .move_to_element_with_offset(target, 0, -40).pause(0.2).release().perform()
    c.wait(lambda: names() == ["clean.png", "photo2.jpg", "skew.jpg", "innkalling-foto.jpg"], "dragged to the top", timeout=5)
    # And with a finger: the last page before the third.
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", tile("skew.jpg"))
    moved, target = tile("innkalling-foto.jpg").find_element(By.CSS_SELECTOR, ".thumb"), tile("skew.jpg").find_element(By.CSS_SELECTOR, ".thumb")
    finger = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    finger.pointer_action.move_to(moved).pointer_down().pause(0.2).move_to(target, 0, -30).pause(0.2) \
        .move_to(target, 0, -40).pause(0.2).pointer_up()
    finger.perform()
    c.wait(lambda: names() == ["clean.png", "photo2.jpg", "innkalling-foto.jpg", "skew.jpg"], "dragged by touch", timeout=5)

    c.step("capture: delete one page and retake another")
    tile("innkalling-foto.jpg").find_element(By.CSS_SELECTOR, "button[data-action=delete]").click()
    c.wait(lambda: names() == ["clean.png", "photo2.jpg", "skew.jpg"] and "slettet" in said(), "the page is gone", timeout=5)
    tile("clean.png").find_element(By.CSS_SELECTOR, "input[data-action=retake]").send_keys(str(fixtures / "photo.jpg"))
    c.wait(lambda: names() == ["photo.jpg", "photo2.jpg", "skew.jpg"] and "byttet ut" in said(), "the page is replaced in its place",
           timeout=5)
    c.expect(driver.find_element(By.CSS_SELECTOR, "input[name=grouping][value=one]").is_selected()
             and "Send 3 sider som ett brev" in driver.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").text,
             "one letter of three pages is what will be sent")
    c.shot("11-capture-ordered")

    c.step("capture: send as one letter; its pages come out in the tray's order")
    driver.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
    c.wait(lambda: "arkivert" in driver.find_element(By.ID, "progress").text, "the letter filed", timeout=180)
    c.expect(not names() and driver.find_element(By.ID, "tray").get_attribute("hidden") is not None, "the tray is empty after sending")
    c.shot("11-capture-sent")
    driver.find_element(By.CSS_SELECTOR, "#progress li a[href^='/documents/']").click()
    c.wait(lambda: driver.find_elements(By.ID, "text"), "the letter's page")
    text = driver.find_element(By.ID, "text").text
    where = [text.find(word) for word in ("Bjørkeli", "Eikelund", "Fossheim")]
    c.expect(-1 not in where and where == sorted(where) and "Granlia" not in text and "Vestlia" not in text,
             f"the letter's pages in the tray's order, the deleted and the replaced page left out: {where}")
    c.expect(len(driver.find_elements(By.CSS_SELECTOR, ".pages img")) == 3, "three page images")

    c.step("capture: at desktop size the pages stand in a row; drag and buttons work there too")
    driver.set_window_size(1280, 800)
    try:
        c.open("/upload")
        driver.find_element(By.ID, "files").send_keys("\n".join(str(fixtures / n) for n in ("skew.jpg", "clean.png", "photo2.jpg")))
        c.wait(lambda: names() == ["skew.jpg", "clean.png", "photo2.jpg"], "three pages in the tray", timeout=10)
        first, last = tile("skew.jpg").rect, tile("photo2.jpg").rect
        c.expect(abs(first["y"] - last["y"]) < 2 and last["x"] > first["x"], "the pages side by side")
        moved, target = tile("photo2.jpg").find_element(By.CSS_SELECTOR, ".thumb"), tile("skew.jpg").find_element(By.CSS_SELECTOR, ".thumb")
        # Let go over the left half of the first page: it goes before it.
        ActionChains(driver).click_and_hold(moved).pause(0.2).move_to_element_with_offset(target, -30, 0).pause(0.2) \
            .move_to_element_with_offset(target, -40, 0).pause(0.2).release().perform()
        c.wait(lambda: names() == ["photo2.jpg", "skew.jpg", "clean.png"], "dragged to the front of the row", timeout=5)
        tile("skew.jpg").find_element(By.CSS_SELECTOR, "button[data-action=down]").click()
        c.wait(lambda: names() == ["photo2.jpg", "clean.png", "skew.jpg"] and "plass 3 av 3" in said(), "moved on with «Flytt ned»",
               timeout=5)
        for _ in range(3):
            driver.find_element(By.CSS_SELECTOR, "#tray-pages button[data-action=delete]").click()
        c.expect(not names(), "every page deleted")
    finally:
        driver.set_window_size(*PHONE)

    c.step("capture: the same form without JavaScript")
    driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    c.scripts_off = True
    try:
        c.open("/upload")
        driver.find_element(By.ID, "files").send_keys(str(fixtures / "photo2.jpg"))
        c.shot("12-upload-noscript")
        driver.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
        c.wait(lambda: "mottatt=" in driver.current_url and "Mottatt" in c.text(), "the page says the letter was received", timeout=30)

        def filed():
            driver.refresh()
            return "arkivert" in c.text() or "fantes fra før" in c.text()
        c.wait(filed, "the letter sent without JavaScript is read", timeout=120)
        c.shot("12-upload-noscript-received")
    finally:
        c.scripts_off = False
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})




def word_recall(truth, predicted):
    """The share of the truth's words (lower case, punctuation trimmed, with repeats) the reading holds."""
    def words(text):
        return [w.strip(".,:;!?()«»\"'–-").lower() for w in text.split() if w.strip(".,:;!?()«»\"'–-")]
    left = {}
    for w in words(predicted):
        left[w] = left.get(w, 0) + 1
    found = 0
    for w in words(truth):
        if left.get(w, 0) > 0:
            left[w] -= 1
            found += 1
    return found / max(1, len(words(truth)))


def stray_words(truth, predicted):
    """The share of the reading's words that are not the letter's (a second sheet read with it)."""
    return 1 - word_recall(predicted, truth) if predicted.split() else 0.0


def upload_one(c, driver, path):
    """Uploads one photo as its own letter and returns its document page's path once filed."""
    c.open("/upload")
    driver.find_element(By.ID, "files").send_keys(str(path))
    driver.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
    c.wait(lambda: "arkivert" in c.text(), f"{path.name} filed")
    link = driver.find_element(By.CSS_SELECTOR, "#progress a[href^='/documents/']")
    return link.get_attribute("href").replace(c.base, "")


def recrop_steps(c, driver):
    """A photo whose automatic crop took a receipt for part of the letter: the photo as taken is
    downloadable, the corner handles are dragged to the letter's corners (and moved with the
    arrow keys) at phone and desktop size, and the page read again holds the letter's words as
    well as the same letter photographed cleanly does."""
    fixtures = REPO / "Tests/Fixtures/recrop"
    truth = (fixtures / "recrop.txt").read_text(encoding="utf-8")
    corners = json.loads((fixtures / "recrop.json").read_text(encoding="utf-8"))["wrong"]["page_corners"]

    c.step("recrop: the clean photo of the letter, for comparison")
    clean_page = upload_one(c, driver, fixtures / "recrop-clean.jpg")
    c.open(clean_page)
    clean = word_recall(truth, driver.find_element(By.ID, "text").text)

    c.step("recrop: the photo as taken is downloadable beside the cleaned page")
    page = upload_one(c, driver, fixtures / "recrop-wrong.jpg")
    c.open(page)
    automatic_text = driver.find_element(By.ID, "text").text
    automatic = word_recall(truth, automatic_text)
    link = driver.find_element(By.CSS_SELECTOR, "a[href$='/originals/1']")
    c.expect("slik det ble tatt" in link.text, f"the download says what it is: {link.text}")
    got = driver.execute_async_script("""
        const done = arguments[1];
        fetch(arguments[0]).then(async (r) => done([r.status, r.headers.get('content-type'), (await r.arrayBuffer()).byteLength]),
                                 () => done(null));""", link.get_attribute("href"))
    c.expect(got == [200, "image/jpeg", (fixtures / "recrop-wrong.jpg").stat().st_size],
             f"the original comes back byte for byte as image/jpeg: {got}")

    for size, label in ((PHONE, "phone"), ((1280, 800), "desktop")):
        c.step(f"recrop: drag the corners to the letter's at {label} size, and apply")
        driver.set_window_size(*size)
        c.open(page)
        form = driver.find_element(By.CSS_SELECTOR, "form.recrop")
        photo = form.find_element(By.CSS_SELECTOR, ".recrop-photo img")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", photo)
        c.wait(lambda: driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0;", photo),
               "the photo is shown")
        width, height = int(form.get_attribute("data-width")), int(form.get_attribute("data-height"))
        handles = form.find_elements(By.CSS_SELECTOR, ".handle")
        c.expect(len(handles) == 4 and all(h.is_displayed() and h.get_attribute("aria-label") for h in handles),
                 "four labelled corner handles")
        for handle, (x, y) in zip(handles, corners):
            # In view before measuring, so nothing scrolls between measuring and dragging.
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", handle)
            box = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON();", photo)
            here = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];", handle)
            target = (box["x"] + x / width * box["width"], box["y"] + y / height * box["height"])
            ActionChains(driver).move_to_element(handle).click_and_hold() \
                .move_by_offset(round(target[0] - here[0]), round(target[1] - here[1])).release().perform()
        fields = lambda: [float(form.find_element(By.NAME, n).get_attribute("value"))
                          for i in range(1, 5) for n in (f"x{i}", f"y{i}")]
        moved = fields()
        off = max(abs(a - b) for a, b in zip(moved, [v for point in corners for v in point]))
        c.expect(off <= 0.02 * width, f"the handles stand at the letter's corners (off by {off:.0f} px): {moved}")
        handles[0].send_keys(Keys.ARROW_RIGHT)
        c.expect(fields()[0] > moved[0], "the arrow keys move a focused handle")
        handles[0].send_keys(Keys.ARROW_LEFT)
        c.shot(f"11-recrop-{label}")
        form.find_element(By.CSS_SELECTOR, "button.apply").click()
        c.wait(lambda: "lagret=1" in driver.current_url and driver.find_elements(By.ID, "text"), "the page read again")
        recropped_text = driver.find_element(By.ID, "text").text
        recropped = word_recall(truth, recropped_text)
        print(f"browser test: word recall at {label} size: clean photo {clean:.3f}, automatic crop {automatic:.3f}, "
              f"corners moved by hand {recropped:.3f}; words not the letter's: automatic crop "
              f"{stray_words(truth, automatic_text):.3f}, by hand {stray_words(truth, recropped_text):.3f}", flush=True)
        c.expect(recropped >= clean - 0.02, f"the page read again holds the letter's words ({recropped:.3f} against {clean:.3f})")
    c.shot("12-recropped")
    driver.set_window_size(*PHONE)


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
    c.expect("27.03.2025 kl. 10:30" in text and "bygg B" in text,
             f"the appointment's day, time and place are shown: {text!r}")
    c.shot("05-appointment")


def share_link_to_a_doctor(c, new_browser, arkivator, library):
    """Two letters chosen on «Del med legen» make a link; a second browser that never signed in
    (a fresh Chromium session without cookies) reads exactly those letters, masked, and the PDF;
    the owner sees the openings on «Delinger», revokes the link after a question, and the link
    says «trukket tilbake» (410); a link whose expiry has passed says «utløpt» (410)."""
    driver = c.driver
    c.step("share two letters with a doctor: choose them and make a link")
    c.open("/")
    driver.find_element(By.CSS_SELECTOR, ".share-start a").click()
    c.wait(lambda: driver.find_elements(By.CSS_SELECTOR, "ul.share-letters input[type=checkbox]"), "the letters to choose from")
    boxes = driver.find_elements(By.CSS_SELECTOR, "ul.share-letters input[type=checkbox]")
    c.expect(len(boxes) >= 3, f"the newest letters are listed to choose from ({len(boxes)})")
    chosen = []
    for box in boxes[:2]:
        box.click()
        label = driver.find_element(By.CSS_SELECTOR, f"label[for='{box.get_attribute('id')}'] strong").text
        chosen.append((box.get_attribute("value"), label))
    driver.find_element(By.CSS_SELECTOR, "input[name=days][value='7']").click()
    driver.execute_script("window.scrollTo(0, 0)")
    c.shot("11-share-form")
    driver.find_element(By.CSS_SELECTOR, "form[action='/del/ny'][method=post] button[type=submit]").click()
    c.wait(lambda: driver.find_elements(By.ID, "share-address"), "the link made")
    address = driver.find_element(By.ID, "share-address").text.strip()
    c.expect(re.fullmatch(re.escape(c.base) + r"/delt/[A-Za-z0-9_-]{40,}", address) is not None, f"the link's address: {address!r}")
    c.shot("11-share-made")

    c.step("the link in a second browser that never signed in: exactly those letters")
    other = new_browser()
    try:
        d = Check(other, c.base, c.out, c.axe)
        other.get(address)
        d.wait(lambda: other.find_elements(By.CSS_SELECTOR, "article h2"), "the shared letters", timeout=20)
        titles = [h.text for h in other.find_elements(By.CSS_SELECTOR, "article h2")]
        c.expect(sorted(titles) == sorted(t for _, t in chosen), f"only the chosen letters {chosen}: {titles}")
        text = d.text()
        c.expect(re.search(r"\b\d{11}\b", text) is None, "no fødselsnummer on the shared page")
        c.expect(not other.find_elements(By.CSS_SELECTOR, "form[action='/logout'], a[href^='/documents/'], img[src*='/documents/']"),
                 "no menu, no link into the archive, none of its page images")
        c.expect("Teksten er lest av maskin (OCR)" in text, "the page says the text is read by machine")
        pages = other.find_elements(By.CSS_SELECTOR, ".shared-pages img")
        c.expect(pages and all(i.get_attribute("src").startswith(address + "/sider/") for i in pages),
                 "each letter's pages beside its text, the share PDF's own (numbers boxed), under the link")
        for image in pages:
            other.execute_script("arguments[0].scrollIntoView()", image)
        d.wait(lambda: other.execute_script("return [...document.querySelectorAll('.shared-pages img')]"
                                            ".every(i => i.complete && i.naturalWidth > 0)"), "the page images load", timeout=120)
        other.execute_script("window.scrollTo(0, 0)")
        c.expect(other.find_elements(By.CSS_SELECTOR, "meta[name=robots][content*=noindex]"), "not indexed")
        answer = urllib.request.urlopen(address, timeout=20)
        c.expect(answer.headers.get("Referrer-Policy") == "no-referrer" and "noindex" in answer.headers.get("X-Robots-Tag", "")
                 and answer.headers.get("Cache-Control") == "no-store", f"private headers: {dict(answer.headers)}")
        d.shot("12-share-public")
        pdf_link = other.find_element(By.CSS_SELECTOR, "a[href$='/pdf']").get_attribute("href")
        pdf = urllib.request.urlopen(pdf_link, timeout=120)
        body = pdf.read()
        c.expect(pdf.headers.get("Content-Type") == "application/pdf" and body.startswith(b"%PDF"), "the share PDF downloads")
        pdf_text = subprocess.run(["pdftotext", "-enc", "UTF-8", "-", "-"], input=body, capture_output=True, timeout=60).stdout
        c.expect(re.search(rb"\d{6} ?\d{5}", pdf_text) is None and all(t.split()[1].encode() in pdf_text for _, t in chosen),
                 "the share PDF holds the chosen letters and no fødselsnummer")

        c.step("the owner sees the openings on «Delinger» and revokes the link after a question")
        c.open("/delinger")
        first = driver.find_elements(By.CSS_SELECTOR, "ol.share-links > li")[0]
        c.expect("Åpnet 3 ganger" in first.text and "Virker" in first.text, f"the openings counted: {first.text!r}")
        first.find_elements(By.CSS_SELECTOR, "details summary")[0].click()
        c.expect("Mobil · Chrome" in first.text or "Datamaskin · Chrome" in first.text or "annen nettleser" in first.text,
                 f"each opening with a hint of the client: {first.text!r}")
        c.shot("11-shares")
        first.find_elements(By.CSS_SELECTOR, "details summary")[-1].click()
        c.expect("Trekke tilbake lenke" in first.text, "revoking asks first")
        first.find_element(By.CSS_SELECTOR, "form[action$='/revoke'] button").click()
        c.wait(lambda: "er trukket tilbake" in c.text(), "the link is revoked, and it says so")
        c.shot("11-shares-revoked")
        other.refresh()
        d.wait(lambda: "Denne delingen er trukket tilbake" in d.text(), "the second browser is told the share is revoked", timeout=20)
        try:
            urllib.request.urlopen(address, timeout=20)
            c.expect(False, "a revoked link still answers")
        except urllib.error.HTTPError as gone:
            c.expect(gone.code == 410, f"a revoked link answers 410, not {gone.code}")
        d.shot("12-share-revoked")

        c.step("a link past its expiry says «utløpt»")
        made = subprocess.run([arkivator, "share", "link", chosen[0][0], "--days", "1", "--url", c.base, "--library", str(library)],
                              capture_output=True, text=True, timeout=60)
        c.expect(made.returncode == 0 and "/delt/" in made.stdout, f"arkivator share link: {made.stdout} {made.stderr}")
        link = made.stdout.strip().splitlines()[-1]
        other.get(link)
        d.wait(lambda: other.find_elements(By.CSS_SELECTOR, "article h2"), "the new link works", timeout=20)
        with sqlite3.connect(library / "arkivator.sqlite") as db:
            db.execute("UPDATE share_links SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = (SELECT max(id) FROM share_links)")
        other.refresh()
        d.wait(lambda: "Denne delingen er utløpt" in d.text(), "the second browser is told the share has expired", timeout=20)
        c.violations += d.violations
        c.checked += d.checked
    finally:
        other.quit()
def calendar_feed_and_appointment_correction(c, driver):
    """A household member's calendar feed: the innkalling filed to the member, its appointment
    corrected on the document page (a plain form), the member's feed made on the calendar page,
    fetched with plain urllib (no cookies) and read with icalendar (the event and its two
    reminders), then turned off: the old address answers 404."""
    import datetime
    import urllib.error
    import urllib.request
    from icalendar import Calendar

    c.step("calendar: a member for the innkalling")
    member = "Kari Kalender"
    c.open("/family")
    driver.find_element(By.ID, "name").send_keys(member)
    driver.find_element(By.CSS_SELECTOR, "form[action='/family/add'] button").click()
    c.wait(lambda: member in c.text(), "the member listed")
    c.expect(driver.find_elements(By.CSS_SELECTOR, "a[href='/calendar']"), "the family page links the calendar page")

    page = None
    c.open("/")
    for href in [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a[href*='/documents/']")
                 if "Innkalling" in a.text]:
        driver.get(href)
        section = driver.find_elements(By.CSS_SELECTOR, "section.appointments")
        if section and "bygg B" in section[0].text:
            page = href
            break
    c.expect(page is not None, "the innkalling with its appointment")
    driver.find_element(By.CSS_SELECTOR, "form[action$='/edit']").find_element(By.XPATH, "..").find_element(By.TAG_NAME, "summary").click()
    Select(driver.find_element(By.ID, "person")).select_by_visible_text(member)
    driver.find_element(By.CSS_SELECTOR, "form[action$='/edit'] button[type=submit]").click()
    c.wait(lambda: "Endringene er lagret" in c.text(), "the letter is filed to the member")

    c.step("calendar: the appointment corrected on the document page")
    year = datetime.date.today().year + 1
    fold = driver.find_element(By.CSS_SELECTOR, "section.appointments details.calendar-fold")
    fold.find_element(By.TAG_NAME, "summary").click()
    form = fold.find_element(By.CSS_SELECTOR, "form.calendar-form")
    for name, value in (("date", f"{year}-06-03"), ("time", "11:15")):
        driver.execute_script("arguments[0].value = arguments[1]", form.find_element(By.NAME, name), value)
    place = form.find_element(By.NAME, "place")
    place.clear()
    place.send_keys("Poliklinikken, bygg B, 2. etasje")
    c.shot("13-appointment-correcting")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    c.wait(lambda: "Timen er lagret" in c.text(), "the page says the appointment is saved")
    section = driver.find_element(By.CSS_SELECTOR, "section.appointments").text
    c.expect(f"03.06.{year} kl. 11:15" in section and "2. etasje" in section and "Rettet for hånd" in section,
             f"the corrected appointment is shown, marked as corrected by hand: {section!r}")
    c.shot("13-appointment-corrected")

    c.step("calendar: the member's feed, fetched without a session")
    c.open("/calendar")
    c.shot("13-calendar")
    mine = [s for s in driver.find_elements(By.CSS_SELECTOR, "section.calendar-member") if member in s.text]
    c.expect(bool(mine), "the calendar page lists the member")
    mine[0].find_element(By.CSS_SELECTOR, "form[action$='/new'] button").click()
    c.wait(lambda: "vises bare nå" in c.text(), "the address is shown once")
    address = driver.find_element(By.ID, "calendar-address").text
    webcal = driver.find_element(By.CSS_SELECTOR, ".calendar-made a[href^='webcal://']").get_attribute("href")
    c.expect("/kalender/" in address and address.endswith(".ics") and webcal.endswith(address.split("/kalender/")[1]),
             f"an http(s) and a webcal address: {address}, {webcal}")
    c.shot("13-calendar-made")
    with urllib.request.urlopen(address, timeout=10) as answer:
        kind, body = answer.headers.get("Content-Type"), answer.read()
    c.expect(kind == "text/calendar; charset=utf-8", f"the feed is a calendar: {kind}")
    events = list(Calendar.from_ical(body).walk("VEVENT"))
    c.expect(len(events) == 1, f"one event in the member's feed: {len(events)}")
    event = events[0]
    start = event.decoded("dtstart")
    c.expect(start.isoformat() == f"{year}-06-03T11:15:00+02:00" and event["dtstart"].params.get("TZID") == "Europe/Oslo",
             f"the corrected time in Europe/Oslo: {start.isoformat()}")
    c.expect("2. etasje" in str(event.get("location")), "the corrected place")
    alarms = sorted(int(a.decoded("trigger").total_seconds()) for a in event.walk("VALARM"))
    c.expect(alarms == [-86400, -7200], f"reminders a day and two hours before: {alarms}")

    c.step("calendar: turned off after a question, the old address answers 404")
    mine = [s for s in driver.find_elements(By.CSS_SELECTOR, "section.calendar-member") if member in s.text][0]
    fold = mine.find_elements(By.CSS_SELECTOR, "details.calendar-fold")[-1]
    fold.find_element(By.TAG_NAME, "summary").click()
    c.expect("Slå av kalenderadressen" in fold.text, "turning off asks first")
    fold.find_element(By.CSS_SELECTOR, "form[action$='/revoke'] button").click()
    c.wait(lambda: "er slått av" in c.text(), "the page says it is turned off")
    c.shot("13-calendar-revoked")
    try:
        urllib.request.urlopen(address, timeout=10)
        c.expect(False, "the revoked address still answers")
    except urllib.error.HTTPError as refused:
        c.expect(refused.code == 404 and "virker ikke" in refused.read().decode("utf-8"),
                 f"the revoked address answers 404 in plain words: {refused.code}")
def text_pdf(path, lines):
    """A one-page letter with its own text (Helvetica, as an office program writes it), which
    Arkivator reads from the PDF without OCR: quick to file."""
    sys.path.insert(0, str(REPO / "scripts/fixtures"))
    import pdfwrite

    def string(text):
        out = bytearray(b"(")
        for ch in text:
            out += b"\\" + ch.encode() if ch in "()\\" else (b"\x96" if ch == "\u2013" else ch.encode("latin-1"))
        return bytes(out + b")")
    ops, y = [], 790
    for line in lines:
        if line:
            ops.append(b"BT /F1 10.5 Tf 70 %d Td " % y + string(line) + b" Tj ET")
        y -= 15
    font = "/F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    page = f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << {font} >> >> /Contents 4 0 R >>"
    path.write_bytes(pdfwrite.document([page.encode(), pdfwrite.stream(b"\n".join(ops))], [3]))


def timeline_letters(today):
    """Six letters about Siri Lund: a cardiology course (referral, epikrise, lab result,
    prescription, and an innkalling to an appointment 30 days from today) and an older
    orthopaedic one."""
    def day(offset):
        return (today + datetime.timedelta(days=offset)).strftime("%d.%m.%Y")

    def weekday(offset):
        return ["mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag", "søndag"][
            (today + datetime.timedelta(days=offset)).weekday()]
    patient = "Pasient: Siri Lund, født 12.04.1985"
    address = ["Siri Lund", "Strandgata 4", "5004 Bergen", ""]
    haukeland = ["Haukeland universitetssjukehus"]
    return {
        "henvisning": ["Lia legesenter", "Storgata 10, 5003 Bergen", "Telefon 55 00 11 22", "",
                       "Haukeland universitetssjukehus", "Kardiologisk poliklinikk", "5021 Bergen", "",
                       f"Dato: {day(-120)}", "Henvisning til kardiologisk poliklinikk", patient,
                       "Pasienten har hatt hjertebank og tung pust ved anstrengelse de siste månedene.",
                       "EKG hos fastlegen viste ekstraslag. Ber om vurdering og ekkokardiografi.", "",
                       "Med vennlig hilsen", "Per Hansen", "Fastlege"],
        "epikrise": haukeland + ["Hjerteavdelingen", "Postboks 1400, 5021 Bergen", ""] + address
                    + [f"Dato: {day(-90)}", "Epikrise", patient,
                       f"Innlagt {day(-95)} med hjertebank. Utskrevet {day(-90)}.",
                       "Diagnose: Paroksysmal atrieflimmer. Startet behandling med betablokker.",
                       "Kontroll ved Hjertepoliklinikken om tre måneder.", "", "Med vennlig hilsen", "Overlege Kari Vik"],
        "provesvar": haukeland + ["Avdeling for medisinsk biokjemi og farmakologi", "5021 Bergen", ""] + address
                     + [f"Dato: {day(-89)}", "Prøvesvar", patient,
                        "Hemoglobin 13,1 g/dL (referanse 11,7-15,3)", "TSH 1,9 mIE/L (referanse 0,4-4,5)",
                        "Kreatinin 68 µmol/L (referanse 45-90)", "", "Rekvirent: Hjerteavdelingen"],
        "resept": haukeland + ["Hjerteavdelingen", "5021 Bergen", ""] + address
                  + [f"Dato: {day(-88)}", "Resept", patient,
                     "Metoprolol 50 mg depottabletter, 1 tablett daglig.", "Resepten er sendt som e-resept.",
                     "", "Med vennlig hilsen", "Overlege Kari Vik"],
        "innkalling": haukeland + ["Hjertepoliklinikken", "Postboks 1400, 5021 Bergen", ""] + address
                      + [f"Dato: {day(-10)}", "INNKALLING TIL POLIKLINISK TIME", patient,
                         "Du er satt opp til kontroll hos kardiolog.", f"Dato: {weekday(30)} {day(30)}", "Tid: kl. 10.30",
                         "Sted: Sentralblokka, 2. etasje, Hjertepoliklinikken", "Ta med",
                         "- Oversikt over medisinene du bruker", "Dersom du ikke kan komme",
                         "Gi beskjed senest 24 timer før på telefon 55 97 50 00."],
        "ortopedi": ["St. Olavs hospital", "Ortopedisk poliklinikk", "7006 Trondheim", ""] + address
                    + [f"Dato: {day(-700)}", "Epikrise", patient,
                       "Behandlet for brudd i høyre håndledd. Gipsen ble fjernet etter seks uker.",
                       "Ingen videre kontroll.", "", "Med vennlig hilsen", "Lege Ola Berg"],
    }


def timeline_of_a_member(c, work):
    """A member with six letters: their timeline shows the innkalling's appointment at the top,
    the letters in episodes (the cardiology course as one), filtered by specialty without
    JavaScript, and a view for printing."""
    d = c.driver
    c.step("timeline: a member with six letters, the appointment at the top")
    c.open("/family")
    d.find_element(By.ID, "name").send_keys("Siri Lund")
    d.execute_script("arguments[0].value = '1985-04-12'", d.find_element(By.ID, "born"))
    d.find_element(By.CSS_SELECTOR, "form[action='/family/add'] button").click()
    c.wait(lambda: "La til «Siri Lund»" in c.text(), "the member added")
    row = [r for r in d.find_elements(By.CSS_SELECTOR, "tbody tr") if "Siri Lund" in r.text][0]
    timeline = row.find_element(By.CSS_SELECTOR, "a[href$='/timeline']").get_attribute("href")
    today = datetime.date.today()
    folder = work / "tidslinje"
    folder.mkdir()
    letters = timeline_letters(today)
    for name, lines in letters.items():
        text_pdf(folder / f"{name}.pdf", lines)
    c.open("/upload")
    d.find_element(By.ID, "files").send_keys("\n".join(str(folder / f"{name}.pdf") for name in letters))
    d.find_element(By.CSS_SELECTOR, "input[name=grouping][value=each]").click()
    d.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
    c.wait(lambda: len(d.find_elements(By.CSS_SELECTOR, "#progress li")) == 6
           and all("arkivert" in li.text for li in d.find_elements(By.CSS_SELECTOR, "#progress li")),
           "the six letters filed", timeout=180)
    d.get(timeline)
    soon = (today + datetime.timedelta(days=30)).strftime("%d.%m.%Y")
    c.expect("Tidslinje: Siri Lund" in d.title and "6 brev i 2 forløp" in c.text(), f"the timeline of six letters: {c.text()[:600]}")
    upcoming = d.find_element(By.CSS_SELECTOR, ".timeline-upcoming").text
    c.expect(f"{soon} kl. 10:30" in upcoming and "Sentralblokka" in upcoming, f"the appointment at the top: {upcoming!r}")
    first = d.find_element(By.CSS_SELECTOR, ".timeline-episode")
    c.expect(d.find_element(By.CSS_SELECTOR, ".timeline-upcoming").location["y"] < first.location["y"],
             "the appointment above every episode")
    d.find_element(By.CSS_SELECTOR, ".timeline-upcoming a[href^='/documents/']").click()
    c.wait(lambda: d.find_elements(By.CSS_SELECTOR, "section.appointments"), "the appointment's letter opens on its page")
    c.expect(f"{soon} kl. 10:30" in d.find_element(By.CSS_SELECTOR, "section.appointments").text,
             f"the letter's page shows the same appointment: {d.find_element(By.CSS_SELECTOR, 'section.appointments').text!r}")
    d.get(timeline)
    first = d.find_element(By.CSS_SELECTOR, ".timeline-episode")
    headings = [h.text for h in d.find_elements(By.CSS_SELECTOR, ".timeline-episode h3")]
    badges = [b.text for b in first.find_elements(By.CSS_SELECTOR, ".badge")]
    c.expect(headings == ["Kardiologi", "Ortopedi"] and badges == ["Henvisning", "Epikrise", "Lab-svar", "Resept", "Innkalling"],
             f"the cardiology course as one episode, oldest letter first: {headings} {badges}")
    c.shot("13-timeline")
    shot_of(c, d, "13-timeline-episodes", ".timeline-episode")
    d.find_element(By.XPATH, "//nav[contains(@class,'timeline-areas')]//a[starts-with(normalize-space(), 'Ortopedi')]").click()
    c.wait(lambda: [h.text for h in d.find_elements(By.CSS_SELECTOR, ".timeline-episode h3")] == ["Ortopedi"],
           "the filter keeps the orthopaedic episode")
    d.find_element(By.CSS_SELECTOR, ".timeline-episode a[href^='/documents/']").click()
    c.wait(lambda: "/documents/" in d.current_url, "a letter's title opens its page")
    d.get(timeline)
    d.find_element(By.XPATH, "//a[normalize-space()='Skriv ut']").click()
    c.wait(lambda: "utskrift=1" in d.current_url, "the view for printing")
    button = d.find_element(By.CSS_SELECTOR, ".timeline-print-button")
    c.expect(button.is_displayed() and not d.find_elements(By.CSS_SELECTOR, ".timeline img.thumb"),
             "a «Skriv ut» button, no thumbnails")
    c.shot("13-timeline-print")
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        c.expect(not d.find_element(By.CSS_SELECTOR, "header").is_displayed() and not button.is_displayed(),
                 "printed without the menu and the buttons")
        c.expect(f"{soon} kl. 10:30" in c.text(), "the appointment is printed")
        for label, (w, h) in (("desktop", (1280, 800)), ("phone", PHONE)):
            d.set_window_size(w, h)
            time.sleep(0.2)
            d.save_screenshot(str(c.out / f"13-timeline-printed-{label}.png"))
    finally:
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        d.set_window_size(*PHONE)
    c.open("/?person=Siri+Lund")
    c.expect(d.find_element(By.CSS_SELECTOR, "a[href$='/timeline']").get_attribute("href") == timeline,
             "the library filtered to the member links to the timeline")


def lab_values_over_time(c, work, arkivator, library):
    """Erik's lab results over time («Prøvesvar»): the scanned result from the upload step and two
    earlier ones (text PDFs) give a chart per analysis with a table beside it, read at both sizes
    by axe-core; a point opens its letter with the value outlined on the page image."""
    d = c.driver
    c.step("lab values: a chart per analysis, a point opens the value on its page")
    folder = work / "provesvar"
    folder.mkdir()
    for name, day, alat, hba1c in (("prove-1", "12.02.2024", "48", "47 H"), ("prove-2", "03.10.2024", "61", "45 H")):
        text_pdf(folder / f"{name}.pdf", [
            "Lundemo medisinske laboratorium", "Laboratorieveien 4", "1605 Lundemo", "",
            f"Dato: {day}", "Svar på laboratorieundersøkelse", "Pasient: Erik Haugland, født 02.05.1971",
            f"Prøve tatt: {day} kl. 08.15", "", "Analyse Resultat Enhet Referanseområde",
            f"ALAT {alat} U/L 10 - 70", f"HbA1c {hba1c} mmol/mol 20 - 42", "CRP 2 mg/L < 5", "",
            "Med vennlig hilsen", "Kjersti Vold", "Overlege, medisinsk biokjemi"])
    c.open("/upload")
    d.find_element(By.ID, "files").send_keys("\n".join(str(folder / f"prove-{n}.pdf") for n in (1, 2)))
    d.find_element(By.CSS_SELECTOR, "input[name=grouping][value=each]").click()
    d.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
    c.wait(lambda: len(d.find_elements(By.CSS_SELECTOR, "#progress li")) == 2
           and all("arkivert" in li.text for li in d.find_elements(By.CSS_SELECTOR, "#progress li")),
           "the two earlier results filed", timeout=180)
    c.open("/family")
    row = [r for r in d.find_elements(By.CSS_SELECTOR, "tbody tr") if "Erik Haugland" in r.text][0]
    row.find_element(By.CSS_SELECTOR, "a[href$='/provesvar']").click()
    c.wait(lambda: "Prøvesvar: Erik Haugland" in d.title, "«Prøvesvar» opens from the household page")
    sections = {s.find_element(By.TAG_NAME, "h2").text.split(" (")[0]: s for s in d.find_elements(By.CSS_SELECTOR, "section.lab-analysis")}
    c.expect({"ALAT", "HbA1c", "CRP"} <= set(sections), f"a section per analysis: {list(sections)}")
    alat = sections["ALAT"]
    points = alat.find_elements(By.CSS_SELECTOR, "svg a")
    caption = alat.find_element(By.TAG_NAME, "figcaption").text
    if len(points) != 3:
        listed = subprocess.run([arkivator, "labs", "--library", str(library), "--analysis", "ALAT"], capture_output=True, text=True)
        letters = subprocess.run([arkivator, "list", "--library", str(library)], capture_output=True, text=True)
        print(f"browser test: ALAT values at the command line:\n{listed.stdout}{listed.stderr}\n{letters.stdout}", flush=True)
    c.expect(len(points) == 3 and "siste verdi 82 U/L (17.06.2025), over referanseområdet" in caption and "Opp fra 48 (12.02.2024)" in caption,
             f"three ALAT points, the text alternative with the latest value and the trend: {len(points)} {caption!r}")
    c.expect(alat.find_elements(By.CSS_SELECTOR, "polygon.lab-high") and alat.find_elements(By.CSS_SELECTOR, "rect.lab-band"),
             "the high value marked, the reference band behind")
    rows = [r.text for r in alat.find_elements(By.CSS_SELECTOR, "tbody tr")]
    c.expect(len(rows) == 3 and rows[0].startswith("17.06.2025"), f"the table beside it, newest first: {rows}")
    c.shot("17-labs")
    shot_of(c, d, "17-labs-chart", "section.lab-analysis")
    latest = [p for p in points if "17.06.2025" in (p.get_attribute("aria-label") or "")][0]
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", latest)
    try:
        latest.click()
    except WebDriverException:
        d.get(latest.get_attribute("href"))
    c.wait(lambda: d.find_elements(By.CSS_SELECTOR, "figure#verdi svg rect.chosen"), "the letter opens with the value outlined")
    chosen = d.find_element(By.CSS_SELECTOR, "figure#verdi svg rect.chosen")
    title = d.execute_script("return arguments[0].querySelector('title').textContent", chosen)
    caption = d.find_element(By.CSS_SELECTOR, "figure#verdi .chosen-caption").text
    c.expect("ALAT 82 U/L" in title and "ALAT 82 U/L (17.06.2025)" in caption, f"the outline and its caption name the value: {title!r} {caption!r}")
    # The outline lies on the value's line of the page: the ALAT row is some way down the page.
    box = [int(chosen.get_attribute(k)) for k in ("x", "y", "width", "height")]
    c.expect(box[2] > 0 and box[1] > 200, f"an outline of the value's place: {box}")
    seen = d.execute_script("const r = document.getElementById('verdi').getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0;")
    c.expect(seen, "the page with the value is in view")
    c.shot("17-labs-value-on-page")


def crawl_as_account(c, h, helper, library, member):
    """A crawler signed in as the account, in its own browser, at phone and at desktop size: it
    follows every link on every page it reaches, then asks for every other letter of the library
    at each of its addresses; no page shows a title, an id or a name of another member's letters,
    or of a letter filed to no one (checked against the library's own database)."""
    with sqlite3.connect(library / "arkivator.sqlite") as db:
        rows = db.execute("SELECT sha256, title, family_member FROM documents WHERE trashed_at IS NULL").fetchall()
    others = [(sha, title) for sha, title, owner in rows if owner != member]
    secrets = {title for _, title in others} | {sha[:10] for sha, _ in others}
    secrets |= {owner for _, _, owner in rows if owner and owner != member}
    c.expect(others and len(rows) > len(others), f"the library holds letters of others ({len(others)}) and of {member}")
    for size, label in ((PHONE, "phone"), ((1280, 800), "desktop")):
        helper.set_window_size(*size)
        seen, queue = set(), ["/", "/search?q=brev", "/search?q=time", "/api/v1/documents", "/enheter", "/review", "/upload"]
        while queue and len(seen) < 80:
            path = queue.pop(0)
            if path in seen:
                continue
            seen.add(path)
            helper.get(c.base + path)
            source = helper.page_source
            leaked = sorted(secret for secret in secrets if secret in source)
            c.expect(not leaked, f"{label}: {path} shows what is not the account's: {leaked[:3]}")
            for href in helper.execute_script("return [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))"):
                href = href.split("#")[0]
                if href.startswith("/") and not href.startswith(("/static/", "/logout")) and "/files/" not in href \
                        and not href.endswith(".ics") and href not in seen:
                    queue.append(href)
        for sha, _ in others:
            for path in (f"/documents/{sha}", f"/documents/{sha[:6]}", f"/documents/{sha}/thumbnail", f"/api/v1/documents/{sha}"):
                helper.get(c.base + path)
                source = helper.page_source
                c.expect(not any(secret in source for secret in secrets) and ("finnes ikke" in source or "notFound" in source),
                         f"{label}: {path} of another's letter answers as one that does not exist: {h.text()[:200]}")
        c.step(f"the account's crawler at {label} size: {len(seen)} pages and {len(others)} letters of others tried, nothing shown")
    helper.set_window_size(*PHONE)


def an_account_for_a_helper(c, new_browser, library):
    """The owner invites a helper who sees Siri Lund's letters only: the invite link opens a
    welcome in a second browser, which chooses a password and sees Siri's six letters and
    nothing of the household's other letters or pages; the owner's log shows what the helper
    opened; removing the account signs the helper out at once."""
    d = c.driver
    c.step("accounts: invite a helper who sees one member's letters")
    c.open("/settings")
    d.find_element(By.CSS_SELECTOR, "a[href='/kontoer']").click()
    c.wait(lambda: "Inviter en person" in c.text(), "the accounts page")
    d.find_element(By.ID, "account-name").send_keys("Mormor")
    box = [b for b in d.find_elements(By.CSS_SELECTOR, "input[name=member]") if b.get_attribute("value") == "Siri Lund"][0]
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.click()
    Select(d.find_element(By.ID, "account-role")).select_by_value("family")
    d.find_element(By.CSS_SELECTOR, "form[action='/kontoer/ny'] button[type=submit]").click()
    c.wait(lambda: d.find_elements(By.CSS_SELECTOR, "input.share-link"), "the invite link shown once")
    link = d.find_element(By.CSS_SELECTOR, "input.share-link").get_attribute("value")
    c.expect(re.fullmatch(re.escape(c.base) + r"/invitasjon/[A-Za-z0-9_-]{40,}", link) is not None, f"the invite link: {link!r}")
    d.execute_script("window.scrollTo(0, 0)")
    c.shot("14-accounts-invite")

    helper = new_browser()
    try:
        h = Check(helper, c.base, c.out, c.axe)
        c.step("the helper opens the invite, chooses a password and sees Siri's letters only")
        helper.get(link)
        h.wait(lambda: "Velkommen, Mormor" in h.text() and "Siri Lund" in h.text(), "the welcome names the member", timeout=20)
        h.shot("15-invite-welcome")
        helper.find_element(By.ID, "password").send_keys("mormors eget passord")
        helper.find_element(By.ID, "again").send_keys("mormors eget passord")
        helper.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        h.wait(lambda: "Bibliotek" in helper.title, "the helper's library", timeout=20)
        text = h.text()
        c.expect("6 dokumenter" in text and "Logg ut (Mormor)" in text, f"Siri's six letters, and who is signed in: {text[:400]}")
        c.expect(not helper.find_elements(By.CSS_SELECTOR, "a[href='/settings'], a[href='/family'], a[href='/trash'], .share-start"),
                 "no owner's menu and no sharing")
        c.expect(helper.find_elements(By.CSS_SELECTOR, "nav a[href='/review']") and helper.find_elements(By.CSS_SELECTOR, "nav a[href='/upload']"),
                 "a family account reviews and uploads")
        people = {m.text for m in helper.find_elements(By.CSS_SELECTOR, "ol.documents .meta")}
        c.expect(people and all("Siri Lund" in p for p in people), f"every letter listed is Siri's: {people}")
        h.shot("15-account-library")
        helper.find_element(By.CSS_SELECTOR, "ol.documents a").click()
        h.wait(lambda: helper.find_elements(By.ID, "text"), "a letter opens", timeout=20)
        c.expect(not helper.find_elements(By.CSS_SELECTOR, "form[action$='/delete'], form[action$='/redact']"), "no delete, no redaction")
        c.expect(helper.find_elements(By.CSS_SELECTOR, "form[action$='/edit']") and helper.find_elements(By.ID, "tekst"),
                 "a family account corrects the fields and the text")
        options = [o.get_attribute("value") for o in helper.find_elements(By.CSS_SELECTOR, "select#person option")]
        c.expect(options == ["Siri Lund"], f"the letter is filed only to the member the account sees: {options}")
        h.shot("15-account-letter")
        helper.get(c.base + "/review")
        h.wait(lambda: "Til gjennomsyn" in helper.title, "the account's review", timeout=20)
        h.shot("15-account-review")
        helper.get(c.base + "/family")
        c.expect("bare for den som eier arkivet" in h.text(), f"the household is the owner's, said plainly: {h.text()[:300]}")
        h.shot("15-account-forbidden")

        c.step("the owner's log shows what the helper opened; removing the account signs it out")
        c.open("/logg?konto=Mormor")
        log = c.text()
        c.expect("åpnet brevet" in log and "tok imot invitasjonen" in log and "Mormor" in log, f"the log: {log[:500]}")
        c.shot("14-audit-log")
        c.open("/kontoer")
        row = [r for r in d.find_elements(By.CSS_SELECTOR, "tbody tr") if "Mormor" in r.text][0]
        row.find_element(By.CSS_SELECTOR, "details summary").click()
        c.expect("Fjerne kontoen «Mormor»" in row.text, "removing asks first")
        row.find_element(By.CSS_SELECTOR, "form[action$='/fjern'] button").click()
        c.wait(lambda: "Fjernet kontoen «Mormor»" in c.text(), "the account is removed, and it says so")
        helper.get(c.base + "/")
        h.wait(lambda: "/login" in helper.current_url, "the helper is signed out at once", timeout=20)
        c.violations += h.violations
        c.checked += h.checked
    finally:
        helper.quit()


def totp_code(secret_base32, at):
    """RFC 6238's code (HMAC-SHA1, 30-second steps, 6 digits) for a base32 secret at a time."""
    key = base64.b32decode(secret_base32 + "=" * (-len(secret_base32) % 8))
    mac = hmac.new(key, struct.pack(">Q", int(at // 30)), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    return f"{(struct.unpack('>I', mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"


def early_in_a_step(left=10):
    """The time, once at least `left` seconds of the current 30-second step remain: a code of the
    step before (or this one) typed now is still inside the server's window of one step either
    side when it arrives, however slow the browser is."""
    at = time.time()
    if 30 - at % 30 < left:
        time.sleep(30 - at % 30 + 0.5)
        at = time.time()
    return at


def owner_code_devices_and_an_expired_invite(c, new_browser, arkivator, library):
    """The owner turns on the code from an app; a second browser signs in with the password, the
    code and «Husk denne enheten» (its cookie lasts 30 days); the owner sees both browsers under
    «Enheter» and signs the second one out; the code is turned off again with the password. An
    invite past its 7 days says so."""
    d = c.driver
    c.step("the owner's code from an app: turned on with the key and a first code")
    c.open("/settings/totp")
    d.find_element(By.CSS_SELECTOR, "form[action='/settings/totp/ny'] button").click()
    c.wait(lambda: d.find_elements(By.ID, "totp-key"), "the key for the app")
    secret = d.find_element(By.ID, "totp-key").text.replace(" ", "")
    c.expect(re.fullmatch(r"[A-Z2-7]{32}", secret) is not None, f"a base32 key of 20 bytes: {secret!r}")
    c.shot("16-totp-setup")
    # The code of the half minute before: the current one stays free for the sign-in below.
    d.find_element(By.ID, "kode").send_keys(totp_code(secret, early_in_a_step() - 30))
    d.find_element(By.CSS_SELECTOR, "form[action='/settings/totp/bekreft'] button").click()
    c.wait(lambda: "Koden fra appen er slått på" in c.text(), "the code is on, and it says so")

    other = new_browser()
    try:
        o = Check(other, c.base, c.out, c.axe)
        c.step("a second browser: password, then the code, and remembered for 30 days")
        other.get(c.base + "/login")
        other.find_element(By.ID, "password").send_keys(PASSWORD)
        other.find_element(By.CSS_SELECTOR, "input[name=husk]").click()
        other.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        o.wait(lambda: other.find_elements(By.ID, "kode"), "the page asks for the code", timeout=20)
        o.shot("16-code")
        other.find_element(By.ID, "kode").send_keys("000000" if totp_code(secret, time.time()) != "000000" else "111111")
        other.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        o.wait(lambda: "Koden stemmer ikke" in o.text(), "a wrong code is refused in plain words", timeout=20)
        other.find_element(By.ID, "kode").send_keys(totp_code(secret, early_in_a_step()))
        other.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        o.wait(lambda: "Bibliotek" in other.title, "signed in with the code", timeout=20)
        cookie = other.get_cookie("arkivator_okt") or {}
        days = (cookie.get("expiry", 0) - time.time()) / 86400
        c.expect(29 < days <= 30.01, f"the remembered browser keeps its cookie 30 days: {days:.2f}")

        c.step("«Enheter»: the owner signs the second browser out")
        c.open("/enheter")
        rows = d.find_elements(By.CSS_SELECTOR, "ul.devices li")
        c.expect(len(rows) >= 2 and any("(denne)" in r.text for r in rows), f"the owner's browsers: {[r.text for r in rows]}")
        c.shot("16-devices")
        [r for r in rows if "(denne)" not in r.text][0].find_element(By.CSS_SELECTOR, "form button").click()
        c.wait(lambda: "Enheten er logget ut" in c.text(), "the device is signed out, and it says so")
        other.get(c.base + "/")
        o.wait(lambda: "/login" in other.current_url, "the second browser is signed out", timeout=20)
        c.violations += o.violations
        c.checked += o.checked
    finally:
        other.quit()

    c.step("the code turned off again with the password")
    c.open("/settings/totp")
    d.find_element(By.CSS_SELECTOR, "details summary").click()
    d.find_element(By.ID, "totp-password").send_keys(PASSWORD)
    d.find_element(By.CSS_SELECTOR, "form[action='/settings/totp/av'] button").click()
    c.wait(lambda: "Koden fra appen er slått av" in c.text(), "the code is off, and it says so")

    c.step("an invite past its 7 days says so")
    made = subprocess.run([arkivator, "account", "invite", "Nabo", "--members", "Siri Lund", "--address", c.base,
                           "--library", str(library)], capture_output=True, text=True, timeout=60)
    c.expect(made.returncode == 0 and "/invitasjon/" in made.stdout, f"arkivator account invite: {made.stdout} {made.stderr}")
    with sqlite3.connect(library / "arkivator.sqlite") as db:
        db.execute("UPDATE account_invites SET expires_at = '0000000000.000'")
    c.open(urllib.parse.urlparse(made.stdout.strip().splitlines()[-1]).path)
    c.expect("Invitasjonen virker ikke" in c.text() and "Be den som inviterte deg om en ny" in c.text(),
             f"an expired invite says so: {c.text()[:300]}")
    c.shot("15-invite-expired")


def passkey_sign_in(c, new_browser):
    """A passkey through Chromium's virtual authenticator (as a phone's Face ID or fingerprint):
    added under «Enheter», then used on the sign-in page instead of the password. Opened by the
    name localhost, since a passkey belongs to a site's name, not an IP address."""
    c.step("passkey: added under «Enheter» with a virtual authenticator, then used to sign in")
    site = c.base.replace("127.0.0.1", "localhost")
    other = new_browser()
    try:
        p = Check(other, site, c.out, c.axe)
        other.execute_cdp_cmd("WebAuthn.enable", {})
        other.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
            "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
            "isUserVerified": True}})
        other.get(site + "/login")
        other.find_element(By.ID, "password").send_keys(PASSWORD)
        other.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        p.wait(lambda: "Bibliotek" in other.title, "signed in with the password at localhost", timeout=20)
        other.get(site + "/enheter")
        add = other.find_element(By.ID, "passkey-add")
        c.expect(add.is_displayed(), "«Legg til passnøkkel» is shown where the browser has passkeys")
        add.click()
        p.wait(lambda: "Passnøkkelen er lagt til" in p.text(), "the passkey is added, and it says so", timeout=30)
        p.shot("17-passkey-added")
        other.find_element(By.CSS_SELECTOR, "form[action='/logout'] button").click()
        p.wait(lambda: "/login" in other.current_url, "signed out", timeout=20)
        button = other.find_element(By.ID, "passkey-signin")
        c.expect(button.is_displayed(), "«Logg inn med passnøkkel» is shown on the sign-in page")
        p.shot("17-passkey-login")
        button.click()
        p.wait(lambda: "Bibliotek" in other.title, "signed in with the passkey, no password typed", timeout=30)
        c.violations += p.violations
        c.checked += p.checked
    finally:
        other.quit()
    c.step("the log holds one line for each of those actions, and the app has no way to change it")
    c.open("/logg")
    log = c.text()
    for said in ("med passnøkkel", "la til en passnøkkel", "slo på kode fra app", "slo av kode fra app", "logget ut en enhet",
                 "åpnet en utløpt invitasjon", "fjernet en konto", "tok imot invitasjonen", "inviterte en konto", "feil passord",
                 "åpnet brevet"):
        c.expect(said in log, f"the log says «{said}»: {log[:600]}")
    c.expect(not forms_that_send(c), "no form or button on «Logg» changes or deletes a line")
    for method in ("DELETE", "PUT", "POST", "PATCH"):
        status = c.driver.execute_script(
            "return fetch('/logg', {method: arguments[0], headers: {'X-CSRF-Token': document.querySelector('meta[name=csrf-token]').content}})"
            ".then(r => r.status)", method)
        c.expect(status in (403, 404, 405), f"{method} /logg answers {status}")


def forms_that_send(c):
    """The forms on «Logg» that send anything but a filter (GET)."""
    return [f for f in c.driver.find_elements(By.CSS_SELECTOR, "main form") if (f.get_attribute("method") or "get").lower() != "get"]


def a_reader_crawls(c, new_browser, arkivator, library):
    """A reader for Siri Lund (invited at the command line, joined in a browser of its own)
    crawls the app at both sizes (``crawl_as_account``)."""
    c.step("a reader for one member: invited at the command line, joined in its own browser")
    made = subprocess.run([arkivator, "account", "invite", "Leser", "--members", "Siri Lund", "--role", "reader", "--address", c.base,
                           "--library", str(library)], capture_output=True, text=True, timeout=60)
    c.expect(made.returncode == 0 and "/invitasjon/" in made.stdout, f"arkivator account invite: {made.stdout} {made.stderr}")
    reader = new_browser()
    try:
        r = Check(reader, c.base, c.out, c.axe)
        reader.get(made.stdout.strip().splitlines()[-1])
        r.wait(lambda: "Velkommen, Leser" in r.text(), "the reader's welcome", timeout=20)
        reader.find_element(By.ID, "password").send_keys("leserens eget passord")
        reader.find_element(By.ID, "again").send_keys("leserens eget passord")
        reader.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        r.wait(lambda: "Bibliotek" in reader.title, "the reader's library", timeout=20)
        c.expect(not reader.find_elements(By.CSS_SELECTOR, "nav a[href='/review'], nav a[href='/upload']"), "a reader neither reviews nor uploads")
        crawl_as_account(c, r, reader, library, "Siri Lund")
    finally:
        reader.quit()


def many_letters_at_once(c, arkivator, library, work):
    """Fifty letters (the library's first page, forty more filed at the command line) chosen with
    «Velg alle på siden», filed to one member in one step, then «Angre»: each letter filed as
    before. And a search kept on the library page."""
    d = c.driver
    c.step("many at once: fifty letters chosen on the page and filed to one member in one step, then undo")
    folder = work / "mange"
    folder.mkdir(exist_ok=True)
    for number in range(1, 41):
        text_pdf(folder / f"brev-{number:02d}.pdf", ["Mangeklinikken", f"Brev nummer {number} om kontroll", "",
                                                     f"Dato: {number % 28 + 1:02d}.02.2024"])
    filed = subprocess.run([arkivator, "ingest", "--library", str(library), str(folder)], capture_output=True, text=True, timeout=600,
                           env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    c.expect(filed.returncode == 0, f"forty letters filed at the command line: {filed.stderr[-400:]}")
    c.open("/")
    rows = d.find_elements(By.CSS_SELECTOR, "ol.documents li")
    # Date and person of each letter (the rest of the line says where its copy stands, which a change moves).
    filed = lambda items: {li.find_element(By.CSS_SELECTOR, "a").get_attribute("href"):
                           li.find_element(By.CSS_SELECTOR, ".meta").text.split(" · ")[:2] for li in items}
    before = filed(rows)
    d.find_element(By.CSS_SELECTOR, "details.many-tools summary").click()
    d.find_element(By.CSS_SELECTOR, "[data-select-all]").click()
    chosen = len([b for b in d.find_elements(By.CSS_SELECTOR, "input.pick") if b.is_selected()])
    c.expect(chosen == len(rows) == 50 and f"({chosen} valgt)" in c.text(), f"every letter on the page chosen: {chosen} of {len(rows)}")
    member = Select(d.find_element(By.ID, "many-person")).first_selected_option.text
    d.execute_script("window.scrollTo(0, 0)")
    c.shot("18-many-chosen")
    d.find_element(By.CSS_SELECTOR, "button[name=handling][value=person]").click()
    c.wait(lambda: f"La {chosen} brev til {member}." in c.text(), "the letters filed, and it says how many and to whom")
    metas = [m.text for m in d.find_elements(By.CSS_SELECTOR, "ol.documents .meta")]
    c.expect(all(member in m for m in metas), f"every letter shows {member}: {metas[:3]}")
    c.shot("18-many-done")
    d.find_element(By.CSS_SELECTOR, "form[action='/brev/valgte/angre'] button").click()
    c.wait(lambda: f"Angret: {chosen} brev er som før." in c.text(), "«Angre» says the letters are as before")
    after = filed(d.find_elements(By.CSS_SELECTOR, "ol.documents li"))
    c.expect(after == before, f"each letter is filed as it was before: {[(k, before[k], after.get(k)) for k in before if after.get(k) != before[k]][:3]}")

    c.step("a search kept on the library page")
    c.open("/search?q=time")
    d.find_element(By.ID, "save-name").clear()
    d.find_element(By.ID, "save-name").send_keys("Timer")
    d.find_element(By.CSS_SELECTOR, "form.save-search button").click()
    c.wait(lambda: "Søket er lagret" in c.text(), "the search is saved, and it says where")
    c.open("/")
    link = d.find_element(By.CSS_SELECTOR, "nav.saved-searches a")
    c.expect(link.text == "Timer" and "/search?q=time" in link.get_attribute("href"), f"the saved search on the library page: {link.text}")
    c.shot("18-saved-search")


def installed_app_and_a_tray_that_survives(c, work):
    """The app installs (Chromium finds no installability error: manifest, icons, service worker);
    a file shared to it lands in the tray; five pages in the tray survive a reload; a send cut by
    a lost connection waits and goes on, and a send cut by a reload goes on by itself: the five
    pages are filed once, as one letter, in the tray's order."""
    d = c.driver
    c.step("the app installs: manifest, icons and a service worker that controls the page")
    c.open("/upload")
    d.execute_async_script("const done = arguments[arguments.length - 1];"
                           "navigator.serviceWorker.ready.then(() => done(true), () => done(false));")
    c.open("/upload")
    controlled = d.execute_script("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)")
    errors = d.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
    c.expect(controlled and not errors, f"installable and controlled by the service worker: {errors}")
    manifest = d.execute_cdp_cmd("Page.getAppManifest", {})
    c.expect(not manifest.get("errors") and "share_target" in (manifest.get("data") or ""), f"the manifest: {manifest.get('errors')}")

    c.step("«Del → Arkivator»: a shared file lands in the tray")
    folder = work / "brett"
    folder.mkdir(exist_ok=True)
    text_pdf(folder / "delt.pdf", ["Delt fra telefonen", "Side fra deling"])
    shared = (folder / "delt.pdf").read_bytes()
    status = d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const data = new FormData(); data.append('pages', new File([new Uint8Array(arguments[0])], 'delt.pdf', {type: 'application/pdf'}));"
        "fetch('/del-til-arkivator', {method: 'POST', body: data}).then(r => done(r.url), e => done(String(e)));", list(shared))
    c.expect(status.endswith("/upload?delt=1"), f"the share goes to the capture page: {status}")
    c.open("/upload?delt=1")
    c.wait(lambda: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#tray-pages li .tray-info .meta")] == ["delt.pdf"],
           "the shared file is in the tray")
    c.expect("1 fil kom fra delingen" in c.text(), "the page says where it came from")
    c.shot("19-shared-into-tray")
    d.find_element(By.CSS_SELECTOR, "#tray-pages li button.delete").click()

    c.step("five pages survive a reload; a lost connection and a reload while sending lose nothing")
    paths = []
    for number in range(1, 6):
        text_pdf(folder / f"side-{number}.pdf", [f"Brev i fem deler fra Brettklinikken", f"Del nummer {number} av fem", ""])
        paths.append(str(folder / f"side-{number}.pdf"))
    c.open("/")
    before = int(re.search(r"(\d+) dokument", c.text()).group(1))
    c.open("/upload")
    d.find_element(By.ID, "files").send_keys("\n".join(paths))
    names = lambda: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#tray-pages li .tray-info .meta")]
    c.wait(lambda: len(names()) == 5, "five pages in the tray")
    order = names()
    d.refresh()
    c.wait(lambda: names() == order, "the tray after a reload: the same five pages, in the same order")
    c.shot("19-tray-after-reload")
    d.execute_cdp_cmd("Network.enable", {})
    d.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    d.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
    c.wait(lambda: "venter på nett" in c.text(), "with no network the send waits, and says so", timeout=30)
    # Back online, slowly: the send goes on, and is cut by a reload after the first page is in.
    d.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 300, "downloadThroughput": -1,
                                                           "uploadThroughput": 600})
    acknowledged = ("const done = arguments[arguments.length - 1];"
                    "window.arkivatorKeep.loadSend().then(r => done(r ? Object.values(r.uploads || {}).map(u => u.acknowledged.length) : []));")
    c.wait(lambda: sum(d.execute_async_script(acknowledged)) >= 1, "the first page acknowledged", timeout=60)
    d.refresh()
    d.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    c.wait(lambda: any("arkivert" in li.text for li in d.find_elements(By.CSS_SELECTOR, "#progress li")),
           "after the reload the send went on by itself, and the letter is filed", timeout=180)
    c.expect(not names(), "the tray is empty once the server has the pages")
    c.shot("19-sent-after-reload")
    c.open("/")
    after = int(re.search(r"(\d+) dokument", c.text()).group(1))
    c.expect(after == before + 1, f"one letter filed, once: {before} → {after}")
    c.open("/search?q=Brettklinikken")
    d.find_element(By.CSS_SELECTOR, "ol.documents a").click()
    c.wait(lambda: d.find_elements(By.ID, "text"), "the letter opens")
    text = d.find_element(By.ID, "text").text
    places = [text.find(f"Del nummer {n} av fem") for n in range(1, 6)]
    c.expect(all(p >= 0 for p in places) and places == sorted(places) and text.count("Del nummer 1 av fem") == 1,
             f"the five pages in the tray's order, each once: {places}")

    c.step("«hvert sitt brev»: a text file named like a photo is refused on its own; the good page is filed")
    (folder / "fake.jpg").write_text("Dette er ikke et bilde.\n")
    text_pdf(folder / "godt.pdf", ["Godtbrevklinikken", "Et brev som kommer fram", ""])
    c.open("/upload")
    d.find_element(By.ID, "files").send_keys(str(folder / "fake.jpg") + "\n" + str(folder / "godt.pdf"))
    c.wait(lambda: len(names()) == 2, "two pages in the tray")
    d.find_element(By.CSS_SELECTOR, "input[name=grouping][value=each]").click()
    d.find_element(By.CSS_SELECTOR, "#upload button[type=submit]").click()
    rows = lambda: {li.find_element(By.TAG_NAME, "strong").text: li.text for li in d.find_elements(By.CSS_SELECTOR, "#progress li")}
    c.wait(lambda: "arkivert" in rows().get("godt.pdf", "") and "ikke et bilde" in rows().get("fake.jpg", ""),
           "the good page filed, the text file refused with why", timeout=120)
    c.expect(names() == ["fake.jpg"], f"only the refused file stays in the tray: {names()}")
    c.shot("19-each-judged-alone")
    d.find_element(By.CSS_SELECTOR, "#tray-pages li button.delete").click()


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

    def new_browser():
        """A second, fresh Chromium session: no cookies, never signed in."""
        other = webdriver.Chrome(service=Service(driver_path), options=options)
        other.set_window_size(*PHONE)
        other.set_script_timeout(60)
        return other
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
        c.expect(any("Innkalling" in r for r in results) and all(re.search(r"\d{4}-\d{2}-\d{2}", r) and re.search(r"\d{2}\.\d{2}\.\d{4}", r) for r in results)
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

        correct_text(c, driver, a.arkivator, library)

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
        numbers_outlined_on_the_page(c)

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
        c.wait(lambda: driver.current_url == document_url and "ligger i papirkurven" not in c.text(), "back after undo")
        c.open("/")
        c.expect("3 dokumenter" in c.text(), "every letter in the library again")

        share_link_to_a_doctor(c, new_browser, a.arkivator, library)
        recrop_steps(c, driver)
        calendar_feed_and_appointment_correction(c, driver)

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
        timeline_of_a_member(c, work)
        lab_values_over_time(c, work, a.arkivator, library)
        an_account_for_a_helper(c, new_browser, library)
        a_reader_crawls(c, new_browser, a.arkivator, library)
        owner_code_devices_and_an_expired_invite(c, new_browser, a.arkivator, library)
        passkey_sign_in(c, new_browser)
        many_letters_at_once(c, a.arkivator, library, work)
        installed_app_and_a_tray_that_survives(c, work)
        capture(c, driver, base)
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
