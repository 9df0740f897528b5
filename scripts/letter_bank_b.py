"""A second letter bank for the corpus generator beside the checkout (`../shared/corpus/gen.py`).

Written for Arkivator on its own, to measure classification on letters that the rules were not
written against: other institutions, other label words and phrasing, other layouts. It follows the
bank API in the docstring of `../shared/corpus/bank_dev.py`, and is loaded by path:

    python3 ../shared/corpus/gen.py --bank scripts/letter_bank_b.py --out DIR --n 56 --seed 2

(`make second-bank` does this with the Python packages the generator needs.)

What is new here: the institutions (other health trusts, GP offices, laboratories, NAV and Helfo
units, municipalities), every template and its phrasing, the label words of the patient line and
the reference block, and layouts the first bank does not draw: the subject line before the title,
the patient only in the subject line or in a table, letters to the GP about a patient, letters to
a parent about a child, copies to the patient or the GP ("Kopi til"), a health worker named in the
reference block, NAV letters with a case number, a copy of a referral sent to the patient.

What is shared with the first bank: the clinical material that only fills the letters in
(specialties with their diagnoses and stories, drugs, lab analyses, vaccines). It is read from the
first bank beside gen.py, so this file holds no copy of it.
"""

import importlib.util
import sys
from pathlib import Path


def _first_bank():
    here = Path(__file__).resolve()
    candidates = [Path(sys.argv[0]).resolve().parent / "bank_dev.py",
                  here.parents[2] / "shared" / "corpus" / "bank_dev.py"]
    for path in candidates:
        if path.is_file():
            spec = importlib.util.spec_from_file_location("arkivator_first_bank", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    raise SystemExit("letter_bank_b.py needs bank_dev.py beside gen.py (../shared/corpus)")


_first = _first_bank()
SPECIALTIES = _first.SPECIALTIES
COMORBIDITIES = getattr(_first, "COMORBIDITIES", [])
DRUGS = _first.DRUGS
LAB = _first.LAB
VACCINES = _first.VACCINES

# ---------------------------------------------------------------------------------------------
# institutions (none of them in the first bank)
# ---------------------------------------------------------------------------------------------
INSTITUTIONS = [
    {"name": "Universitetssykehuset Nord-Norge", "print_name": "Universitetssykehuset Nord-Norge HF",
     "aliases": ["UNN", "UNN HF", "Universitetssykehuset Nord-Norge HF", "UNN Tromsø"],
     "kind": "hospital", "lang": ["nb"], "city": "Tromsø", "address": ["Postboks 100 Langnes", "9038 Tromsø"],
     "phone": "77 62 60 00", "web": "www.unn.no", "orgnr": "983 974 899", "color": (0, 84, 140),
     "buildings": ["A-fløya, plan 5", "Barne- og ungdomsklinikken", "Poliklinikkbygget, inngang B", "Nytt sykehusbygg"]},
    {"name": "Stavanger universitetssjukehus", "print_name": "Helse Stavanger – Stavanger universitetssjukehus",
     "aliases": ["Helse Stavanger", "Helse Stavanger HF", "SUS", "Stavanger universitetssykehus"],
     "kind": "hospital", "lang": ["nb", "nn"], "city": "Stavanger", "address": ["Postboks 8100", "4068 Stavanger"],
     "phone": "51 51 80 00", "web": "www.helse-stavanger.no", "orgnr": "983 975 240", "color": (0, 100, 150),
     "buildings": ["bygg 1, 2. etasje", "Ullandhaug, inngang vest", "Våland, bygg 8"]},
    {"name": "Akershus universitetssykehus", "print_name": "Akershus universitetssykehus HF",
     "aliases": ["Ahus", "Akershus universitetssykehus HF", "A-hus"],
     "kind": "hospital", "lang": ["nb"], "city": "Lørenskog", "address": ["Postboks 1000", "1478 Lørenskog"],
     "phone": "67 96 00 00", "web": "www.ahus.no", "orgnr": "983 971 636", "color": (0, 90, 60),
     "buildings": ["Glassgata, inngang Nord", "Bygg C, 3. etasje", "Nye Nordbyhagen"]},
    {"name": "Vestre Viken", "print_name": "Vestre Viken HF – Drammen sykehus",
     "aliases": ["Vestre Viken HF", "Drammen sykehus", "Bærum sykehus", "Ringerike sykehus"],
     "kind": "hospital", "lang": ["nb"], "city": "Drammen", "address": ["Postboks 800", "3004 Drammen"],
     "phone": "03525", "web": "www.vestreviken.no", "orgnr": "894 166 762", "color": (70, 40, 120),
     "buildings": ["Drammen sykehus, bygg 1", "Bærum sykehus, inngang A", "Drammen sykehus, poliklinikkbygget"]},
    {"name": "Ålesund sjukehus", "print_name": "Helse Møre og Romsdal – Ålesund sjukehus",
     "aliases": ["Helse Møre og Romsdal", "Helse Møre og Romsdal HF", "Ålesund sykehus"],
     "kind": "hospital", "lang": ["nb", "nn"], "city": "Ålesund", "address": ["Postboks 1600", "6026 Ålesund"],
     "phone": "70 10 50 00", "web": "www.helse-mr.no", "orgnr": "997 005 562", "color": (0, 110, 120),
     "buildings": ["Sengebygg nord", "Poliklinikken, 1. etasje", "Akuttbygget"]},
    {"name": "Nordlandssykehuset", "print_name": "Nordlandssykehuset HF",
     "aliases": ["Nordlandssykehuset HF", "Nordlandssykehuset Bodø", "NLSH"],
     "kind": "hospital", "lang": ["nb"], "city": "Bodø", "address": ["Postboks 1480", "8092 Bodø"],
     "phone": "75 53 40 00", "web": "www.nordlandssykehuset.no", "orgnr": "983 974 880", "color": (20, 60, 110),
     "buildings": ["U-fløya", "K-fløya, 2. etasje", "Somatikkbygget"]},
    # general practice
    {"name": "Storgata legesenter", "kind": "legekontor", "lang": ["nb"], "city": "Tromsø", "aliases": ["Storgata legesenter AS"],
     "address": ["Storgata 84", "9008 Tromsø"], "phone": "77 60 30 20", "web": "www.storgatalegesenter.no",
     "orgnr": "915 220 731", "color": (50, 90, 40), "sub": "Fastleger og sykepleiere"},
    {"name": "Madla legekontor", "kind": "legekontor", "lang": ["nb", "nn"], "city": "Stavanger", "aliases": [],
     "address": ["Madlaveien 210", "4042 Hafrsfjord"], "phone": "51 86 44 10", "web": "www.madlalegekontor.no",
     "orgnr": "987 650 113", "color": (110, 40, 40), "sub": "Allmennpraksis"},
    {"name": "Strømmen legesenter", "kind": "legekontor", "lang": ["nb"], "city": "Lillestrøm", "aliases": ["Strømmen legesenter DA"],
     "address": ["Stasjonsveien 3", "2010 Strømmen"], "phone": "63 81 12 00", "web": "www.strommenlegesenter.no",
     "orgnr": "996 114 552", "color": (30, 70, 130), "sub": "Legesenter"},
    {"name": "Bragernes legesenter", "kind": "legekontor", "lang": ["nb"], "city": "Drammen", "aliases": [],
     "address": ["Nedre Storgate 12", "3015 Drammen"], "phone": "32 21 45 60", "web": "www.bragerneslegesenter.no",
     "orgnr": "983 002 117", "color": (90, 90, 30), "sub": "Fastlegekontor"},
    {"name": "Spjelkavik legesenter", "kind": "legekontor", "lang": ["nb", "nn"], "city": "Ålesund", "aliases": [],
     "address": ["Langelandsvegen 17", "6010 Ålesund"], "phone": "70 17 40 40", "web": "www.spjelkaviklegesenter.no",
     "orgnr": "975 401 226", "color": (0, 80, 100), "sub": "Legekontor og helsestasjon for ungdom"},
    # laboratories
    {"name": "Unilabs Laboratoriemedisin", "print_name": "Unilabs Laboratoriemedisin",
     "aliases": ["Unilabs", "Unilabs Norge", "Unilabs Laboratoriemedisin AS"],
     "kind": "lab", "lang": ["nb"], "city": "Oslo", "address": ["Silurveien 2B", "0380 Oslo"],
     "phone": "23 25 45 00", "web": "www.unilabs.no", "orgnr": "918 372 180", "color": (0, 60, 130),
     "sub": "Medisinsk biokjemi og mikrobiologi"},
    {"name": "Universitetssykehuset Nord-Norge", "print_name": "UNN – Laboratoriemedisin",
     "aliases": ["UNN", "Universitetssykehuset Nord-Norge HF"], "kind": "lab", "lang": ["nb"],
     "city": "Tromsø", "address": ["Postboks 100 Langnes", "9038 Tromsø"], "phone": "77 62 60 00", "web": "www.unn.no",
     "orgnr": "983 974 899", "color": (0, 84, 140), "sub": "Diagnostisk klinikk"},
    {"name": "Stavanger universitetssjukehus", "print_name": "Helse Stavanger – Avdeling for medisinsk biokjemi",
     "aliases": ["Helse Stavanger", "Helse Stavanger HF", "SUS"], "kind": "lab", "lang": ["nb", "nn"],
     "city": "Stavanger", "address": ["Postboks 8100", "4068 Stavanger"], "phone": "51 51 80 00",
     "web": "www.helse-stavanger.no", "orgnr": "983 975 240", "color": (0, 100, 150), "sub": "Laboratoriemedisin"},
    # public administration
    {"name": "NAV", "print_name": "NAV Tromsø", "aliases": ["Nav", "NAV Tromsø", "Arbeids- og velferdsetaten"],
     "kind": "nav", "lang": ["nb"], "city": "Tromsø", "address": ["Postboks 6600 Etterstad", "0607 Oslo"],
     "phone": "55 55 33 33", "web": "www.nav.no", "orgnr": "889 640 782", "color": (195, 0, 0),
     "sub": "NAV Arbeid og ytelser Tromsø"},
    {"name": "NAV", "print_name": "NAV Hjelpemiddelsentral Rogaland", "aliases": ["Nav", "NAV Hjelpemiddelsentral"],
     "kind": "nav", "lang": ["nb", "nn"], "city": "Stavanger", "address": ["Postboks 6600 Etterstad", "0607 Oslo"],
     "phone": "55 55 33 33", "web": "www.nav.no", "orgnr": "889 640 782", "color": (195, 0, 0),
     "sub": "Hjelpemidler og tilrettelegging"},
    {"name": "Helfo", "print_name": "Helfo – Helseøkonomiforvaltningen", "aliases": ["HELFO", "Helseøkonomiforvaltningen"],
     "kind": "helfo", "lang": ["nb"], "city": "Tønsberg", "address": ["Postboks 2415", "3104 Tønsberg"],
     "phone": "33 51 11 00", "web": "www.helfo.no", "orgnr": "983 544 622", "color": (0, 70, 110),
     "sub": "Refusjon og frikort"},
    {"name": "Tromsø kommune", "aliases": ["Tromsø kommune, Helse og omsorg"], "kind": "kommune", "lang": ["nb"],
     "city": "Tromsø", "address": ["Postboks 6900", "9299 Tromsø"], "phone": "77 79 00 00",
     "web": "www.tromso.kommune.no", "orgnr": "940 101 808", "color": (0, 70, 140), "sub": "Tildelingstjenesten"},
    {"name": "Stavanger kommune", "aliases": ["Stavanger kommune, Helse og velferd"], "kind": "kommune", "lang": ["nb", "nn"],
     "city": "Stavanger", "address": ["Postboks 8001", "4068 Stavanger"], "phone": "51 50 70 90",
     "web": "www.stavanger.kommune.no", "orgnr": "964 965 226", "color": (10, 60, 110), "sub": "Helse- og velferdskontor"},
    {"name": "Lillestrøm kommune", "aliases": [], "kind": "kommune", "lang": ["nb"], "city": "Lillestrøm",
     "address": ["Postboks 313", "2001 Lillestrøm"], "phone": "66 93 80 00", "web": "www.lillestrom.kommune.no",
     "orgnr": "924 605 533", "color": (120, 20, 40), "sub": "Forvaltningskontoret"},
    {"name": "Ålesund kommune", "aliases": [], "kind": "kommune", "lang": ["nb", "nn"], "city": "Ålesund",
     "address": ["Postboks 1521", "6025 Ålesund"], "phone": "70 16 20 00", "web": "www.alesund.kommune.no",
     "orgnr": "924 816 704", "color": (0, 90, 140), "sub": "Tenestekontoret"},
    {"name": "Folkehelseinstituttet", "aliases": ["FHI", "Folkehelseinstituttet (FHI)"], "kind": "other", "lang": ["nb"],
     "city": "Oslo", "address": ["Postboks 222 Skøyen", "0213 Oslo"], "phone": "21 07 70 00", "web": "www.fhi.no",
     "orgnr": "983 744 516", "color": (0, 80, 110), "sub": "Screeningprogram"},
]

# ---------------------------------------------------------------------------------------------
# tables, labels and fixed phrases (this bank's own words)
# ---------------------------------------------------------------------------------------------
LAB_HEADER = {"nb": [["Undersøkelse", "Svar", "Enhet", "Normalområde"], ["Analyse", "Verdi", "Enhet", "Ref."]],
              "nn": [["Undersøking", "Svar", "Eining", "Normalområde"]]}
MED_LINE = {"nb": ["{name} {form} {strength}, {dose}", "{name} {strength} ({use}): {dose}"],
            "nn": ["{name} {form} {strength}, {dose}"]}
MED_TABLE_HEADER = {"nb": ["Preparat", "Styrke", "Slik brukes det", "Mot"],
                    "nn": ["Preparat", "Styrke", "Slik blir det brukt", "Mot"]}
MED_TABLE_ROW = ["{name}", "{strength} {form}", "{dose}", "{use}"]
VACC_HEADER = {"nb": ["Gitt", "Vaksine", "Dose", "Lot"], "nn": ["Gjeve", "Vaksine", "Dose", "Lot"]}
VACC_ROW = ["{vdate}", "{vaccine}", "{dose}", "{batch}"]
INVOICE_HEADER = {"nb": ["Dato", "Tjeneste", "Kr"], "nn": ["Dato", "Teneste", "Kr"]}
INVOICE_ROWS = {"nb": [[["{treat_date}", "Egenandel, time hos spesialist", "{amount}"]],
                       [["{treat_date}", "Egenandel, {poli}", "{amount}"], ["", "Totalt", "{amount}"]]],
                "nn": [[["{treat_date}", "Eigendel, time hos spesialist", "{amount}"]]]}

LABELS = {
    "nb": {"our_ref": ["Vår referanse", "Saksnr.:", "Referanse:", "Journalnr.:"],
           "their_ref": ["Deres referanse", "Deres ref:"],
           "date": ["Dato", "Datert:", "Brevdato:", ""],
           "case_officer": ["Saksbehandler:", "Kontaktperson:", "Behandlet av:"],
           "guardian": ["Foresatte til {patient_addr}", "Til foreldrene til {patient_addr}"],
           "gp_prefix": ["Lege ", "Fastlege ", "Til fastlegen: "]},
    "nn": {"our_ref": ["Vår referanse", "Saksnr.:"], "their_ref": ["Dykkar referanse"],
           "date": ["Dato", "Datert:", ""], "case_officer": ["Sakshandsamar:", "Kontaktperson:"],
           "guardian": ["Til føresette til {patient_addr}"],
           "gp_prefix": ["Fastlege ", "Lege "]},
}
THEIR_REF = {"nb": {"default": ["Tilvisning {prev_dmy0}", "Henvisning fra fastlegen"],
                    "vedtak": ["Søknaden din av {received_dmy0}", "Søknad {received_dmy0}"],
                    "lab-svar": ["Rekv. {prev_dmy0}"], "resept": [""], "annet": [""], "henvisning": [""]},
             "nn": {"default": ["Tilvising {prev_dmy0}"], "vedtak": ["Søknaden din av {received_dmy0}"],
                    "lab-svar": ["Rekv. {prev_dmy0}"], "annet": [""], "resept": [""], "henvisning": [""]}}
PATIENT_HEADER = {
    "nb": {"with_fnr": ["Vedr.: {patient}, fnr. {fnr}", [("Pas.:", "{patient}"), ("Personnr.:", "{fnr}")],
                        [("Navn", "{patient}"), ("Fødselsnummer", "{fnr}")], "Gjelder {patient} ({fnr})"],
           "with_birth": ["Vedr.: {patient}, f. {birth}", [("Pasientnavn:", "{patient}"), ("Fødselsdato:", "{birth}")],
                          "Pas.: {patient} (født {birth})"],
           "fnr_only": ["Vedr. pasient med fnr. {fnr}", [("Personnr.:", "{fnr}")]]},
    "nn": {"with_fnr": ["Gjeld: {patient}, fnr. {fnr}", [("Namn:", "{patient}"), ("Fødselsnr.:", "{fnr}")]],
           "with_birth": ["Gjeld: {patient}, fødd {birth}", [("Namn:", "{patient}"), ("Fødd:", "{birth}")]],
           "fnr_only": ["Gjeld fødselsnummer {fnr}"]},
}
CONT_HEADER = {
    "nb": {"with_fnr": ["Vedr. {patient} ({fnr})", "{inst} – {patient}"], "name_only": ["Vedr. {patient}", "{patient}"],
           "fnr_only": ["Fnr. {fnr}"]},
    "nn": {"with_fnr": ["Gjeld {patient} ({fnr})"], "name_only": ["Gjeld {patient}"], "fnr_only": ["Fnr. {fnr}"]},
}
PAGE_NUMBER = {"nb": ["Side {i} av {n}", "{i}/{n}", "Side {i}"], "nn": ["Side {i} av {n}", "{i}/{n}"]}
FOOTER_FORMATS = {
    "full": [["{i_name} · {i_addr} · Tlf. {i_phone}", "{i_web} · Foretaksnr. {i_orgnr}"],
             ["Besøk oss på {i_web}", "Postadresse {i_addr} – Sentralbord {i_phone} – Org. nr. {i_orgnr}"]],
    "minimal": [["{i_web} – {i_phone}"], ["{i_name} – {i_addr}"]],
}
CLOSINGS = {"nb": ["Hilsen", "Med hilsen", "Vennlig hilsen"], "nn": ["Helsing", "Med helsing"]}
E_SIGN_NOTE = {"nb": ["Godkjent elektronisk, derfor uten håndskrevet underskrift.",
                      "Dette brevet er sendt uten signatur fordi det er godkjent digitalt."],
               "nn": ["Godkjent elektronisk, difor utan underskrift."]}
DOCTOR_TITLES = {"nb": ["lege", "overlege, spesialist i indremedisin", "avdelingsoverlege", "LIS-lege"],
                 "nn": ["lege", "overlege", "avdelingsoverlege"]}
GP_TITLES = {"nb": ["fastlege", "allmennlege", "lege, spesialist i allmennmedisin"], "nn": ["fastlege", "allmennlege"]}
CASEWORKER_TITLES = {"nb": ["saksbehandler", "veileder", "seniorrådgiver"], "nn": ["sakshandsamar", "rettleiar"]}
SECRETARY_TITLES = {"nb": ["sekretær", "kontormedarbeider", "merkantil medarbeider"], "nn": ["sekretær", "kontormedarbeidar"]}
NURSE_TITLES = {"nb": ["sykepleier", "spesialsykepleier", "diabetessykepleier"], "nn": ["sjukepleiar", "spesialsjukepleiar"]}
SEX_WORDS = {"nb": {"girl": "jente", "boy": "gutt", "woman": "kvinne", "man": "mann"},
             "nn": {"girl": "jente", "boy": "gut", "woman": "kvinne", "man": "mann"}}
PRONOUNS = {"nb": {"F": {"he": "hun", "his": "hennes", "him": "henne"}, "M": {"he": "han", "his": "hans", "him": "ham"}},
            "nn": {"F": {"he": "ho", "his": "hennar", "him": "henne"}, "M": {"he": "han", "his": "hans", "him": "han"}}}

LAYOUT = {
    "body_fonts": {"Liberation Serif": 3, "DejaVu Sans": 2, "Nimbus Roman": 3, "Liberation Sans": 2,
                   "Nimbus Sans": 2, "DejaVu Serif": 2, "DejaVu Sans Condensed": 1},
    "head_fonts": {"Nimbus Sans": 2, "Liberation Sans": 1, "DejaVu Sans": 1},
    "mono_fonts": {"Liberation Mono": 1, "DejaVu Sans Mono": 1},
    "lab_mono_prob": 0.5,
    "body_pt": [10, 10.5, 11, 12],
    "line_spacing": (1.15, 1.45),
    "header_style": {"logo": 2, "bold": 2, "centered": 2, "info_right": 3},
    "meta_pos": {"right": 3, "below": 3, "date_top_right": 3},
    "date_format": {"dmy0": 3, "long": 4, "iso": 1, "city_dmy": 2, "city_long": 2, "dmy": 2},
    "footer_style": {"full": 4, "minimal": 4, "none": 2},
    "bullets": ["-", "•", "*"],
    "diag_format": ["{text} ({code})", "{code} – {text}", "{text}, {code}"],
    "lab_flag_fmt": "{v}{f}",
    "lab_range_fmt": "{lo}–{hi}",
    "fnr_format": {"plain": 2, "space": 2},
    "ref_format": {"yyyy/nnnn": 3, "nnnnnnnn": 2, "yy/nnnnn-n": 1, "pas": 1},
    "body_date_format": {"dmy0": 2, "long": 3},
    "appt_date_format": {"weekday_long": 2, "weekday_dmy0": 2},
    "title_upper_prob": 0.4,
    "page_number_prob": 0.5,
    "e_sign_prob": 0.5,
}


# ---------------------------------------------------------------------------------------------
# templates
# ---------------------------------------------------------------------------------------------
def T(**kw):
    kw.setdefault("lang", "nb")
    kw.setdefault("recipient", "patient")
    kw.setdefault("audience", "any")
    kw.setdefault("specialty", True)
    return kw


COPY_GP = ("opt", 0.8, ("kv", [("Kopi til:", "{fastlege}, {gp_office}")]))
COPY_PATIENT = ("opt", 0.8, ("p", "Kopi: pasienten"))

INNKALLING = [
    T(id="b-inn-time", issuer=["hospital"], audience="adult",
      vars={"what": ["en vurdering hos lege", "kontroll etter tidligere behandling", "samtale og undersøkelse"]},
      keywords=["time", "{poli}"],
      blocks=[("title", "Du har fått time"),
              ("p", "Vi har satt av tid til {what} ved {poli}."),
              ("kv", [("Når:", "{appt_date}, klokken {appt_time}"), ("Hvor:", "{building}"),
                      ("Møt opp:", "{arrive_min} minutter før")]),
              ("p", "Ta med deg en liste over medisinene du bruker, og legitimasjon med bilde."),
              ("h", "Kan du ikke komme?"),
              ("p", "Gi oss beskjed senest dagen før på {inst_phone}. Timer som ikke blir brukt og ikke er avlyst, "
                    "må vi ta gebyr for."),
              COPY_GP,
              ("sign", "office")]),
    T(id="b-inn-subject-first", issuer=["hospital"], audience="adult",
      keywords=["innkalling", "{procedure}"], surgical=True,
      specialties=["Ortopedi", "Gynekologi", "Øre-nese-hals", "Hudsykdommer"],
      blocks=[("patient",),
              ("title", "Innkalling til inngrep"),
              ("p", "Du står på vår venteliste for {procedure}, og vi kan nå tilby deg plass."),
              ("kv", [("Oppmøtedag:", "{appt_date}"), ("Klokkeslett:", "{arrive_time}"), ("Sted:", "{building}")]),
              ("h", "Forberedelser"),
              ("ul", ["Ikke spis de siste seks timene før oppmøte.", "Klart drikke er lov inntil to timer før.",
                      "Ta med briller, høreapparat og medisinene dine i originalpakning."]),
              ("p", "Svar på denne innkallingen på helsenorge.no eller ring {inst_phone} innen en uke."),
              ("sign", "doctor")]),
    T(id="b-inn-foresatte", issuer=["hospital"], audience="child", recipient="guardian",
      specialties=["Barnemedisin", "Øre-nese-hals"],
      keywords=["innkalling", "{poli}"],
      blocks=[("title", "Time for barnet ditt"),
              ("patient",),
              ("p", "{patient_first} har fått time til undersøkelse ved {poli} {appt_date} klokken {appt_time}."),
              ("p", "En av foreldrene eller en annen foresatt må være med. Ta gjerne med en bamse eller noe "
                    "kjent for barnet."),
              ("p", "Meld fra på {inst_phone} hvis timen ikke passer."),
              ("sign", "nurse")]),
    T(id="b-inn-legekontor", issuer=["legekontor"], audience="adult", specialty=False,
      vars={"check": ["årlig kontroll av blodtrykket", "oppfølging av diabetes", "kontroll av stoffskiftet"]},
      keywords=["kontroll", "time"],
      blocks=[("title", "Påminnelse om time"),
              ("p", "Det er tid for {check}. Vi har satt opp en time til deg hos {fastlege}."),
              ("kv", [("Tid:", "{appt_date} kl. {appt_time}"), ("Sted:", "{inst}")]),
              ("p", "Kom gjerne ti minutter før, slik at vi rekker å ta blodprøver før konsultasjonen."),
              ("sign", "office")]),
    T(id="b-inn-velkommen", issuer=["hospital"], audience="adult", inpatient=True,
      specialties=["Ortopedi", "Gynekologi", "Gastroenterologi"],
      keywords=["oppmøte", "{ward}"],
      blocks=[("title", "Velkommen til {ward}"),
              ("p", "Vi viser til samtalen ved poliklinikken og bekrefter at du skal legges inn hos oss."),
              ("kv", [("Innleggelsesdag:", "{appt_date}"), ("Oppmøte:", "kl. {arrive_time} i resepsjonen, {building}")]),
              ("p", "Regn med å være innlagt i {los} døgn. Ta med toalettsaker, behagelige klær og medisinene dine."),
              ("sign", "nurse")]),
    T(id="b-inn-nynorsk", lang="nn", issuer=["hospital"], audience="adult",
      keywords=["innkalling", "{poli}"],
      blocks=[("title", "Innkalling til samtale"),
              ("p", "Du har fått time ved {poli} for {exam}."),
              ("kv", [("Tidspunkt:", "{appt_date} kl. {appt_time}"), ("Stad:", "{building}")]),
              ("p", "Dersom du ikkje kan møte, må du melde frå så tidleg som mogleg på telefon {inst_phone}."),
              ("sign", "office")]),
]

EPIKRISE = [
    T(id="b-epi-gp-subject", issuer=["hospital"], audience="adult", recipient="fastlege", inpatient=True,
      specialties=["Kardiologi", "Nevrologi", "Gastroenterologi", "Ortopedi"],
      keywords=["utskrivning", "{dept}"],
      blocks=[("patient",),
              ("title", "Utskrivningsnotat"),
              ("p", "Pasienten var innlagt ved {ward} fra {adm_date} til {dis_date}."),
              ("h", "Diagnose ved utskrivning"), ("diag",),
              ("h", "Sykehistorie og forløp"),
              ("p", "Kom inn med {complaint}. {course}"),
              ("h", "Legemidler ved utskrivning"), ("meds", "table"),
              ("h", "Oppfølging"),
              ("p", "{followup} Vi ber fastlegen følge opp blodtrykk og nyrefunksjon."),
              COPY_PATIENT,
              ("sign", "doctor")]),
    T(id="b-epi-poliklinisk-patient", issuer=["hospital"], audience="adult", recipient="patient",
      keywords=["poliklinisk notat", "{poli}"],
      blocks=[("title", "Notat fra poliklinisk konsultasjon"),
              ("p", "Du var til undersøkelse ved {poli} {recent_date}. Her er et sammendrag av det vi fant og "
                    "det vi ble enige om."),
              ("h", "Funn"), ("p", "{exam} {finding}"),
              ("h", "Diagnose"), ("diag",),
              ("h", "Plan"), ("p", "{followup}"),
              ("kv", [("Kopi til:", "{fastlege}, {gp_office}")]),
              ("sign", "doctor")]),
    T(id="b-epi-barn", issuer=["hospital"], audience="child", recipient="fastlege", inpatient=True,
      specialties=["Barnemedisin"],
      keywords=["epikrise", "{ward}"],
      blocks=[("title", "Epikrise – barneavdelingen"),
              ("kv", [("Innlagt:", "{adm_date}"), ("Utskrevet:", "{dis_date}"), ("Foresatt:", "{parent}")]),
              ("h", "Diagnoser"), ("diag",),
              ("h", "Forløp"),
              ("p", "{age} år gammel {sex_word} innlagt med {complaint}. {course}"),
              ("h", "Videre"),
              ("p", "{followup} Foreldrene har fått muntlig og skriftlig informasjon."),
              ("sign", "doctor")]),
    T(id="b-epi-sammenfatning", issuer=["hospital"], audience="adult", recipient="fastlege", inpatient=True,
      specialties=["Kardiologi", "Gastroenterologi", "Nevrologi"],
      keywords=["sammenfatning", "{ward}"],
      blocks=[("title", "Sammenfatning av sykehusopphold"),
              ("patient",),
              ("p", "Innlagt {adm_date}, utskrevet {dis_date} etter {los} døgn ved {ward}."),
              ("h", "Hva som ble gjort"), ("p", "{course}"),
              ("h", "Resepter og faste medisiner"),
              ("p", "Nye resepter er sendt elektronisk. Medisinlisten under gjelder fra utskrivningen."),
              ("meds",),
              ("h", "Ansvar videre"), ("p", "{followup}"),
              ("sign", "doctor")]),
    T(id="b-epi-nynorsk", lang="nn", issuer=["hospital"], audience="adult", recipient="fastlege", inpatient=True,
      keywords=["epikrise", "{dept}"],
      blocks=[("title", "Epikrise"),
              ("kv", [("Innlagd:", "{adm_date}"), ("Utskriven:", "{dis_date}")]),
              ("h", "Diagnosar"), ("diag",),
              ("h", "Forløp"),
              ("p", "Pasienten vart lagd inn med {complaint}. {course}"),
              ("h", "Vidare oppfølging"),
              ("p", "{followup}"),
              ("sign", "doctor")]),
]

LAB_SVAR = [
    # The patient also heads a table; the generator prints the patient line as well, since its
    # truth has the printed name only from that line.
    T(id="b-lab-rapport-table", issuer=["lab"], recipient="none", specialty=False, fnr_prob=0.9,
      keywords=["analyserapport", "blodprøver"],
      blocks=[("title", "Analyserapport"),
              ("table", ["Pasient", "Født", "Rekvirent"], [["{patient}", "{birth}", "{fastlege}"]]),
              ("kv", [("Prøve tatt:", "{sample_date} {sample_time}"), ("Ankom lab:", "{recv_date} {recv_time}")]),
              ("labtable",),
              ("p", "Svar merket H eller L ligger over eller under normalområdet for voksne."),
              ("kv", [("Medisinsk ansvarlig:", "{doctor}")])]),
    T(id="b-lab-rekvirent-first", issuer=["lab"], recipient="none", specialty=False, fnr_prob=0.9,
      keywords=["prøvesvar", "laboratorium"],
      blocks=[("kv", [("Rekvirent:", "Lege {fastlege}"), ("Adresse:", "{gp_office}")]),
              ("title", "Svarrapport, klinisk kjemi"),
              ("patient",),
              ("kv", [("Prøvetaking:", "{sample_date}")]),
              ("labtable",),
              ("opt", 0.6, ("p", "Kommentar: Prøven var lett hemolysert.")),
              ("sign", "none")]),
    T(id="b-lab-brev", issuer=["legekontor"], audience="adult", specialty=False,
      keywords=["prøvesvar", "blodprøver"],
      blocks=[("title", "Resultat av blodprøvene dine"),
              ("p", "Her er svarene på prøvene du tok hos oss {sample_date}."),
              ("labtable",),
              ("p", "Svarene er gjennomgått av {fastlege}. De fleste verdiene er normale. Ta kontakt hvis du har "
                    "spørsmål."),
              ("sign", "gp")]),
    T(id="b-lab-nynorsk", lang="nn", issuer=["lab"], recipient="none", specialty=False,
      keywords=["prøvesvar", "laboratorium"],
      blocks=[("title", "Prøvesvar"),
              ("patient",),
              ("kv", [("Rekvirent:", "{fastlege}"), ("Prøve teken:", "{sample_date}")]),
              ("labtable",),
              ("sign", "none")]),
]

RESEPT = [
    T(id="b-res-utskrift", issuer=["legekontor"], recipient="none", specialty=False,
      keywords=["e-resept", "legemidler"],
      blocks=[("title", "Utskrift av e-resept"),
              ("patient",),
              ("kv", [("Forskrevet av:", "{fastlege}"), ("Forskrevet dato:", "{date_dmy0}")]),
              ("meds",),
              ("p", "Reseptene ligger i Reseptformidleren. Vis legitimasjon på apoteket for å hente ut legemidlene."),
              ("sign", "none")]),
    T(id="b-res-legemiddelplan", issuer=["hospital"], audience="adult", recipient="patient",
      keywords=["legemiddelplan", "resept"],
      blocks=[("title", "Legemiddelplan og resepter ved utreise"),
              ("p", "Her er oversikten over medisinene du skal bruke etter at du drar hjem. Nye resepter er sendt "
                    "elektronisk."),
              ("meds", "table"),
              ("p", "Ta med denne planen til fastlegen din, {fastlege}, ved neste time."),
              ("sign", "doctor")]),
    T(id="b-res-gp-to-patient", issuer=["legekontor"], audience="adult", recipient="patient", specialty=False,
      keywords=["resept", "fornyet"],
      blocks=[("title", "Reseptene dine er fornyet"),
              ("p", "Du ba om fornyelse av faste medisiner. {fastlege} har skrevet ny resept på:"),
              ("meds",),
              ("p", "Resepten gjelder i ett år. Husk blodprøvekontroll før neste fornyelse."),
              ("sign", "gp")]),
    T(id="b-res-nynorsk", lang="nn", issuer=["legekontor"], recipient="none", specialty=False,
      keywords=["resept"],
      blocks=[("title", "Resept"),
              ("patient",),
              ("meds",),
              ("kv", [("Forskrive av:", "{fastlege}")]),
              ("sign", "none")]),
]

HENVISNING = [
    T(id="b-hen-vurdering", issuer=["legekontor"], audience="adult", recipient="hospital",
      specialties=["Ortopedi", "Kardiologi", "Nevrologi", "Gastroenterologi", "Hudsykdommer"],
      keywords=["henvisning", "{poli}"],
      blocks=[("patient",),
              ("title", "Henvisning til vurdering"),
              ("p", "Jeg henviser herved pasienten til {poli} for vurdering av {complaint}."),
              ("h", "Tidligere"), ("p", "Plagene har vart siden {onset}. {exam}"),
              ("h", "Aktuelle medisiner"), ("meds",),
              ("p", "Ønsker vurdering av videre utredning og behandling. Takk for hjelpen."),
              ("sign", "gp")]),
    T(id="b-hen-kopi-pasient", issuer=["legekontor"], audience="adult", recipient="patient", specialty=False,
      keywords=["henvisning", "kopi"],
      blocks=[("title", "Kopi av henvisning"),
              ("p", "Du er henvist til {target_inst}. Dette er en kopi av henvisningen som er sendt."),
              ("kv", [("Henvist til:", "{poli}, {target_inst}"), ("Henvisende lege:", "{fastlege}")]),
              ("h", "Problemstilling"), ("p", "Vurdering av {complaint}."),
              ("p", "Sykehuset sender deg brev om time. Ventetiden kan være flere uker."),
              ("sign", "gp")]),
    T(id="b-hen-barn", issuer=["legekontor"], audience="child", recipient="hospital",
      specialties=["Barnemedisin", "Øre-nese-hals"],
      keywords=["henvisning", "{poli}"],
      blocks=[("title", "Henvisning – barn"),
              ("patient",),
              ("kv", [("Foresatt:", "{parent}"), ("Hastegrad:", "Vanlig")]),
              ("p", "Henviser {age} år gammel {sex_word} med {complaint}. Foreldrene ønsker vurdering."),
              ("sign", "gp")]),
    T(id="b-hen-running-text", issuer=["legekontor"], audience="adult", recipient="hospital", patient_header=False,
      specialties=["Ortopedi", "Nevrologi", "Hudsykdommer", "Gynekologi"],
      keywords=["henvisning", "{poli}"],
      blocks=[("title", "Ber om vurdering"),
              ("p", "Jeg ber om at {patient}, født {birth}, blir vurdert ved {poli} for {complaint}."),
              ("p", "Plagene har vart siden {onset}. {finding}"),
              ("h", "Faste medisiner"), ("meds",),
              ("p", "Pasienten er informert og ønsker time."),
              ("sign", "gp")]),
    T(id="b-hen-nynorsk", lang="nn", issuer=["legekontor"], audience="adult", recipient="hospital",
      keywords=["tilvising", "{poli}"],
      blocks=[("title", "Tilvising"),
              ("patient",),
              ("p", "Eg tilviser pasienten til {poli} for vurdering av {complaint}."),
              ("p", "Takk for hjelpa."),
              ("sign", "gp")]),
]

VEDTAK = [
    T(id="b-ved-nav-saksnr", issuer=["nav"], audience="adult", specialty=False, fnr_prob=0.9,
      vars={"benefit": ["arbeidsavklaringspenger", "grunnstønad", "hjelpestønad", "stønad til briller"]},
      keywords=["vedtak", "{benefit}"],
      blocks=[("kv", [("Saksnummer:", "{saksnr}")]),
              ("title", "Vi har behandlet søknaden din"),
              ("p", "Du har søkt om {benefit}. Søknaden er innvilget fra {period_from}."),
              ("h", "Begrunnelse"),
              ("p", "Du oppfyller vilkårene i folketrygdloven. Vi har lagt vekt på opplysninger fra fastlegen din."),
              ("h", "Du har rett til å klage"),
              ("p", "Fristen for å klage er seks uker fra du mottok dette brevet."),
              ("sign", "caseworker")]),
    T(id="b-ved-kommune-barn", issuer=["kommune"], audience="child", recipient="guardian", specialty=False,
      vars={"service": ["avlastning", "omsorgsstønad", "støttekontakt"]},
      keywords=["vedtak", "{service}"],
      blocks=[("title", "Vedtak om {service}"),
              ("patient",),
              ("p", "Dere har søkt om {service} for {patient_first}. Kommunen har innvilget søknaden for perioden "
                    "{period_from} til {period_to}."),
              ("h", "Klage"),
              ("p", "Dere kan klage på vedtaket innen tre uker. Klagen sendes til tildelingskontoret."),
              ("sign", "caseworker")]),
    T(id="b-ved-helfo", issuer=["helfo"], audience="adult", specialty=False,
      keywords=["vedtak", "frikort"],
      blocks=[("title", "Svar på søknad om refusjon"),
              ("p", "Helfo har innvilget søknaden din om refusjon av utgifter til behandling {treat_date}."),
              ("kv", [("Beløp:", "kr {amount}"), ("Utbetales til konto:", "{account}")]),
              ("p", "Vedtaket er gjort etter folketrygdloven § 5-22. Du kan klage innen seks uker."),
              ("sign", "caseworker")]),
    T(id="b-ved-nynorsk", lang="nn", issuer=["kommune"], audience="adult", specialty=False,
      vars={"service": ["heimesjukepleie", "praktisk bistand", "tryggleiksalarm"]},
      keywords=["vedtak", "{service}"],
      blocks=[("title", "Vedtak om {service}"),
              ("p", "Du har fått innvilga {service} frå {period_from}."),
              ("h", "Grunngjeving"),
              ("p", "Kommunen har vurdert at du har behov for tenesta."),
              ("p", "Du kan klage på vedtaket innan tre veker."),
              ("sign", "caseworker")]),
]

ANNET = [
    T(id="b-ann-kvittering", issuer=["hospital"], audience="adult", specialty=False,
      keywords=["kvittering", "egenandel"],
      blocks=[("title", "Kvittering for innbetaling"),
              ("invoicetable",),
              ("p", "Vi bekrefter at beløpet er mottatt. Egenandelen teller med mot egenandelstaket."),
              ("sign", "none")]),
    T(id="b-ann-nyfastlege", issuer=["kommune"], audience="adult", specialty=False, patient_header=False,
      keywords=["fastlege", "informasjon"],
      blocks=[("title", "Melding om ny fastlege"),
              ("p", "Fra {period_from} får du {fastlege} ved {gp_office} som ny fastlege. Du trenger ikke gjøre noe."),
              ("p", "Vil du heller bytte til en annen lege, kan du gjøre det på helsenorge.no."),
              ("sign", "none")]),
    T(id="b-ann-undersokelse", issuer=["hospital"], audience="adult", specialty=False,
      keywords=["spørreundersøkelse", "informasjon"],
      blocks=[("title", "Hvordan var oppholdet ditt hos oss?"),
              ("p", "Du var nylig pasient hos {inst}. Vi vil gjerne høre hva du synes om behandlingen du fikk."),
              ("p", "Undersøkelsen tar omtrent ti minutter og er frivillig. Svarene blir behandlet anonymt."),
              ("sign", "none")]),
    T(id="b-ann-screening", issuer=["other"], audience="adult", specialty=False,
      keywords=["screening", "informasjon"],
      blocks=[("title", "Resultat av screeningundersøkelsen"),
              ("p", "Prøven din ble undersøkt {recent_date}. Det ble ikke funnet tegn til sykdom."),
              ("p", "Du vil få en ny invitasjon om noen år."),
              ("sign", "none")]),
]

TEMPLATES = {"innkalling": INNKALLING, "epikrise": EPIKRISE, "lab-svar": LAB_SVAR, "resept": RESEPT,
             "henvisning": HENVISNING, "vedtak": VEDTAK, "annet": ANNET}
