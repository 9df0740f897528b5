#!/usr/bin/python3
"""The web app in a real browser: headless Chromium (Debian's) driven by selenium on a real
`arkivator serve`, as a household uses it.

Usage (what `make test` runs):
    /usr/bin/python3 scripts/test/browser_test.py --arkivator .build/debug/arkivator [--out .test-artifacts/browser]

Steps: choose the password on the first-run page, sign out and in again (a wrong password first), upload two photos from samples/ (each its own
letter) and wait until both are filed, add a household member, correct the person of the lab
result in review, search, open the document and copy its text, delete it and undo. A screenshot
of each page is saved in OUT at desktop (1280x800) and phone (390x844) size. Exit status 0 when
every step held, 1 with the failing step named, 2 when Chromium or selenium is missing.
"""

import argparse
import re
import json
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
    from selenium.webdriver.common.action_chains import ActionChains
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


class Check:
    def __init__(self, driver, base, out):
        self.driver, self.base, self.out = driver, base, out

    def step(self, name):
        print(f"browser test: {name}", flush=True)

    def open(self, path):
        self.driver.get(self.base + path)

    def shot(self, name):
        # The test runs on a phone-sized screen; each page is also photographed at desktop size.
        for label, (w, h) in (("desktop", (1280, 800)), ("phone", PHONE)):
            self.driver.set_window_size(w, h)
            time.sleep(0.2)
            self.driver.save_screenshot(str(self.out / f"{name}-{label}.png"))
        self.driver.set_window_size(*PHONE)

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
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_window_size(*PHONE)
    c = Check(driver, base, a.out)
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

        recrop_steps(c, driver)

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
