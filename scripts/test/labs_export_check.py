#!/usr/bin/env python3
"""The lab values' exports read back by independent readers:

    python3 scripts/test/labs_export_check.py --arkivator .build/debug/arkivator            # make test: samples/
    python3 scripts/test/labs_export_check.py --arkivator BIN --images DIR --family FILE     # make bench: a corpus set
    python3 scripts/test/labs_export_check.py --install-only                                # the FHIR reader only

1. fhir.resources (a FHIR model library, pinned at FHIR R4 4.0.1, scripts/test/labs_export.requirements.txt)
   is installed into the project's own virtual environment (.test-artifacts/fhir/venv) from wheels kept in
   ~/.cache/arkivator/fhir/wheels: only the first run on a machine reaches PyPI.
2. A new library in a temporary folder: the household from FILE (samples/familie.json) and the letters
   of DIR (samples/) read by `arkivator ingest`.
3. `arkivator labs --fhir`: the Bundle must parse as FHIR R4 with fhir.resources (types, required
   elements, no unknown element), and: one Observation per value `labs --json` gives; each with status
   final or preliminary (preliminary exactly where the value is in doubt), the laboratory category, the
   analysis as code.text, the sampling day, a value, a subject that is a Patient of the Bundle; quantities
   with a UCUM code carry the UCUM system, comparators are FHIR's; no fødselsnummer anywhere.
4. `arkivator labs --csv`, opened by LibreOffice Calc as a Norwegian spreadsheet is (semicolon, nb-NO):
   every value printed as a number is a number there, every sampling day a date.

Exit 0 only when every check holds; each failure is said in words.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pinned_venv  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".test-artifacts" / "fhir" / "venv"
REQUIREMENTS = Path(__file__).with_name("labs_export.requirements.txt")
WHEELS = Path(os.environ.get("ARKIVATOR_FHIR_CACHE", Path.home() / ".cache" / "arkivator" / "fhir" / "wheels"))

VALIDATE = r"""
import json, sys
import fhir.resources
from fhir.resources.bundle import Bundle
assert fhir.resources.__fhir_version__ == "4.0.1", fhir.resources.__fhir_version__
bundle = Bundle.parse_obj(json.load(open(sys.argv[1], encoding="utf-8")))
print(json.dumps({"fhirVersion": fhir.resources.__fhir_version__, "entries": len(bundle.entry or []),
                  "types": sorted({e.resource.resource_type for e in bundle.entry or []})}))
"""


def say(text):
    print(f"labs: {text}", flush=True)


def ensure_reader():
    return pinned_venv.ensure(VENV, REQUIREMENTS, WHEELS, "FHIR-leseren (fhir.resources)", say)


def run(args, env, **kw):
    result = subprocess.run(args, env=env, capture_output=True, text=True, **kw)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-2000:] + result.stderr[-2000:])
        sys.exit(f"labs: {' '.join(map(str, args[:2]))} feilet (rc {result.returncode})")
    return result.stdout


def check_fhir(bundle, values, problems):
    entries = bundle.get("entry") or []
    patients = {e["fullUrl"] for e in entries if e["resource"]["resourceType"] == "Patient"}
    observations = [e["resource"] for e in entries if e["resource"]["resourceType"] == "Observation"]
    if len(observations) != len(values):
        problems.append(f"{len(observations)} Observation, men labs --json gir {len(values)} verdier")
    for obs, value in zip(observations, values):
        name = f"{value['analysis']} {value['value']} ({value['letter']})"
        want = "preliminary" if value["doubtful"] else "final"
        if obs.get("status") != want:
            problems.append(f"{name}: status {obs.get('status')}, ventet {want}")
        if obs.get("code", {}).get("text") != value["analysis"]:
            problems.append(f"{name}: code.text er {obs.get('code', {}).get('text')}")
        if obs.get("effectiveDateTime") != value["sampled"]:
            problems.append(f"{name}: effectiveDateTime {obs.get('effectiveDateTime')}, ventet {value['sampled']}")
        if obs.get("subject", {}).get("reference") not in patients:
            problems.append(f"{name}: subject peker ikke på en Patient i samlingen")
        cats = [c.get("code") for cat in obs.get("category", []) for c in cat.get("coding", [])]
        if "laboratory" not in cats:
            problems.append(f"{name}: mangler kategorien laboratory")
        if "valueQuantity" not in obs and "valueString" not in obs:
            problems.append(f"{name}: har ingen verdi")
        q = obs.get("valueQuantity")
        if q is not None:
            if "code" in q and q.get("system") != "http://unitsofmeasure.org":
                problems.append(f"{name}: enhetskode uten UCUM-system")
            if q.get("comparator") not in (None, "<", "<=", ">=", ">"):
                problems.append(f"{name}: ukjent comparator {q.get('comparator')}")
            printed = value["value"].replace(" ", "").lstrip("<>≤≥").replace(",", ".")
            if re.fullmatch(r"\d+(\.\d+)?", printed) and float(printed) != float(q["value"]):
                problems.append(f"{name}: verdien er {q['value']} i FHIR")
        for i in obs.get("interpretation", []):
            for c in i.get("coding", []):
                if c.get("code") not in ("H", "L"):
                    problems.append(f"{name}: tolkning {c.get('code')}")


def check_csv(csv_text, work, problems):
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        problems.append("LibreOffice (soffice) mangler: installer libreoffice-calc-nogui (make test-deps)")
        return
    path = work / "verdier.csv"
    path.write_text(csv_text, encoding="utf-8")
    out = work / "calc"
    profile = work / "lo-profile"
    # Semicolon (59), double quote (34), UTF-8 (76), from line 1, columns standard, Norwegian Bokmål (1044).
    subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--infilter=CSV:59,34,76,1,,1044",
                    "--convert-to", "fods", "--outdir", str(out), str(path)], capture_output=True, timeout=180)
    fods = out / "verdier.fods"
    if not fods.exists():
        problems.append("LibreOffice Calc åpnet ikke CSV-filen")
        return
    xml = fods.read_text(encoding="utf-8")
    rows = re.findall(r"<table:table-row[^>]*>(.*?)</table:table-row>", xml, re.S)
    numbers = dates = 0
    for row in rows[1:]:
        cells = re.findall(r"<table:table-cell([^>]*)>(.*?)</table:table-cell>", row, re.S)
        if len(cells) < 4:
            continue
        (date_attrs, date_text), (value_attrs, value_text) = cells[0], cells[3]
        printed = re.sub(r"<[^>]+>", "", value_text).strip()
        if re.fullmatch(r"\d+(,\d+)?", printed):
            if 'office:value-type="float"' not in value_attrs:
                problems.append(f"verdien {printed} er ikke et tall i LibreOffice")
            else:
                numbers += 1
        if 'office:value-type="date"' not in date_attrs:
            problems.append(f"prøvedatoen {re.sub(r'<[^>]+>', '', date_text)} er ikke en dato i LibreOffice")
        else:
            dates += 1
    return numbers, dates


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arkivator")
    parser.add_argument("--images", default=str(ROOT / "samples"))
    parser.add_argument("--family", default=str(ROOT / "samples" / "familie.json"))
    parser.add_argument("--install-only", action="store_true")
    args = parser.parse_args()
    python = ensure_reader()
    if args.install_only:
        say(f"FHIR-leseren er klar i {VENV}")
        return 0
    if not args.arkivator:
        sys.exit("labs: --arkivator mangler")
    exe = str(Path(args.arkivator).resolve())
    env = dict(os.environ, OMP_THREAD_LIMIT="1", LANG="nb_NO.UTF-8")
    problems = []
    with tempfile.TemporaryDirectory(prefix="arkivator-labs-") as tmp:
        work = Path(tmp)
        library = work / "bibliotek"
        run([exe, "family", "import", "--library", str(library), args.family], env)
        run([exe, "ingest", "--library", str(library), "--jobs", "2", args.images], env)
        values = json.loads(run([exe, "labs", "--library", str(library), "--json"], env))
        if not values:
            sys.exit("labs: brevene ga ingen prøveverdier å sjekke")
        fhir_text = run([exe, "labs", "--library", str(library), "--fhir"], env)
        (work / "bundle.json").write_text(fhir_text, encoding="utf-8")
        checked = subprocess.run([str(python), "-c", VALIDATE, str(work / "bundle.json")], capture_output=True, text=True)
        if checked.returncode != 0:
            problems.append("fhir.resources godtar ikke samlingen: " + checked.stderr.strip()[-1500:])
        else:
            summary = json.loads(checked.stdout)
            say(f"FHIR R4 {summary['fhirVersion']}: {summary['entries']} ressurser ({', '.join(summary['types'])}) "
                f"godtatt av fhir.resources")
        bundle = json.loads(fhir_text)
        check_fhir(bundle, values, problems)
        # The resources' random ids ("urn:uuid:…") may hold eleven digits in a row by chance.
        without_ids = re.sub(r"urn:uuid:[0-9a-f-]+", "urn:uuid:", fhir_text)
        digits = re.findall(r"(?<!\d)\d{6}\s?\d{5}(?!\d)", without_ids)
        if digits:
            problems.append(f"samlingen holder noe som ligner et fødselsnummer: {digits[:3]}")
        counted = check_csv(run([exe, "labs", "--library", str(library), "--csv"], env), work, problems)
        if counted:
            say(f"CSV i LibreOffice Calc (nb-NO): {counted[0]} verdier er tall, {counted[1]} prøvedatoer er datoer")
    say(f"{len(values)} verdier fra {len({v['letter'] for v in values})} brev, "
        f"{sum(v['doubtful'] for v in values)} usikre")
    if problems:
        for p in problems:
            print(f"  FEIL: {p}")
        return 1
    say("eksportene holdt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
