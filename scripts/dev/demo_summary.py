"""Prints a short human summary of `arkivator ingest --json` output (used by `make demo`)."""
import json
import sys

for line in sys.stdin:
    record = json.loads(line)
    source = record["source"] if isinstance(record["source"], str) else " + ".join(record["source"])
    print(f"\n# {source}")
    if record.get("error"):
        print(f"  feil: {record['error']}")
        continue
    if record.get("noText"):
        print("  (ingen tekst)")
        continue
    conf = record.get("ocrConfidence") or 0
    if record.get("title"):
        print(f"  {record['title']}  ({record.get('docType')}, {record.get('familyMember') or 'Ukjent person'})")
    print(f"  {record['pages']} side(r), sikkerhet {conf * 100:.0f} %, "
          f"{len(record.get('lowConfidenceWords', []))} usikre ord")
    lines = [l for l in record["text"].splitlines() if l.strip()][:6]
    for text_line in lines:
        print(f"  | {text_line}")
