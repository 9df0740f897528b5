#!/usr/bin/env python3
"""The API against its description: Schemathesis runs every check, the stateful phase included,
from `openapi.json` (Sources/ArkivatorWeb/Resources/static) against a real `arkivator serve` signed in with a device token.

    python3 scripts/test/api_conformance.py --arkivator .build/debug/arkivator
    python3 scripts/test/api_conformance.py --install-only      # only the virtual environment (make test-deps)

What it does:
1. Schemathesis (pinned with everything it pulls in, scripts/test/api_conformance.requirements.txt) is
   installed into a virtual environment of the project's own (.test-artifacts/schemathesis/venv),
   from wheels kept in ~/.cache/arkivator/schemathesis/wheels ($ARKIVATOR_SCHEMATHESIS_CACHE): only
   the first run on a machine reaches PyPI; later runs install offline.
2. A new library in a temporary folder: a household member, a letter made on a computer and a
   scanned one read by `arkivator ingest` (so the lists, search and documents have something to
   find), and an upload destination that is not there (so the queue holds a job that failed).
3. The password is set with `serve --set-password`, `serve` starts on a free port of 127.0.0.1, the
   script signs in as a browser would and makes a device token in Settings (the CSRF token read
   from the page's <meta name="csrf-token">, the token from <code id="new-token">).
4. A few direct checks Schemathesis does not make: a lower-case `bearer` works, no token is a 401
   in JSON, TRACE is a 405 with `Allow`.
5. `schemathesis run` with all checks and the phases examples, coverage, fuzzing and stateful, a
   fixed seed and bounded examples, the token as `Authorization: Bearer`. Its reports (JUnit, HAR)
   go to --out; every answer in the HAR is then searched for the library's folder: an answer
   never holds a path on the server.

Exit 0 only when Schemathesis finds nothing and the direct checks pass.
"""
import argparse
import html
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pinned_venv  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = ROOT / "scripts" / "test" / "api_conformance.requirements.txt"
SPEC = ROOT / "Sources" / "ArkivatorWeb" / "Resources" / "static" / "openapi.json"
CACHE = Path(os.environ.get("ARKIVATOR_SCHEMATHESIS_CACHE") or Path.home() / ".cache" / "arkivator" / "schemathesis")
WHEELS = CACHE / "wheels"
VENV = ROOT / ".test-artifacts" / "schemathesis" / "venv"
PASSWORD = "skjematest batteri hest"
SEED = 20240315
# A bound on the whole run (it takes some 20 s on 2 cores): a hung request must not hold `make test` up.
SCHEMATHESIS_TIMEOUT = 600


def say(message):
    print(f"api: {message}", file=sys.stderr, flush=True)


def pinned_version():
    for line in REQUIREMENTS.read_text().splitlines():
        if line.startswith("schemathesis=="):
            return line.split("==", 1)[1].strip()
    sys.exit("api: scripts/test/api_conformance.requirements.txt pins no schemathesis version")


def ensure_schemathesis():
    """The venv's schemathesis executable, installed from the wheel cache (PyPI only when it lacks some)."""
    pinned_venv.ensure(VENV, REQUIREMENTS, WHEELS, f"Schemathesis {pinned_version()}", say)
    return VENV / "bin" / "schemathesis"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def request(url, method="GET", body=None, headers=None):
    """(status, headers, body text) of one request; redirects are not followed."""
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with OPENER.open(req, timeout=30) as response:
            return response.status, response.headers, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode("utf-8", "replace")


def run(arkivator, *arguments, stdin=None):
    result = subprocess.run([arkivator, *arguments], input=stdin, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"api: {' '.join(arguments[:2])} feilet ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result.stdout


def make_library(arkivator, library):
    """A household member, two letters and a queued upload that cannot get through."""
    run(arkivator, "family", "add", "--library", library, "Kari Nordmann", "--born", "1980-04-12")
    # A folder that is there when it is chosen (a destination is checked when saved), then gone.
    copies = Path(library) / "kopi"
    copies.mkdir(parents=True, exist_ok=True)
    run(arkivator, "config", "set", "--library", library, "destination", f"folder:{copies}")
    copies.rmdir()
    run(arkivator, "ingest", "--library", library, "--no-llm", str(ROOT / "samples" / "vedtak-digital.pdf"),
        str(ROOT / "samples" / "labsvar-ren.png"))
    # One try, so the job has its failure recorded (the folder is not there); exit 1 is expected.
    subprocess.run([arkivator, "upload", "--library", library], capture_output=True)
    run(arkivator, "serve", "--library", library, "--set-password", stdin=PASSWORD + "\n")


def start_server(arkivator, library, port, log):
    server = subprocess.Popen([arkivator, "serve", "--library", library, "--listen", f"127.0.0.1:{port}",
                               "--log-level", "warning"], stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        if server.poll() is not None:
            sys.exit(f"api: serve stoppet ({server.returncode}); se {log.name}")
        try:
            request(base + "/login")
            return server, base
        except OSError:
            time.sleep(0.2)
    server.kill()
    sys.exit("api: serve svarte ikke innen 60 s")


def device_token(base):
    """Signs in as a browser does and makes a device token in Settings."""
    status, headers, _ = request(base + "/login", "POST", urllib.parse.urlencode({"password": PASSWORD}).encode(),
                                 {"Content-Type": "application/x-www-form-urlencoded"})
    cookie = (headers.get("Set-Cookie") or "").split(";", 1)[0]
    if status != 303 or not cookie:
        sys.exit(f"api: innloggingen virket ikke ({status})")
    status, _, page = request(base + "/settings", headers={"Cookie": cookie})
    found = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
    if status != 200 or not found:
        sys.exit(f"api: fant ikke CSRF-nøkkelen på innstillingssiden ({status})")
    form = urllib.parse.urlencode({"name": "schemathesis", "_csrf": html.unescape(found.group(1))}).encode()
    status, _, page = request(base + "/settings/tokens", "POST", form,
                              {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
    token = re.search(r'<code id="new-token">([^<]+)</code>', page)
    if status != 200 or not token:
        sys.exit(f"api: fikk ingen enhetsnøkkel ({status})")
    return html.unescape(token.group(1))


def direct_checks(base, token, library):
    """What Schemathesis does not ask: the scheme in any case, 401 and 405 as the API answers them."""
    problems = []
    status, _, body = request(base + "/api/v1/documents", headers={"Authorization": f"bearer {token}"})
    if status != 200:
        problems.append(f"«Authorization: bearer …» (small b) gave {status}")
    documents = json.loads(body).get("documents", []) if status == 200 else []
    if len(documents) < 2:
        problems.append(f"the library should hold two letters, the API lists {len(documents)}")
    status, headers, body = request(base + "/api/v1/documents")
    if status != 401 or not headers.get("Content-Type", "").startswith("application/json") or '"error"' not in body:
        problems.append(f"no token: {status} {headers.get('Content-Type')} (expected 401 JSON)")
    if headers.get("WWW-Authenticate", "").lower() != "bearer":
        problems.append("no token: the 401 has no «WWW-Authenticate: Bearer»")
    status, headers, body = request(base + "/api/v1/documents", "TRACE", headers={"Authorization": f"Bearer {token}"})
    if status != 405 or headers.get("Allow") != "GET" or not headers.get("Content-Type", "").startswith("application/json"):
        problems.append(f"TRACE: {status} Allow={headers.get('Allow')} {headers.get('Content-Type')} (expected 405 JSON, Allow: GET)")
    status, _, body = request(base + "/api/v1/queue", headers={"Authorization": f"Bearer {token}"})
    if status != 200 or not json.loads(body):
        problems.append(f"the queue should hold the failed upload job ({status} {body[:200]})")
    elif library in body:
        problems.append(f"the queue names a path on the server: {body[:300]}")
    return problems


def paths_in_answers(har, library):
    """Answers (in Schemathesis's HAR report) that hold the library's folder or a temporary path."""
    try:
        entries = json.loads(Path(har).read_text())["log"]["entries"]
    except (OSError, ValueError, KeyError):
        return [f"the HAR report {har} could not be read"]
    found = []
    for entry in entries:
        text = (entry.get("response", {}).get("content", {}) or {}).get("text") or ""
        headers = " ".join(h.get("value", "") for h in entry.get("response", {}).get("headers", []))
        if library in text or library in headers:
            found.append(f"{entry['request']['method']} {entry['request']['url']}: {text[:200]}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arkivator", default=str(ROOT / ".build" / "debug" / "arkivator"))
    parser.add_argument("--out", default=str(ROOT / ".test-artifacts" / "api"))
    parser.add_argument("--max-examples", type=int, default=100, help="test cases per operation and phase")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--install-only", action="store_true", help="only install Schemathesis, then exit")
    parser.add_argument("--keep", action="store_true", help="keep the library folder (its path is printed)")
    args = parser.parse_args()

    schemathesis = ensure_schemathesis()
    if args.install_only:
        say(f"Schemathesis {pinned_version()} er klar i {VENV}")
        return 0
    arkivator = str(Path(args.arkivator).resolve())
    if not os.access(arkivator, os.X_OK):
        sys.exit(f"api: fant ikke {arkivator}; bygg med «swift build» først")
    out = Path(args.out).resolve()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    started = time.time()
    folder = tempfile.mkdtemp(prefix="arkivator-api-")
    library = os.path.join(folder, "bibliotek")
    server = None
    log = open(out / "serve.log", "w")
    try:
        env = dict(os.environ, LANG="nb_NO.UTF-8", OMP_THREAD_LIMIT="1")
        os.environ.update(env)
        make_library(arkivator, library)
        port = free_port()
        server, base = start_server(arkivator, library, port, log)
        token = device_token(base)
        say(f"bibliotek klart, serve på {base} ({time.time() - started:.0f} s)")

        problems = direct_checks(base, token, library)

        config = out / "schemathesis.toml"
        config.write_text(f"""
seed = {args.seed}
color = false
hooks = "{ROOT / 'scripts' / 'test' / 'api_conformance_hooks.py'}"
[generation]
max-examples = {args.max_examples}
database = "none"
[phases.stateful]
max-steps = 40
[auth.openapi.deviceToken]
bearer = "${{ARKIVATOR_API_TOKEN}}"
[reports]
directory = "{out}"
[reports.junit]
enabled = true
[reports.har]
enabled = true
""")
        command = [str(schemathesis), "--config-file", str(config), "run", str(SPEC), "--url", base,
                   "--checks", "all", "--phases", "examples,coverage,fuzzing,stateful",
                   "--workers", "1", "--request-timeout", "30", "--suppress-health-check", "too_slow"]
        say(" ".join(command[1:]).replace(str(ROOT) + "/", ""))
        st_started = time.time()
        try:
            returncode = subprocess.run(command, env=dict(os.environ, ARKIVATOR_API_TOKEN=token), cwd=out,
                                        timeout=SCHEMATHESIS_TIMEOUT).returncode
        except subprocess.TimeoutExpired:
            returncode = 1
            problems.append(f"Schemathesis did not finish within {SCHEMATHESIS_TIMEOUT} s")
        say(f"Schemathesis brukte {time.time() - st_started:.0f} s (exit {returncode})")

        hars = sorted(out.glob("har-*.json"))
        for har in hars:
            problems += [f"a path on the server in an answer: {line}" for line in paths_in_answers(har, library)]
        if not hars:
            problems.append("Schemathesis wrote no HAR report")
        if server.poll() is not None:
            problems.append(f"serve stopped during the run ({server.returncode}); see {log.name}")
        for problem in problems:
            say(f"FEIL: {problem}")
        failed = returncode != 0 or problems
        say(("FEIL" if failed else "OK") + f": {time.time() - started:.0f} s i alt; rapporter i {out}")
        return 1 if failed else 0
    finally:
        if server is not None and server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
        log.close()
        if args.keep:
            say(f"biblioteket er beholdt i {library}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
