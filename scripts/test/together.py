#!/usr/bin/env python3
"""Runs the test checks that mostly wait (on a browser, on a server's pauses, on a model) side by
side, so that two cores are kept busy while one check waits.

    python3 scripts/test/together.py 'NAME=COMMAND' 'NAME=COMMAND; COMMAND' …

The first command's output is shown as it comes; each other command's output is kept in a file
and shown whole when it ends, so no two outputs run into each other. Each COMMAND is run by bash,
so a group may chain commands with `&&`. The exit status is 0 only when every command passed; a
failed one is named at the end, with its output above.
"""
import subprocess
import sys
import tempfile
import threading
import time


def main(argv):
    jobs = []
    for spec in argv:
        name, sep, command = spec.partition("=")
        if not sep or not name or not command:
            print(f"together: expected NAME=COMMAND, got {spec!r}", file=sys.stderr)
            return 2
        jobs.append((name, command))
    if not jobs:
        return 0
    lock = threading.Lock()
    results = {}
    start = time.monotonic()

    def run(index, name, command):
        began = time.monotonic()
        if index == 0:
            status = subprocess.run(["bash", "-o", "pipefail", "-c", command]).returncode
            output = ""
        else:
            with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as log:
                status = subprocess.run(["bash", "-o", "pipefail", "-c", command], stdout=log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL).returncode
                log.seek(0)
                output = log.read()
        seconds = time.monotonic() - began
        with lock:
            results[name] = status
            if output:
                print(f"── {name} ──", flush=True)
                sys.stdout.write(output if output.endswith("\n") else output + "\n")
            verdict = "passed" if status == 0 else f"FAILED (exit {status})"
            print(f"── {name}: {verdict} after {seconds:.0f} s ──", flush=True)

    threads = [threading.Thread(target=run, args=(i, name, command)) for i, (name, command) in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failed = [name for name, _ in jobs if results.get(name) != 0]
    total = time.monotonic() - start
    if failed:
        print(f"together: failed: {', '.join(failed)} ({total:.0f} s in all)", file=sys.stderr, flush=True)
        return 1
    print(f"together: {', '.join(name for name, _ in jobs)} passed side by side in {total:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
