#!/usr/bin/env python3
"""The regression gate: never worse than plain Tesseract, never fewer words (Python 3.11, standard
library only).

Usage (what `make test` and `make bench` run):
    python3 scripts/bench/gate.py --arkivator .build/release/arkivator --set DIR [--set DIR ...]
        [--fail] [--jobs 2] [--out .bench/gate-run] [--json OUT] [--all]

Every page of every set is read by plain `tesseract IMAGE - -l nor` (OMP_THREAD_LIMIT=1, --jobs at a
time; a format Tesseract cannot open, HEIC, is turned into PNG for this reading only, with
heif-convert) and by `arkivator ingest --no-archive --json --jobs N` on the same files (one call per
set, into a throw-away library), and both readings are scored against the page's exact text:

  accuracy   1 - Levenshtein(reading, truth) / len(truth), all runs of white space made one space
             (the measure of page_accuracy.py, whose edit distance this uses)
  words      how many of the truth's words the reading holds: alphanumeric runs, case folded,
             counted as multisets (a word twice in the truth must be read twice)

A page FAILS when arkivator's accuracy is more than 1 point below plain Tesseract's, or it holds
fewer of the truth's words than plain Tesseract by more than max(1, 2 % of plain Tesseract's).

A set is a folder in one of these layouts (found by what it holds):
  - make_gate.py's: images, NAME.txt beside each, manifest.json with each page's family
  - make_realworld.py's and make_smallprint.py's: images/NAME.jpg, truth/NAME.txt, manifest.json
    (the family is the set and the page's style or kind)
  - the evaluation corpus's (../shared/corpus/dev, a second bank): images/DOC_pN.jpg,
    truth/DOC.txt with the pages split by form feeds, manifest.json with each document's
    degradation (the family)
  - ../shared/realscans/pages: NAME.jpg and NAME.gt.txt
  - any other folder: images with NAME.txt beside them (a multi-page TIFF's text split by form
    feeds), such as Tests/Fixtures and its subfolders; the family is the folder

It prints a table per family (pages, pooled accuracy plain | arkivator, words found plain |
arkivator, pages worse, pages that lost words, and for one-line pictures how many each read
exactly), then every failing page with both figures and the start of both readings. With --fail
the exit status is 1 when a page fails; it is 2 when a set is missing or empty, and 1 when a
program could not be run. Progress goes to stderr.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from page_accuracy import levenshtein, normalise  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
IMAGE_EXTS = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".gif", ".bmp", ".webp", ".heic", ".heif"}
NEEDS_PNG = {".heic", ".heif"}          # what Tesseract 5.3 with Leptonica 1.82 cannot open
PAGE_SUFFIX = re.compile(r"[_-](?:p|page|side)(\d+)$", re.IGNORECASE)
WORD = re.compile(r"[^\W_]+")
WORSE_BY = 0.01
WORD_MARGIN = 0.02


def say(*args):
    print(*args, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# Sets
# ---------------------------------------------------------------------------

class Page:
    """One page to score: an image file (a multi-page file holds several) and the page's truth."""

    def __init__(self, image: Path, index: int, truth: str, family: str, name: str):
        self.image, self.index, self.truth, self.family, self.name = image.resolve(), index, truth, family, name


def set_label(folder: Path) -> str:
    parts = folder.resolve().parts
    if "Fixtures" in parts:
        below = parts[parts.index("Fixtures") + 1:]
        return "/".join(("fixtures",) + below)
    if folder.name in ("pages", "dev", "images", "test", "train"):
        return f"{folder.resolve().parent.name}/{folder.name}"
    return folder.name


def images_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_EXTS)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def page_number(stem: str) -> int:
    m = PAGE_SUFFIX.search(stem)
    return int(m.group(1)) if m else 1


def load_set(folder: Path) -> list[Page]:
    label = set_label(folder)
    manifest_file = folder / "manifest.json"
    manifest = json.loads(read(manifest_file)) if manifest_file.is_file() else None
    pages: list[Page] = []
    if (folder / "images").is_dir() and (folder / "truth").is_dir():
        if isinstance(manifest, dict) and "documents" in manifest:
            # The evaluation corpus: documents of one or more page images, truth split by form feeds.
            for doc in manifest["documents"]:
                truth_file = folder / "truth" / f"{doc['id']}.txt"
                if not truth_file.is_file():
                    continue
                texts = read(truth_file).split("\f")
                family = f"{label}/{doc.get('degradation') or 'page'}"
                for i, name in enumerate(doc.get("pages", [])):
                    image = folder / "images" / name
                    if image.is_file() and i < len(texts):
                        pages.append(Page(image, 0, texts[i], family, f"{label}/{Path(name).stem}"))
            return pages
        kinds = {}
        if isinstance(manifest, list):
            kinds = {e.get("name"): e.get("style") or e.get("kind") or e.get("family") for e in manifest}
        for image in images_in(folder / "images"):
            stem = image.stem
            doc = PAGE_SUFFIX.sub("", stem)
            truth_file = folder / "truth" / f"{stem}.txt"
            index = 0
            if not truth_file.is_file():
                truth_file, index = folder / "truth" / f"{doc}.txt", page_number(stem) - 1
            if not truth_file.is_file():
                continue
            texts = read(truth_file).split("\f")
            if index < len(texts):
                kind = kinds.get(stem)
                pages.append(Page(image, 0, texts[index], f"{label}/{kind}" if kind else label, f"{label}/{stem}"))
        return pages
    gts = sorted(folder.glob("*.gt.txt"))
    if gts:
        # Real scans: NAME.jpg beside NAME.gt.txt.
        for gt in gts:
            stem = gt.name[:-len(".gt.txt")]
            image = next((p for p in images_in(folder) if p.stem == stem), None)
            if image:
                pages.append(Page(image, 0, read(gt), label, f"{label}/{stem}"))
        return pages
    families = {}
    if isinstance(manifest, list):
        families = {e.get("file") or e.get("name"): e.get("family") for e in manifest if isinstance(e, dict)}
    for image in images_in(folder):
        truth_file = image.with_suffix(".txt")
        if not truth_file.is_file():
            continue
        family = families.get(image.name) or families.get(image.stem) or label
        for i, text in enumerate(read(truth_file).split("\f")):
            if normalise(text):
                suffix = f"#{i + 1}" if i else ""
                pages.append(Page(image, i, text, family, f"{label}/{image.name}{suffix}"))
    return pages


# ---------------------------------------------------------------------------
# Readings
# ---------------------------------------------------------------------------

def plain_tesseract(images: list[Path], jobs: int, work: Path) -> dict[Path, list[str]]:
    """{image: [text of each page]} from plain `tesseract IMAGE - -l nor`."""
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    converter = shutil.which("heif-convert")
    done = [0]
    t0 = time.time()

    def one(image: Path) -> tuple[Path, list[str]]:
        source = image
        if image.suffix.lower() in NEEDS_PNG:
            source = work / f"plain-{abs(hash(str(image)))}.png"
            if not converter:
                say(f"  {image.name}: heif-convert (libheif-examples) is not installed; plain tesseract reads nothing")
                return image, [""]
            subprocess.run([converter, str(image), str(source)], capture_output=True)
        r = subprocess.run(["tesseract", str(source), "-", "-l", "nor"], capture_output=True, env=env)
        if r.returncode != 0:
            say(f"  tesseract failed on {image}: {r.stderr.decode('utf-8', 'replace')[-200:]}")
        text = r.stdout.decode("utf-8", "replace")
        pages = text.split("\f")
        if len(pages) > 1 and not pages[-1].strip():
            pages = pages[:-1]
        done[0] += 1
        if done[0] % 20 == 0 or done[0] == len(images):
            say(f"  plain tesseract: {done[0]}/{len(images)} ({time.time() - t0:.0f} s)")
        return image, pages

    with ThreadPoolExecutor(jobs) as ex:
        return dict(ex.map(one, images))


def arkivator(exe: Path, images: list[Path], jobs: int, work: Path, log) -> dict[Path, list[str]]:
    """{image: [text of each page]} from one `arkivator ingest --json --no-archive` call."""
    library = Path(tempfile.mkdtemp(prefix="library-", dir=work))
    cmd = [str(exe), "ingest", "--json", "--no-archive", "--jobs", str(jobs), "--library", str(library),
           *map(str, images)]
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    shutil.rmtree(library, ignore_errors=True)
    if r.returncode > 1:
        raise RuntimeError(f"arkivator ingest ended with {r.returncode}: {r.stderr.decode('utf-8', 'replace')[-500:]}")
    say(f"  arkivator: {len(images)} files in {time.time() - t0:.0f} s")
    out: dict[Path, list[str]] = {}
    for line in r.stdout.decode("utf-8", "replace").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        log.write(line + "\n")
        sources = rec.get("source")
        sources = [s for s in (sources if isinstance(sources, list) else [sources]) if s]
        texts = (rec.get("text") or "").split("\f")
        if len(sources) == 1:
            out[Path(sources[0]).resolve()] = texts
        else:
            for i, s in enumerate(sorted(sources, key=lambda s: page_number(Path(s).stem))):
                out[Path(s).resolve()] = [texts[i] if i < len(texts) else ""]
    return out


# ---------------------------------------------------------------------------
# Scores
# ---------------------------------------------------------------------------

def words(text: str) -> Counter:
    return Counter(w.casefold() for w in WORD.findall(text or ""))


def score(reading: str, truth: str, truth_words: Counter) -> dict:
    t, r = normalise(truth), normalise(reading)
    got = words(reading)
    return {"dist": levenshtein(r, t), "found": sum(min(n, got[w]) for w, n in truth_words.items()),
            "exact": r == t, "text": reading}


def fails(row: dict) -> tuple[bool, bool]:
    """(worse, lost words) of one page."""
    p, a = row["plain"], row["arkivator"]
    worse = a["accuracy"] < p["accuracy"] - WORSE_BY
    lost = p["found"] - a["found"] > max(1, WORD_MARGIN * p["found"])
    return worse, lost


def pct(x) -> str:
    return "  n/a" if x is None else f"{100 * x:5.1f}"


def short(text: str, n: int = 60) -> str:
    t = normalise(text)
    return repr(t if len(t) <= n else t[:n - 1] + "…")


def report(rows: list[dict], show_all: bool) -> list[dict]:
    families: dict[str, list[dict]] = {}
    for r in rows:
        families.setdefault(r["family"], []).append(r)
    print(f"\nRegression gate: {len(rows)} pages, plain tesseract (OMP=1) | arkivator; 'worse' = more than "
          f"{100 * WORSE_BY:g} point of accuracy below plain, 'lost' = fewer truth words than plain by more than "
          f"max(1, {100 * WORD_MARGIN:g} %); 'exact' = one-line pictures read exactly")
    head = (f"{'family':28s} {'pages':>5s}  {'accuracy %':>13s}  {'words found %':>13s}  {'worse':>5s} {'lost':>4s}"
            f"  {'exact':>9s}")
    print(head)
    total: list[dict] = []
    for fam in sorted(families) + ["all"]:
        group = rows if fam == "all" else families[fam]
        chars = sum(r["chars"] for r in group)
        nwords = sum(r["words"] for r in group)
        acc = {w: 1 - sum(r[w]["dist"] for r in group) / chars if chars else None for w in ("plain", "arkivator")}
        found = {w: sum(r[w]["found"] for r in group) / nwords if nwords else None for w in ("plain", "arkivator")}
        worse = sum(r["worse"] for r in group)
        lost = sum(r["lost"] for r in group)
        exact = ""
        if "oneline" in fam:
            exact = f"{sum(r['plain']['exact'] for r in group)}|{sum(r['arkivator']['exact'] for r in group)}"
        if fam == "all":
            print("-" * len(head))
        print(f"{fam:28s} {len(group):5d}  {pct(acc['plain'])} | {pct(acc['arkivator'])}  "
              f"{pct(found['plain'])} | {pct(found['arkivator'])}  {worse:5d} {lost:4d}  {exact:>9s}")
    failing = [r for r in rows if r["worse"] or r["lost"]]
    print(f"\nPages that fail (worse or lost words): {len(failing)}")
    for r in failing:
        p, a = r["plain"], r["arkivator"]
        why = " and ".join(w for w, on in (("worse", r["worse"]), ("lost words", r["lost"])) if on)
        print(f"  {r['name']}  [{why}]  accuracy {pct(p['accuracy'])} | {pct(a['accuracy'])}  "
              f"words {p['found']} | {a['found']} of {r['words']}")
        print(f"      plain: {short(p['text'])}")
        print(f"      arkivator: {short(a['text'])}")
    oneline_inexact = [r for r in rows if "oneline" in r["family"] and not r["arkivator"]["exact"]]
    if oneline_inexact:
        print(f"\nOne-line pictures arkivator does not read exactly: {len(oneline_inexact)}")
        for r in oneline_inexact:
            print(f"  {r['name']}: plain {short(r['plain']['text'], 50)}  arkivator {short(r['arkivator']['text'], 50)}")
    if show_all:
        print("\nEvery page (accuracy plain | arkivator, words plain | arkivator of truth):")
        for r in rows:
            print(f"  {r['name']:52s} {pct(r['plain']['accuracy'])} | {pct(r['arkivator']['accuracy'])}  "
                  f"{r['plain']['found']:4d} | {r['arkivator']['found']:4d} of {r['words']:4d}")
    return failing


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Never worse than plain Tesseract, never fewer words.")
    ap.add_argument("--arkivator", required=True, type=Path)
    ap.add_argument("--set", action="append", type=Path, required=True, metavar="DIR", help="a set of pages (repeat)")
    ap.add_argument("--fail", action="store_true", help="exit 1 when a page fails")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=REPO / ".bench/gate-run", help="readings are written here")
    ap.add_argument("--json", type=Path, help="write every page's figures here")
    ap.add_argument("--all", action="store_true", help="print every page")
    a = ap.parse_args(argv)
    exe = a.arkivator.resolve()
    if not exe.is_file():
        print(f"gate: no arkivator at {a.arkivator}", file=sys.stderr)
        return 1
    sets = []
    for folder in a.set:
        if not folder.is_dir():
            print(f"gate: the set {folder} is not there", file=sys.stderr)
            return 2
        pages = load_set(folder)
        if not pages:
            print(f"gate: found no pages with their text in {folder}", file=sys.stderr)
            return 2
        sets.append((folder, pages))
        say(f"gate: {set_label(folder)}: {len(pages)} pages")
    a.out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    t0 = time.time()
    with tempfile.TemporaryDirectory(dir=a.out) as tmp, open(a.out / "pred-arkivator.jsonl", "w", encoding="utf-8") as log, \
            open(a.out / "pred-tesseract.jsonl", "w", encoding="utf-8") as plain_log:
        work = Path(tmp)
        for folder, pages in sets:
            images = list(dict.fromkeys(p.image for p in pages))
            say(f"gate: {set_label(folder)}: {len(images)} files")
            plain = plain_tesseract(images, a.jobs, work)
            for image, texts in plain.items():
                plain_log.write(json.dumps({"source": str(image), "text": "\f".join(texts)}, ensure_ascii=False) + "\n")
            try:
                ours = arkivator(exe, images, a.jobs, work, log)
            except RuntimeError as e:
                print(f"gate: {e}", file=sys.stderr)
                return 1
            for p in pages:
                truth = normalise(p.truth)
                if not truth:
                    continue
                tw = words(p.truth)
                row = {"name": p.name, "family": p.family, "chars": len(truth), "words": sum(tw.values())}
                for who, texts in (("plain", plain.get(p.image, [])), ("arkivator", ours.get(p.image, []))):
                    reading = texts[p.index] if p.index < len(texts) else ""
                    s = score(reading, p.truth, tw)
                    s["accuracy"] = 1 - s["dist"] / max(1, len(truth))
                    row[who] = s
                row["worse"], row["lost"] = fails(row)
                rows.append(row)
    say(f"gate: {len(rows)} pages in {time.time() - t0:.0f} s")
    failing = report(rows, a.all)
    if a.json:
        a.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 1 if a.fail and failing else 0


if __name__ == "__main__":
    sys.exit(main())
