#!/usr/bin/env python3
"""Small print in low-resolution photos: plain tesseract against arkivator (Python 3.11, standard library only).

Usage (what `make bench` runs):
    python3 scripts/bench/small_print.py --arkivator .build/release/arkivator [--set .bench/smallprint]
        [--jobs 2] [--out .bench/smallprint-run] [--all]

The set is made by scripts/fixtures/make_smallprint.py (phone photos of medication lists, laboratory
tables and consent forms in 7-9 pt print, at 110, 125 and 150 px/inch, with their exact text). Each
photo is read by plain `tesseract PHOTO - -l nor` (OMP_THREAD_LIMIT=1) and by `arkivator ingest --json
--no-archive` (a library of its own under OUT), and scored against its truth:

  word recall         share of the truth's words found in the reading, counted as multisets (a word
                      twice in the truth must be read twice); words are the tokens between white space
                      and dashes (a range "11,7 - 15,3" read as "11,7-15,3" loses no word), less the
                      punctuation around them, case kept
  character accuracy  1 - Levenshtein(reading, truth) / len(truth), all white space runs made one space

It prints both per photo, pooled per resolution band and over all photos, plain tesseract beside
arkivator, and the photos arkivator reads more than one point worse (by word recall) than plain
tesseract. Exit status 0 (also when a photo is worse), 1 when a program fails, 2 for a missing set.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from page_accuracy import levenshtein, normalise  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
WORSE_BY = 0.01
EDGE = re.compile(r"^[\W_]+|[\W_]+$")
SPLIT = re.compile(r"[\s\-\u2010-\u2015]+")


def words(text):
    out = []
    for token in SPLIT.split(text or ""):
        w = EDGE.sub("", token)
        if w:
            out.append(w)
    return out


def recall(pred, truth):
    """(found, total): truth words found in the reading, as multisets."""
    t, p = Counter(words(truth)), Counter(words(pred))
    return sum(min(n, p[w]) for w, n in t.items()), sum(t.values())


def run_tesseract(images, jobs):
    env = dict(os.environ, OMP_THREAD_LIMIT="1")

    def one(img):
        r = subprocess.run(["tesseract", str(img), "-", "-l", "nor"], capture_output=True, env=env)
        if r.returncode != 0:
            sys.exit(f"tesseract failed on {img}: {r.stderr.decode('utf-8', 'replace')[-300:]}")
        return img.name, r.stdout.decode("utf-8", "replace")

    with ThreadPoolExecutor(jobs) as ex:
        return dict(ex.map(one, images))


def run_arkivator(exe, folder, jobs, out):
    library = out / "library"
    shutil.rmtree(library, ignore_errors=True)
    cmd = [str(exe), "ingest", "--json", "--no-archive", "--jobs", str(jobs), "--library", str(library), str(folder)]
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    r = subprocess.run(cmd, capture_output=True, env=env)
    if r.returncode > 1:
        sys.exit(f"arkivator failed ({r.returncode}): {r.stderr.decode('utf-8', 'replace')[-500:]}")
    (out / "pred-arkivator.jsonl").write_bytes(r.stdout)
    texts = {}
    for line in r.stdout.decode("utf-8", "replace").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        sources = rec.get("source")
        for s in sources if isinstance(sources, list) else [sources]:
            if s:
                texts[Path(s).name] = rec.get("text") or ""
    return texts


def score(pred, truth):
    found, total = recall(pred, truth)
    t = normalise(truth)
    return {"found": found, "words": total, "dist": levenshtein(normalise(pred), t), "chars": len(t)}


def pooled(rows, who):
    found = sum(r[who]["found"] for r in rows)
    total = sum(r[who]["words"] for r in rows)
    dist = sum(r[who]["dist"] for r in rows)
    chars = sum(r[who]["chars"] for r in rows)
    return (found / total if total else 0.0), (1 - dist / chars if chars else 0.0)


def pct(x):
    return f"{100 * x:5.1f}%"


def main(argv=None):
    ap = argparse.ArgumentParser(description="Small print in low-resolution photos: tesseract against arkivator.")
    ap.add_argument("--arkivator", required=True, type=Path)
    ap.add_argument("--set", type=Path, default=REPO / ".bench/smallprint")
    ap.add_argument("--out", type=Path, default=REPO / ".bench/smallprint-run")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--all", action="store_true", help="print every photo (default: the bands, pooled and the worse)")
    ap.add_argument("--json", type=Path, help="write the figures here")
    a = ap.parse_args(argv)
    manifest = a.set / "manifest.json"
    if not manifest.is_file():
        print(f"(no small-print set at {a.set}: make it with /usr/bin/python3 scripts/fixtures/make_smallprint.py "
              f"--out {a.set})")
        return 2
    entries = json.loads(manifest.read_text(encoding="utf-8"))
    a.out.mkdir(parents=True, exist_ok=True)
    images = [a.set / "images" / f"{e['name']}.jpg" for e in entries]
    tess = run_tesseract(images, a.jobs)
    with open(a.out / "pred-tesseract.jsonl", "w", encoding="utf-8") as fh:
        for name, text in tess.items():
            fh.write(json.dumps({"source": name, "text": text}, ensure_ascii=False) + "\n")
    ark = run_arkivator(a.arkivator.resolve(), (a.set / "images").resolve(), a.jobs, a.out)
    rows = []
    for e, img in zip(entries, images):
        truth = (a.set / "truth" / f"{e['name']}.txt").read_text(encoding="utf-8")
        rows.append({"name": e["name"], "band": e["band"], "dpi": e["dpi"],
                     "tesseract": score(tess.get(img.name, ""), truth),
                     "arkivator": score(ark.get(img.name, ""), truth)})
    for r in rows:
        for who in ("tesseract", "arkivator"):
            s = r[who]
            s["recall"], s["accuracy"] = s["found"] / max(1, s["words"]), 1 - s["dist"] / max(1, s["chars"])

    print(f"\nSmall print in phone photos ({len(rows)} photos from {a.set}): word recall and character accuracy, "
          f"plain tesseract (OMP=1) | arkivator")
    print(f"{'':22s} {'photos':>6s}   {'recall tess':>11s} {'arkivator':>9s}   {'chars tess':>10s} {'arkivator':>9s}")
    if a.all:
        for r in rows:
            t, k = r["tesseract"], r["arkivator"]
            print(f"{r['name'] + ' (' + str(r['dpi']) + ')':22s} {1:6d}   {pct(t['recall']):>11s} {pct(k['recall']):>9s}   "
                  f"{pct(t['accuracy']):>10s} {pct(k['accuracy']):>9s}")
    summary = {"photos": len(rows), "bands": {}, "rows": rows}
    groups = [(f"{band} px/inch", [r for r in rows if r["band"] == band]) for band in sorted({r["band"] for r in rows})]
    groups.append(("pooled", rows))
    for label, group in groups:
        tr, ta = pooled(group, "tesseract")
        kr, ka = pooled(group, "arkivator")
        summary["bands"][label] = {"tesseractRecall": tr, "arkivatorRecall": kr, "tesseractChars": ta, "arkivatorChars": ka}
        print(f"{label:22s} {len(group):6d}   {pct(tr):>11s} {pct(kr):>9s}   {pct(ta):>10s} {pct(ka):>9s}")
    worse = [r for r in rows if r["arkivator"]["recall"] < r["tesseract"]["recall"] - WORSE_BY]
    worst = min(rows, key=lambda r: r["arkivator"]["recall"] - r["tesseract"]["recall"]) if rows else None
    print(f"worse than plain tesseract by more than {100 * WORSE_BY:g} point of word recall: {len(worse)}")
    for r in worse:
        print(f"  {r['name']}: tesseract {pct(r['tesseract']['recall'])}  arkivator {pct(r['arkivator']['recall'])}")
    if worst:
        d = worst["arkivator"]["recall"] - worst["tesseract"]["recall"]
        print(f"least gain: {worst['name']} ({100 * d:+.1f} points of word recall)")
    if a.json:
        a.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
