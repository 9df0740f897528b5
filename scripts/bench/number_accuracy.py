#!/usr/bin/env python3
"""Numbers read exactly, or flagged: for every number in the truth text of a drawn corpus set
(digits with their decimal comma or point, ":" of a time, a "<" or ">" before), whether the OCR
text reads it exactly in its place, and whether each misread one is flagged (its place overlaps
an entry of the record's `doubtfulNumbers`). Also the lab rows: read exactly, misread and not
marked doubtful, right but marked doubtful.

    python3 scripts/bench/number_accuracy.py --arkivator .build/release/arkivator --set .bench/numbers/dev-51 --set .bench/numbers/b-53
    python3 scripts/bench/number_accuracy.py --set .bench/numbers/dev-51 --pred .bench/numbers/dev-51.pred.jsonl

Each set is read with `arkivator ingest --no-archive --json` (one page per record; pages of a
document are joined with a form feed, as score.py does) and the records are kept beside the set's
name in --out; --pred reads records already made instead (one --pred per --set, in order).
Truth and OCR are aligned word by word (difflib), and words that differ character by character,
so a number counts as read only where it stands, not anywhere in the letter. "Flagged by
low confidence alone" is what the OCR's low-confidence words would flag without the number
rules: the figure before them.

A set drawn with scripts/bench/draw_set.py holds overprinted.json: the lines the generator printed
over other ink (a long name running into the contact block beside it). Their numbers no reader
can read; they are counted apart, and left out of the figures above them."""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

# As /work/shared/corpus/score.py counts numbers, with "< 5" and "<5" the same number.
NUMBER = re.compile(r"(?:[<>] ?)?\d+(?:[.,:]\d+)*")


def same(a, b):
    return a.replace(" ", "") == b.replace(" ", "")
WORD = re.compile(r"\S+")


def read_set(exe, corpus, out, pred):
    if pred is None:
        out.mkdir(parents=True, exist_ok=True)
        pred = out / f"{corpus.name}.pred.jsonl"
        env = dict(os.environ, OMP_THREAD_LIMIT="1")
        print(f"numbers: {corpus.name}: reading {len(list((corpus / 'images').iterdir()))} pages ...", file=sys.stderr,
              flush=True)
        with open(pred, "w", encoding="utf-8") as fh:
            subprocess.run([exe, "ingest", "--no-archive", "--json", "--jobs", "2", str(corpus / "images")],
                           stdout=fh, stderr=subprocess.DEVNULL, env=env, check=False)
    return pred


def documents(corpus, pred):
    """doc id -> {text, doubtful: [(s, e)], low: [(s, e)], labs: [...]}, pages joined in order."""
    pages = {}
    for line in open(pred, encoding="utf-8"):
        row = json.loads(line)
        sources = row["source"] if isinstance(row["source"], list) else [row["source"]]
        pages[Path(sources[0]).name] = row
    docs = {}
    over = corpus / "overprinted.json"
    overprinted = json.loads(over.read_text(encoding="utf-8")) if over.exists() else {}
    for truth in sorted((corpus / "truth").glob("*.json")):
        t = json.loads(truth.read_text(encoding="utf-8"))
        text, doubtful, low, labs, offset = "", [], [], [], 0
        for i, page in enumerate(t["pages"]):
            row = pages.get(page) or {}
            if i:
                text += "\f"
                offset += 1
            ptext = row.get("text") or ""
            text += ptext
            doubtful += [(offset + d["start"], offset + d["start"] + d["length"]) for d in row.get("doubtfulNumbers") or []]
            low += [(offset + w["start"], offset + w["start"] + w["length"]) for w in row.get("lowConfidenceWords") or []]
            labs += row.get("labs") or []
            offset += len(ptext)
        first = pages.get(t["pages"][0]) or {}
        docs[t["id"]] = {"truth": t, "truthText": (corpus / "truth" / f"{t['id']}.txt").read_text(encoding="utf-8"),
                         "text": text, "doubtful": doubtful, "low": low, "labs": labs, "member": first.get("familyMember"),
                         "overprinted": {line.strip() for line in overprinted.get(t["id"], [])},
                         "date": first.get("documentDate")}
    return docs


def words(text):
    return [(m.group(), m.start(), m.end()) for m in WORD.finditer(text)]


def align_numbers(truth, ocr):
    """For every number in `truth`: (number, truth start, exact?, OCR place (s, e))."""
    tw, ow = words(truth), words(ocr)
    sm = difflib.SequenceMatcher(None, [w[0] for w in tw], [w[0] for w in ow], autojunk=False)
    found = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                t, o = tw[i1 + k], ow[j1 + k]
                for m in NUMBER.finditer(t[0]):
                    found.append((m.group(), t[1] + m.start(), True, (o[1] + m.start(), o[1] + m.end())))
            continue
        if i1 == i2:
            continue
        ts, te = tw[i1][1], tw[i2 - 1][2]
        tpart = truth[ts:te]
        if j1 == j2:
            # Lost: the place is the gap between the OCR words around it, with the word either side.
            s = ow[j1 - 1][1] if j1 > 0 else 0
            e = ow[j1][2] if j1 < len(ow) else len(ocr)
            for m in NUMBER.finditer(tpart):
                found.append((m.group(), ts + m.start(), False, (s, e)))
            continue
        os_, oe = ow[j1][1], ow[j2 - 1][2]
        opart = ocr[os_:oe]
        cm = difflib.SequenceMatcher(None, tpart, opart, autojunk=False)
        # Each truth character's OCR position (None where deleted).
        where = [None] * len(tpart)
        for ctag, a1, a2, b1, b2 in cm.get_opcodes():
            if ctag == "equal":
                for k in range(a2 - a1):
                    where[a1 + k] = b1 + k
            elif ctag == "replace":
                for k in range(a2 - a1):
                    where[a1 + k] = b1 + min(k * (b2 - b1) // max(1, a2 - a1), b2 - b1 - 1)
            elif ctag == "delete":
                for k in range(a2 - a1):
                    where[a1 + k] = -(b1 + 1)   # a gap before OCR char b1
        onumbers = {(m.start(), m.end()): m.group() for m in NUMBER.finditer(opart)}
        for m in NUMBER.finditer(tpart):
            mapped = [w for w in where[m.start():m.end()] if w is not None and w >= 0]
            if mapped:
                s, e = min(mapped), max(mapped) + 1
            else:
                gaps = [-w - 1 for w in where[m.start():m.end()] if w is not None]
                g = gaps[0] if gaps else 0
                s, e = max(0, g - 1), min(len(opart), g + 1)
            exact = same(onumbers.get((s, e)) or "", m.group())
            found.append((m.group(), ts + m.start(), exact, (os_ + s, os_ + e)))
    return found


def overlaps(place, ranges):
    s, e = place
    if e <= s:
        e = s + 1
    return any(a < e and s < b for a, b in ranges)


MONTHS = ["januar", "februar", "mars", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "desember"]
SAMPLED = re.compile(r"prøve ?tatt|prøve ?teken|prøvetaking|prøvedato|tatt dato"
                     r"|prøv\w*\b.*\b(tatt|tekne|teke|teken)\b", re.I)  # "blodprøvene som ble tatt hos oss 18.08.2025"


def truth_day(text, letter_date):
    """The day the truth text says the sample was taken (the first such line's date), else the letter's."""
    for line in text.replace("\f", "\n").split("\n"):
        if not SAMPLED.search(line):
            continue
        m = re.search(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", line)
        if m:
            return f"{m.group(3)}-{int(m.group(2)):02d}-{int(m.group(1)):02d}"
        m = re.search(r"(\d{4})-(\d{2})-(\d{2})", line)
        if m:
            return m.group(0)
        m = re.search(r"(\d{1,2})\. (" + "|".join(MONTHS) + r") (\d{4})", line, re.I)
        if m:
            return f"{m.group(3)}-{MONTHS.index(m.group(2).lower()) + 1:02d}-{int(m.group(1)):02d}"
    return letter_date


def lab_key(r):
    f = lambda x: re.sub(r"\s+", "", str(x or "")).lower()
    return (f(r.get("analysis")), f(r.get("value")).replace(".", ","), f(r.get("unit")))


def lab_lines(truth_text, labs):
    """Truth line numbers that are lab rows."""
    lines = truth_text.replace("\f", "\n").split("\n")
    rows, start = set(), 0
    for r in labs:
        for i in range(start, len(lines)):
            if lines[i].startswith(r["analysis"] + " ") and r["value"] in lines[i]:
                rows.add(i)
                start = i + 1
                break
    return rows


def measure(name, docs, show):
    tot = exact = flagged = flagged_low = 0
    over_tot = over_exact = 0
    lab_tot = lab_exact = lab_flagged = 0
    unflagged = []
    true_flags = false_flags = 0
    rows_truth = rows_right = rows_wrong = rows_wrong_sure = rows_right_doubtful = 0
    values_right = wrong_day = wrong_person = 0
    wrong_sure = []
    for doc_id, d in docs.items():
        truth, ocr = d["truthText"], d["text"]
        lab_rows = lab_lines(truth, d["truth"].get("labs") or [])
        line_starts = [0]
        for i, c in enumerate(truth):
            if c in "\n\f":
                line_starts.append(i + 1)
        found = align_numbers(truth, ocr)
        # A number read exactly but elsewhere (another reading order) is read: the OCR numbers no
        # number read in its place took, as a multiset.
        taken = {place for _, _, ok, place in found if ok}
        spare = {}
        for m in NUMBER.finditer(ocr):
            if (m.start(), m.end()) not in taken:
                k = m.group().replace(" ", "")
                spare[k] = spare.get(k, 0) + 1
        resolved = []
        for number, tstart, ok, place in found:
            k = number.replace(" ", "")
            if not ok and spare.get(k, 0) > 0:
                spare[k] -= 1
                ok = True
            resolved.append((number, tstart, ok, place))
        misread_places = []
        truth_lines = truth.replace("\f", "\n").split("\n")
        for number, tstart, ok, place in resolved:
            line = max(i for i, s in enumerate(line_starts) if s <= tstart)
            if truth_lines[line].strip() in d.get("overprinted", ()):
                over_tot += 1
                over_exact += ok
                continue
            in_lab = line in lab_rows
            tot += 1
            lab_tot += in_lab
            if ok:
                exact += 1
                lab_exact += in_lab
                continue
            misread_places.append(place)
            f = overlaps(place, d["doubtful"])
            flagged += f
            flagged_low += overlaps(place, d["low"])
            lab_flagged += f and in_lab
            if not f:
                s, e = place
                unflagged.append((doc_id, number, ocr[max(0, s - 8):e + 8].replace("\n", "⏎").replace("\f", "⏎")))
        for s, e in d["doubtful"]:
            if any(a < e and s < b for a, b in misread_places):
                true_flags += 1
            else:
                false_flags += 1
        # Lab rows.
        truth_rows = d["truth"].get("labs") or []
        want = {}
        for r in truth_rows:
            want[lab_key(r)] = want.get(lab_key(r), 0) + 1
        rows_truth += len(truth_rows)
        names = {lab_key(r)[0] for r in truth_rows}
        day = truth_day(truth, d["truth"].get("documentDate"))
        # A value filed to a household member the letter is not about (the unfiled are not attached to anyone).
        member = d["member"]
        misfiled = member is not None and member != d["truth"].get("familyMember")
        wrong_person += len(d["labs"]) if misfiled else 0
        for r in d["labs"]:
            k = lab_key(r)
            if want.get(k, 0) > 0:
                want[k] -= 1
                rows_right += 1
                rows_right_doubtful += bool(r.get("doubtful"))
                if (r.get("sampled") or d["date"]) == day and not misfiled:
                    values_right += 1
                elif (r.get("sampled") or d["date"]) != day:
                    wrong_day += 1
            else:
                rows_wrong += 1
                if not r.get("doubtful"):
                    rows_wrong_sure += 1
                    wrong_sure.append((doc_id, r, k[0] in names))
    pct = lambda a, b: f"{100 * a / b:.1f} %" if b else "-"
    print(f"{name}: {len(docs)} letters, {tot} numbers" + (f" (and {over_tot} on lines printed over other ink, "
                                                         f"{over_exact} of them read, not counted)" if over_tot else ""))
    print(f"  numbers read exactly: {pct(exact, tot)} ({exact} of {tot}); in lab tables: {pct(lab_exact, lab_tot)} "
          f"({lab_exact} of {lab_tot})")
    mis = tot - exact
    print(f"  misread: {mis}; flagged: {pct(flagged, mis)} ({flagged}); in lab tables {lab_flagged} of {lab_tot - lab_exact}; "
          f"flagged by low confidence alone: {pct(flagged_low, mis)} ({flagged_low})")
    print(f"  misread and unflagged: {len(unflagged)}; doubtful numbers on a misread one: {true_flags}, "
          f"on numbers read right or none: {false_flags}")
    for doc_id, number, around in unflagged[:show]:
        print(f"    {doc_id} truth {number!r} OCR …{around}…")
    print(f"  lab rows: {rows_truth} in the letters; read exactly {pct(rows_right, rows_truth)} ({rows_right}), "
          f"{rows_right_doubtful} of them marked doubtful; rows read wrong {rows_wrong}, "
          f"not marked doubtful (implausible or misread values unflagged) {rows_wrong_sure}")
    print(f"  lab values right (analysis, value, unit, sampling day, person): {pct(values_right, rows_truth)} "
          f"({values_right} of {rows_truth}); right value on the wrong day {wrong_day}; values on the wrong person {wrong_person}")
    for doc_id, r, known in wrong_sure[:show]:
        what = "misread" if known else "not in the letter"
        print(f"    {doc_id} {what}: {r.get('analysis')} {r.get('value')} {r.get('flag') or ''} {r.get('unit')} {r.get('range')}")
    return {"numbers": tot, "exact": exact, "misread": mis, "flagged": flagged, "unflagged": len(unflagged),
            "labRows": rows_truth, "labRowsRight": rows_right, "labRowsWrongNotDoubtful": rows_wrong_sure,
            "labValuesRight": values_right, "labWrongPerson": wrong_person, "overprinted": over_tot}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkivator", default=".build/release/arkivator")
    ap.add_argument("--set", action="append", type=Path, required=True, help="a drawn set (images/, truth/)")
    ap.add_argument("--pred", action="append", type=Path, default=[], help="records already made for a --set, in order")
    ap.add_argument("--out", type=Path, default=Path(".bench/numbers"), help="where the records are written")
    ap.add_argument("--show", type=int, default=8, help="how many misread and unflagged numbers to list")
    a = ap.parse_args()
    total = {}
    for i, corpus in enumerate(a.set):
        pred = read_set(a.arkivator, corpus, a.out, a.pred[i] if i < len(a.pred) else None)
        r = measure(corpus.name, documents(corpus, pred), a.show)
        for k, v in r.items():
            total[k] = total.get(k, 0) + v
    if len(a.set) > 1:
        print(f"all: numbers read exactly {100 * total['exact'] / max(1, total['numbers']):.1f} % of {total['numbers']}; "
              f"misread {total['misread']}, flagged {total['flagged']}, unflagged {total['unflagged']}; lab rows right "
              f"{total['labRowsRight']} of {total['labRows']}, wrong and not doubtful {total['labRowsWrongNotDoubtful']}; "
              f"lab values right with day and person {100 * total['labValuesRight'] / max(1, total['labRows']):.1f} %, "
              f"on the wrong person {total['labWrongPerson']}"
              + (f"; {total['overprinted']} numbers on lines printed over other ink not counted" if total["overprinted"] else ""))


if __name__ == "__main__":
    main()
