#!/usr/bin/env python3
"""Crash test of `arkivator watch` (Python 3.11, standard library only); `make bench` runs it on the dev corpus.

Usage:
    python3 scripts/bench/watch_crash.py --arkivator .build/release/arkivator --images ../shared/corpus/dev/images
                                   [--family ../shared/corpus/dev/family.json] [--kills 10] [--seed 1] [--keep DIR]

Makes a fresh library with a folder destination, starts `arkivator watch INBOX`, drops the documents into
INBOX a few at a time (the pages of one letter together) and kills the watcher with SIGKILL at random
moments at least --kills times, starting it again each time. Then it lets the last watcher finish, stops it
with SIGTERM and checks: every document is in the library exactly once, every archived file is recorded and
exists, every upload job is done and the destination holds each file once, every original is in
processed/ (none lost, none left), and `PRAGMA integrity_check` passes. Exit 0 when all holds, 1 otherwise.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def log(msg):
    print(msg, flush=True)


def documents_of(images):
    """Page files grouped by letter: NAME_p1, NAME_p2 … are one document."""
    groups = {}
    for path in sorted(images.iterdir()):
        if path.is_file() and not path.name.startswith("."):
            name = re.sub(r"_p\d+$", "", path.stem)
            groups.setdefault(name, []).append(path)
    return list(groups.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arkivator", required=True)
    ap.add_argument("--images", type=Path, required=True)
    ap.add_argument("--family", type=Path)
    ap.add_argument("--kills", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    ap.add_argument("--timeout", type=float, default=900, help="give up after this many seconds")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    work = a.keep or Path(tempfile.mkdtemp(prefix="arkivator-crash-"))
    if a.keep:
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
    inbox, library, upload = work / "inn", work / "bibliotek", work / "opplastet"
    inbox.mkdir()
    upload.mkdir()
    exe = os.path.abspath(a.arkivator)
    base = [exe]
    env = dict(os.environ, OMP_THREAD_LIMIT="1", LANG="nb_NO.UTF-8")
    if a.family and a.family.is_file():
        subprocess.run(base + ["family", "import", "--library", str(library), str(a.family)], check=True,
                       stdout=subprocess.DEVNULL, env=env)
    subprocess.run(base + ["config", "set", "destination", f"folder:{upload}", "--library", str(library)], check=True,
                   stdout=subprocess.DEVNULL, env=env)
    documents = documents_of(a.images)
    pages = sum(len(d) for d in documents)
    log(f"crash test: {len(documents)} documents ({pages} files), {a.kills} kills, in {work}")

    watch_log = open(work / "watch.log", "ab")

    def start():
        return subprocess.Popen(base + ["watch", str(inbox), "--library", str(library), "--settle", "1"],
                                stdout=watch_log, stderr=watch_log, env=env)

    started = time.monotonic()
    process = start()
    pending = list(documents)
    rng.shuffle(pending)
    kills = 0
    while kills < a.kills or pending:
        for _ in range(rng.randint(1, 3)):
            if pending:
                for page in pending.pop():
                    shutil.copyfile(page, inbox / (".kopi-" + page.name))
                    os.rename(inbox / (".kopi-" + page.name), inbox / page.name)
        time.sleep(rng.uniform(0.5, 6.0))
        if kills < a.kills:
            process.kill()
            process.wait()
            kills += 1
            process = start()
        if time.monotonic() - started > a.timeout:
            log("gave up: took too long")
            return 1

    # Let the last watcher finish: every original in processed/, every upload done.
    def settled():
        left = [p for p in inbox.iterdir() if p.is_file() and not p.name.startswith(".")]
        if left:
            return False
        run = subprocess.run(base + ["queue", "--all", "--json", "--library", str(library)], capture_output=True, text=True, env=env)
        try:
            jobs = json.loads(run.stdout or "[]")
        except ValueError:
            return False
        return len(jobs) >= len(documents) and all(job.get("state") == "done" for job in jobs)

    while not settled():
        if time.monotonic() - started > a.timeout:
            log("gave up waiting for the watcher to finish")
            break
        time.sleep(2)
    process.send_signal(signal.SIGTERM)
    try:
        stopped = process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        stopped = "killed after 60 s"
    seconds = time.monotonic() - started

    problems = []
    database = library / "arkivator.sqlite"
    connection = sqlite3.connect(database)
    check = connection.execute("PRAGMA integrity_check").fetchone()[0]
    if check != "ok":
        problems.append(f"integrity_check: {check}")
    rows = connection.execute("SELECT sha256 FROM documents").fetchall()
    if len(rows) != len(documents):
        problems.append(f"{len(rows)} documents in the library, expected {len(documents)}")
    recorded = {row[0] for row in connection.execute("SELECT path FROM document_files")}
    missing = [p for p in recorded if not os.path.exists(p)]
    if missing:
        problems.append(f"{len(missing)} recorded files missing, e.g. {missing[0]}")
    archive = library / "Arkiv"
    on_disk = {str(p) for p in archive.rglob("*") if p.is_file()} if archive.exists() else set()
    stray = sorted(on_disk - recorded)
    if stray:
        problems.append(f"{len(stray)} archived files without a row, e.g. {stray[0]}")
    states = dict(connection.execute("SELECT state, count(*) FROM upload_jobs GROUP BY state").fetchall())
    if states.get("done", 0) != len(documents) or len(states) != 1:
        problems.append(f"upload jobs: {states}")
    uploaded = [p for p in upload.rglob("*") if p.is_file()]
    if len(uploaded) != len(recorded):
        problems.append(f"{len(uploaded)} files at the destination, {len(recorded)} archived")
    processed = [p for p in (inbox / "processed").rglob("*") if p.is_file()] if (inbox / "processed").exists() else []
    if len(processed) != pages:
        problems.append(f"{len(processed)} originals in processed/, expected {pages}")
    failed = [p for p in (inbox / "failed").rglob("*") if p.is_file()] if (inbox / "failed").exists() else []
    if failed:
        problems.append(f"{len(failed)} files in failed/: {[p.name for p in failed][:5]}")
    log(f"crash test: {kills} kills, {seconds:.0f} s, watcher stopped with {stopped}; {len(rows)} documents, "
        f"{len(recorded)} files, uploads {states}, {len(processed)} originals in processed/")
    for problem in problems:
        log(f"  PROBLEM: {problem}")
    log("crash test: PASS" if not problems else "crash test: FAIL")
    if not a.keep and not problems:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
