#!/usr/bin/env python3
"""Classification on several generated letter sets, side by side.

    python3 scripts/bench/bank_compare.py --arkivator .build/release/arkivator DIR [DIR ...]

Each DIR is a set written by the corpus generator beside the checkout (images/, truth/,
family.json): the dev set, and sets of the project's second letter bank (`make second-bank`).
Every set is ingested into a fresh library of its own with its household, scored by the
corpus's score.py, and then printed together:

- per field (docType, person, institution, date, title) the share right, per set;
- the letters filed under the wrong household member, and those whose person is an
  institution or a health worker (a role word or an institution word in the name);
- each set's docType confusion table (rows: truth, columns: what arkivator said).
"""
import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCORE = REPO.parent / "shared" / "corpus" / "score.py"
TYPES = ["innkalling", "epikrise", "lab-svar", "resept", "henvisning", "vedtak", "annet"]
INSTITUTION_WORDS = ["sykehus", "sjukehus", "legekontor", "legesenter", "kommune", "herad", "klinikk", "avdeling",
                     "nav", "helfo", "hospital", "laboratori", "unilabs", "fürst", " hf", "helse "]


def roles():
    labels = json.loads((REPO / "Sources/ArkivatorClassify/Resources/labels.json").read_text())
    return set(labels["roles"])


def run_set(exe, corpus, out):
    out.mkdir(parents=True, exist_ok=True)
    library = out / "library"
    subprocess.run(["rm", "-rf", str(library)], check=True)
    subprocess.run([exe, "family", "import", "--library", str(library), str(corpus / "family.json")],
                   check=True, stdout=subprocess.DEVNULL)
    pred = out / "pred.jsonl"
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    with open(pred, "w") as fh:
        subprocess.run([exe, "ingest", "--json", "--jobs", "2", "--library", str(library), str(corpus / "images")],
                       stdout=fh, stderr=subprocess.DEVNULL, env=env)
    scored = subprocess.run([sys.executable, str(SCORE), "--truth", str(corpus), "--pred", str(pred), "--json"],
                            capture_output=True, text=True, check=True)
    return pred, json.loads(scored.stdout)


def wrong_kind_of_person(corpus, pred, role_words):
    """Letters whose predicted person is an institution or a health worker."""
    bad = []
    for line in open(pred):
        row = json.loads(line)
        person = (row.get("person") or "").lower()
        if not person or person.startswith("ukjent"):
            continue
        words = person.replace(",", " ").split()
        if any(w in role_words for w in words) or any(k in f" {person} " for k in INSTITUTION_WORDS):
            source = row["source"][0] if isinstance(row["source"], list) else row["source"]
            bad.append((Path(source).name, row.get("person")))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkivator", required=True)
    ap.add_argument("--out", type=Path, default=REPO / ".bench" / "banks")
    ap.add_argument("sets", nargs="+", type=Path)
    a = ap.parse_args()
    if not SCORE.is_file():
        sys.exit(f"bank_compare: needs the corpus scorer at {SCORE} (../shared beside the checkout)")
    role_words = roles()
    results = []
    for corpus in a.sets:
        corpus = corpus.resolve()
        if not (corpus / "images").is_dir():
            sys.exit(f"bank_compare: {corpus} is not a generated set (no images/)")
        print(f"bank_compare: {corpus.name}: ingesting {len(list((corpus / 'images').iterdir()))} pages ...", flush=True)
        pred, score = run_set(a.arkivator, corpus, a.out / corpus.name)
        results.append((corpus, pred, score, wrong_kind_of_person(corpus, pred, role_words)))

    names = [c.name for c, *_ in results]
    width = max(12, *(len(n) + 2 for n in names))
    print()
    print("Fields, share right" + "".join(f"{n:>{width}}" for n in names))
    for label, key in [("docType", "docTypeAcc"), ("person", "personAcc"), ("institution", "institutionAcc"),
                       ("date", "documentDateAcc"), ("title", "titleValid")]:
        print(f"{label:19s}" + "".join(f"{s[key] * 100:>{width - 1}.1f}%" for _, _, s, _ in results))
    print(f"{'letters':19s}" + "".join(f"{s['documents']:>{width}}" for _, _, s, _ in results))
    print(f"{'wrong member':19s}" + "".join(f"{s['person']['misattributedToFamilyMember']:>{width}}" for _, _, s, _ in results))
    print(f"{'institution/worker':19s}" + "".join(f"{len(b):>{width}}" for *_, b in results))
    print(f"{'CER':19s}" + "".join(f"{s['cer'] * 100:>{width - 1}.1f}%" for _, _, s, _ in results))
    # Appointments: date and time right among letters that state one; letters without one given one.
    def appointment(s):
        return "–" if s.get("appointmentAcc") is None else f"{s['appointmentAcc'] * 100:.1f}%"

    def false_appointments(s):
        checked = s.get("appointmentsChecked") or {}
        return "–" if not checked else f"{s['appointmentsFalse']}/{checked['without']}"
    print(f"{'appointment':19s}" + "".join(f"{appointment(s):>{width}}" for _, _, s, _ in results))
    print(f"{'false appointments':19s}" + "".join(f"{false_appointments(s):>{width}}" for _, _, s, _ in results))
    for corpus, _, score, bad in results:
        print(f"\n{corpus.name}: docType confusion (rows = truth, columns = predicted)")
        confusion = score["docTypeConfusion"]
        columns = TYPES + ["(other)", "(none)"]
        print(" " * 11 + "".join(f"{c[:9]:>10s}" for c in columns))
        for truth in TYPES:
            row = confusion.get(truth, {})
            print(f"{truth:11s}" + "".join(f"{row.get(c, 0):>10d}" for c in columns))
        wrong = [d for d in score["perDocument"] if not all(d[k] for k in ("docTypeOk", "personOk", "institutionOk", "documentDateOk"))]
        for d in wrong:
            fields = [k[:-2] for k in ("docTypeOk", "personOk", "institutionOk", "documentDateOk") if not d[k]]
            print(f"  {d['id']} ({d['degradation']}): wrong {', '.join(fields)}")
        for name, person in bad:
            print(f"  {name}: person is an institution or a health worker: {person}")


if __name__ == "__main__":
    main()
