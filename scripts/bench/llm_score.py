#!/usr/bin/env python3
"""Rules alone against rules + the language model, on a corpus with ground truth.

    python3 scripts/bench/llm_score.py CORPUS_DIR [--bin .build/release/arkivator] [--url URL] [--limit N]

Reads the corpus's images once with the rules only and once with `--llm` (the local server from
`scripts/dev/llm.py up`, or --url), scores both with the corpus's score.py, and prints per field:
rules, rules+LLM, and the difference. Also prints the LLM's added latency per document (median,
p90), how many answers were used, and the fields the checks refused.

"Title correct" is stricter than score.py's title validity: the title starts with the TRUE letter
date and names the true type (its title word). "Title quality" is the share of what a title should
say that it does say, averaged over documents: the true date, the true type's word, the true sender
(name or alias), where the letter names one, the true department (name or alias, or the
specialty's stem, as in "ortopedisk" for Ortopedi), and what the letter is about: one of its truth
keywords other than the type (its first six letters, so "grunnstønad" counts in "om grunnstønad").
Exit code 1 when rules+LLM is worse than the rules on any field, or a document lost its type.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
TITLE_WORDS = {"innkalling": "Innkalling", "epikrise": "Epikrise", "lab-svar": "Prøvesvar", "resept": "Resept",
               "henvisning": "Henvisning", "vedtak": "Vedtak", "annet": "Brev"}
FIELDS = ["docTypeAcc", "documentDateAcc", "institutionAcc", "personAcc", "titleValid", "specialtyAcc", "titleCorrect",
          "titleQuality"]


def run(binary, library, corpus, extra, limit):
    images = sorted((Path(corpus) / "images").iterdir())
    if limit:
        truth = sorted((Path(corpus) / "truth").glob("*.json"))[:limit]
        keep = {p for t in truth for p in json.loads(t.read_text())["pages"]}
        images = [i for i in images if i.name in keep]
    command = [binary, "ingest", "--json", "--no-archive", "--jobs", "2", "--library", library] + extra + [str(i) for i in images]
    out = subprocess.run(command, capture_output=True, text=True)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    sys.stderr.write(out.stderr[-2000:])
    return lines


def score(corpus, lines, limit):
    with tempfile.TemporaryDirectory() as tmp:
        pred = Path(tmp) / "pred.jsonl"
        pred.write_text("\n".join(lines) + "\n")
        truth = corpus
        if limit:
            # score.py counts every truth document: score a copy of the corpus's first N.
            truth = Path(tmp) / "truth-subset"
            (truth / "truth").mkdir(parents=True)
            for t in sorted((Path(corpus) / "truth").glob("*.json"))[:limit]:
                (truth / "truth" / t.name).write_text(t.read_text())
                (truth / "truth" / t.with_suffix(".txt").name).write_text(t.with_suffix(".txt").read_text())
            for name in ["family.json", "manifest.json"]:
                if (Path(corpus) / name).exists():
                    (truth / name).write_text((Path(corpus) / name).read_text())
        scorer = Path(os.environ.get("SCORE", REPO.parent / "shared" / "corpus" / "score.py"))
        out = subprocess.run([sys.executable, str(scorer), "--truth", str(truth), "--pred", str(pred), "--json"],
                             capture_output=True, text=True, check=True)
        return json.loads(out.stdout)


def by_document(corpus, lines, limit):
    """(truth, prediction) per truth document; prediction None when missing."""
    truth = {}
    for t in sorted((Path(corpus) / "truth").glob("*.json"))[: limit or None]:
        d = json.loads(t.read_text())
        truth[d["pages"][0]] = d
    predicted = {}
    for line in lines:
        record = json.loads(line)
        sources = record["source"] if isinstance(record["source"], list) else [record["source"]]
        predicted[Path(sources[0]).name] = record
    return [(d, predicted.get(first)) for first, d in truth.items()]


def title_quality(corpus, lines, limit):
    scores = []
    for d, record in by_document(corpus, lines, limit):
        title = ((record or {}).get("title") or "").lower()
        checks = [title.startswith(d["documentDate"]), TITLE_WORDS[d["docType"]].lower() in title]
        if d.get("institution"):
            checks.append(any(n.lower() in title for n in [d["institution"]] + (d.get("institutionAliases") or [])))
        if d.get("specialty"):
            names = [d["specialty"]] + (d.get("specialtyAliases") or [])
            checks.append(any(n.lower() in title for n in names) or d["specialty"].lower()[:6] in title)
        topics = [k.lower() for k in d.get("keywords") or []
                  if k.lower() not in (d["docType"], TITLE_WORDS[d["docType"]].lower(), (d.get("institution") or "").lower())]
        if topics:
            checks.append(any(k[:6] in title for k in topics))
        scores.append(sum(checks) / len(checks))
    return sum(scores) / len(scores) if scores else 0.0


def title_correct(corpus, lines, limit):
    truth = {}
    for t in sorted((Path(corpus) / "truth").glob("*.json"))[: limit or None]:
        d = json.loads(t.read_text())
        for page in d["pages"]:
            truth[page] = d
    ok = total = 0
    seen = set()
    for line in lines:
        record = json.loads(line)
        sources = record["source"] if isinstance(record["source"], list) else [record["source"]]
        d = truth.get(Path(sources[0]).name)
        if not d or d["id"] in seen:
            continue
        seen.add(d["id"])
        total += 1
        title = record.get("title") or ""
        ok += title.startswith(d["documentDate"] + " ") and TITLE_WORDS[d["docType"]] in title
    n = len({d["id"] for d in truth.values()})
    return ok / n if n else 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("--bin", default=str(REPO / ".build" / "release" / "arkivator"))
    parser.add_argument("--url")
    parser.add_argument("--limit", type=int, default=0, help="only the first N documents")
    parser.add_argument("--save", help="folder to keep rules.jsonl and llm.jsonl in")
    args = parser.parse_args()
    url = args.url or subprocess.run([sys.executable, str(REPO / "scripts" / "dev" / "llm.py"), "up"], capture_output=True, text=True,
                                     check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        library = str(Path(tmp) / "bibliotek")
        family = Path(args.corpus) / "family.json"
        if family.exists():
            subprocess.run([args.bin, "family", "import", "--library", library, str(family)], check=True, capture_output=True)
        subprocess.run([args.bin, "config", "set", "--library", library, "llm.url", url], check=True, capture_output=True)
        start = time.time()
        rules = run(args.bin, library, args.corpus, ["--no-llm"], args.limit)
        rules_seconds = time.time() - start
        start = time.time()
        llm = run(args.bin, library, args.corpus, ["--llm"], args.limit)
        llm_seconds = time.time() - start
    if args.save:
        Path(args.save).mkdir(parents=True, exist_ok=True)
        (Path(args.save) / "rules.jsonl").write_text("\n".join(rules) + "\n")
        (Path(args.save) / "llm.jsonl").write_text("\n".join(llm) + "\n")
    a, b = score(args.corpus, rules, args.limit), score(args.corpus, llm, args.limit)
    a["titleCorrect"], b["titleCorrect"] = title_correct(args.corpus, rules, args.limit), title_correct(args.corpus, llm, args.limit)
    a["titleQuality"], b["titleQuality"] = title_quality(args.corpus, rules, args.limit), title_quality(args.corpus, llm, args.limit)
    worse = []
    print(f"{'field':<16} {'rules':>8} {'rules+LLM':>10} {'change':>8}")
    for field in FIELDS:
        x, y = a.get(field), b.get(field)
        if x is None or y is None:
            continue
        print(f"{field:<16} {x * 100:7.1f}% {y * 100:9.1f}% {(y - x) * 100:+7.1f}")
        if y < x - 1e-9:
            worse.append(field)
    mis_a, mis_b = a["person"]["misattributedToFamilyMember"], b["person"]["misattributedToFamilyMember"]
    print(f"{'wrong member':<16} {mis_a:>8} {mis_b:>10}")
    if mis_b > mis_a:
        worse.append("misattributedToFamilyMember")
    records = [json.loads(l) for l in llm]
    reports = [r.get("llm") for r in records if r.get("llm")]
    used = [r for r in reports if r.get("used")]
    latencies = sorted(r["latencyMs"] / 1000 for r in reports if r.get("latencyMs") is not None)
    untyped = sum(1 for r in records if not r.get("error") and not r.get("noText") and not r.get("docType"))
    if latencies:
        p90 = latencies[min(len(latencies) - 1, int(round(0.9 * (len(latencies) - 1))))]
        print(f"LLM added latency per document: median {statistics.median(latencies):.1f} s, p90 {p90:.1f} s "
              f"({len(latencies)} documents; request to answer, waiting behind the other worker's request included)")
        print(f"ingest wall time: rules {rules_seconds:.0f} s, rules+LLM {llm_seconds:.0f} s: "
              f"{(llm_seconds - rules_seconds) / len(records):.1f} s more per document")
    print(f"LLM answers used: {len(used)} of {len(reports)}; documents without a type: {untyped}")
    rejected = {}
    for r in reports:
        for f in r.get("rejectedFields", []):
            rejected[f] = rejected.get(f, 0) + 1
    disagreed = {}
    for r in reports:
        for f in r.get("disagreedFields", []):
            disagreed[f] = disagreed.get(f, 0) + 1
    print(f"refused by the checks: {json.dumps(rejected, sort_keys=True)}; disagreed: {json.dumps(disagreed, sort_keys=True)}")
    if untyped:
        worse.append("untyped")
    if worse:
        print("WORSE: " + ", ".join(worse))
        sys.exit(1)
    print("PASS: rules+LLM is at least as good as the rules on every field")


if __name__ == "__main__":
    main()
