#!/usr/bin/env python3
"""Web app speed on a large library (Python 3.11, standard library only); `make bench` runs it on the
100,000-letter library that scripts/bench/search_bench.py makes.

Usage:
    python3 scripts/bench/web_bench.py --arkivator .build/release/arkivator --library .bench/search/library \\
        [--runs 200] [--clients 30] [--letter PAGE.jpg ...]

Sets a password on the library (`serve --set-password`), starts `arkivator serve` on a free port and
signs in. Then:

1. Alone: the library's first page and page 1,000 (p95 <= 50 ms each), a filtered page, a search with
   a filter, one document, the timeline of the household member with the most letters (p95 <= 50 ms;
   the member is added to the household first when the library has letters filed under a name it
   does not list), and «Prøvesvar» of a member with 200 lab results (p95 <= 50 ms: «Prøvesvar Benk»
   is added and given 200 lab results filed to no one, with «Velg» as a person does; the values of
   the library's letters filed before values were kept are read by serve in the background first,
   and the bench waits for that), RUNS requests each, one at a time.
2. As an account for 2 of the 4 household members with the most letters (`arkivator account
   invite`, the invite taken over HTTP): the library's first page, a search and the timeline of one
   of its members, RUNS requests each (p95 <= 50 ms each): what a helper who sees part of the
   family waits for.
3. Together: CLIENTS clients at once, each on its own connection, open library pages, searches and
   documents without pause while a 10-page letter is uploaded and filed and a backup of the database
   is downloaded. Target: p95 <= 100 ms, slowest <= 1 s, no errors. Each client also fetches the
   thumbnails a page shows, as a browser does (each address once: the browser keeps them); their
   times are printed on a line of their own against the same targets.

Before starting, every letter is given a thumbnail, as in a household's library: one letter from
samples/ is filed (`arkivator ingest`), and its thumbnail stands in for the letters that have none.

Prints each figure against its target. Exit status 0 (also when a target is missed: the line says
MISS), 1 when the server fails, 2 when the library or the binary is missing.
"""
import argparse
import http.client
import random
import re
import socket
import sqlite3
import statistics
import struct
import subprocess
import sys
import threading
import time
import urllib.parse
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test"))
from localserver import free_port, wait_for_port  # noqa: E402

PASSWORD = "benk passord 1234"
ALONE_P95_MS = 50.0
TOGETHER_P95_MS = 100.0
TOGETHER_MAX_MS = 1000.0
REPO = Path(__file__).resolve().parents[2]


class Client:
    """One keep-alive connection, as a browser keeps one."""

    def __init__(self, port, cookie=None, csrf=None):
        self.port, self.cookie, self.csrf = port, cookie, csrf
        self.connection = None

    def request(self, method, path, body=None, headers=None, timeout=120):
        all_headers = dict(headers or {})
        if self.cookie:
            all_headers["Cookie"] = self.cookie
        if self.csrf and method != "GET":
            all_headers["X-CSRF-Token"] = self.csrf
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            try:
                self.connection.request(method, path, body=body, headers=all_headers)
                response = self.connection.getresponse()
                data = response.read()
                return response.status, response, data
            except (http.client.HTTPException, ConnectionError, OSError):
                self.connection.close()
                self.connection = None
                if attempt == 1:
                    raise
        raise AssertionError("unreachable")


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def timed(client, path):
    start = time.perf_counter()
    status, _, data = client.request("GET", path)
    return status, (time.perf_counter() - start) * 1000, data


def verdict(value, target):
    return "PASS" if value <= target else "MISS"


def alone(client, paths, runs):
    print(f"web bench, alone: {runs} requests each, one at a time")
    print(f"  {'page':34s} {'p50 ms':>8s} {'p95 ms':>8s} {'p99 ms':>8s} {'max ms':>8s}")
    for label, path, target in paths:
        times = []
        for _ in range(runs):
            status, ms, _ = timed(client, path)
            if status != 200:
                raise AssertionError(f"{path} answered {status}")
            times.append(ms)
        p95 = percentile(times, 0.95)
        line = (f"  {label:34s} {statistics.median(times):8.1f} {p95:8.1f} {percentile(times, 0.99):8.1f} "
                f"{max(times):8.1f}")
        if target:
            line += f"   target p95 <= {target:g} ms: {verdict(p95, target)}"
        print(line, flush=True)


def unique(page, nonce):
    """The page's bytes with a comment holding `nonce` (a JPEG COM segment after SOI, a PNG tEXt
    chunk after IHDR): the same picture, but a letter the library has not seen, so it is read."""
    data = page.read_bytes()
    text = f"arkivator web bench {nonce}".encode()
    if data[:2] == b"\xff\xd8":
        return data[:2] + b"\xff\xfe" + struct.pack(">H", len(text) + 2) + text + data[2:]
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        chunk = b"tEXt" + b"Comment\x00" + text
        body = struct.pack(">I", len(chunk) - 4) + chunk + struct.pack(">I", zlib.crc32(chunk) & 0xFFFFFFFF)
        end_of_header = 8 + 8 + struct.unpack(">I", data[8:12])[0] + 4
        return data[:end_of_header] + body + data[end_of_header:]
    return data


def upload_letter(port, cookie, csrf, pages):
    """Uploads PAGES as one letter through the API (each page made new, so the letter is read
    and filed, not found a duplicate) and waits until it is filed; returns seconds."""
    nonce = f"{time.time_ns()}-{random.random()}"
    client = Client(port, cookie, csrf)
    start = time.perf_counter()
    status, _, data = client.request("POST", "/api/v1/uploads")
    if status != 201:
        raise AssertionError(f"upload: {status} {data[:200]!r}")
    upload = re.search(rb'"id":"([0-9a-f]+)"', data).group(1).decode()
    for number, page in enumerate(pages, 1):
        status, _, data = client.request("PUT", f"/api/v1/uploads/{upload}/pages/{number}", body=unique(page, f"{nonce}-{number}"))
        if status != 200:
            raise AssertionError(f"page {number}: {status} {data[:200]!r}")
    status, _, _ = client.request("POST", f"/api/v1/uploads/{upload}/done")
    if status != 200:
        raise AssertionError(f"done: {status}")
    while True:
        status, _, data = client.request("GET", f"/api/v1/uploads/{upload}")
        state = re.search(rb'"status":"([a-z]+)"', data).group(1).decode()
        if state in ("done", "duplicate", "failed"):
            return time.perf_counter() - start, state
        time.sleep(0.5)


def download_backup(port, cookie):
    client = Client(port, cookie)
    start = time.perf_counter()
    status, response, data = client.request("GET", "/settings/backup", timeout=600)
    if status != 200 or not data.startswith(b"SQLite format 3"):
        raise AssertionError(f"backup: {status}")
    return time.perf_counter() - start, len(data)


THUMBNAIL = re.compile(rb'src="(/documents/[0-9a-f]+/thumbnail[^"]*)"')


def give_thumbnails(arkivator, library):
    """Every letter gets a thumbnail: one sample letter is filed (its thumbnail made as filing makes
    it), and that picture stands in for each letter without one. Returns how many letters have one."""
    database_path = library / "arkivator.sqlite"
    with sqlite3.connect(database_path) as database:
        columns = [row[1] for row in database.execute("PRAGMA table_info(documents)")]
        made = "thumbnail" in columns and database.execute(
            "SELECT 1 FROM documents WHERE thumbnail IS NOT NULL AND thumbnail != '' LIMIT 1").fetchone()
    if not made:
        subprocess.run([arkivator, "ingest", "--library", str(library), str(REPO / "samples" / "labsvar-ren.png")],
                       check=True, capture_output=True)
    with sqlite3.connect(database_path) as database:
        stored = database.execute("SELECT thumbnail FROM documents WHERE thumbnail IS NOT NULL AND thumbnail != '' LIMIT 1").fetchone()
        if stored is None:
            raise AssertionError("no thumbnail was made for the sample letter")
        database.execute("UPDATE documents SET thumbnail = ? WHERE thumbnail IS NULL OR thumbnail = ''", stored)
        return database.execute("SELECT count(*) FROM documents WHERE thumbnail IS NOT NULL").fetchone()[0]


def timeline_member(arkivator, library):
    """The household member with the most letters, as (id, name, letters); added to the household
    when only the letters name them. None when no letter is filed under a member."""
    database_path = library / "arkivator.sqlite"
    with sqlite3.connect(database_path) as database:
        top = database.execute("SELECT family_member, count(*) FROM documents WHERE trashed_at IS NULL "
                               "AND family_member IS NOT NULL GROUP BY family_member ORDER BY 2 DESC LIMIT 1").fetchone()
    if top is None:
        return None
    name, letters = top

    def member_id():
        with sqlite3.connect(database_path) as database:
            row = database.execute("SELECT id FROM family WHERE name = ?", (name,)).fetchone()
        return row[0] if row else None
    if member_id() is None:
        subprocess.run([arkivator, "family", "add", name, "--library", str(library)], check=True, capture_output=True)
    return member_id(), name, letters


LAB_MEMBER = "Prøvesvar Benk"


def lab_letters(arkivator, library, letters):
    """The lab results filed to no household member that «Prøvesvar Benk» is given (the oldest
    `letters` of them), with the member added to the household first; empty when the member has
    them already."""
    database_path = library / "arkivator.sqlite"
    with sqlite3.connect(database_path) as database:
        if database.execute("SELECT 1 FROM family WHERE name = ?", (LAB_MEMBER,)).fetchone() is None:
            subprocess.run([arkivator, "family", "add", LAB_MEMBER, "--library", str(library)], check=True, capture_output=True)
        held = database.execute("SELECT count(*) FROM documents WHERE family_member = ? AND doc_type = 'lab-svar' "
                                "AND trashed_at IS NULL", (LAB_MEMBER,)).fetchone()[0]
        if held >= letters:
            return []
        return [row[0] for row in database.execute(
            "SELECT sha256 FROM documents WHERE family_member IS NULL AND doc_type = 'lab-svar' AND trashed_at IS NULL "
            "ORDER BY document_date, id LIMIT ?", (letters - held,))]


def lab_page(client, csrf, library, letters):
    """Files the letters to «Prøvesvar Benk» as a person would («Velg», up to 200 a request), waits
    until serve has read the lab values of every letter filed before they were kept, and returns the
    member's «Prøvesvar» address with the number of lab letters and values it shows."""
    for start in range(0, len(letters), 200):
        body = urllib.parse.urlencode([("_csrf", csrf), ("handling", "person"), ("person", LAB_MEMBER), ("tilbake", "/")]
                                      + [("id", sha) for sha in letters[start:start + 200]])
        status, _, _ = client.request("POST", "/brev/valgte", body=body,
                                      headers={"Content-Type": "application/x-www-form-urlencoded"})
        if status != 303:
            raise AssertionError(f"filing lab results to {LAB_MEMBER} answered {status}")
    database_path = library / "arkivator.sqlite"
    started = time.monotonic()
    with sqlite3.connect(database_path) as database:
        first = database.execute("SELECT count(*) FROM lab_values_pending").fetchone()[0]
    while True:
        with sqlite3.connect(database_path) as database:
            left = database.execute("SELECT count(*) FROM lab_values_pending").fetchone()[0]
        if left == 0:
            break
        if time.monotonic() - started > 1800:
            raise AssertionError(f"serve still reads the lab values of {left} letters after 30 minutes")
        time.sleep(1)
    if first:
        print(f"web bench: serve read the lab values of {first} letters filed before they were kept, in the background, "
              f"in {time.monotonic() - started:.0f} s", flush=True)
    with sqlite3.connect(database_path) as database:
        member = database.execute("SELECT id FROM family WHERE name = ?", (LAB_MEMBER,)).fetchone()[0]
        lab, values = database.execute(
            "SELECT count(DISTINCT d.id), count(v.id) FROM documents d LEFT JOIN lab_values v ON v.document_id = d.id "
            "WHERE d.family_member = ? AND d.doc_type IN ('lab-svar', 'epikrise') AND d.trashed_at IS NULL", (LAB_MEMBER,)).fetchone()
    return f"/family/{member}/provesvar", lab, values


def together(port, cookie, csrf, paths, clients, letter):
    times, thumbnail_times, errors, lock = [], [], [], threading.Lock()
    stop = threading.Event()

    def browse(seed):
        rng = random.Random(seed)
        client = Client(port, cookie)
        kept = set()  # the thumbnails this browser has (they are sent to be kept for good)
        while not stop.is_set():
            label, path = rng.choice(paths)
            try:
                status, ms, page = timed(client, path)
                with lock:
                    times.append(ms)
                    if status != 200:
                        errors.append(f"{path}: {status}")
                for address in THUMBNAIL.findall(page):
                    address = address.decode()
                    if address in kept or stop.is_set():
                        continue
                    kept.add(address)
                    status, ms, _ = timed(client, address)
                    with lock:
                        thumbnail_times.append(ms)
                        if status != 200:
                            errors.append(f"{address}: {status}")
            except Exception as error:  # noqa: BLE001 - every failure counts as an error
                with lock:
                    errors.append(f"{path}: {error}")

    threads = [threading.Thread(target=browse, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    outcome = {}

    def job(name, work):
        try:
            outcome[name] = work()
        except Exception as error:  # noqa: BLE001
            outcome[name] = error

    time.sleep(1)
    workers = [threading.Thread(target=job, args=("letter", lambda: upload_letter(port, cookie, csrf, letter))),
               threading.Thread(target=job, args=("backup", lambda: download_backup(port, cookie)))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    time.sleep(1)
    stop.set()
    for thread in threads:
        thread.join()
    for name in ("letter", "backup"):
        if isinstance(outcome.get(name), Exception):
            raise AssertionError(f"{name}: {outcome[name]}")
    filed_seconds, state = outcome["letter"]
    backup_seconds, backup_bytes = outcome["backup"]
    p95, slowest = percentile(times, 0.95), max(times)
    print(f"web bench, together: {clients} clients, {len(times)} requests while a {len(letter)}-page letter was filed "
          f"({state} after {filed_seconds:.1f} s) and a {backup_bytes / 1e6:.0f} MB backup downloaded ({backup_seconds:.1f} s)")
    print(f"  p50 {statistics.median(times):.1f} ms, p95 {p95:.1f} ms (target <= {TOGETHER_P95_MS:g}: "
          f"{verdict(p95, TOGETHER_P95_MS)}), max {slowest:.1f} ms (target <= {TOGETHER_MAX_MS:g}: "
          f"{verdict(slowest, TOGETHER_MAX_MS)}), errors {len(errors)} (target 0: {'PASS' if not errors else 'MISS'})")
    if thumbnail_times:
        p95, slowest = percentile(thumbnail_times, 0.95), max(thumbnail_times)
        print(f"  thumbnails the pages showed: {len(thumbnail_times)} fetched, p50 {statistics.median(thumbnail_times):.1f} ms, "
              f"p95 {p95:.1f} ms (target <= {TOGETHER_P95_MS:g}: {verdict(p95, TOGETHER_P95_MS)}), max {slowest:.1f} ms "
              f"(target <= {TOGETHER_MAX_MS:g}: {verdict(slowest, TOGETHER_MAX_MS)})")
    else:
        print("  thumbnails the pages showed: none fetched (MISS: the pages show no thumbnails)")
    for error in errors[:5]:
        print(f"  error: {error}")


def account_paths(arkivator, library, port):
    """Signs in as an account that sees 2 of the 4 household members with the most letters (the
    members added first when only the letters name them); its client and the paths it opens.
    None when the library has fewer than 4 members with letters."""
    database_path = library / "arkivator.sqlite"
    with sqlite3.connect(database_path) as database:
        top = [row[0] for row in database.execute(
            "SELECT family_member, count(*) FROM documents WHERE trashed_at IS NULL AND family_member IS NOT NULL "
            "GROUP BY family_member ORDER BY 2 DESC LIMIT 4")]
        known = {row[0] for row in database.execute("SELECT name FROM family")}
    if len(top) < 4:
        return None
    for name in top:
        if name not in known:
            subprocess.run([arkivator, "family", "add", name, "--library", str(library)], check=True, capture_output=True)
    seen = [top[1], top[3]]
    subprocess.run([arkivator, "account", "remove", "Benk", "--library", str(library)], capture_output=True)
    made = subprocess.run([arkivator, "account", "invite", "Benk", "--members", ",".join(seen), "--address", f"http://127.0.0.1:{port}",
                           "--library", str(library)], check=True, capture_output=True, text=True)
    invite = urllib.parse.urlparse(made.stdout.strip().splitlines()[-1]).path
    taker = Client(port)
    body = "password=" + urllib.parse.quote_plus(PASSWORD) + "&again=" + urllib.parse.quote_plus(PASSWORD)
    status, response, _ = taker.request("POST", invite, body=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
    cookie = (response.getheader("Set-Cookie") or "").split(";")[0]
    if status != 303 or not cookie:
        raise AssertionError(f"the account's invite was not taken ({status})")
    with sqlite3.connect(database_path) as database:
        member = database.execute("SELECT id FROM family WHERE name = ?", (seen[0],)).fetchone()[0]
        letters = database.execute("SELECT count(*) FROM documents WHERE trashed_at IS NULL AND family_member IN (?, ?)",
                                   seen).fetchone()[0]
    print(f"web bench: as an account that sees {seen[0]} and {seen[1]} ({letters} letters) of the 4 members")
    return Client(port, cookie), [
        ("account: library, first page", "/", ALONE_P95_MS),
        ("account: search «blodprøve»", "/search?q=blodpr%C3%B8ve", ALONE_P95_MS),
        ("account: timeline", f"/family/{member}/timeline", ALONE_P95_MS)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkivator", required=True)
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--clients", type=int, default=30)
    ap.add_argument("--letter", type=Path, nargs="*",
                    help="the pages of the letter filed meanwhile (default: the samples' pages, to ten)")
    a = ap.parse_args()
    if not (a.library / "arkivator.sqlite").exists():
        print(f"web bench: no library at {a.library} (run scripts/bench/search_bench.py first)", file=sys.stderr)
        return 2
    letter = a.letter or [REPO / "samples" / name for name in
                          ["epikrise-skann_p1.jpg", "epikrise-skann_p2.jpg", "innkalling-foto.jpg", "labsvar-ren.png"]]
    letter = (letter * 10)[:10]
    with_thumbnails = give_thumbnails(a.arkivator, a.library)
    member = timeline_member(a.arkivator, a.library)
    to_file = lab_letters(a.arkivator, a.library, 200)
    subprocess.run([a.arkivator, "serve", "--set-password", "--library", str(a.library)], input=PASSWORD + "\n",
                   text=True, check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen([a.arkivator, "serve", "--library", str(a.library), "--listen", f"127.0.0.1:{port}",
                               "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, seconds=30)
        signer = Client(port)
        status, response, _ = signer.request("POST", "/login", body="password=" + urllib.parse.quote_plus(PASSWORD),
                                             headers={"Content-Type": "application/x-www-form-urlencoded"})
        cookie = (response.getheader("Set-Cookie") or "").split(";")[0]
        if status != 303 or not cookie:
            print(f"web bench: sign-in failed ({status})", file=sys.stderr)
            return 1
        client = Client(port, cookie)
        _, _, home = client.request("GET", "/")
        home = home.decode("utf-8", "replace")
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', home).group(1)
        total = int(re.search(r"(\d+) dokument", home).group(1))
        with sqlite3.connect(a.library / "arkivator.sqlite") as database:
            documents = [row[0] for row in database.execute(
                "SELECT sha256 FROM documents WHERE trashed_at IS NULL ORDER BY random() LIMIT 50")]
        deep = min(1000, max(1, total // 50))
        paths = [("library, first page", "/", ALONE_P95_MS),
                 (f"library, page {deep}", f"/?side={deep}", ALONE_P95_MS),
                 ("library, type epikrise", "/?type=epikrise", None),
                 ("search «blodprøve», type lab-svar", "/search?q=blodpr%C3%B8ve&type=lab-svar", None),
                 ("one document", f"/documents/{documents[0]}", None)]
        if member:
            paths.append((f"timeline of {member[2]} letters", f"/family/{member[0]}/timeline", ALONE_P95_MS))
        labs, lab_count, value_count = lab_page(client, csrf, a.library, to_file)
        paths.append((f"«Prøvesvar», {lab_count} lab letters", labs, ALONE_P95_MS))
        print(f"web bench: «Prøvesvar» of {LAB_MEMBER}: {lab_count} lab letters, {value_count} values")
        print(f"web bench: {total} documents, {with_thumbnails} with a thumbnail")
        alone(client, paths, a.runs)
        helper = account_paths(a.arkivator, a.library, port)
        if helper:
            alone(helper[0], helper[1], a.runs)
        mixed = [("library", "/"), ("library deep", f"/?side={deep // 2}"), ("filtered", "/?type=epikrise"),
                 ("search", "/search?q=blodpr%C3%B8ve"), ("search filtered", "/search?q=kontroll&type=innkalling")]
        mixed += [("document", f"/documents/{sha}") for sha in documents[:10]]
        if member:
            mixed.append(("timeline", f"/family/{member[0]}/timeline"))
        together(port, cookie, csrf, mixed, a.clients, letter)
        return 0
    except AssertionError as failure:
        print(f"web bench: {failure}", file=sys.stderr)
        return 1
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    sys.exit(main())
