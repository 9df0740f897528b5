#!/usr/bin/python3
"""Sign-in safety of a real `arkivator serve` over real HTTP, from several loopback addresses.

Usage (what `make test` runs):
    python3 scripts/test/serve_security.py --arkivator .build/debug/arkivator

Checks:
1. The first password can be chosen only with the one-time code `serve` prints in its terminal,
   also when the request says it comes from this machine through a proxy (X-Forwarded-For).
2. A stranger at 127.0.0.2 sends 50 wrong passwords (20 of them at once): each is answered late
   (at least the throttle's pause) or refused at once while the stranger is locked, and the owner
   at 127.0.0.1 signs in quickly all the while.
3. The stranger cannot keep the lock alive: guessing on while locked, the lock still ends at its
   time, and then the right password works from 127.0.0.2 too.
4. The fødselsnummer reveal is throttled by the same counts: wrong passwords lock it (the right
   one is refused while locked, no number shown), and the owner elsewhere is not affected.
5. A connection that sends nothing is closed after the time-out.
Exit status 0 when every check held, 1 with the failing check named.
"""

import argparse
import concurrent.futures
import http.client
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

PASSWORD = "riktig hest batteri"
NUMBER = "17097243859"  # made up, valid control digits
PAUSE = 1.0  # the throttle's pause before a wrong answer (SignInThrottle.pause)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, arkivator, library, extra=()):
        self.port = free_port()
        self.log = open(Path(library).parent / f"serve-{self.port}.log", "w+")
        env = dict(os.environ, OMP_THREAD_LIMIT="1", LANG="nb_NO.UTF-8")
        self.process = subprocess.Popen(
            [arkivator, "serve", "--library", str(library), "--listen", f"127.0.0.1:{self.port}", *extra],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("serve did not start")

    def output(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def request(port, method, path, source="127.0.0.1", body=None, headers=None, timeout=60):
    """One request from `source`; returns (status, headers, text, seconds)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    all_headers = {"Accept-Language": "nb-NO"}
    if body is not None:
        body = urllib.parse.urlencode(body)
        all_headers["Content-Type"] = "application/x-www-form-urlencoded"
    all_headers.update(headers or {})
    start = time.monotonic()
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    text = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, dict(response.getheaders()), text, time.monotonic() - start


def sign_in(port, source, password=PASSWORD):
    status, headers, text, seconds = request(port, "POST", "/login", source, {"password": password})
    cookie = headers.get("Set-Cookie", "").split(";")[0]
    return status, cookie, text, seconds


def csrf(port, source, cookie):
    _, _, text, _ = request(port, "GET", "/family", source, headers={"Cookie": cookie})
    match = re.search(r'name="csrf-token" content="([^"]+)"', text)
    return match.group(1) if match else ""


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def first_run(arkivator, work):
    """1. /setup needs the code from the terminal, whatever the request says about itself."""
    server = Server(arkivator, work / "ny")
    try:
        port = server.port
        status, _, text, _ = request(port, "GET", "/setup")
        check(status == 200 and "Engangskode" in text, "the first-run page asks for the one-time code")
        form = {"password": PASSWORD, "again": PASSWORD}
        for headers in ({}, {"X-Forwarded-For": "127.0.0.1"}, {"X-Forwarded-For": "127.0.0.1", "X-Real-IP": "127.0.0.1"}):
            status, _, _, _ = request(port, "POST", "/setup", "127.0.0.2", form, headers)
            check(status in (403, 429), f"/setup without the code is refused (headers {headers}): got {status}")
            status, _, _, _ = request(port, "POST", "/setup", "127.0.0.2", dict(form, code="AAAA-BBBB"), headers)
            check(status in (403, 429), f"/setup with a wrong code is refused (headers {headers}): got {status}")
        code = re.search(r"[A-Z0-9]{4}-[A-Z0-9]{4}", server.output())
        check(code is not None, "serve printed a one-time code")
        status, headers, _, _ = request(port, "POST", "/setup", "127.0.0.1", dict(form, code=code.group(0)))
        check(status == 303 and "arkivator_okt=" in headers.get("Set-Cookie", ""), f"the right code sets the password: {status}")
        status, _, _, _ = request(port, "POST", "/setup", "127.0.0.1", dict(form, code=code.group(0)))
        check(status == 403, "once set, /setup is closed")
        print("serve security: the first password needs the terminal's code (also through a proxy)", flush=True)
    finally:
        server.stop()


def flood_and_lock(port):
    """2. A stranger's 50 guesses, each answered late, never stop the owner."""
    results = []
    lock = threading.Lock()

    def guess(i):
        status, _, text, seconds = request(port, "POST", "/login", "127.0.0.2", {"password": f"gjetning {i:04d}"})
        with lock:
            results.append((status, seconds, text))

    owner_times = []
    stop = threading.Event()

    def owner():
        while not stop.is_set():
            status, cookie, _, seconds = sign_in(port, "127.0.0.1")
            owner_times.append((status, seconds))
            check(status == 303 and cookie, f"the owner signs in during the flood: {status}")
            time.sleep(1.0)

    owner_thread = threading.Thread(target=owner)
    owner_thread.start()
    try:
        with concurrent.futures.ThreadPoolExecutor(20) as pool:
            list(pool.map(guess, range(20)))
        for i in range(20, 50):
            guess(i)
    finally:
        stop.set()
        owner_thread.join()
    check(len(results) == 50, "50 guesses answered")
    wrong = [r for r in results if r[0] == 401]
    locked = [r for r in results if r[0] == 429]
    check(len(wrong) + len(locked) == 50, f"every guess is refused: {sorted(set(r[0] for r in results))}")
    check(all(seconds >= PAUSE * 0.9 for _, seconds, _ in results), "every guess is answered late, checked or not")
    check(all("Vent" in text for _, _, text in locked), "a locked answer says how long to wait")
    check(len(wrong) <= 15, f"most guesses are refused without being checked ({len(wrong)} checked)")
    check(owner_times and all(status == 303 for status, _ in owner_times), "the owner was never refused")
    slowest = max(seconds for _, seconds in owner_times)
    check(slowest < 5, f"the owner signs in quickly during the flood (slowest {slowest:.1f} s)")
    fastest = min(seconds for _, seconds, _ in results)
    print(f"serve security: 50 guesses from 127.0.0.2, each answered after ≥ {fastest:.2f} s ({len(wrong)} checked, "
          f"{len(locked)} refused while locked); the owner signed in {len(owner_times)} times, slowest {slowest:.2f} s", flush=True)



def lock_ends(port):
    """3. Guessing on while locked does not make the lock longer (a client of its own, 127.0.0.4)."""
    for i in range(5):
        status, _, _, _ = request(port, "POST", "/login", "127.0.0.4", {"password": f"feil {i}"})
        check(status == 401, f"wrong password {i + 1}: {status}")
    status, _, text, _ = request(port, "POST", "/login", "127.0.0.4", {"password": "enda en gjetning"})
    check(status == 429, f"the stranger is locked: {status}")
    seconds = int(re.search(r"Vent (\d+) sekunder", text).group(1))
    ends = time.monotonic() + seconds - 1  # the answer itself came a second late
    while time.monotonic() < ends - 1.2:
        status, _, _, _ = request(port, "POST", "/login", "127.0.0.4", {"password": "gjetter videre"})
        check(status == 429, "still locked, nothing checked")
    time.sleep(max(0, ends - time.monotonic()) + 0.3)
    status, cookie, _, _ = sign_in(port, "127.0.0.4")
    check(status == 303 and cookie, f"the lock ended by itself at its time ({seconds} s), guesses or not: {status}")
    print(f"serve security: a {seconds} s lock ended at its time although the stranger kept guessing", flush=True)


def reveal(port):
    """4. The reveal is throttled with sign-in, per client."""
    _, cookie, _, _ = sign_in(port, "127.0.0.3")
    token = csrf(port, "127.0.0.3", cookie)
    _, _, page, _ = request(port, "GET", "/family", "127.0.0.3", headers={"Cookie": cookie})
    member = re.search(r'action="/family/(\d+)/reveal"', page).group(1)
    statuses = []
    for _ in range(5):
        status, _, text, _ = request(port, "POST", f"/family/{member}/reveal", "127.0.0.3",
                                     {"_csrf": token, "password": "feil passord her"}, {"Cookie": cookie})
        check(NUMBER not in text, "no number after a wrong password")
        statuses.append(status)
    check(statuses == [401] * 5, f"the reveal's wrong passwords: {statuses}")
    status, _, text, _ = request(port, "POST", f"/family/{member}/reveal", "127.0.0.3",
                                 {"_csrf": token, "password": PASSWORD}, {"Cookie": cookie})
    check(status == 429 and NUMBER not in text, "while locked, not even the right password shows the number")
    status, _, _, _ = sign_in(port, "127.0.0.3")
    check(status == 429, "the same lock holds for signing in from there")
    _, owner, _, _ = sign_in(port, "127.0.0.1")
    owner_token = csrf(port, "127.0.0.1", owner)
    status, _, text, _ = request(port, "POST", f"/family/{member}/reveal", "127.0.0.1",
                                 {"_csrf": owner_token, "password": PASSWORD}, {"Cookie": owner})
    check(status == 200 and NUMBER in text, "the owner at 127.0.0.1 still sees the number")
    print("serve security: the reveal is locked after five wrong passwords, for that client only", flush=True)


def idle_connection(port, timeout):
    """5. A connection that sends nothing is closed."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.settimeout(timeout + 10)
    start = time.monotonic()
    try:
        data = connection.recv(1)
    except (ConnectionResetError, socket.timeout):
        data = b"?"
    finally:
        connection.close()
    elapsed = time.monotonic() - start
    check(data == b"" and elapsed < timeout + 5, f"an idle connection is closed after about {timeout} s (took {elapsed:.1f} s)")
    print(f"serve security: a connection that sent nothing was closed after {elapsed:.1f} s", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkivator", default=".build/debug/arkivator")
    a = ap.parse_args()
    arkivator = str(Path(a.arkivator).resolve())
    work = Path(tempfile.mkdtemp(prefix="arkivator-security-"))
    env = dict(os.environ, OMP_THREAD_LIMIT="1", LANG="nb_NO.UTF-8")
    server = None
    try:
        first_run(arkivator, work)
        library = work / "bibliotek"
        subprocess.run([arkivator, "serve", "--library", str(library), "--set-password"], input=PASSWORD + "\n",
                       text=True, env=env, check=True, capture_output=True)
        subprocess.run([arkivator, "family", "add", "Kari Nordmann", "--library", str(library), "--fnr", NUMBER],
                       env=env, check=True, capture_output=True)
        timeout = 3
        server = Server(arkivator, library, ["--connection-timeout", str(timeout)])
        flood_and_lock(server.port)
        lock_ends(server.port)
        reveal(server.port)
        idle_connection(server.port, timeout)
    except AssertionError as failure:
        print(f"serve security: FAILED: {failure}", file=sys.stderr)
        if server:
            print(server.output()[-3000:], file=sys.stderr)
        return 1
    finally:
        if server:
            server.stop()
    print("serve security: every check held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
