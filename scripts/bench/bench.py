#!/usr/bin/env python3
"""Benchmark arkivator against plain Tesseract on the evaluation corpus (Python 3.11, standard library only).

Usage (what `make bench` runs):
    python3 scripts/bench/bench.py --arkivator .build/release/arkivator [--images DIR] [--truth DIR]
                             [--jobs 2] [--out DIR] [--quick N] [--skip-default]

Three runs over the same page images (every file in the images folder, sorted):
  arkivator            `/usr/bin/time -v ARKIVATOR ingest --json --jobs N DIR`: wall clock and peak RSS
                       (exit 1 = "some files failed" is accepted; >1 is an error).  Run first so that a
                       broken binary fails fast.
  tesseract (OMP=1)    `tesseract IMG - -l nor` page by page, OMP_THREAD_LIMIT=1
  tesseract (defaults) the same without OMP_THREAD_LIMIT (its own threading); --skip-default leaves it out
Then the peak RSS on three 59.5-megapixel pages made here, in every format read
(scripts/bench/big_pages.py; --skip-big leaves it out).  Then the corpus's JPEG pages as they are and each wrapped unchanged in a one-page PDF (sized so that
300 DPI gives the same pixels), each twice in the order image, PDF, PDF, image: arkivator's pages/min
for PDF input against image input, target >= 0.9x (--skip-pdf leaves it out).
It prints pages, seconds and pages/min per run, the speed-ups against the targets (>= 1.8x vs OMP=1,
>= 4x vs defaults) and arkivator's peak RSS against <= 400 MB.  When a truth corpus and its score.py
(TRUTH/../score.py) exist, both prediction files are scored and CER/WER/wordRecall per degradation class
plus arkivator's field accuracies are printed.  With --quick (or any images folder that covers only part
of the truth), scoring uses a truth subset with the documents whose pages were all processed.

Then character accuracy page by page (scripts/bench/page_accuracy.py): plain tesseract against arkivator on the
dev corpus (from the runs above) and on the real-world set in --realworld (default .bench/realworld, made
by scripts/fixtures/make_realworld.py; left out when missing), with the pages arkivator reads more than one point
worse.

Defaults: --images ../shared/corpus/dev/images (relative to the repo root), --truth = the images folder's
parent when it holds truth/, --out .bench/.  OUT gets pred-*.jsonl, score-*.txt/json, arkivator's stderr
and /usr/bin/time report, and bench.json with all figures.  Exit status: 0 (also when a target is missed),
1 when arkivator or scoring fails, 2 for bad arguments or a missing corpus/tool.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import big_pages
import page_accuracy

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
import pdfwrite  # noqa: E402  (the fixture scripts' PDF writer)

REPO = Path(__file__).resolve().parents[2]
TARGET_VS_OMP1, TARGET_VS_DEFAULT, TARGET_RSS_MB = 1.8, 4.0, 400.0
TARGET_PDF_VS_IMAGE = 0.9
CLASSES = ("clean", "scan", "photo", "all")
# prediction field -> score.py figure in byDegradation
FIELDS = {"docType": "docTypeAcc", "documentDate": "documentDateAcc", "person": "personAcc",
          "institution": "institutionAcc", "title": "titleValid"}


def say(msg=""):
    print(msg, flush=True)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def progress(label, done, total):
    tty = sys.stderr.isatty()  # on a terminal, update one line in place
    if not tty and done % 10 and done != total:
        return  # in a log, every tenth page is enough
    start, end = ("\r", "" if done < total else "\n") if tty else ("", "\n")
    print(f"{start}{label}: {done}/{total}", end=end, file=sys.stderr, flush=True)


def fail(msg, code=2):
    log(msg)
    sys.exit(code)


def pct(x):
    return "   n/a" if x is None else f"{100 * x:5.1f}%"


def rate(pages, secs):
    return pages * 60.0 / secs if secs > 0 else 0.0


def run_tesseract(label, images, corpus, env, pred_path):
    """Plain `tesseract IMG - -l nor`, one page after the other; predictions as {"source", "text"|"error"}."""
    failed = 0
    t0 = time.monotonic()
    with open(pred_path, "w", encoding="utf-8") as fh:
        for i, img in enumerate(images, 1):
            r = subprocess.run(["tesseract", str(img), "-", "-l", "nor"], capture_output=True, env=env)
            rec = {"source": os.path.relpath(img, corpus)}
            if r.returncode == 0:
                rec["text"] = r.stdout.decode("utf-8", "replace")
            else:
                failed += 1
                err = [ln for ln in r.stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
                rec["error"] = f"tesseract exit {r.returncode}: " + (err[-1] if err else "no message")
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            progress(label, i, len(images))
    secs = time.monotonic() - t0
    return {"label": label, "pages": len(images), "seconds": secs, "pagesPerMin": rate(len(images), secs),
            "failedPages": failed, "predictions": str(pred_path)}


def run_arkivator(exe, jobs, img_dir, pages, out, family=None, name="arkivator", label=None):
    """`arkivator ingest --json --jobs N DIR` under /usr/bin/time -v; stdout is saved as is.

    It runs on a fresh library in OUT/library (never the user's own), with the corpus household
    imported first when there is one, so that person matching and the archive are measured too.
    """
    label = label or f"arkivator (--jobs {jobs})"
    pred, time_txt, err_txt = out / f"pred-{name}.jsonl", out / f"{name}-time.txt", out / f"{name}-stderr.txt"
    library = out / ("library" if name == "arkivator" else f"library-{name}")
    shutil.rmtree(library, ignore_errors=True)
    if family and family.is_file():
        subprocess.run([exe, "family", "import", "--library", str(library), str(family)],
                       check=True, stdout=subprocess.DEVNULL)
    cmd = [exe, "ingest", "--json", "--jobs", str(jobs), "--library", str(library), str(img_dir)]
    use_time = os.access("/usr/bin/time", os.X_OK)
    if use_time:  # -o keeps the time report apart from arkivator's own stderr
        cmd = ["/usr/bin/time", "-v", "-o", str(time_txt)] + cmd
    else:
        log("note: /usr/bin/time not found (apt-get install -y time); peak RSS taken from wait4() instead")
    done = docs = errors = 0
    rusage = None
    t0 = time.monotonic()
    with open(pred, "wb") as fh, open(err_txt, "wb") as eh:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=eh)
        for raw in p.stdout:
            fh.write(raw)
            try:
                obj = json.loads(raw)
            except ValueError:
                continue
            src = obj.get("source")
            docs += 1
            errors += bool(obj.get("error"))
            done += len(src) if isinstance(src, list) else 1
            progress(label, min(done, pages), pages)
        p.stdout.close()
        if use_time:
            rc = p.wait()
        else:
            _, status, rusage = os.wait4(p.pid, 0)
            rc = p.returncode = os.waitstatus_to_exitcode(status)
    secs = time.monotonic() - t0
    if done < pages:
        progress(label, pages, pages)  # finish the progress line
    rss_kb = None
    if use_time and time_txt.exists():
        for line in time_txt.read_text(errors="replace").splitlines():
            if "Maximum resident set size (kbytes)" in line:
                rss_kb = int(line.rsplit(":", 1)[1])
    elif rusage is not None:
        rss_kb = rusage.ru_maxrss  # kilobytes on Linux
    return {"label": label, "pages": pages, "seconds": secs, "pagesPerMin": rate(pages, secs), "exitCode": rc,
            "documents": docs, "errorLines": errors, "peakRssMB": None if rss_kb is None else rss_kb / 1024.0,
            "predictions": str(pred), "stderr": str(err_txt)}


def jpeg_size(data):
    """(width, height, components) from a JPEG's frame header, or None."""
    i = 2
    while i + 9 < len(data) and data[i] == 0xFF:
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return (int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big"), data[i + 9])
        i += 2 + length
    return None


def scanned_pdf(jpeg):
    """A one-page PDF showing `jpeg` as it is, sized so that 300 DPI gives its own pixels back."""
    w, h, n = jpeg_size(jpeg)
    return pdfwrite.jpeg_pages([(jpeg, w, h, {1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK"}[n])], 300)


def pdf_comparison(exe, jobs, images, out):
    """The same JPEG pages as images and as scanned PDFs (one page each, the JPEG inside as it is):
    arkivator's pages/min for each, one after the other in this run."""
    jpegs = [p for p in images if p.suffix.lower() in (".jpg", ".jpeg") and jpeg_size(p.read_bytes())]
    if not jpegs:
        return None
    image_dir, pdf_dir = out / "pdf-compare" / "images", out / "pdf-compare" / "pdf"
    shutil.rmtree(out / "pdf-compare", ignore_errors=True)
    image_dir.mkdir(parents=True)
    pdf_dir.mkdir(parents=True)
    for p in jpegs:
        shutil.copyfile(p, image_dir / p.name)
        (pdf_dir / (p.stem + ".pdf")).write_bytes(scanned_pdf(p.read_bytes()))
    # Image, PDF, PDF, image: one run of each swings by some 10 % here, so each is run twice, in
    # an order that treats both alike, and their times are added.
    runs = {"image": [], "pdf": []}
    for kind in ("image", "pdf", "pdf", "image"):
        folder, label = (image_dir, "arkivator, JPEG pages") if kind == "image" else (pdf_dir, "arkivator, same pages as PDF")
        runs[kind].append(run_arkivator(exe, jobs, folder, len(jpegs), out, name=f"compare-{kind}", label=label))
    def combined(results):
        total = dict(results[-1])
        total["pages"] = sum(r["pages"] for r in results)
        total["seconds"] = sum(r["seconds"] for r in results)
        total["pagesPerMin"] = rate(total["pages"], total["seconds"])
        total["exitCode"] = max(r["exitCode"] for r in results)
        return total
    return combined(runs["image"]), combined(runs["pdf"])


def truth_for(truth_dir, names, out):
    """The truth dir, or a subset of it (OUT/truth-subset) with only the documents whose pages were all run."""
    docs = []
    for f in sorted((truth_dir / "truth").glob("*.json")):
        with open(f, encoding="utf-8") as fh:
            docs.append((f, json.load(fh).get("pages", [])))
    keep = [(f, pg) for f, pg in docs if pg and all(p in names for p in pg)]
    if len(keep) == len(docs):
        return truth_dir, len(docs), len(docs)
    sub = out / "truth-subset"
    shutil.rmtree(sub, ignore_errors=True)
    (sub / "truth").mkdir(parents=True)
    for f, _ in keep:
        for src in (f, f.with_suffix(".txt")):
            if src.exists():
                shutil.copy2(src, sub / "truth" / src.name)
    if (truth_dir / "family.json").exists():
        shutil.copy2(truth_dir / "family.json", sub / "family.json")
    return sub, len(keep), len(docs)


def score(score_py, truth, pred, out, name):
    """score.py --json -> dict (also saved); the table form goes to OUT/score-NAME.txt."""
    base = [sys.executable, str(score_py), "--truth", str(truth), "--pred", str(pred)]
    r = subprocess.run(base + ["--json"], capture_output=True, text=True)
    if r.returncode != 0:
        log(f"score.py failed for {name} (exit {r.returncode}):\n{r.stderr.strip()}")
        return None
    (out / f"score-{name}.json").write_text(r.stdout, encoding="utf-8")
    res = json.loads(r.stdout)
    table = subprocess.run(base, capture_output=True, text=True)
    note = "(bench.py runs images/ only: the bad-input files are not given, so they show as missing)\n\n"
    (out / f"score-{name}.txt").write_text((note if "badInputs" in res else "") + table.stdout + table.stderr,
                                           encoding="utf-8")
    return res


def compact(res, fields):
    """The figures printed in the summary (and kept in bench.json)."""
    keep = ["docs", "pages", "cer", "wer", "wordRecall"] + [FIELDS[f] for f in fields]
    c = {"missing": res["missing"], "unmatchedPredictions": res["unmatchedPredictions"],
         "byDegradation": {k: {f: v.get(f) for f in keep} for k, v in res["byDegradation"].items()}}
    for k in ("specialtyAcc", "personnummerAcc", "keywordRecall"):
        if res.get(k) is not None:
            c[k] = res[k]
    return c


def main(argv=None):
    ap = argparse.ArgumentParser(description="Benchmark arkivator against plain tesseract (see module docstring).")
    ap.add_argument("--arkivator", required=True, help="path of the arkivator binary")
    ap.add_argument("--images", type=Path, default=REPO.parent / "shared/corpus/dev/images",
                    help="folder of page images (default: ../shared/corpus/dev/images from the repo root)")
    ap.add_argument("--truth", type=Path, help="corpus dir holding truth/ (default: the images folder's parent)")
    ap.add_argument("--jobs", type=int, default=2, help="arkivator --jobs (default 2)")
    ap.add_argument("--out", type=Path, default=REPO / ".bench", help="output folder (default .bench/)")
    ap.add_argument("--quick", type=int, metavar="N", help="only the first N images")
    ap.add_argument("--skip-default", action="store_true", help="skip the tesseract run with default threading")
    ap.add_argument("--skip-pdf", action="store_true", help="skip the scanned-PDF against JPEG comparison")
    ap.add_argument("--skip-big", action="store_true", help="skip the peak RSS on 59.5-megapixel pages")
    ap.add_argument("--realworld", type=Path, default=REPO / ".bench/realworld",
                    help="real-world page set made by scripts/fixtures/make_realworld.py (default .bench/realworld; "
                         "left out when missing)")
    a = ap.parse_args(argv)

    if not a.images.is_dir():
        fail(f"The benchmark needs the evaluation corpus: {a.images} does not exist.\n"
             "Put the corpus at ../shared/corpus (next to this repository) or pass --images DIR.")
    exe = shutil.which(a.arkivator) or a.arkivator
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        fail(f"arkivator binary not found or not executable: {a.arkivator} (build it with `make release`)")
    if not shutil.which("tesseract"):
        fail("tesseract not found (apt-get install -y tesseract-ocr tesseract-ocr-nor)")
    images = sorted(p for p in a.images.resolve().iterdir() if p.is_file() and not p.name.startswith("."))
    if a.quick:
        images = images[:a.quick]
    if not images:
        fail(f"no images in {a.images}")
    corpus = a.images.resolve().parent
    out = a.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    img_dir = a.images.resolve()
    if a.quick:  # arkivator takes a folder: give it a copy holding only the chosen pages
        img_dir = out / "quick" / "images"
        shutil.rmtree(img_dir.parent, ignore_errors=True)
        img_dir.mkdir(parents=True)
        for p in images:
            shutil.copyfile(p, img_dir / p.name)
    n = len(images)
    say(f"bench: {n} pages from {a.images}, {os.cpu_count()} CPUs, arkivator --jobs {a.jobs}, output in {out}")

    runs = {}
    family = (a.truth or corpus) / "family.json"
    ark = runs["arkivator"] = run_arkivator(exe, a.jobs, img_dir, n, out, family)
    ark_failed = ark["exitCode"] > 1
    if ark_failed:
        tail = Path(ark["stderr"]).read_text(errors="replace").strip().splitlines()[-15:]
        log(f"arkivator failed with exit {ark['exitCode']}; last stderr lines:\n  " + "\n  ".join(tail))
    else:
        env1 = dict(os.environ, OMP_THREAD_LIMIT="1")
        runs["tesseract_omp1"] = run_tesseract("tesseract (OMP_THREAD_LIMIT=1)", images, corpus, env1,
                                               out / "pred-tesseract-omp1.jsonl")
        if not a.skip_default:
            env0 = {k: v for k, v in os.environ.items() if k != "OMP_THREAD_LIMIT"}
            runs["tesseract_default"] = run_tesseract("tesseract (defaults)", images, corpus, env0,
                                                      out / "pred-tesseract-default.jsonl")

    say()
    say(f"{'run':34s} {'pages':>5s} {'seconds':>8s} {'pages/min':>9s}")
    for r in runs.values():
        figs = f"{r['seconds']:8.1f} {r['pagesPerMin']:9.1f}" if r.get("exitCode", 0) <= 1 else "  FAILED"
        say(f"{r['label']:34s} {r['pages']:5d} {figs}")
    say(f"arkivator: exit {ark['exitCode']}, {ark['documents']} JSON lines, {ark['errorLines']} with \"error\"")
    say()
    verdict, ratios = {}, {}
    for key, name, target in (("tesseract_omp1", "tesseract (OMP_THREAD_LIMIT=1)", TARGET_VS_OMP1),
                              ("tesseract_default", "tesseract (defaults)", TARGET_VS_DEFAULT)):
        r = runs.get(key)
        head = f"arkivator vs {name}:"
        if r is None or ark_failed:
            why = "arkivator failed" if ark_failed else "skipped with --skip-default"
            say(f"{head:48s} not measured ({why}), target >= {target:g}x")
            continue
        ratios[key] = ark["pagesPerMin"] / r["pagesPerMin"] if r["pagesPerMin"] else None
        verdict[key] = ratios[key] is not None and ratios[key] >= target
        say(f"{head:48s} {ratios[key]:6.2f}x   {f'target >= {target:g}x':17s} {'PASS' if verdict[key] else 'FAIL'}")
    if not a.skip_pdf and not ark_failed:
        compared = pdf_comparison(exe, a.jobs, images, out)
        if compared is None:
            say(f"{'scanned PDF vs JPEG input:':48s} not measured (no JPEG pages)")
        else:
            image, pdf = compared
            runs["compare_image"], runs["compare_pdf"] = image, pdf
            if image["exitCode"] > 1 or pdf["exitCode"] > 1 or not image["pagesPerMin"]:
                say(f"{'scanned PDF vs JPEG input:':48s} FAILED (see {out / 'compare-pdf-stderr.txt'})")
            else:
                ratios["pdf_vs_image"] = pdf["pagesPerMin"] / image["pagesPerMin"]
                verdict["pdf_vs_image"] = ratios["pdf_vs_image"] >= TARGET_PDF_VS_IMAGE
                say(f"{'scanned PDF vs JPEG input, same ' + str(image['pages'] // 2) + ' pages x2:':48s} "
                    f"{ratios['pdf_vs_image']:6.2f}x   {f'target >= {TARGET_PDF_VS_IMAGE:g}x':17s} "
                    f"{'PASS' if verdict['pdf_vs_image'] else 'FAIL'}   "
                    f"({pdf['pagesPerMin']:.1f} vs {image['pagesPerMin']:.1f} pages/min)")
    rss = ark["peakRssMB"]
    if rss is None or ark_failed:
        say(f"{'arkivator peak RSS:':48s} not measured, target <= {TARGET_RSS_MB:g} MB")
    else:
        verdict["rss"] = rss <= TARGET_RSS_MB
        say(f"{'arkivator peak RSS:':48s} {rss:6.1f} MB  {f'target <= {TARGET_RSS_MB:g} MB':17s} "
            f"{'PASS' if verdict['rss'] else 'FAIL'}")
    # pages at the size limit, made here: peak RSS with the default jobs
    if not a.skip_big and not ark_failed:
        big = big_pages.measure(exe, out, None, say)
        if big:
            runs["big_pages"] = big
            verdict["rss_big_pages"] = all(r["pass"] for r in big.values())

    # accuracy, when the corpus has truth and score.py
    truth_dir = a.truth or (corpus if (corpus / "truth").is_dir() else None)
    if truth_dir is not None and not (truth_dir / "truth").is_dir() and (truth_dir.name == "truth"):
        truth_dir = truth_dir.parent  # accept .../dev/truth as well as .../dev
    scores, score_failed = {}, False
    score_py = truth_dir.resolve().parent / "score.py" if truth_dir else None
    if ark_failed:
        pass
    elif not truth_dir or not (truth_dir / "truth").is_dir():
        say("\n(no truth folder: accuracy not scored)")
    elif not score_py.is_file():
        say(f"\n(no {score_py}: accuracy not scored)")
    else:
        t_dir, kept, total = truth_for(truth_dir.resolve(), {p.name for p in images}, out)
        ark_fields = set()
        with open(ark["predictions"], encoding="utf-8", errors="replace") as fh:
            for line in fh:
                try:
                    ark_fields |= {k for k, v in json.loads(line).items() if v is not None}
                except (ValueError, AttributeError):
                    pass
        fields = [f for f in FIELDS if f in ark_fields]
        full = {key: score(score_py, t_dir, runs[key]["predictions"], out, name)
                for key, name in (("tesseract_omp1", "tesseract"), ("arkivator", "arkivator"))}
        score_failed = any(v is None for v in full.values())
        if not score_failed:
            scores = {"tesseract_omp1": compact(full["tesseract_omp1"], []),
                      "arkivator": compact(full["arkivator"], fields)}
            t, k = full["tesseract_omp1"]["byDegradation"], full["arkivator"]["byDegradation"]
            sub = f" (subset: {kept} of {total} documents, all pages run)" if kept < total else ""
            say(f"\nAccuracy, tesseract (OMP=1) | arkivator{sub}; full table in {out / 'score-arkivator.txt'}")
            say(f"{'class':6s} {'docs':>4s}   {'CER':^15s}   {'WER':^15s}   {'wordRecall':^15s}")
            for c in CLASSES:
                if c in k:
                    say(f"{c:6s} {k[c]['docs']:4d}   " + "   ".join(
                        f"{pct(t[c][m])} | {pct(k[c][m])}" for m in ("cer", "wer", "wordRecall")))
            if fields:
                say("\narkivator fields " + "".join(f"{f:>13s}" for f in fields))
                for c in CLASSES:
                    if c in k:
                        say(f"{c:16s} " + "".join(f"{pct(k[c][FIELDS[f]]):>13s}" for f in fields))
            extra = [f"{name} {pct(scores['arkivator'][key]).strip()}" for key, name in
                     (("specialtyAcc", "specialty"), ("personnummerAcc", "personnummer"),
                      ("keywordRecall", "keyword recall")) if key in scores["arkivator"]]
            if extra:
                say("arkivator: " + ", ".join(extra))
            ka = full["arkivator"]
            say(f"documents without an arkivator prediction: {ka['missing']}; "
                f"unmatched arkivator lines: {ka['unmatchedPredictions']}")

    # character accuracy page by page, on every set: the dev corpus and the real-world pages
    page_sets = []
    if not ark_failed and truth_dir is not None and (truth_dir / "truth").is_dir():
        page_sets.append(page_accuracy.compare("dev", truth_dir / "truth", runs["tesseract_omp1"]["predictions"],
                                               ark["predictions"]))
    rw_images = a.realworld / "images"
    if ark_failed:
        pass
    elif rw_images.is_dir():
        rw = sorted(p for p in rw_images.resolve().iterdir() if p.is_file() and not p.name.startswith("."))
        say(f"\nreal-world set: {len(rw)} pages from {a.realworld}")
        runs["realworld_arkivator"] = run_arkivator(exe, a.jobs, rw_images.resolve(), len(rw), out, None,
                                                    name="realworld", label="arkivator, real-world pages")
        runs["realworld_tesseract"] = run_tesseract("tesseract (OMP=1), real-world pages", rw,
                                                    a.realworld.resolve(), dict(os.environ, OMP_THREAD_LIMIT="1"),
                                                    out / "pred-realworld-tesseract.jsonl")
        page_sets.append(page_accuracy.compare("real-world", a.realworld / "truth",
                                               runs["realworld_tesseract"]["predictions"],
                                               runs["realworld_arkivator"]["predictions"]))
    else:
        say(f"\n(no real-world set at {a.realworld}: make it with "
            f"/usr/bin/python3 scripts/fixtures/make_realworld.py --out {a.realworld})")
    if page_sets:
        page_accuracy.print_table(page_sets, say)
        for ps in page_sets:
            scores[f"pages-{ps['set']}"] = {k: ps[k] for k in ("pages", "tesseract", "arkivator")} | {
                "worse": [r["page"] for r in ps["worse"]], "better": len(ps["better"])}

    report = {"time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "cpus": os.cpu_count(), "images": str(a.images),
              "pages": n, "jobs": a.jobs, "runs": runs, "ratios": ratios,
              "targets": {"vsTesseractOmp1": TARGET_VS_OMP1, "vsTesseractDefault": TARGET_VS_DEFAULT,
                          "peakRssMB": TARGET_RSS_MB, "pdfVsImage": TARGET_PDF_VS_IMAGE},
              "pass": verdict, "scores": scores}
    (out / "bench.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    say(f"\nwrote {out / 'bench.json'}")
    return 1 if ark_failed or score_failed else 0


if __name__ == "__main__":
    sys.exit(main())
