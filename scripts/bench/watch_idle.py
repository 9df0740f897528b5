#!/usr/bin/env python3
"""How much an idle `arkivator watch` costs: CPU and memory while it waits on an empty folder.

Starts `arkivator watch` on an empty temporary folder (with its own temporary library) for
--seconds, then prints the CPU it used (utime + stime from /proc/PID/stat, as a percentage of one
core over the measured time) and its resident memory (VmRSS sampled from /proc/PID/status, and
VmHWM, the peak since it started). With --document FILE it first files that document (so the OCR
engines are loaded) and measures the idle time after it.

    python3 scripts/bench/watch_idle.py --arkivator .build/release/arkivator --seconds 30
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        # The command name may hold spaces: the fields after it start behind the last ')'.
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf(os.sysconf_names["SC_CLK_TCK"])
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14 and 15)


def memory_kib(pid):
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0])
    return values.get("VmRSS", 0), values.get("VmHWM", 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arkivator", default=".build/release/arkivator")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=2, help="seconds after the start before measuring")
    parser.add_argument("--document", help="an image to file first, so the OCR engines are loaded")
    parser.add_argument("--unload-after", type=float, help="idle seconds before the engines are unloaded")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="arkivator-watch-idle-")
    inbox = os.path.join(work, "Skannet")
    os.makedirs(inbox)
    env = dict(os.environ, OMP_THREAD_LIMIT="1", LANG="C.UTF-8")
    env.pop("ARKIVATOR_KEY", None)
    command = [args.arkivator, "watch", inbox, "--library", os.path.join(work, "bibliotek")]
    if args.unload_after is not None:
        command += ["--unload-after", str(args.unload_after)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        time.sleep(args.warmup)
        label = "empty folder"
        if args.document:
            shutil.copy(args.document, os.path.join(inbox, os.path.basename(args.document)))
            done = os.path.join(inbox, "processed", os.path.basename(args.document))
            deadline = time.time() + 300
            while not os.path.exists(done) and time.time() < deadline and process.poll() is None:
                time.sleep(0.2)
            if not os.path.exists(done):
                sys.exit("the document was not filed")
            time.sleep(1)
            label = f"after filing {os.path.basename(args.document)}"
        start, cpu_start = time.monotonic(), cpu_seconds(process.pid)
        largest = 0
        while time.monotonic() - start < args.seconds:
            largest = max(largest, memory_kib(process.pid)[0])
            time.sleep(0.5)
        elapsed = time.monotonic() - start
        used = cpu_seconds(process.pid) - cpu_start
        rss, peak = memory_kib(process.pid)
        largest = max(largest, rss)
        print(f"arkivator watch, idle ({label}), {elapsed:.0f} s: CPU {100 * used / elapsed:.3f} % of one core "
              f"({used:.2f} s), RSS {rss / 1024:.1f} MB (largest while idle {largest / 1024:.1f} MB, "
              f"peak since start {peak / 1024:.1f} MB)")
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
        if code != 0:
            sys.exit(f"watch exited with {code} after SIGTERM")
    finally:
        if process.poll() is None:
            process.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
