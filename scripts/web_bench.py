#!/usr/bin/env python3
"""Web app speed on a large library (Python 3.11, standard library only); `make bench` runs it on the
100,000-letter library that scripts/search_bench.py makes.

Usage:
    python3 scripts/web_bench.py --arkivator .build/release/arkivator --library .bench/search/library [--runs 20]

Sets a password on the library (`serve --set-password`), starts `arkivator serve` on a free port, signs
in and times the pages a household opens most: the library's first page, a page deep in it, filtered by
type and by a date range, a search and one document. Prints the median and the slowest of RUNS requests
each against the target (median <= 200 ms). Exit status 0 (also when a target is missed), 2 when the
library or the binary is missing.
"""
import argparse
import http.client
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

TARGET_MEDIAN_MS = 200.0
PASSWORD = "benk passord 1234"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port, method, path, cookie=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Cookie": cookie} if cookie else {}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, response.getheader("Set-Cookie"), data.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkivator", required=True)
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    if not (a.library / "arkivator.sqlite").exists():
        print(f"web bench: no library at {a.library} (run scripts/search_bench.py first)", file=sys.stderr)
        return 2
    subprocess.run([a.arkivator, "serve", "--set-password", "--library", str(a.library)], input=PASSWORD + "\n",
                   text=True, check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen([a.arkivator, "serve", "--library", str(a.library), "--listen", f"127.0.0.1:{port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        status, cookie, _ = request(port, "POST", "/login", body="password=" + urllib.parse.quote_plus(PASSWORD))
        if status != 303 or not cookie:
            print(f"web bench: sign-in failed ({status})", file=sys.stderr)
            return 1
        cookie = cookie.split(";")[0]
        _, _, home = request(port, "GET", "/", cookie)
        total = int((re.search(r"(\d+) dokumenter", home) or re.search(r"(\d+) documents", home)).group(1))
        # A document by its whole hash (the search bench's made-up hashes share their first digits).
        with sqlite3.connect(a.library / "arkivator.sqlite") as database:
            document = database.execute("SELECT sha256 FROM documents ORDER BY document_date DESC LIMIT 1").fetchone()[0]
        deep = max(1, total // 50 // 2)
        pages = [("library, first page", "/"), (f"library, page {deep}", f"/?side={deep}"),
                 ("library, type epikrise", "/?type=epikrise"), ("library, one year", "/?from=2024-01-01&to=2024-12-31"),
                 ("search «blodprøve»", "/search?q=blodpr%C3%B8ve"), ("one document", f"/documents/{document}")]
        print(f"web bench: {total} documents, {a.runs} requests a page, target median <= {TARGET_MEDIAN_MS:g} ms")
        print(f"{'page':28s} {'median ms':>10s} {'max ms':>8s}")
        for label, path in pages:
            times = []
            for _ in range(a.runs):
                start = time.perf_counter()
                status, _, _ = request(port, "GET", path, cookie)
                times.append((time.perf_counter() - start) * 1000)
                if status != 200:
                    print(f"web bench: {path} answered {status}", file=sys.stderr)
                    return 1
            median = statistics.median(times)
            verdict = "PASS" if median <= TARGET_MEDIAN_MS else "FAIL"
            print(f"{label:28s} {median:10.1f} {max(times):8.1f}   {verdict}")
        return 0
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
