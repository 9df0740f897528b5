#!/usr/bin/python3
"""Settings' copy section in a real browser, as a household sees it: letters filed before a copy
is set up, then a folder set as the destination (the whole archive goes there, with progress),
«Sjekk kopien» after a file went missing there and a stranger file was put there, «Rett opp
kopien», and a WebDAV server that stops in the middle of a copy (progress with the reason).

Usage:
    /usr/bin/python3 scripts/test/settings_copy_shots.py --arkivator .build/debug/arkivator [--out .test-artifacts/settings-copy]

Screenshots at desktop (1280x800) and phone (390x844) size in OUT, each page checked by axe-core
as the browser test checks it (scripts/test/browser_test.py, whose helpers this uses). Exit
status 0 when every step held, 1 with the failing step named, 2 when Chromium, selenium or
axe-core is missing. About a minute.
"""

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("browser_test", HERE / "browser_test.py")
bt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bt)
By, webdriver, Service = bt.By, bt.webdriver, bt.Service


def letters(folder, count):
    """COUNT one-page letters with their own text (read without OCR: quick to file)."""
    folder.mkdir(parents=True)
    for n in range(count):
        day = 1 + n % 28
        bt.text_pdf(folder / f"brev-{n:02d}.pdf", [
            "Vestvik sykehus", "Poliklinikk for hud", "", f"Dato: {day:02d}.03.2024", "",
            f"Innkalling til kontroll nr. {n + 1}", "",
            f"Du har time {day:02d}.04.2024 kl. 10:{n % 60:02d} ved Poliklinikk for hud.",
            "Ta med liste over medisiner du bruker.", "", "Med vennlig hilsen", "Vestvik sykehus"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkivator", default=str(bt.REPO / ".build/debug/arkivator"))
    ap.add_argument("--out", type=Path, default=bt.REPO / ".test-artifacts/settings-copy")
    ap.add_argument("--letters", type=int, default=12)
    a = ap.parse_args()
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    axe = bt.axe_source()
    if not chromium or not driver_path or axe is None:
        print("settings shots: chromium, chromium-driver or axe-core is missing", file=sys.stderr)
        return 2
    a.out.mkdir(parents=True, exist_ok=True)
    for old in a.out.glob("*.png"):
        old.unlink()
    work = Path(tempfile.mkdtemp(prefix="arkivator-settings-"))
    library, port = work / "bibliotek", bt.free_port()
    env = dict(os.environ, OMP_THREAD_LIMIT="1", LANG="nb_NO.UTF-8")
    letters(work / "brev", a.letters)
    subprocess.run([a.arkivator, "ingest", "--library", str(library), str(work / "brev")], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    log = open(a.out / "serve.log", "w")
    server = subprocess.Popen([a.arkivator, "serve", "--library", str(library), "--listen", f"127.0.0.1:{port}"],
                              stdout=log, stderr=subprocess.STDOUT, env=env)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=nb-NO"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": "nb-NO,nb"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_window_size(*bt.PHONE)
    driver.set_script_timeout(60)
    c = bt.Check(driver, f"http://127.0.0.1:{port}", a.out, axe)
    dav = None
    try:
        bt.wait_for_port(port)
        c.step("first run: the password")
        c.open("/")
        log.flush()
        code = re.search(r"[A-Z0-9]{4}-[A-Z0-9]{4}", (a.out / "serve.log").read_text())
        c.expect(code is not None, "serve printed the one-time code")
        driver.find_element(By.ID, "code").send_keys(code.group(0))
        driver.find_element(By.ID, "password").send_keys(bt.PASSWORD)
        driver.find_element(By.ID, "again").send_keys(bt.PASSWORD)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        c.wait(lambda: "Bibliotek" in driver.title, "the library after the password")

        c.step(f"{a.letters} letters filed, then a folder set: the whole archive goes there")
        c.open("/settings")
        c.shot("21-settings-off")
        copies = work / "kopier"
        copies.mkdir()
        driver.find_element(By.CSS_SELECTOR, "input[name=kind][value=folder]").click()
        driver.find_element(By.ID, "folder-path").send_keys(str(copies))
        driver.find_element(By.CSS_SELECTOR, "form[action='/settings/destination'] button").click()
        c.wait(lambda: "Hele arkivet" in c.text(), "the page says the whole archive is being copied")
        c.shot("22-settings-copying")
        print("settings shots: after saving: " + " | ".join(
            e.text for e in driver.find_elements(By.CSS_SELECTOR, "#copy p")), flush=True)

        def all_copied():
            c.open("/settings")
            return f"Alle {a.letters} brev er kopiert" in c.text()
        c.wait(all_copied, "every letter copied by the background loop", timeout=60)
        c.shot("23-settings-all-copied")

        c.step("a file gone from the destination, a stranger file put there: «Sjekk kopien»")
        docx = sorted(copies.rglob("*.docx"))
        c.expect(len(docx) == a.letters, f"{a.letters} .docx in the folder: {len(docx)}")
        docx[0].unlink()
        (copies / "handleliste.txt").write_text("melk, brød\n")
        driver.find_element(By.CSS_SELECTOR, "form[action^='/settings/copy/check'] button").click()
        c.wait(lambda: "Mangler: 1" in c.text(), "the check counts the missing file")
        c.expect("Rett opp kopien" in c.text() and "blir aldri rørt" in c.text(), "one button to repair; strangers left alone")
        c.shot("24-settings-check")
        driver.find_element(By.CSS_SELECTOR, "form[action='/settings/copy/repair'] button").click()
        c.wait(lambda: "Kopien rettes opp" in c.text(), "the repair under way")
        c.shot("25-settings-repairing")
        c.wait(all_copied, "every letter copied again", timeout=60)
        driver.find_element(By.CSS_SELECTOR, "form[action^='/settings/copy/check'] button").click()
        c.wait(lambda: "slik arkivet har dem" in c.text(), "the check finds the copy in line")
        c.expect(docx[0].exists() and (copies / "handleliste.txt").exists(), "the file back, the stranger file untouched")
        c.shot("26-settings-in-line")

        c.step("a WebDAV server that stops during the copy: progress, with the reason")
        dav_port = bt.free_port()
        (work / "dav" / "Arkiv").mkdir(parents=True)
        dav = subprocess.Popen(["rclone", "serve", "webdav", "--addr", f"127.0.0.1:{dav_port}", str(work / "dav")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        bt.wait_for_port(dav_port)
        c.open("/settings")
        driver.find_element(By.CSS_SELECTOR, "input[name=kind][value=webdav]").click()
        driver.find_element(By.ID, "webdav-url").send_keys(f"http://127.0.0.1:{dav_port}/Arkiv")
        driver.find_element(By.CSS_SELECTOR, "form[action='/settings/destination'] button").click()
        dav.terminate()
        dav.wait(10)
        dav = None
        c.wait(lambda: "Hele arkivet" in c.text(), "the WebDAV destination saved")

        def held_up():
            c.open("/settings")
            return driver.find_elements(By.CSS_SELECTOR, "#main p.problem[role=status]")
        c.wait(held_up, "Settings says why the copies wait", timeout=60)
        c.shot("27-settings-waiting")
        print("settings shots: held up: " + " | ".join(
            e.text for e in driver.find_elements(By.CSS_SELECTOR, "#upload ~ p, #copy p")[:6]), flush=True)
        c.step(f"accessibility: {c.checked} pages checked by axe-core; of minor or moderate impact: "
               + (", ".join(f"{k} ({v})" for k, v in sorted(c.lesser.items())) or "none"))
        if c.violations:
            for violation in c.violations:
                print("  " + violation, file=sys.stderr)
            raise AssertionError(f"{len(c.violations)} accessibility violations (listed above)")
        print(f"settings shots: every step held; screenshots in {a.out}")
        return 0
    except AssertionError as failure:
        print(f"settings shots: FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        if dav:
            dav.terminate()
        driver.quit()
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
