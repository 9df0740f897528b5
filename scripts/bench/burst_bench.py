#!/usr/bin/env python3
"""A burst of heavy requests from one signed-in client (issue 38): 40 share links (5 letters each),
40 re-reads of a page and 40 page uploads of 60 MB, all sent at once, while another client signs
in and a third opens the library's first page again and again.

Usage:
    python3 scripts/bench/burst_bench.py --arkivator .build/release/arkivator [--count 40]

Files the samples into a fresh library (copies of them, so there are letters enough to share),
sets a password, starts `arkivator serve` on a free port and sends the burst. Prints one line per
figure with its target, PASS or MISS:
- serve's peak memory (VmHWM) during the burst: at most 600 MB;
- every request answered: done, or refused as busy (503 «opptatt»); none failing otherwise, none
  lost (each answered page upload is in the upload's folder);
- a sign-in from another client during the burst: at most 1 s;
- the library's first page during the burst: p95 at most 100 ms.
Exit status 0 when it ran (whatever the verdicts), 1 when the server failed.
"""

import argparse
import http.client
import os
import re
import shutil
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib
from pathlib import Path

from web_bench import free_port, percentile, wait_for_port  # the same helpers

PASSWORD = "burst passord 1234"
PEAK_MB = 600
SIGN_IN_S = 1.0
FIRST_PAGE_P95_MS = 100.0
REPO = Path(__file__).resolve().parents[2]


def request(port, method, path, body=None, headers=None, timeout=900):
    """One request on a connection of its own: (status, headers, body); status 0 when the
    connection failed (the request was lost)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response, response.read()
    except (http.client.HTTPException, OSError):
        return 0, None, b""
    finally:
        connection.close()


def big_png(megabytes, seed):
    """A valid PNG of about MEGABYTES (grey noise, stored without compression)."""
    width = 4000
    height = megabytes * 1024 * 1024 // (width + 1)
    raw = bytearray()
    noise = os.urandom(width)
    for y in range(height):
        raw += b"\x00" + noise[y % 97:] + noise[:y % 97]
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"tEXt", b"seed\x00" + str(seed).encode())
            + chunk(b"IDAT", zlib.compress(bytes(raw), 0)) + chunk(b"IEND", b""))


def peak_rss_mb(pid):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def verdict(ok):
    return "PASS" if ok else "MISS"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkivator", default=str(REPO / ".build/release/arkivator"))
    ap.add_argument("--count", type=int, default=40, help="share links, re-reads and page uploads each (default 40)")
    ap.add_argument("--megabytes", type=int, default=60, help="size of each uploaded page")
    a = ap.parse_args()
    env = dict(os.environ, LANG="nb_NO.UTF-8")
    work = Path(tempfile.mkdtemp(prefix="arkivator-burst-"))
    server = None
    try:
        library = work / "bibliotek"
        letters = work / "brev"
        letters.mkdir()
        # Eight copies of each photographed sample, each made unique (a byte after the image's
        # end), so there are letters enough to share.
        for copy in range(8):
            for sample in ["innkalling-foto.jpg", "epikrise-skann_p1.jpg"]:
                (letters / f"{copy}-{sample}").write_bytes((REPO / "samples" / sample).read_bytes() + bytes([copy]))
        subprocess.run([a.arkivator, "ingest", "--library", str(library), "--jobs", "2", str(letters)], env=env, check=True,
                       capture_output=True)
        with sqlite3.connect(library / "arkivator.sqlite") as database:
            documents = [row[0] for row in database.execute("SELECT sha256 FROM documents WHERE trashed_at IS NULL ORDER BY id")]
        subprocess.run([a.arkivator, "serve", "--set-password", "--library", str(library)], input=PASSWORD + "\n",
                       text=True, check=True, capture_output=True, env=env)
        port = free_port()
        server = subprocess.Popen([a.arkivator, "serve", "--library", str(library), "--listen", f"127.0.0.1:{port}",
                                   "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        wait_for_port(port, seconds=30)

        def sign_in():
            status, response, _ = request(port, "POST", "/login", body="password=" + urllib.parse.quote_plus(PASSWORD),
                                          headers={"Content-Type": "application/x-www-form-urlencoded"})
            return status, ((response.getheader("Set-Cookie") or "").split(";")[0] if response else "")

        status, cookie = sign_in()
        if status != 303 or not cookie:
            print(f"burst bench: sign-in failed ({status})", file=sys.stderr)
            return 1
        _, _, home = request(port, "GET", "/", headers={"Cookie": cookie})
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', home.decode("utf-8", "replace")).group(1)
        heads = {"Cookie": cookie, "X-CSRF-Token": csrf}
        form = dict(heads, **{"Content-Type": "application/x-www-form-urlencoded"})
        print(f"burst bench: {len(documents)} letters; making {a.count} pages of {a.megabytes} MB", flush=True)
        pages = [big_png(a.megabytes, n) for n in range(min(a.count, 4))]
        uploads = []
        for _ in range(a.count):
            status, _, data = request(port, "POST", "/api/v1/uploads", headers=heads)
            uploads.append(re.search(rb'"id":"([0-9a-f]+)"', data).group(1).decode() if status == 201 else None)

        results = {"share": [], "reread": [], "upload": []}
        lock = threading.Lock()

        def share(n):
            ids = "&".join("id=" + documents[(n * 5 + k) % len(documents)] for k in range(5))
            status, _, _ = request(port, "POST", "/del/ny", body=f"days=14&{ids}", headers=form)
            with lock:
                results["share"].append(status)

        def reread(n):
            document = documents[n % len(documents)]
            status, _, _ = request(port, "POST", f"/documents/{document}/pages/1/recrop", body="whole=1", headers=form)
            with lock:
                results["reread"].append(status)

        def upload(n):
            status, _, _ = request(port, "PUT", f"/api/v1/uploads/{uploads[n]}/pages/1", body=pages[n % len(pages)],
                                   headers=dict(heads, **{"Content-Type": "image/png"}))
            with lock:
                results["upload"].append((n, status))

        first_page_ms, sign_in_s = [], []
        burst_over = threading.Event()

        def browse():
            while not burst_over.is_set():
                start = time.perf_counter()
                request(port, "GET", "/", headers={"Cookie": cookie}, timeout=60)
                first_page_ms.append((time.perf_counter() - start) * 1000)
                time.sleep(0.05)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(a.count) for work in (share, reread, upload)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        browser = threading.Thread(target=browse)
        browser.start()
        time.sleep(1.0)
        start = time.perf_counter()
        status, _ = sign_in()
        sign_in_s.append(time.perf_counter() - start)
        for thread in threads:
            thread.join()
        burst_over.set()
        browser.join()
        seconds = time.perf_counter() - started
        peak = peak_rss_mb(server.pid)

        answered = {kind: sum(1 for s in (v if kind != "upload" else [s for _, s in v]) if 200 <= s < 400)
                    for kind, v in results.items()}
        busy = {kind: sum(1 for s in (v if kind != "upload" else [s for _, s in v]) if s == 503) for kind, v in results.items()}
        failed = {kind: sorted(s for s in (v if kind != "upload" else [s for _, s in v]) if not (200 <= s < 400 or s == 503))
                  for kind, v in results.items()}
        staging = library / ".opplasting"
        lost = sum(1 for n, s in results["upload"] if s == 200
                   and not any(name.startswith("side-001.") for name in os.listdir(staging / uploads[n])))
        p95 = percentile(first_page_ms, 0.95) if first_page_ms else float("inf")
        print(f"burst: {seconds:.1f} s; done {answered}, busy {busy}, failed {failed}")
        print(f"burst peak memory: {peak:.0f} MB (target ≤ {PEAK_MB}) {verdict(peak <= PEAK_MB)}")
        all_answered = not any(failed.values()) and lost == 0
        print(f"burst every request answered, none lost: {'yes' if all_answered else 'no'} (lost {lost}) {verdict(all_answered)}")
        print(f"burst sign-in from another client: {sign_in_s[0]:.2f} s (status {status}, target ≤ {SIGN_IN_S}) "
              f"{verdict(sign_in_s[0] <= SIGN_IN_S and status == 303)}")
        print(f"burst library first page: p95 {p95:.0f} ms over {len(first_page_ms)} (target ≤ {FIRST_PAGE_P95_MS:.0f}) "
              f"{verdict(p95 <= FIRST_PAGE_P95_MS)}")
        return 0
    finally:
        if server:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
