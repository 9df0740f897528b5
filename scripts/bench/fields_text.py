#!/usr/bin/env python3
"""Classification fields on letters' exact text, fast: type, person, sender and date per set, and
each wrong field with what was said and what the truth is. Sets are drawn by the corpus generator
beside the checkout with their truth only (no page images, as in appointment_text.py), or read from
a set already drawn; each letter's text goes through `arkivator classify`, and the corpus's
score.py judges it.

    .bench/gen-venv/bin/python scripts/bench/fields_text.py --bank scripts/fixtures/letter_bank_b.py --seed 32 --n 400
    .bench/gen-venv/bin/python scripts/bench/fields_text.py --bank ../shared/corpus/bank_dev.py --seed 5 --n 400
    python3 scripts/bench/fields_text.py --set ../shared/corpus/dev
    python3 scripts/bench/fields_text.py --set .bench/second-bank-32 --ocr .bench/banks/second-bank-32/pred.jsonl

With --ocr, the text is what an earlier `arkivator ingest --json` read from the set's page images
(bank_compare.py writes it under .bench/banks/SET/pred.jsonl): the rules again on the same OCR
text, without reading the pages again. The exact text leaves out OCR damage, and an earlier
reading is not the current one: final figures come from bank_compare.py on images."""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from appointment_text import CORPUS, predict, text_set, text_set_name, text_set_parser  # noqa: E402


def ocr_texts(pred, out):
    """Writes each document's text from an ingest's JSON lines as out/doc-NNN.txt, with its
    truth beside it (predict() reads the truth's page names from there)."""
    out.mkdir(parents=True, exist_ok=True)
    for line in open(pred, encoding="utf-8"):
        row = json.loads(line)
        sources = row["source"] if isinstance(row["source"], list) else [row["source"]]
        if not row.get("text"):
            continue
        doc = Path(sources[0]).name.split("_")[0]
        (out / f"{doc}.txt").write_text(row["text"], encoding="utf-8")

FIELDS = [("docType", "docTypeOk", "docType"), ("person", "personOk", "person"),
          ("institution", "institutionOk", "institution"), ("date", "documentDateOk", "documentDate")]


def main():
    ap = text_set_parser(__doc__)
    ap.add_argument("--ocr", type=Path, help="an ingest's JSON lines for --set: classify its OCR text")
    ap.add_argument("--quiet", action="store_true", help="the shares only, not each wrong field")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="arkivator-fields-") as tmp:
        corpus = text_set(a, ap, tmp)
        pred = Path(tmp) / "pred.jsonl"
        if a.ocr:
            if a.set is None:
                ap.error("--ocr needs --set")
            # The OCR text beside copies of the truth, so predict() reads it in their place.
            texts = Path(tmp) / "ocr"
            ocr_texts(a.ocr, texts / "truth")
            for doc in (texts / "truth").glob("*.txt"):
                (texts / "truth" / f"{doc.stem}.json").write_bytes((corpus / "truth" / f"{doc.stem}.json").read_bytes())
            (texts / "family.json").write_bytes((corpus / "family.json").read_bytes())
            predict(a.arkivator, texts, pred)
        else:
            predict(a.arkivator, corpus, pred)
        score = json.loads(subprocess.run([sys.executable, str(CORPUS / "score.py"), "--truth", str(corpus),
                                           "--pred", str(pred), "--json"],
                                          capture_output=True, text=True, check=True).stdout)
        said = {}
        for line in open(pred, encoding="utf-8"):
            p = json.loads(line)
            said[Path(p["source"][0]).name.split("_")[0]] = p
        name = text_set_name(a, corpus)
        shares = "  ".join(f"{label} {score[key] * 100:.1f}%" for label, key in
                           [("docType", "docTypeAcc"), ("person", "personAcc"), ("institution", "institutionAcc"),
                            ("date", "documentDateAcc")])
        print(f"{name}: {score['documents']} letters  {shares}")
        if a.quiet:
            return
        for d in score["perDocument"]:
            truth = json.loads((corpus / "truth" / f"{d['id']}.json").read_text(encoding="utf-8"))
            for label, ok, key in FIELDS:
                if d[ok]:
                    continue
                want = truth.get("familyMember") or truth.get(key) if key == "person" else truth.get(key)
                print(f"  {d['id']} {truth['render']['template']:24s} {label:11s} said {said.get(d['id'], {}).get(key)!r}"
                      f"  truth {want!r}")


if __name__ == "__main__":
    main()
