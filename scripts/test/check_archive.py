"""Checks what `arkivator ingest --json` filed, with readers that are not ours.

    python3 scripts/test/check_archive.py PRED.jsonl [--libreoffice] [--fnr-file family.json] [--truth DIR]

For every document with `files`:
  - python-docx (through scripts/test/read_docx.py) opens the .docx; its body paragraphs equal the
    document's text paragraphs; the highlighted runs are exactly the low-confidence words and the
    numbers in doubt; the custom properties equal the JSON fields;
  - with --libreoffice, `soffice --headless --convert-to pdf` converts the .docx;
  - `pdftotext -raw` of the searchable PDF gives the text back with CER <= 2 %;
  - no fødselsnummer (found in the text, in --fnr-file members, or in --truth documents) appears in
    any file name under the archive, any .docx part other than the body, or the PDF's metadata.
Prints one line per problem and a closing `N passed, M failed`; exits 1 when something failed.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def valid_fnr(d):
    """The control digits of a fødselsnummer of any kind (D, H, synthetic), by the rule before
    2032 or the one from 2032, where the first control sum may leave 0, 1, 2 or 3 (Skatteetaten,
    https://www.skatteetaten.no/deling/opplysninger/folkeregisteropplysninger/pid/)."""
    if len(d) != 11 or not d.isdigit():
        return False
    n = [int(c) for c in d]
    w1 = [3, 7, 6, 1, 8, 9, 4, 5, 2, 1]
    w2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2, 1]
    return sum(a * b for a, b in zip(n, w1)) % 11 in (0, 1, 2, 3) and sum(a * b for a, b in zip(n, w2)) % 11 == 0


def fnrs_in(text):
    found = set()
    for m in re.finditer(r"(?<!\d)(\d{6}) ?(\d{5})(?!\d)", text):
        d = m.group(1) + m.group(2)
        if valid_fnr(d):
            found.add(d)
    return found


def paragraphs(text):
    """The text's paragraphs as the .docx holds them: split at blank lines and page breaks."""
    result = []
    for page in text.split("\f"):
        for block in re.split(r"\n[ \t]*\n", page):
            lines = [line for line in block.split("\n")]
            while lines and not lines[0].strip():
                lines.pop(0)
            while lines and not lines[-1].strip():
                lines.pop()
            if lines:
                result.append("\n".join(lines))
    return result


def cer(a, b):
    a = " ".join(unicodedata.normalize("NFC", a).split())
    b = " ".join(unicodedata.normalize("NFC", b).split())
    if not a:
        return 0.0 if not b else 1.0
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        prev = cur
    return prev[-1] / len(a)


def expected_custom(r):
    person = r.get("familyMember") or r.get("person") or "Ukjent person"
    # The .docx describes the document as the library files it: one without text (not classified,
    # `docType` null in the JSON) is an `annet` dated by its scan date, as `show` and `edit` have it.
    return {
        "person": person, "docType": r.get("docType") or "annet", "institution": r.get("institution") or "",
        "specialty": r.get("specialty") or "", "documentDate": r.get("documentDate") or r.get("scanDate") or "",
        "scanDate": r.get("scanDate") or "", "keywords": ", ".join(r.get("keywords") or []),
        "ocrConfidence": "%.3f" % (r.get("ocrConfidence") or 0), "sourceSHA256": r.get("id") or "",
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pred")
    ap.add_argument("--libreoffice", action="store_true")
    ap.add_argument("--fnr-file", action="append", default=[])
    ap.add_argument("--truth")
    args = ap.parse_args()

    records = [json.loads(line) for line in open(args.pred, encoding="utf-8") if line.strip()]
    secret = set()
    for path in args.fnr_file:
        for m in json.load(open(path, encoding="utf-8")).get("members", []):
            if m.get("personnummer"):
                secret.add(m["personnummer"])
    if args.truth:
        tdir = os.path.join(args.truth, "truth")
        for name in os.listdir(tdir):
            if name.endswith(".json"):
                t = json.load(open(os.path.join(tdir, name), encoding="utf-8"))
                if t.get("personnummer"):
                    secret.add(t["personnummer"])
    for r in records:
        secret |= fnrs_in(r.get("text") or "")

    passed = failed = 0
    roots = set()
    lo_profile = tempfile.mkdtemp(prefix="arkivator-lo-")

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL " + what)

    for r in records:
        files = r.get("files")
        if not files:
            continue
        name = os.path.basename(files["docx"])
        roots.add(os.path.dirname(os.path.dirname(os.path.dirname(files["docx"]))))
        out = subprocess.run([sys.executable, os.path.join(HERE, "read_docx.py"), files["docx"]],
                             capture_output=True, text=True)
        check(out.returncode == 0, f"{name}: python-docx could not read it: {out.stderr.strip()}")
        if out.returncode != 0:
            continue
        docx = json.loads(out.stdout)
        body = docx["paragraphs"][1:]
        check(body == paragraphs(r["text"]), f"{name}: paragraphs differ from the text")
        text = r["text"]
        scalars = list(text)
        # The places to check: the words read with low confidence and the numbers in doubt, each once,
        # in the text's order (a number inside a low-confidence word is that word's place).
        ranges = [(w["start"], w["length"]) for w in r.get("lowConfidenceWords", [])]
        for n in r.get("doubtfulNumbers", []):
            if not any(s < n["start"] + n["length"] and n["start"] < s + l for s, l in ranges):
                ranges.append((n["start"], n["length"]))
        want = "".join("".join(scalars[s:s + l]) for s, l in sorted(ranges))
        got = "".join(docx["highlighted"])
        check(got.replace("\n", "") == want, f"{name}: highlighted {got!r} != low-confidence words {want!r}")
        check(docx["custom"] == expected_custom(r), f"{name}: custom properties {docx['custom']} != JSON")
        # A page without text is filed under a stand-in title (scan date and file name).
        want_title = r.get("title") or os.path.splitext(name)[0]
        check(docx["core"].get("title") == want_title, f"{name}: core title differs")
        if args.libreoffice:
            with tempfile.TemporaryDirectory() as tmp:
                conv = subprocess.run(["soffice", f"-env:UserInstallation=file://{lo_profile}", "--headless",
                                       "--convert-to", "pdf", "--outdir", tmp, files["docx"]],
                                      capture_output=True, text=True, timeout=180)
                made = [f for f in os.listdir(tmp) if f.endswith(".pdf")]
                check(conv.returncode == 0 and made and os.path.getsize(os.path.join(tmp, made[0])) > 0,
                      f"{name}: LibreOffice did not convert it: {conv.stderr.strip()[:200]}")
        pdf = subprocess.run(["pdftotext", "-raw", files["pdf"], "-"], capture_output=True, text=True)
        rate = cer(text, pdf.stdout.replace("\f", " "))
        check(pdf.returncode == 0 and rate <= 0.02, f"{name}: pdftotext CER {rate:.3%} > 2 %")
        info = subprocess.run(["pdfinfo", files["pdf"]], capture_output=True, text=True).stdout
        with zipfile.ZipFile(files["docx"]) as z:
            meta = "".join(z.read(p).decode("utf-8", "replace") for p in z.namelist() if p != "word/document.xml")
        for digits in secret:
            spaced = digits[:6] + " " + digits[6:]
            for where, blob in (("docx metadata", meta), ("PDF metadata", info), ("title", r.get("title") or "")):
                check(digits not in blob and spaced not in blob, f"{name}: a fødselsnummer in the {where}")

    for root in roots:
        for folder, dirs, names in os.walk(root):
            for n in dirs + names:
                bad = [d for d in secret if d in n or (d[:6] + " " + d[6:]) in n]
                check(not bad, f"a fødselsnummer in the file name {os.path.join(folder, n)}")
    print(f"check_archive: {len([r for r in records if r.get('files')])} documents, {len(secret)} fødselsnumre looked for")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
