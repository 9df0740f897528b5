#!/usr/bin/env python3
"""Word recall of a page read again with its corners set by hand, against the same letter
photographed cleanly (issue 28: within 2 points).

Usage:
    python3 scripts/bench/recrop_bench.py --arkivator .build/release/arkivator [--fixtures DIR]

Files the fixture's clean photo and the photo whose automatic crop is wrong (made by
scripts/fixtures/make_recrop.py; Tests/Fixtures/recrop by default) into a fresh library, reads
the wrong one's page again with `arkivator recrop ID --corners …` at the letter's true corners,
and prints the word recall of each reading against the letter's text, and the seconds the
re-reading took. Exit status 1 when the re-read page is more than 2 points below the clean photo.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def words(text):
    strip = ".,:;!?()«»\"'–-"
    return [w.strip(strip).lower() for w in text.split() if w.strip(strip)]


def common(a, b):
    """How many words the two lists share, with repeats."""
    left = {}
    for w in b:
        left[w] = left.get(w, 0) + 1
    found = 0
    for w in a:
        if left.get(w, 0) > 0:
            left[w] -= 1
            found += 1
    return found


def word_recall(truth, predicted):
    """The share of the truth's words (lower case, punctuation trimmed, with repeats) the reading holds."""
    return common(words(truth), words(predicted)) / max(1, len(words(truth)))


def stray(truth, predicted):
    """The share of the reading's words that are not the letter's (a second sheet read with it)."""
    return 1 - common(words(predicted), words(truth)) / max(1, len(words(predicted)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkivator", default=str(REPO / ".build/release/arkivator"))
    ap.add_argument("--fixtures", type=Path, default=REPO / "Tests/Fixtures/recrop")
    a = ap.parse_args()
    truth = (a.fixtures / "recrop.txt").read_text(encoding="utf-8")
    corners = json.loads((a.fixtures / "recrop.json").read_text(encoding="utf-8"))["wrong"]["page_corners"]
    env = dict(os.environ, LANG="en_GB.UTF-8")
    with tempfile.TemporaryDirectory(prefix="arkivator-recrop-") as work:
        library = ["--library", str(Path(work) / "bibliotek")]

        def run(*args):
            return subprocess.run([a.arkivator, *args, *library], check=True, capture_output=True, text=True, env=env).stdout

        ids = {}
        for name in ("recrop-clean.jpg", "recrop-wrong.jpg"):
            record = json.loads(run("ingest", "--json", str(a.fixtures / name)).splitlines()[-1])
            ids[name] = record["libraryId"]
        clean = word_recall(truth, run("show", ids["recrop-clean.jpg"], "--text"))
        automatic_text = run("show", ids["recrop-wrong.jpg"], "--text")
        automatic = word_recall(truth, automatic_text)
        numbers = ",".join(str(round(v)) for point in corners for v in point)
        start = time.monotonic()
        run("recrop", ids["recrop-wrong.jpg"], "--page", "1", "--corners", numbers)
        seconds = time.monotonic() - start
        by_hand_text = run("show", ids["recrop-wrong.jpg"], "--text")
        by_hand = word_recall(truth, by_hand_text)
    print(f"recrop: word recall, clean photo {clean * 100:.1f} %, automatic crop {automatic * 100:.1f} %, "
          f"corners set by hand {by_hand * 100:.1f} % (re-read in {seconds:.1f} s)")
    print(f"recrop: words not the letter's, automatic crop {stray(truth, automatic_text) * 100:.1f} %, "
          f"corners set by hand {stray(truth, by_hand_text) * 100:.1f} %")
    return 0 if by_hand >= clean - 0.02 else 1


if __name__ == "__main__":
    sys.exit(main())
