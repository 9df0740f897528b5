#!/usr/bin/env python3
"""Appointment accuracy on letters' exact text, fast: draws a set with the corpus generator beside the
checkout but keeps only its truth (no page images), feeds each letter's text through `arkivator classify`
and prints the scorer's appointment line (date and time right, appointments claimed in letters without one).

    .bench/gen-venv/bin/python scripts/bench/appointment_text.py --bank ../shared/corpus/bank_dev.py --seed 31 --n 400
    .bench/gen-venv/bin/python scripts/bench/appointment_text.py --bank scripts/fixtures/letter_bank_b.py --seed 32 --n 400
    python3 scripts/bench/appointment_text.py --set ../shared/corpus/dev        # a set already drawn

The generator's Python packages come from `make second-bank` (.bench/gen-venv)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"


def draw_text_only(bank, seed, n, out):
    """Runs gen.py with page images neither degraded nor saved: the same letters, their truth only."""
    sys.path.insert(0, str(CORPUS))
    import gen  # noqa: E402  (the generator beside the checkout)
    gen.save_image = lambda *a, **k: None
    gen.write_bad = lambda *a, **k: None
    gen.degrade = lambda img, kind, nrng, rng: (img, "png", {})
    listdir = os.listdir
    gen.os.listdir = lambda p: (listdir(p) or ["none.jpg"]) if str(p).endswith("images") else listdir(p)
    gen.main(["--bank", str(bank), "--out", str(out), "--n", str(n), "--seed", str(seed), "--quiet"])
    gen.os.listdir = listdir


def predict(arkivator, corpus, out):
    texts = sorted((corpus / "truth").glob("*.txt"))
    result = subprocess.run([arkivator, "classify", "--family", str(corpus / "family.json")] + [str(t) for t in texts],
                            capture_output=True, text=True, check=True)
    with open(out, "w", encoding="utf-8") as f:
        for line in result.stdout.splitlines():
            p = json.loads(line)
            truth = json.loads(Path(p["source"]).with_suffix(".json").read_text(encoding="utf-8"))
            p["text"] = Path(p["source"]).read_text(encoding="utf-8")
            p["source"] = ["images/" + page for page in truth["pages"]]
            f.write(json.dumps(p, ensure_ascii=False) + "\n")


def text_set_parser(description):
    """The options of a measure on letters' exact text: a set already drawn, or a bank to draw one from."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", type=Path, help="a set already drawn (its truth/ is read)")
    ap.add_argument("--bank", type=Path, help="a letter bank to draw a set from")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--arkivator", default=str(REPO / ".build/debug/arkivator"))
    return ap


def text_set(a, ap, tmp):
    """The set the options name: --set as it is, or one drawn from --bank into `tmp`."""
    if a.set is not None:
        return a.set
    if a.bank is None:
        ap.error("give --set or --bank")
    corpus = Path(tmp) / "set"
    draw_text_only(a.bank.resolve(), a.seed, a.n, corpus)
    return corpus


def text_set_name(a, corpus):
    return corpus.name if a.set else f"{a.bank.name} seed {a.seed} n {a.n}"


def main():
    ap = text_set_parser(__doc__)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="arkivator-appointments-") as tmp:
        corpus = text_set(a, ap, tmp)
        pred = Path(tmp) / "pred.jsonl"
        predict(a.arkivator, corpus, pred)
        score = subprocess.run([sys.executable, str(CORPUS / "score.py"), "--truth", str(corpus), "--pred", str(pred)],
                               capture_output=True, text=True, check=True).stdout
        line = next((l for l in score.splitlines() if l.startswith("appointments:")), "appointments: (not scored)")
        print(f"{text_set_name(a, corpus)}: {line}")


if __name__ == "__main__":
    main()
