#!/usr/bin/env python3
"""Character accuracy per page, plain tesseract against arkivator (Python 3.11, standard library only).

Used by scripts/bench/bench.py; can also be run on its own:
    python3 scripts/bench/page_accuracy.py --name SET --truth TRUTH_DIR \
        --tesseract pred-tesseract.jsonl --arkivator pred-arkivator.jsonl [--json OUT.json]

Truth: TRUTH_DIR/NAME.txt per document (NAME = the image's stem without a _p1/-side1/_page1 suffix);
the pages of a document are separated by a form feed, as in the evaluation corpus. Predictions:
plain tesseract writes one JSON line per page ({"source", "text"}); arkivator writes one per document
({"source": path or [paths], "text"} with pages separated by a form feed).

Character accuracy of a page = 1 - Levenshtein(prediction, truth) / len(truth), with all runs of
white space made one space. A page is "worse" when arkivator's accuracy is more than 1 point below
tesseract's on it. Pooled accuracy = 1 - total distance / total truth length.
"""
import argparse
import json
import re
import sys
from pathlib import Path

PAGE_SUFFIX = re.compile(r"(?:[_-](?:p|page|side)\d+)$", re.IGNORECASE)
WORSE_BY = 0.01


def normalise(text):
    return re.sub(r"\s+", " ", text or "").strip()


def levenshtein(a, b):
    """Edit distance by Hyyrö's bit-parallel form of Myers' algorithm: Python integers are the bit
    vectors, so a page of a few thousand characters takes milliseconds."""
    if len(a) < len(b):
        a, b = b, a
    m = len(b)
    if m == 0:
        return len(a)
    masks = {}
    for i, ch in enumerate(b):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    full = (1 << m) - 1
    top = 1 << (m - 1)
    pv, mv, score = full, 0, m
    for ch in a:
        eq = masks.get(ch, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = mv | (~(xh | pv) & full)
        mh = pv & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = mh | (~(xv | ph) & full)
        mv = ph & xv
    return score


def document_name(path):
    return PAGE_SUFFIX.sub("", Path(path).stem)


def page_number(path):
    m = re.search(r"[_-](?:p|page|side)(\d+)$", Path(path).stem, re.IGNORECASE)
    return int(m.group(1)) if m else 1


def truth_pages(truth_dir, name):
    f = Path(truth_dir) / f"{name}.txt"
    if not f.is_file():
        return None
    return f.read_text(encoding="utf-8").split("\f")


def read_pages(pred_path):
    """{page image name: text} from either kind of prediction file."""
    pages = {}
    with open(pred_path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            sources = rec.get("source")
            sources = sources if isinstance(sources, list) else [sources]
            texts = (rec.get("text") or "").split("\f")
            sources = sorted((s for s in sources if s), key=page_number)
            for i, s in enumerate(sources):
                pages[Path(s).name] = texts[i] if i < len(texts) else ""
    return pages


def compare(name, truth_dir, tesseract_pred, arkivator_pred):
    tess, ark = read_pages(tesseract_pred), read_pages(arkivator_pred)
    rows = []
    for image in sorted(set(tess) | set(ark)):
        pages = truth_pages(truth_dir, document_name(image))
        if pages is None:
            continue
        n = page_number(image)
        if n > len(pages):
            continue
        truth = normalise(pages[n - 1])
        if not truth:
            continue
        d_t = levenshtein(normalise(tess.get(image, "")), truth)
        d_a = levenshtein(normalise(ark.get(image, "")), truth)
        rows.append({"page": image, "chars": len(truth), "tesseract": 1 - d_t / len(truth),
                     "arkivator": 1 - d_a / len(truth), "distTesseract": d_t, "distArkivator": d_a})
    chars = sum(r["chars"] for r in rows)
    summary = {"set": name, "pages": len(rows),
               "tesseract": 1 - sum(r["distTesseract"] for r in rows) / chars if chars else None,
               "arkivator": 1 - sum(r["distArkivator"] for r in rows) / chars if chars else None,
               "worse": [r for r in rows if r["arkivator"] < r["tesseract"] - WORSE_BY],
               "better": [r for r in rows if r["arkivator"] > r["tesseract"] + WORSE_BY],
               "rows": rows}
    return summary


def pct(x):
    return "   n/a" if x is None else f"{100 * x:5.1f}%"


def print_table(summaries, say=print):
    say(f"\nCharacter accuracy per page, plain tesseract (OMP=1) | arkivator; 'worse' = more than "
        f"{100 * WORSE_BY:g} point below tesseract")
    say(f"{'set':12s} {'pages':>5s}   {'tesseract':>9s}   {'arkivator':>9s}   {'worse':>5s}   {'better':>6s}")
    for s in summaries:
        say(f"{s['set']:12s} {s['pages']:5d}   {pct(s['tesseract']):>9s}   {pct(s['arkivator']):>9s}   "
            f"{len(s['worse']):5d}   {len(s['better']):6d}")
    for s in summaries:
        for r in s["worse"]:
            say(f"  worse in {s['set']}: {r['page']:32s} tesseract {pct(r['tesseract'])}  "
                f"arkivator {pct(r['arkivator'])}")


def main(argv=None):
    ap = argparse.ArgumentParser(description="Per-page character accuracy, tesseract against arkivator.")
    ap.add_argument("--name", default="set")
    ap.add_argument("--truth", required=True, type=Path)
    ap.add_argument("--tesseract", required=True, type=Path)
    ap.add_argument("--arkivator", required=True, type=Path)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--all", action="store_true", help="print every page")
    a = ap.parse_args(argv)
    s = compare(a.name, a.truth, a.tesseract, a.arkivator)
    print_table([s])
    if a.all:
        for r in s["rows"]:
            print(f"  {r['page']:32s} {pct(r['tesseract'])} {pct(r['arkivator'])}")
    if a.json:
        a.json.write_text(json.dumps(s, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
