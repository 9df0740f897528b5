#!/usr/bin/env python3
"""The real typewritten letters beside the checkout, scored in two halves split by letter (Python 3.11,
standard library only).

Usage (what `make bench` runs):
    python3 scripts/bench/realscans_halves.py --arkivator .build/release/arkivator [--json OUT]
        [--realscans ../shared/realscans]

Reads every page of ../shared/realscans/pages once with `arkivator ingest --json --no-archive` (as
score_real.py does), prints score_real.py's own table for that reading (per page and pooled, beside
plain tesseract 5.3.0's stored reading), then for each half: pages, characters, pooled accuracy of
arkivator and of plain tesseract, and the pages more than 1 point worse than plain tesseract.
Accuracy is score_real.py's: 1 - Levenshtein(truth, text) / len(truth), white space collapsed, case kept.

The halves keep every page of a letter together (a letter is the name before its last _NN) and
balance characters: half A holds 12,591 characters in 9 pages, half B 12,331 in 9 (of the 31
ways to split the six letters in two, the closest). Half A is the tuning half: look at its pages when working on
the reading. Half B is held out: judge a change on it without having looked at its pages.
Exit status 0; 1 when arkivator could not be run; 2 when the pages are not there.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from page_accuracy import levenshtein  # noqa: E402  (the same distance as score_real.py's, faster)

REPO = Path(__file__).resolve().parents[2]
HALF_A = {"EHRI-DR-19410701-DK", "EHRI-DR-19431002-DK"}      # tuning half
# Half B (held out): EHRI-DR-19420129-DK, EHRI-DR-19420910-DK, EHRI-DR-19431025_DK, EHRI-DR-19440419-DK
# and any letter added later.
WORSE_BY = 0.01


def letter_of(page: str) -> str:
    return re.sub(r"_\d+$", "", Path(page).stem)


def half_of(page: str) -> str:
    return "A" if letter_of(page) in HALF_A else "B"


def load_score_real(folder: Path):
    spec = importlib.util.spec_from_file_location("score_real", folder / "score_real.py")
    if spec is None or spec.loader is None:
        raise ImportError(folder / "score_real.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="The real typewritten letters in two halves split by letter.")
    ap.add_argument("--arkivator", required=True, type=Path)
    ap.add_argument("--realscans", type=Path, default=REPO.parent / "shared" / "realscans")
    ap.add_argument("--out", type=Path, default=REPO / ".bench" / "realscans-run")
    ap.add_argument("--json", type=Path, help="write the halves' figures here")
    a = ap.parse_args(argv)
    pages_dir = a.realscans / "pages"
    if not (a.realscans / "score_real.py").is_file() or not pages_dir.is_dir():
        print(f"({a.realscans} is not here: the real typewritten letters are left out)")
        return 2
    sr = load_score_real(a.realscans)
    images = sorted(str(p) for p in pages_dir.glob("*.jpg"))
    a.out.mkdir(parents=True, exist_ok=True)
    pred = a.out / "pred-arkivator.jsonl"
    with tempfile.TemporaryDirectory(prefix="realscans-") as library:
        r = subprocess.run([str(a.arkivator), "ingest", "--json", "--no-archive", *images], capture_output=True,
                           env=dict(os.environ, ARKIVATOR_LIBRARY=library))
    if r.returncode > 1:
        print(f"arkivator ingest ended with {r.returncode}: {r.stderr.decode('utf-8', 'replace')[-400:]}", file=sys.stderr)
        return 1
    pred.write_bytes(r.stdout)
    # score_real.py's own table and pooled line, from the same reading.
    sys.stdout.flush()
    subprocess.run([sys.executable, str(a.realscans / "score_real.py"), "--pred", str(pred), "--pages", str(pages_dir)])
    texts = sr.texts_from(r.stdout.decode("utf-8", "replace").splitlines())
    plain = json.loads((a.realscans / "tesseract-5.3.0-nor.json").read_text(encoding="utf-8"))
    halves: dict[str, dict] = {h: {"pages": 0, "chars": 0, "dist": 0, "plainDist": 0, "worse": [], "letters": set()}
                               for h in ("A", "B")}
    for gt in sorted(pages_dir.glob("*.gt.txt")):
        page = gt.name.replace(".gt.txt", ".jpg")
        ref = sr.norm(gt.read_text(encoding="utf-8"))
        e = levenshtein(ref, sr.norm(texts.get(page, "")))
        pe = levenshtein(ref, sr.norm(plain.get(page, "")))
        h = halves[half_of(page)]
        h["pages"] += 1
        h["chars"] += len(ref)
        h["dist"] += e
        h["plainDist"] += pe
        h["letters"].add(letter_of(page))
        if (e - pe) / max(1, len(ref)) > WORSE_BY:
            h["worse"].append({"page": page, "arkivator": 1 - e / max(1, len(ref)), "plain": 1 - pe / max(1, len(ref))})
    print("\nThe same pages in two halves split by letter (A: tuning, B: held out)")
    print(f"{'half':6s} {'letters':>7s} {'pages':>5s} {'chars':>6s} {'arkivator':>9s} {'plain':>7s} {'worse':>5s}")
    summary = {}
    for name, h in halves.items():
        acc = 1 - h["dist"] / max(1, h["chars"])
        pacc = 1 - h["plainDist"] / max(1, h["chars"])
        print(f"{name:6s} {len(h['letters']):7d} {h['pages']:5d} {h['chars']:6d} {acc:9.1%} {pacc:7.1%} {len(h['worse']):5d}")
        for w in h["worse"]:
            print(f"    worse: {w['page']}  arkivator {w['arkivator']:.1%}  plain {w['plain']:.1%}")
        summary[name] = {"letters": sorted(h["letters"]), "pages": h["pages"], "chars": h["chars"], "arkivator": acc,
                         "plain": pacc, "worse": h["worse"]}
    if a.json:
        a.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
