#!/usr/bin/env python3
"""Generate "real-world" letter page images with ground-truth text.

Arkivator's own fixtures (scripts/make_fixtures.py) are clean synthetic
letters.  This script makes a harder set that looks like what people actually
photograph or scan: typewritten letters, forms with ruled tables, letters with
rubber stamps and pen marks, yellowed old paper, full-bleed flatbed scans of
odd-sized pages, phone photos at an angle, curled pages and dim photos with a
hand shadow.  It is used to benchmark the OCR pipeline against plain
`tesseract` and to pick a few test fixtures.

Styles (each page is one style; the styles are interleaved in page order so
that any prefix of the set covers several of them):

  typewriter  monospace pica type at 12 pt (10 characters per inch) with
              uneven ink: per-letter darkness and jitter, faint, unevenly
              struck, double-struck and filled-in letters, a worn ribbon;
              single, 1.5 or double spacing; some pages fully justified with
              extra spaces (several consecutive lines get a wide gap at about
              the same x position, which a layout analyser may take for a
              column gap); a page with indented first lines and the date set
              far right; one carbon copy.
  form        form-like page: labelled boxes (Navn:, Fødselsnr.:, Adresse:),
              checkboxes, a ruled table with 3-5 columns and body text.
  stamp       printed letter with a coloured round or rectangular rubber
              stamp partly over the text, and pen marks (underline, tick,
              margin scribble, signature).
  yellowed    old brownish paper with mottling, foxing spots, stains and a
              fold crease; faded grey-brown ink with low contrast.
  fullbleed   colour flatbed scan where the page fills the image edge to edge
              (foolscap 2500x4050 at 300 DPI), aged border band, a thin dark
              strip where the scanner edge shows, sometimes a stained band or
              a grey letterhead strip; also A5 pages and a cropped top half,
              whose resolution cannot be guessed from the pixel size.
  angled      phone photo (about 3000x4000) rotated 10-25 degrees with strong
              perspective on a patterned table (wood, checkered table cloth,
              busy fabric, desk).  Plain tesseract reads next to nothing of
              these; they are there for a pipeline that finds and straightens
              the page.
  curled      photo of a bent page (bowed, one edge lifted, or a wave): the
              text lines bend by 20-50 px; uneven light.
  dim         photo in dim light (paper at about 95-120 grey) with a hard-ish
              hand shadow across the text, and sensor noise.

Every letter text, name, institution, address and number is invented; the
fødselsnumre are made-up 11-digit numbers.

Output:
  DIR/images/NAME.jpg    the page image (NAME like rw-01-typewriter)
  DIR/truth/NAME.txt     the text as drawn, in reading order, one drawn line
                         per line, blocks separated by a blank line; stamps
                         and handwriting are not part of the truth; justified
                         lines have single spaces between words
  DIR/manifest.json      [{"name", "style", "width", "height", "dpi", "note"}]
                         where dpi is the true resolution of the page (for
                         photos: about how many pixels an inch of the page
                         covers).  The typewriter, form, stamp and yellowed
                         scans carry 300 DPI in the JPEG; the full-bleed scans
                         and the photos carry none.

Usage (Debian's Python with Pillow and numpy):
  /usr/bin/python3 scripts/make_realworld.py [--out .bench/realworld] [--seed 7]
        [--count 36] [--only NAME|STYLE|NUMBER ...] [--jobs N]
  /usr/bin/python3 scripts/make_realworld.py --score-tesseract [--out DIR]
        [--only ...] [--jobs N]
  /usr/bin/python3 scripts/make_realworld.py --test-fixtures Tests/Fixtures/realworld

--test-fixtures writes the five pages (of seeds 7 and 11) that showed a cleanup or
reading-order fault (TEST_FIXTURES), made small enough to commit, with their texts.

The same seed gives byte-identical output, whatever --jobs is (default 1;
36 pages take about two minutes on one core).  --score-tesseract runs plain
`tesseract IMAGE - -l nor` on the pages already generated in DIR and prints the
character accuracy per page, per style and pooled:
1 - Levenshtein(prediction, truth) / len(truth), with all whitespace runs
collapsed to single spaces.
"""

from __future__ import annotations

import argparse
import tempfile
import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))
import make_fixtures as mf  # noqa: E402  (importing it generates nothing)

ROOT = SCRIPTS.parent
DEFAULT_OUT = ROOT / ".bench" / "realworld"

DJ = "/usr/share/fonts/truetype/dejavu/"
LB = "/usr/share/fonts/truetype/liberation/"
MONO_FONTS = {
    "liberation-mono": (LB + "LiberationMono-Regular.ttf", LB + "LiberationMono-Bold.ttf"),
    "dejavu-mono": (DJ + "DejaVuSansMono.ttf", DJ + "DejaVuSansMono-Bold.ttf"),
}
PRINT_FONTS = mf.FONT_FAMILIES  # dejavu-serif, dejavu-sans, liberation-sans, liberation-serif

STYLES = ["typewriter", "form", "stamp", "yellowed", "fullbleed", "angled", "curled", "dim"]
DPI = 300
A4 = (2480, 3508)
A5 = (1748, 2480)
FOOLSCAP = (2500, 4050)

MONTHS_UPPER = ["JAN", "FEB", "MAR", "APR", "MAI", "JUN", "JUL", "AUG", "SEP", "OKT", "NOV", "DES"]


# ---------------------------------------------------------------------------
# People (invented).  Letters refer to them through {navn}, {gate}, {post},
# {fdato}, {fnr}, {pron} (han/hun) and {Pron} (Han/Hun).
# ---------------------------------------------------------------------------

PEOPLE = [
    # name, street, postal address, birth date, sex
    ("Kari Haugen", "Storgata 41 B", "2317 Hamar", "17.03.1958", "f"),
    ("Ole Martin Bakke", "Solbakken 7", "8006 Bodø", "02.11.1949", "m"),
    ("Ingrid Solberg Lie", "Fjellveien 112", "5019 Bergen", "28.06.1961", "f"),
    ("Per Arne Nilsen", "Kirkegata 3", "9008 Tromsø", "09.01.1963", "m"),
    ("Astrid Eriksen", "Tollbodgata 22", "4611 Kristiansand", "14.08.1954", "f"),
    ("Bjørn Kristiansen", "Nedre Slottsgate 9", "0157 Oslo", "30.05.1980", "m"),
    ("Sigrid Jacobsen", "Løkkeveien 5", "3015 Drammen", "21.12.1952", "f"),
    ("Torbjørn Haugland", "Strandvegen 88", "6100 Volda", "06.04.1939", "m"),
    ("Marit Johansen Berg", "Granliveien 19", "7049 Trondheim", "11.09.1967", "f"),
    ("Håkon Dahl", "Eikeveien 4", "1605 Fredrikstad", "25.02.1975", "m"),
    ("Gunnhild Myklebust", "Sjøvegen 31", "6770 Nordfjordeid", "03.07.1950", "f"),
    ("Eirik Aasen", "Vestre gate 17", "3611 Kongsberg", "19.10.1958", "m"),
    ("Liv Torunn Rønning", "Parkveien 2 A", "1530 Moss", "08.03.1946", "f"),
    ("Jan Erik Holmen", "Bekkeliveien 60", "2815 Gjøvik", "15.06.1971", "m"),
    ("Randi Ødegård", "Furulundvegen 9", "6856 Sogndal", "27.01.1957", "f"),
    ("Arild Thorsen", "Havnegata 12", "8900 Brønnøysund", "04.12.1966", "m"),
]


def made_up_fnr(fdato: str, sex: str, salt: int) -> str:
    """An invented 11-digit number with valid control digits and the sex digit right."""
    ddmmyy = fdato[0:2] + fdato[3:5] + fdato[8:10]
    ind = 100 + (salt * 37) % 380
    while True:
        fnr = mf.make_fnr(ddmmyy, ind)
        if (int(fnr[8]) % 2 == 0) == (sex == "f"):
            return fnr
        ind = int(fnr[6:9]) + 1


def person(i: int) -> dict:
    navn, gate, post, fdato, sex = PEOPLE[i % len(PEOPLE)]
    return {
        "navn": navn, "gate": gate, "post": post, "fdato": fdato,
        "fnr": made_up_fnr(fdato, sex, i),
        "pron": "hun" if sex == "f" else "han", "Pron": "Hun" if sex == "f" else "Han",
        "sex": sex,
    }


# ---------------------------------------------------------------------------
# Letter texts (all invented)
# ---------------------------------------------------------------------------

@dataclass
class Letter:
    key: str
    lang: str                       # nb | nn | riksmaal
    when: tuple[int, int, int]      # (year, month, day) of the letter
    head: list[str]                 # letterhead; first line is the sender
    place_date: str
    address: list[str]
    subject: str
    paras: list[str]
    closing: str
    signer: list[str]
    head_right: list[str] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)     # list lines after paragraph `items_after`
    items_after: int = 1
    table: tuple | None = None                          # (header, rows)
    table_after: int = 1
    form: dict | None = None                            # title, fields, checks, footer
    sex: str | None = None                              # required sex of the person, if any
    ages: tuple[int, int] = (18, 90)                    # allowed age of the person when the letter was written
    old: bool = False                                   # 1940s-1960s letter


PATIENT_ADDRESS = ["{navn}", "{gate}", "{post}"]

LETTERS: dict[str, Letter] = {}


def letter(**kw) -> Letter:
    lt = Letter(**kw)
    LETTERS[lt.key] = lt
    return lt


letter(
    key="innkalling_ortopedi", lang="nb", when=(2019, 2, 4),
    head=["Storlia sykehus HF", "Ortopedisk poliklinikk", "Postboks 410, 2604 Lillehammer"],
    head_right=["Telefon 61 27 40 00", "Org.nr. 983 974 112"],
    place_date="Lillehammer, 4. februar 2019",
    address=PATIENT_ADDRESS,
    refs=["Vår ref.: 19/01132-4", "Saksbehandler: Randi Moen"],
    subject="Innkalling til poliklinisk time",
    paras=[
        "Du er henvist til Ortopedisk poliklinikk av fastlegen din, og vi har satt opp en time til deg "
        "tirsdag 26. februar 2019 klokken 10.45. Du skal melde deg i skranken i 2. etasje, inngang C, "
        "senest 15 minutter før avtalt tid.",
        "Ta med en liste over legemidler du bruker, og eventuelle røntgenbilder eller svar fra "
        "undersøkelser som er gjort ved andre sykehus. Det kan bli aktuelt å ta nye bilder av kneet "
        "samme dag, så du må regne med at besøket tar inntil tre timer.",
        "Egenandelen for poliklinisk konsultasjon er 345 kroner. Dersom du har frikort, må du vise "
        "dette ved oppmøte. Timer som ikke avbestilles senest 24 timer før, blir belastet med et gebyr "
        "på 690 kroner, også om du har frikort.",
        "Hvis du ikke kan komme, ber vi om at du ringer oss på telefon 61 27 43 50 mellom klokken "
        "08.00 og 15.00 på hverdager. Du kan også endre timen på nettsiden vår.",
    ],
    closing="Med vennlig hilsen",
    signer=["Randi Moen", "sekretær"],
)

letter(
    key="epikrise_medisin", lang="nb", when=(2007, 10, 18),
    head=["Nordre Vestvik sykehus", "Medisinsk avdeling, sengepost 3B", "Postboks 1600, 6025 Ålesund"],
    place_date="Ålesund, 18. oktober 2007",
    address=["Fastlege Jon Rørvik", "Brosundet legesenter", "Apotekergata 6", "6004 Ålesund"],
    subject="Epikrise vedrørende {navn}, født {fdato}",
    paras=[
        "Pasienten ble innlagt 11.10.2007 via legevakten med tung pust, feber og hoste gjennom fire "
        "dager. Ved innkomst var temperaturen 39,2 grader, og det ble hørt knatrelyder basalt på høyre "
        "side. CRP var 186 og leukocytter 14,8.",
        "Røntgen thorax viste et infiltrat i høyre underlapp, forenlig med pneumoni. Pasienten ble "
        "behandlet med benzylpenicillin intravenøst i tre døgn og gikk deretter over til "
        "fenoksymetylpenicillin tabletter. {Pron} responderte godt, og CRP var ved utreise falt til 31.",
        "Diagnoser: Pneumoni i høyre underlapp (J18.1). Kronisk obstruktiv lungesykdom, stabil (J44.9).",
        "Videre plan: Penicillinkuren fullføres til og med 23.10.2007. Vi anbefaler kontroll hos "
        "fastlege om fire til seks uker med ny røntgen thorax for å sikre at infiltratet går tilbake.",
    ],
    closing="Med vennlig hilsen",
    signer=["Lars Ove Brekke", "assistentlege"],
)

letter(
    key="labsvar", lang="nb", when=(2015, 6, 9),
    head=["Fjellhaug medisinske laboratorium", "Avdeling for klinisk kjemi", "Sandviksveien 40, 1337 Sandvika"],
    head_right=["Telefon 67 80 52 00"],
    place_date="Sandvika, 9. juni 2015",
    address=["Dr. Siri Vang", "Kolsås legesenter", "Brynsveien 2", "1352 Kolsås"],
    subject="Prøvesvar for {navn}, f. {fdato}",
    paras=[
        "Prøvene ble tatt 8. juni 2015 klokken 08.15, fastende. Analysene er utført ved vårt "
        "laboratorium, og referanseområdene gjelder for voksne.",
        "Lav hemoglobin og lav ferritin tyder på jernmangel. Vi anbefaler at årsaken utredes videre. "
        "Kontakt laboratoriet på telefon 67 80 52 00 ved spørsmål om analysene.",
    ],
    table=(["Analyse", "Resultat", "Enhet", "Referanse"], [
        ["Hemoglobin", "11,2", "g/dL", "11,7-15,3"],
        ["Leukocytter", "7,4", "10^9/L", "3,5-10,0"],
        ["Trombocytter", "312", "10^9/L", "145-390"],
        ["Ferritin", "9", "µg/L", "10-167"],
        ["CRP", "<5", "mg/L", "<5"],
        ["Kreatinin", "68", "µmol/L", "45-90"],
        ["TSH", "2,1", "mIU/L", "0,27-4,2"],
        ["HbA1c", "38", "mmol/mol", "<42"],
    ]),
    table_after=1,
    closing="Med vennlig hilsen",
    signer=["Tone Aarsæther", "overlege, spesialist i medisinsk biokjemi"],
    form={
        "title": "PRØVESVAR",
        "fields": [[("Navn:", "{navn}"), ("Fødselsnr.:", "{fnr}")],
                   [("Adresse:", "{gate}, {post}")],
                   [("Rekvirent:", "Dr. Siri Vang"), ("Prøvedato:", "08.06.2015")]],
        "checks": ("Materiale:", [("Blod", True), ("Urin", False), ("Annet", False)]),
        "footer": "Skjema FML-4 (2014)",
    },
)

letter(
    key="resept_1994", lang="nb", when=(1994, 5, 2),
    head=["Dr. med. Knut Hovland", "Allmennpraksis", "Kongens gate 14, 7011 Trondheim"],
    head_right=["Tlf. 73 52 18 40", "Telefax 73 52 18 41"],
    place_date="Trondheim, 2. mai 1994",
    address=PATIENT_ADDRESS,
    subject="Endring i faste medisiner",
    paras=[
        "Som avtalt ved konsultasjonen i går sender jeg deg en oversikt over de medisinene du skal "
        "bruke fremover. Blodtrykket var fortsatt for høyt, 162/98, og vi har derfor økt dosen av "
        "blodtrykksmedisinen.",
        "Reseptene er sendt til apoteket på Solsiden. Husk å ta en ny blodprøve for kalium og "
        "kreatinin om to uker, før du kommer til kontroll. Timen er satt opp onsdag 1. juni klokken 13.30.",
        "Ta gjerne kontakt dersom du får plager som svimmelhet eller tørrhoste.",
    ],
    items=[
        "1. Enalapril 10 mg, 1 tablett morgen og kveld",
        "2. Hydroklortiazid 25 mg, 1 tablett om morgenen",
        "3. Acetylsalisylsyre 75 mg, 1 tablett daglig",
        "4. Paracetamol 500 mg, 1 til 2 tabletter ved behov",
    ],
    items_after=1,
    table=(["Legemiddel", "Styrke", "Dosering", "Antall"], [
        ["Enalapril", "10 mg", "1 x 2", "100 stk."],
        ["Hydroklortiazid", "25 mg", "1 x 1", "100 stk."],
        ["Acetylsalisylsyre", "75 mg", "1 x 1", "98 stk."],
        ["Paracetamol", "500 mg", "ved behov", "20 stk."],
    ]),
    closing="Med vennlig hilsen",
    signer=["Knut Hovland", "lege"],
    form={
        "title": "RESEPT",
        "fields": [[("Navn:", "{navn}"), ("Født:", "{fdato}")],
                   [("Adresse:", "{gate}, {post}")]],
        "checks": ("Refusjon:", [("Blå resept", True), ("Hvit resept", False)]),
        "footer": "Reseptblankett nr. 1-94 (Rikstrygdeverket)",
        "use_items": False,
    },
)

letter(
    key="henvisning_ohl", lang="nb", when=(1998, 9, 14),
    head=["Bakkeløkka legekontor", "Bakkeløkka 3, 3616 Kongsberg"],
    head_right=["Tlf. 32 73 11 80"],
    place_date="Kongsberg, 14. september 1998",
    address=["Øre-nese-hals-avdelingen", "Drammen sentralsjukehus", "Postboks 800", "3004 Drammen"],
    subject="Henvisning: {navn}, f. {fdato}",
    paras=[
        "Takk for at dere vil se på denne pasienten, som i over et halvt år har vært plaget med "
        "hørselstap og øresus på venstre side. Plagene kom gradvis, uten forutgående infeksjon eller "
        "kjent støyskade.",
        "Ved undersøkelse her er trommehinnene normale. Weber lateraliseres til høyre, og Rinne er "
        "positiv på begge sider. Jeg har ikke utstyr til audiometri på kontoret.",
        "Pasienten er ellers frisk og bruker ingen faste medisiner. {Pron} arbeider som lærer og "
        "opplever at plagene gjør det vanskelig å følge med i klasserommet.",
        "Jeg ber om vurdering av om det foreligger et ensidig sensorinevralt hørselstap, og eventuelt "
        "videre utredning med MR for å utelukke akustikusnevrinom.",
    ],
    table=(["Dato", "Undersøkelse", "Resultat"], [
        ["12.03.1998", "Otoskopi", "Normale trommehinner"],
        ["12.03.1998", "Stemmegaffel", "Weber til høyre"],
        ["02.09.1998", "Blodtrykk", "128/84"],
    ]),
    table_after=2,
    closing="Med vennlig hilsen",
    signer=["Gro Vatne", "spesialist i allmennmedisin"],
    form={
        "title": "HENVISNING",
        "fields": [[("Navn:", "{navn}"), ("Fødselsnr.:", "{fnr}")],
                   [("Adresse:", "{gate}, {post}")],
                   [("Henvist til:", "Øre-nese-hals-avdelingen"), ("Dato:", "14.09.1998")]],
        "checks": ("Hastegrad:", [("Øyeblikkelig hjelp", False), ("Innen 4 uker", True), ("Ordinær", False)]),
        "footer": "Henvisningsskjema HV-2 (rev. 1996)",
    },
)

letter(
    key="nav_aap", lang="nb", when=(2012, 8, 27),
    head=["NAV Gjøvik", "Postboks 123, 2801 Gjøvik"],
    head_right=["Telefon 61 14 22 00"],
    place_date="Gjøvik, 27. august 2012",
    address=PATIENT_ADDRESS,
    refs=["Saksnummer: 2012/48817"],
    subject="Vedtak om arbeidsavklaringspenger",
    paras=[
        "Vi viser til søknaden din av 2. juli 2012. Du har fått innvilget arbeidsavklaringspenger fra "
        "og med 1. juli 2012 til og med 30. juni 2013.",
        "Vedtaket er gjort etter folketrygdloven § 11-5, fordi arbeidsevnen din er nedsatt med minst "
        "halvparten på grunn av sykdom. Vi har lagt vekt på legeerklæringen fra fastlegen din og "
        "opplysningene i aktivitetsplanen.",
        "Arbeidsavklaringspengene utgjør 66 prosent av beregningsgrunnlaget. Grunnlaget ditt er "
        "fastsatt til 412 300 kroner, og du får utbetalt 1 046 kroner per dag, fem dager i uken, før skatt.",
        "Du må sende meldekort hver fjortende dag. Hvis du ikke sender meldekortet i tide, kan "
        "utbetalingen bli stanset. Du har rett til å klage på vedtaket innen seks uker fra du mottok "
        "dette brevet.",
    ],
    table=(["Periode", "Grunnlag", "Sats", "Per dag"], [
        ["01.07.12-31.12.12", "412 300", "66 %", "1 046 kr"],
        ["01.01.13-30.06.13", "412 300", "66 %", "1 046 kr"],
    ]),
    table_after=3,
    closing="Med vennlig hilsen",
    signer=["Heidi Sandvik", "saksbehandler"],
    form={
        "title": "VEDTAK",
        "fields": [[("Navn:", "{navn}"), ("Fødselsnr.:", "{fnr}")],
                   [("Adresse:", "{gate}, {post}")],
                   [("Ytelse:", "Arbeidsavklaringspenger"), ("Saksnr.:", "2012/48817")]],
        "checks": ("Utfall:", [("Innvilget", True), ("Delvis innvilget", False), ("Avslått", False)]),
        "footer": "NAV 11-05.07 Bokmål",
    },
)

letter(
    key="trygdekontor_1985", lang="nb", when=(1985, 4, 11),
    head=["STANGE TRYGDEKONTOR", "Postboks 64, 2335 Stange"],
    place_date="Stange, 11. april 1985",
    address=PATIENT_ADDRESS,
    subject="Grunnstønad etter folketrygdloven § 8-2",
    paras=[
        "Vi har mottatt Deres søknad om grunnstønad til ekstrautgifter på grunn av diett, datert "
        "3. mars d.å., med vedlagt legeerklæring fra dr. Aasland.",
        "Trygdekontoret har vurdert søknaden og funnet at vilkårene er oppfylt. De innvilges "
        "grunnstønad etter sats 2, som for tiden utgjør kr 4 680,- pr. år. Stønaden gis fra "
        "1. mars 1985 og utbetales månedlig sammen med Deres øvrige ytelser.",
        "Dersom Deres helsetilstand eller utgifter endrer seg, plikter De å gi melding til "
        "trygdekontoret. Stønaden vil bli vurdert på nytt innen utgangen av 1987.",
        "Vedtaket kan påklages til fylkestrygdekontoret innen 6 uker. En eventuell klage sendes "
        "gjennom trygdekontoret.",
    ],
    closing="Med hilsen",
    signer=["Arvid Haug", "trygdesjef"],
)

letter(
    key="kommune_nn", lang="nn", when=(2005, 12, 6),
    head=["Volda kommune", "Pleie- og omsorgstenesta", "Postboks 500, 6101 Volda"],
    place_date="Volda, 6. desember 2005",
    address=PATIENT_ADDRESS,
    refs=["Vår ref.: 2005/1187"],
    subject="Vedtak om heimesjukepleie",
    paras=[
        "Vi viser til søknaden din, motteken 21. november 2005, og til heimebesøket som vart gjort av "
        "sjukepleiar Eli Bjørdal den 28. november.",
        "Du får innvilga heimesjukepleie to gonger dagleg, morgon og kveld, med hjelp til medisinar, "
        "stell av leggsår og tilsyn. Tenesta tek til måndag 12. desember 2005 og gjeld inntil vidare.",
        "Heimesjukepleie er gratis. Dersom behovet ditt endrar seg, skal du melde frå til oss, slik at "
        "vedtaket kan vurderast på nytt. Vedtaket er gjort etter kommunehelsetenestelova.",
        "Du kan klage på vedtaket. Fristen for å klage er tre veker frå du fekk dette brevet. Klaga "
        "skal vere skriftleg og sendast til Pleie- og omsorgstenesta.",
    ],
    closing="Med helsing",
    signer=["Solveig Rotevatn", "einingsleiar"],
)

letter(
    key="mammografi_nn", lang="nn", when=(2018, 1, 15), sex="f", ages=(50, 69),
    head=["Mammografiprogrammet", "Sunnfjord brystdiagnostiske senter", "Postboks 1000, 6807 Førde"],
    place_date="Førde, 15. januar 2018",
    address=PATIENT_ADDRESS,
    subject="Invitasjon til mammografi",
    paras=[
        "Alle kvinner mellom 50 og 69 år får tilbod om mammografi annakvart år. Vi har sett opp ein "
        "time til deg onsdag 7. februar 2018 klokka 14.20.",
        "Undersøkinga tek om lag ti minutt. Du bør ikkje bruke deodorant, pudder eller krem på "
        "overkroppen den dagen du skal til undersøking, fordi det kan gje skuggar på bileta.",
        "Eigendelen er 240 kroner og kan betalast med kort ved oppmøte. Svaret vert sendt til deg i "
        "posten innan tre veker.",
        "Dersom timen ikkje passar, kan du ringje oss på telefon 57 83 90 10. Det er frivillig å delta.",
    ],
    closing="Venleg helsing",
    signer=["Sunnfjord brystdiagnostiske senter"],
)

letter(
    key="epikrise_nn", lang="nn", when=(1996, 7, 3),
    head=["Lidal sjukehus", "Kirurgisk avdeling", "6851 Sogndal"],
    place_date="Sogndal, 3. juli 1996",
    address=["Kommunelege Tor Hauge", "Leikanger legekontor", "6863 Leikanger"],
    subject="Epikrise for {navn}, fødd {fdato}",
    paras=[
        "Pasienten vart innlagd 28.06.96 med smerter i høgre fossa iliaca som hadde vart i eitt døgn, "
        "kvalme og feber på 38,4 grader. Klinisk var det tydeleg ømheit i høgre nedre kvadrant.",
        "Det vart gjort laparoskopisk appendektomi same kveld. Appendix var flegmonøst betent, men "
        "ikkje perforert. Forløpet etter operasjonen var ukomplisert.",
        "Histologisk svar ligg føre og viser akutt appendisitt utan teikn til malignitet.",
        "Pasienten vart utskriven 30.06.96 i god form. Stinga kan fjernast hos fastlegen om ti dagar. "
        "{Pron} er sjukmeld i to veker og bør unngå tunge løft i fire veker.",
    ],
    closing="Med helsing",
    signer=["Ivar Nesheim", "overlege"],
)

letter(
    key="sykehus_1953", lang="riksmaal", when=(1953, 11, 14), old=True,
    head=["BJERKELY SYKEHUS", "Medisinsk avdeling", "Oslo"],
    place_date="Oslo, den 14. november 1953",
    address=["Herr distriktslege O. Rasch", "Nesbyen"],
    subject="Angaaende pasient Kristian Moen, f. 2. mai 1911",
    paras=[
        "Deres brev av 3. ds. angaaende ovennevnte pasient er mottatt, og jeg skal herved gi en kort "
        "meddelelse om hans ophold her ved avdelingen.",
        "Pasienten blev innlagt den 2. oktober d.å. med hoste, nattesvette og vekttap gjennem flere "
        "maaneder. Røntgenundersøkelse av lungene viste forandringer i høire overlapp, og ekspektoratet "
        "var positivt for tuberkelbaciller.",
        "Han har været behandlet med streptomycin og PAS, og almentilstanden er betydelig bedret. "
        "Temperaturen har været normal de siste tre uker, og vekten har øket med 4 kg.",
        "Det anbefales at pasienten overføres til Lyngheim sanatorium for videre kur, og det er sendt "
        "søknad om plass. Jeg skal meddele Dem nærmere saasnart svar foreligger.",
    ],
    closing="Ærbødigst",
    signer=["Halvor Kjelsberg", "overlæge"],
)

letter(
    key="trygdekasse_1948", lang="riksmaal", when=(1948, 3, 16), old=True,
    head=["OSLO TRYGDEKASSE", "Sykepengekontoret", "Kristian IV's gate 12, Oslo"],
    place_date="Oslo, den 16. mars 1948",
    address=["Herr maskinarbeider Einar Lund", "Tøyengata 31", "Oslo"],
    subject="Sykepenger.",
    paras=[
        "I anledning Deres henvendelse av 9. ds. meddeles at Deres krav paa sykepenger for tiden fra "
        "12. januar til 28. februar d.å. er behandlet av kassens styre.",
        "Efter legeattesten fra dr. Bull var De arbeidsufør i hele dette tidsrum, og sykepengene er "
        "beregnet efter Deres lønnsklasse med kr. 9,60 pr. dag. Det samlede beløp, kr. 460,80, vil bli "
        "utbetalt ved kassens kontor mot fremvisning av medlemsboken.",
        "Kassen gjør samtidig opmerksom paa at De plikter aa melde fra straks De er arbeidsfør igjen.",
    ],
    closing="Ærbødigst",
    signer=["for Oslo Trygdekasse", "Sverre Dahl"],
)

letter(
    key="distriktslege_1961", lang="riksmaal", when=(1961, 4, 20), old=True,
    head=["DISTRIKTSLEGEN I SANDVÆR", "Sandvær pr. Sandnessjøen"],
    place_date="Sandvær, 20. april 1961",
    address=["Til foreldre og foresatte", "i Sandvær skolekrets"],
    subject="Vaksinasjon mot poliomyelitt",
    paras=[
        "Det meddeles herved at det vil bli foretatt vaksinasjon mot poliomyelitt (barnelammelse) for "
        "barn født i årene 1955 til 1960 ved Sandvær skole tirsdag den 9. mai kl. 10.00.",
        "Vaksinen gis som sprøite i overarmen. Det er nødvendig med tre sprøiter for at barnet skal bli "
        "tilstrekkelig beskyttet, og de to neste vil bli gitt med en maaneds mellemrum.",
        "Barn som har feber eller annen akutt sykdom paa vaksinasjonsdagen, bør ikke møte. Foreldrene "
        "bes medbringe barnets vaksinasjonskort.",
        "Vaksinasjonen er gratis.",
    ],
    closing="Ærbødigst",
    signer=["Thv. Brodtkorb", "distriktslege"],
)

letter(
    key="helsestasjon_1979", lang="nb", when=(1979, 8, 22),
    head=["Ullensaker helseråd", "Jessheim helsestasjon", "2050 Jessheim"],
    place_date="Jessheim, 22. august 1979",
    address=["Familien Haugland", "Furuvegen 21", "2050 Jessheim"],
    subject="Innkalling til fireårskontroll",
    paras=[
        "Barnet Deres skal i år til fireårskontroll, og vi har satt opp time ved helsestasjonen "
        "torsdag 13. september kl. 09.30.",
        "Ved kontrollen vil helsesøster undersøke syn og hørsel, og barnet blir målt og veid. Legen "
        "vil også se på barnets språk og motoriske utvikling. Ta gjerne med helsekortet.",
        "Passer timen ikke, ber vi om at De gir beskjed til helsestasjonen på telefon 97 12 30 i "
        "kontortiden, mandag til fredag kl. 08.00 til 15.30.",
    ],
    closing="Med hilsen",
    signer=["Aud Strøm", "helsesøster"],
)

letter(
    key="tannhelse_nn", lang="nn", when=(1992, 3, 2),
    head=["Den offentlege tannhelsetenesta", "Stord tannklinikk", "5400 Stord"],
    place_date="Stord, 2. mars 1992",
    address=PATIENT_ADDRESS,
    subject="Innkalling til tannlege",
    paras=[
        "Du er kalla inn til undersøking og behandling ved Stord tannklinikk måndag 16. mars 1992 "
        "klokka 11.15.",
        "Ta med deg tannkortet. Dersom du har vondt i ein tann eller har hatt hoven kjeve sidan sist, "
        "bør du seie frå om det når du kjem.",
        "Om du ikkje kan møte, må du ringje klinikken så tidleg som mogleg, slik at timen kan gå til "
        "nokon andre. Telefonnummeret er 54 41 22 60.",
    ],
    closing="Med helsing",
    signer=["Oddny Tveit", "tannhelsesekretær"],
)

letter(
    key="legeerklaering_1974", lang="nb", when=(1974, 2, 19),
    head=["Lege Reidar Falck", "Storgt. 8, 1500 Moss"],
    head_right=["Telefon 25 11 48"],
    place_date="Moss, 19. februar 1974",
    address=["Jeløy Mekaniske Verksted A/S", "Personalkontoret", "1500 Moss"],
    subject="Legeerklæring",
    paras=[
        "Undertegnede har i dag undersøkt {navn}, født {fdato}, som er ansatt som sveiser ved verkstedet.",
        "{Pron} har siden begynnelsen av januar hatt smerter i korsryggen med utstråling til venstre "
        "ben. Det foreligger tegn på prolaps av mellomvirvelskive, og {pron} er henvist til nevrologisk "
        "avdeling for videre utredning.",
        "Etter min vurdering er {pron} helt arbeidsufør fra 4. februar 1974 og foreløpig til "
        "4. mars 1974. Tungt arbeid bør unngås i lengre tid etter dette.",
    ],
    table=(["Periode", "Grad", "Diagnose"], [
        ["04.02.74-17.02.74", "100 %", "Lumbago-ischias"],
        ["18.02.74-04.03.74", "100 %", "Prolaps, under utredning"],
    ]),
    table_after=2,
    closing="Med hilsen",
    signer=["Reidar Falck", "lege"],
    form={
        "title": "LEGEERKLÆRING VED ARBEIDSUFØRHET",
        "fields": [[("Navn:", "{navn}"), ("Født:", "{fdato}")],
                   [("Adresse:", "{gate}, {post}")],
                   [("Arbeidsgiver:", "Jeløy Mekaniske Verksted A/S")]],
        "checks": ("Arbeidsufør:", [("Helt", True), ("Delvis", False), ("Ikke", False)]),
        "footer": "Blankett I-2 (Rikstrygdeverket 1971)",
    },
)

letter(
    key="rontgen_2008", lang="nb", when=(2008, 4, 30),
    head=["Lysaker Bildediagnostikk AS", "Strandveien 18, 1366 Lysaker"],
    place_date="Lysaker, 30. april 2008",
    address=["Dr. Anne Grete Moe", "Bekkestua legesenter", "Bekkestua 1", "1357 Bekkestua"],
    subject="MR høyre kne: {navn}, f. {fdato}",
    paras=[
        "Klinisk problemstilling: Smerter og hevelse i høyre kne etter vridningstraume ved fotball for "
        "seks uker siden. Spørsmål om meniskskade.",
        "Funn: Det er en horisontal ruptur i bakhornet av mediale menisk som når den nedre leddflaten. "
        "Laterale menisk er intakt. Fremre korsbånd er fortykket med økt signal, men kontinuerlig. Bakre "
        "korsbånd og kollateralbåndene er normale. Det er moderat leddvæske.",
        "Konklusjon: Ruptur i mediale menisk. Partiell skade av fremre korsbånd kan ikke utelukkes.",
    ],
    closing="Med vennlig hilsen",
    signer=["Magnus Eide", "overlege, radiolog"],
)

letter(
    key="refusjon_2016", lang="nb", when=(2016, 11, 8),
    head=["Refusjonskontoret for helsetjenester", "Postboks 2415, 3104 Tønsberg"],
    place_date="Tønsberg, 8. november 2016",
    address=PATIENT_ADDRESS,
    refs=["Vår ref.: 16/220914"],
    subject="Vedtak om refusjon av utgifter til fysioterapi",
    paras=[
        "Vi har behandlet søknaden din om refusjon av egenandeler for fysioterapi i perioden 1. mars "
        "til 30. september 2016.",
        "Du har fått innvilget refusjon med til sammen 3 420 kroner. Beløpet blir utbetalt til "
        "kontonummeret som er registrert på deg, innen 14 dager.",
        "Vi har ikke dekket utgiftene til behandlinger som ble gitt før henvisningen fra legen forelå, "
        "til sammen 640 kroner. Begrunnelsen er at det må foreligge en henvisning når behandlingen starter.",
        "Hvis du mener at vedtaket er feil, kan du klage innen seks uker. Du finner mer informasjon om "
        "klagerett på nettsidene våre.",
    ],
    closing="Med vennlig hilsen",
    signer=["Lise Hammer", "rådgiver"],
)

letter(
    key="skjermbilde_1966", lang="riksmaal", when=(1966, 10, 5), old=True,
    head=["SKJERMBILDEKONTORET FOR AKERSHUS", "Lillestrøm"],
    place_date="Lillestrøm, 5. oktober 1966",
    address=["Fru Ragnhild Berntsen", "Bjørnstjerne Bjørnsons gate 4", "Lillestrøm"],
    subject="Innkalling til skjermbildefotografering",
    paras=[
        "I henhold til lov om tuberkulinprøving og skjermbildefotografering innkalles De herved til "
        "undersøkelse ved skjermbildebilen, som vil staa ved Lillestrøm jernbanestasjon fra 17. til "
        "21. oktober d.å.",
        "De bes møte mellom kl. 9 og 15 og ta med dette brev. Undersøkelsen er gratis og tar bare "
        "noen minutter.",
        "Personer som er undersøkt i løpet av de siste tolv maaneder, behøver ikke møte, men bes "
        "meddele dette til kontoret.",
    ],
    closing="Ærbødigst",
    signer=["Kr. Tandberg", "fylkeslege"],
)

letter(
    key="fysio_nn", lang="nn", when=(2011, 9, 21),
    head=["Ørsta fysikalske institutt", "Vikegata 5, 6150 Ørsta"],
    place_date="Ørsta, 21. september 2011",
    address=PATIENT_ADDRESS,
    subject="Stadfesting av timar til fysioterapi",
    paras=[
        "Vi har motteke tilvisinga frå legen din og stadfestar at du får eit behandlingsopplegg på ti "
        "timar hos oss. Den første timen er tysdag 4. oktober klokka 09.00.",
        "Ta på deg klede som er gode å bevege seg i, og ta med eit handkle. Første gong gjer vi ei "
        "grundig undersøking og lagar ein plan saman med deg.",
        "Eigendelen er 166 kroner per behandling. Timar som ikkje vert avbestilte dagen før, må du "
        "betale for sjølv.",
    ],
    closing="Venleg helsing",
    signer=["Kjersti Hovden", "fysioterapeut"],
)

# Which letter each page of a style uses, by variant (page index // 8).
STYLE_LETTERS = {
    "typewriter": ["trygdekontor_1985", "trygdekasse_1948", "legeerklaering_1974", "distriktslege_1961",
                   "helsestasjon_1979"],
    "form": ["labsvar", "henvisning_ohl", "resept_1994", "nav_aap", "legeerklaering_1974"],
    "stamp": ["innkalling_ortopedi", "refusjon_2016", "epikrise_medisin", "kommune_nn", "rontgen_2008"],
    "yellowed": ["sykehus_1953", "skjermbilde_1966", "distriktslege_1961", "epikrise_nn", "trygdekasse_1948"],
    "fullbleed": ["trygdekontor_1985", "tannhelse_nn", "innkalling_ortopedi", "sykehus_1953", "fysio_nn"],
    "angled": ["mammografi_nn", "henvisning_ohl", "refusjon_2016", "resept_1994", "helsestasjon_1979"],
    "curled": ["nav_aap", "fysio_nn", "rontgen_2008", "kommune_nn", "labsvar"],
    "dim": ["epikrise_medisin", "labsvar", "mammografi_nn", "tannhelse_nn", "epikrise_nn"],
}


# ---------------------------------------------------------------------------
# Drawing.  A Sheet holds the black-ink coverage of one page (0 = paper,
# 255 = full ink), coloured layers (pen, stamp) and the truth lines.
# ---------------------------------------------------------------------------

def mm(v: float) -> int:
    return round(v / 25.4 * DPI)


def pt_font(path: str, pt: float) -> ImageFont.FreeTypeFont:
    return mf.get_font(path, max(8, round(pt * DPI / 72)))


class Overflow(Exception):
    pass


class Typer:
    """A typewriter: per-character darkness and position jitter, a few keys
    that always sit high or low, faint strikes, keys that strike unevenly (one
    side of the letter fainter), ghost double strikes, filled-in counters and
    lines that are not quite level."""

    def __init__(self, rng: np.random.Generator, strength: float = 1.0):
        self.rng = rng
        self.dark_mean = rng.uniform(0.80, 0.93)
        self.dark_sd = 0.09 * strength
        self.faint_p = 0.035 * strength
        self.jit = 0.9 * strength
        self.fill_p = 0.05 * strength
        self.half_p = 0.08 * strength
        self.ghost_p = 0.015 * strength
        self.tilt = 0.0012 * strength
        keys = rng.choice(list("abdeghkmnoprstuvæøå"), 5, replace=False)
        self.key_off = {str(c): (float(rng.normal(0, 1.0)), float(rng.normal(0, 2.2))) for c in keys}
        # keys that always strike unevenly
        self.bad_keys = {str(c) for c in rng.choice(list("aeinorstlmdgk"), 3, replace=False)}

    def uneven(self, img: Image.Image, ch: str, font, x: float, y: float, f: int) -> None:
        l, t, r, b = font.getbbox(ch, anchor="ls")
        gw, gh = r - l + 6, b - t + 6
        g = Image.new("L", (gw, gh), 0)
        ImageDraw.Draw(g).text((3 - l, 3 - t), ch, font=font, fill=f, anchor="ls")
        lo = self.rng.uniform(0.1, 0.45)
        way = int(self.rng.integers(0, 3))
        if way == 2:
            ramp = np.linspace(1.0, lo, gw, dtype=np.float32)[None, :]
        else:
            ramp = np.linspace(1.0, lo, gh, dtype=np.float32)[:, None]
            if way == 1:
                ramp = ramp[::-1]
        a = (np.asarray(g, np.float32) * ramp).astype(np.uint8)
        box = (int(round(x + l - 3)), int(round(y + t - 3)))
        region = img.crop((box[0], box[1], box[0] + gw, box[1] + gh))
        img.paste(ImageChops.lighter(region, Image.fromarray(a, "L")), box)

    def type(self, img: Image.Image, x0: float, base: float, s: str, font) -> None:
        rng = self.rng
        draw = ImageDraw.Draw(img)
        n = len(s)
        adv = font.getlength("n")
        dark = np.clip(rng.normal(self.dark_mean, self.dark_sd, n), 0.4, 1.0)
        faint = rng.random(n) < self.faint_p
        dark[faint] *= rng.uniform(0.45, 0.7, int(faint.sum()))
        jx = rng.normal(0, self.jit, n)
        jy = rng.normal(0, self.jit * 0.7, n) + rng.normal(0, 0.8) + np.arange(n) * adv * rng.normal(0, self.tilt)
        filled = rng.random(n) < self.fill_p
        half = rng.random(n)
        ghost = rng.random(n) < self.ghost_p
        for i, ch in enumerate(s):
            if ch == " ":
                continue
            ox, oy = self.key_off.get(ch, (0.0, 0.0))
            x, y = x0 + i * adv + jx[i] + ox, base + jy[i] + oy
            f = int(round(255 * dark[i]))
            if half[i] < self.half_p or (ch in self.bad_keys and half[i] < 0.6):
                self.uneven(img, ch, font, x, y, f)
                continue
            if ghost[i]:
                draw.text((x + rng.uniform(1.5, 3.5), y - rng.uniform(0, 2)), ch, font=font, fill=f // 3,
                          anchor="ls")
            draw.text((x, y), ch, font=font, fill=f, anchor="ls")
            if filled[i] and ch in "eoa":
                l, t, r, b = font.getbbox(ch, anchor="ls")
                w, h = r - l, b - t
                if ch == "o":
                    cx, cy, rx, ry = x + (l + r) / 2, y + (t + b) / 2, 0.26 * w, 0.28 * h
                elif ch == "e":
                    cx, cy, rx, ry = x + (l + r) / 2, y + t + 0.32 * h, 0.27 * w, 0.15 * h
                else:
                    cx, cy, rx, ry = x + (l + r) / 2 + 0.05 * w, y + t + 0.70 * h, 0.23 * w, 0.16 * h
                draw.ellipse([cx - rx, cy - ry, cx + rx, cy + ry], fill=f)


class Sheet:
    def __init__(self, w: int, h: int):
        self.w, self.h = w, h
        self.cov = Image.new("L", (w, h), 0)
        self.draw = ImageDraw.Draw(self.cov)
        self.blocks: list[list[tuple[str, float, float]]] = []
        self.body_lines: list[tuple[float, float, float, float]] = []  # x0, x1, baseline, ascent
        self.marks: dict = {}
        self.typer: Typer | None = None
        self.pen: Image.Image | None = None
        self.pen_rgb = (28, 40, 120)
        self.stamps: list[tuple[Image.Image, tuple[int, int, int]]] = []
        self.y = 0.0

    def block(self) -> None:
        if not self.blocks or self.blocks[-1]:
            self.blocks.append([])

    def put(self, x: float, base: float, s: str, font, truth: str | None = None, typed: bool = False,
            fill: int = 255, body: bool = False) -> float:
        """Draw one line of text at baseline `base`; record its truth; return its width."""
        if typed and self.typer is not None:
            self.typer.type(self.cov, x, base, s, font)
        else:
            self.draw.text((x, base), s, font=font, fill=fill, anchor="ls")
        asc, desc = font.getmetrics()
        t = " ".join((s if truth is None else truth).split())
        if t:
            if not self.blocks:
                self.blocks.append([])
            self.blocks[-1].append((t, base - asc, base + desc))
        w = font.getlength(s)
        if body:
            lead = len(s) - len(s.lstrip())
            x0 = x + font.getlength(s[:lead]) if lead else x
            self.body_lines.append((x0, x + w, base, asc * 0.75))
        return w

    def truth(self, max_y: float | None = None) -> str:
        out = []
        for b in self.blocks:
            lines = [t for t, top, bot in b if max_y is None or bot <= max_y]
            if lines:
                out.append("\n".join(lines))
        return "\n\n".join(out) + "\n"

    def pen_draw(self) -> ImageDraw.ImageDraw:
        if self.pen is None:
            self.pen = Image.new("L", (self.w, self.h), 0)
        return ImageDraw.Draw(self.pen)


# ---------------------------------------------------------------------------
# Letter layout
# ---------------------------------------------------------------------------

@dataclass
class Look:
    family: str = "liberation-serif"     # print family (PRINT_FONTS) for printed text
    mono: str = "liberation-mono"        # typewriter face when typed
    typed: bool = False                  # body typed on a typewriter
    size: float = 11.0                   # body size in pt
    pitch: float = 1.3                   # line pitch / font size (typed: 1.0 = 6 lines per inch)
    margins: tuple = (25.0, 22.0, 16.0, 16.0)   # left, right, top, bottom (mm)
    justify: bool = False                # typed: pad lines with extra spaces to the right margin
    indent: int = 0                      # typed: first-line indent in characters
    para_gap: float = 0.7                # extra gap between paragraphs, in lines
    date_align: str = "right"
    head: str = "printed"                # printed | typed
    head_rule: bool = True
    head_size: float = 16.0
    subject: str = "bold"                # bold | underline
    sig: str = "ink"                     # ink | pen | none: the signature scribble
    ink: int = 255                       # darkness of printed text in the coverage
    wear: float = 1.0                    # typewriter unevenness (jitter, faint strikes, filled counters)


wrap_px = mf.wrap_text


def wrap_chars(text: str, ncols: int, first_indent: int = 0) -> list[list[str]]:
    lines, cur, limit = [], [], ncols - first_indent
    for w in text.split():
        if cur and len(" ".join(cur + [w])) > limit:
            lines.append(cur)
            cur, limit = [], ncols
        cur.append(w)
    if cur:
        lines.append(cur)
    return lines


def justify_words(words: list[str], width: int, gap_col: int) -> str:
    """Pad a line to `width` characters.  Most of the padding goes into the
    word gap closest to `gap_col`, so that consecutive lines share a wide gap
    (3-6 spaces) at about the same position, as a typist's justification does."""
    base = " ".join(words)
    pad = width - len(base)
    gaps = len(words) - 1
    if gaps <= 0 or pad <= 0:
        return base
    pos, c = [], 0
    for w in words[:-1]:
        c += len(w)
        pos.append(c)
        c += 1
    k = int(np.argmin([abs(p - gap_col) for p in pos]))
    extra = [0] * gaps
    big = min(pad, 5)
    extra[k] += big
    rest = pad - big
    order = [i for i in range(gaps - 1, -1, -1) if i != k]
    i = 0
    while rest > 0 and order:
        extra[order[i % len(order)]] += 1
        rest -= 1
        i += 1
    extra[k] += rest
    return "".join(w + " " * (1 + e) for w, e in zip(words[:-1], extra)) + words[-1]


def scribble_points(rng, x, y, w, h, loops=None) -> list[tuple[float, float]]:
    """A signature-like scribble inside the box (x, y, w, h)."""
    n = 220
    t = np.linspace(0, 1, n)
    loops = loops or rng.uniform(5, 9)
    ph = rng.uniform(0, 6, 3)
    xs = x + w * (t + 0.05 * np.sin(2 * math.pi * loops * t + ph[0]))
    env = 0.55 + 0.45 * np.sin(2 * math.pi * rng.uniform(0.6, 1.4) * t + ph[1]) ** 2
    ys = y + h * (0.55 - 0.38 * env * np.sin(2 * math.pi * loops * 1.05 * t + ph[2]) - 0.15 * t)
    return list(zip(xs.tolist(), ys.tolist()))


def signature_strokes(rng, x, y, w, h) -> list[list[tuple[float, float]]]:
    """A signature: a plain scribble or a cursive name, sometimes with a flourish under it."""
    if rng.random() < 0.4:
        strokes = [scribble_points(rng, x, y, w, h)]
    else:
        strokes = fit_strokes(handwriting_points(rng, x, y, w, h), x, y - h * 0.1, w * 1.3, h * 1.1)
    if rng.random() < 0.5:
        t = np.linspace(0, 1, 30)
        xs = x + w * (0.1 + 0.9 * t)
        ys = y + h * (0.8 - 0.25 * t) + 6 * np.sin(t * 5)
        strokes.append(list(zip(xs.tolist(), ys.tolist())))
    return strokes


def fit_strokes(strokes, x, y, w, h):
    """Scale strokes (keeping their aspect) to fit inside the box (x, y, w, h)."""
    pts = np.asarray([p for st in strokes for p in st])
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    k = min(w / max(1.0, x1 - x0), h / max(1.0, y1 - y0), 1.0)
    return [[(x + (px - x0) * k, y + (py - y0) * k) for px, py in st] for st in strokes]


def handwriting_points(rng, x, y, w, h) -> list[list[tuple[float, float]]]:
    """One or two scribbled 'words' in a slanted cursive: loops of mixed
    height (x-height letters, ascenders, descenders) and humps, joined."""
    strokes = []
    nwords = int(rng.integers(1, 3))
    xh = h * 0.38                      # x-height
    base = y + h * 0.72
    slant = rng.uniform(0.2, 0.45)
    cx = x
    for _ in range(nwords):
        n = int(rng.integers(4, 8))
        xs, ys = [], []
        for _ in range(n):
            kind = rng.choice(["loop", "tall", "desc", "hump"], p=[0.45, 0.2, 0.1, 0.25])
            lw = xh * rng.uniform(0.55, 0.95)
            t = np.linspace(0, 2 * math.pi, 26)[:-1]
            if kind == "hump":
                hx = cx + lw * t / (2 * math.pi)
                hy = base - xh * rng.uniform(0.8, 1.1) * np.abs(np.sin(t / 2))
            else:
                amp = {"loop": xh, "tall": xh * rng.uniform(2.0, 2.6), "desc": -xh * rng.uniform(1.4, 1.8)}[kind]
                r = lw * rng.uniform(0.25, 0.4)
                hx = cx + lw * t / (2 * math.pi) - r * np.sin(t)
                hy = base - amp * (1 - np.cos(t)) / 2
            xs.extend(hx.tolist())
            ys.extend(hy.tolist())
            cx += lw
        xs_a, ys_a = np.asarray(xs), np.asarray(ys)
        xs_a = xs_a - (ys_a - base) * slant
        ys_a = ys_a + np.linspace(0, rng.uniform(-0.15, 0.15) * h, len(ys_a))
        strokes.append(list(zip(xs_a.tolist(), ys_a.tolist())))
        cx += xh * rng.uniform(0.9, 1.4)
        if cx > x + w:
            break
    return strokes


def draw_stroke(draw: ImageDraw.ImageDraw, pts, width: float, rng, dark=(200, 255)) -> None:
    """Polyline with a little pressure variation along the stroke."""
    seg = 12
    for i in range(0, len(pts) - 1, seg):
        part = pts[i:i + seg + 1]
        if len(part) >= 2:
            wv = max(2, int(round(width * rng.uniform(0.8, 1.2))))
            draw.line(part, fill=int(rng.uniform(*dark)), width=wv, joint="curve")


def lay_table_plain(sheet: Sheet, left, right, y, header, rows, font, bold, typed, look) -> float:
    n = len(header)
    asc, desc = font.getmetrics()
    lh = round(font.size * (1.0 if typed else 1.45) * (look.pitch if typed else 1.0))
    sheet.block()
    if typed:
        widths = [max(len(r[j]) for r in [header] + rows) + 3 for j in range(n)]
        adv = font.getlength("n")
        if sum(widths) * adv > right - left:
            raise Overflow
        def row_str(r):
            return "".join(c.ljust(widths[j]) for j, c in enumerate(r)).rstrip()
        base = y + asc
        sheet.put(left, base, row_str(header), font, truth=" ".join(header), typed=True)
        sheet.draw.line([left, base + 10, left + len(row_str(header)) * adv, base + 10], fill=220, width=3)
        base += lh
        for r in rows:
            sheet.put(left, base, row_str(r), font, truth=" ".join(c for c in r if c), typed=True)
            base += lh
        return base - lh + desc + lh * 0.8
    pad = mm(7)
    widths = [max(max(font.getlength(r[j]) for r in rows), bold.getlength(header[j])) for j in range(n)]
    if sum(widths) + pad * (n - 1) > right - left:
        raise Overflow
    xs = [left]
    for wv in widths[:-1]:
        xs.append(xs[-1] + wv + pad)
    base = y + asc
    for xv, hv in zip(xs, header):
        sheet.draw.text((xv, base), hv, font=bold, fill=look.ink, anchor="ls")
    sheet.blocks[-1].append((" ".join(header), base - asc, base + desc))
    rule = base + mm(2)
    x_end = xs[-1] + widths[-1]
    sheet.draw.line([left, rule, x_end, rule], fill=look.ink, width=3)
    base = rule + mm(1.5) + asc
    for r in rows:
        for xv, c in zip(xs, r):
            sheet.draw.text((xv, base), c, font=font, fill=look.ink, anchor="ls")
        sheet.blocks[-1].append((" ".join(c for c in r if c), base - asc, base + desc))
        base += lh
    rule = base - lh + mm(2.5)
    sheet.draw.line([left, rule, x_end, rule], fill=look.ink, width=3)
    return rule + mm(5)


def lay_table_ruled(sheet: Sheet, left, right, y, header, rows, font, bold, shade=0.0) -> float:
    n = len(header)
    padx = mm(2.5)
    rowh = round(font.size * 1.85)
    widths = [max(max(font.getlength(r[j]) for r in rows), bold.getlength(header[j])) + 2 * padx for j in range(n)]
    total = sum(widths)
    if total > right - left:
        raise Overflow
    extra = (right - left - total)
    widths = [wv + extra * wv / total for wv in widths]
    xs = [left]
    for wv in widths:
        xs.append(xs[-1] + wv)
    asc, desc = font.getmetrics()
    sheet.block()
    d = sheet.draw
    if shade > 0:
        d.rectangle([left, y, right, y + rowh], fill=int(255 * shade))
    all_rows = [header] + rows
    for i, r in enumerate(all_rows):
        top = y + i * rowh
        base = top + rowh * 0.5 + (asc - desc) * 0.5
        f = bold if i == 0 else font
        for j, c in enumerate(r):
            d.text((xs[j] + padx, base), c, font=f, fill=255, anchor="ls")
        sheet.blocks[-1].append((" ".join(c for c in r if c), base - asc, base + desc))
    bottom = y + len(all_rows) * rowh
    for i in range(len(all_rows) + 1):
        yy = y + i * rowh
        d.line([left, yy, right, yy], fill=255, width=4 if i in (0, 1, len(all_rows)) else 2)
    for xv in xs:
        d.line([xv, y, xv, bottom], fill=255, width=3)
    return bottom + mm(6)


class LetterLayout:
    """Lays out one letter on a sheet, top to bottom, recording the truth."""

    def __init__(self, sheet: Sheet, L: Letter, P: dict, look: Look, keep: list[int]):
        self.s, self.L, self.P, self.look, self.keep = sheet, L, P, look, keep
        self.left = mm(look.margins[0])
        self.right = sheet.w - mm(look.margins[1])
        self.bottom = sheet.h - mm(look.margins[3])
        self.y = float(mm(look.margins[2]))
        reg, bold = PRINT_FONTS[look.family]
        self.preg, self.pbold = reg, bold
        if look.typed:
            self.body = pt_font(MONO_FONTS[look.mono][0], look.size)
            self.bodyb = pt_font(MONO_FONTS[look.mono][1], look.size)
            self.adv = self.body.getlength("n")
            self.ncols = int((self.right - self.left) // self.adv)
            self.lh = round(DPI / 6 * look.pitch)
        else:
            self.body = pt_font(reg, look.size)
            self.bodyb = pt_font(bold, look.size)
            self.lh = round(self.body.size * look.pitch)

    def f(self, s: str) -> str:
        return s.format_map(self.P)

    def check(self, y: float) -> None:
        if y > self.bottom:
            raise Overflow

    def lines(self, lines: list[str], font=None, x=None, typed=None, lh=None, body=False, align="left",
              truth: list[str] | None = None) -> None:
        font = font or self.body
        typed = self.look.typed if typed is None else typed
        lh = lh or self.lh
        asc, desc = font.getmetrics()
        base = self.y + asc
        for i, s in enumerate(lines):
            xx = self.left if x is None else x
            if align == "right":
                xx = self.right - (len(s) * self.adv if typed else font.getlength(s))
            self.s.put(xx, base, s, font, truth=None if truth is None else truth[i], typed=typed, body=body,
                       fill=self.look.ink)
            base += lh
        self.y = base - lh + desc
        self.check(self.y)

    # elements ---------------------------------------------------------------
    def letterhead(self) -> None:
        L, look, s = self.L, self.look, self.s
        head = [self.f(x) for x in L.head]
        s.block()
        top = self.y
        if look.head == "typed":
            self.lines(head, font=self.body, typed=True, lh=round(DPI / 6))
            s.marks["head"] = (top, self.y)
            self.y += self.lh * 1.5
            return
        big = pt_font(self.pbold, look.head_size)
        small = pt_font(self.preg, look.head_size * 0.6)
        self.lines(head[:1], font=big, typed=False, lh=round(big.size * 1.2))
        if len(head) > 1:
            self.y += mm(1.5)
            self.lines(head[1:], font=small, typed=False, lh=round(small.size * 1.3))
        y_left = self.y
        if L.head_right:
            s.block()
            rf = pt_font(self.preg, 8.5)
            wmax = max(rf.getlength(x) for x in L.head_right)
            self.y = top + mm(1)
            self.lines(L.head_right, font=rf, x=self.right - wmax, typed=False, lh=round(rf.size * 1.35))
        self.y = max(self.y, y_left) + mm(3)
        s.marks["head"] = (top, self.y)
        if look.head_rule:
            s.draw.line([self.left, self.y, self.right, self.y], fill=look.ink, width=3)
        self.y += mm(12)

    def address(self) -> None:
        s = self.s
        s.block()
        top = self.y
        self.lines([self.f(x) for x in self.L.address])
        s.marks["address"] = (self.left, top, self.y)
        if self.L.refs:
            self.y += self.lh * 0.8
            s.block()
            if self.look.typed:
                self.lines(self.L.refs)
            else:
                self.lines(self.L.refs, font=pt_font(self.preg, self.look.size - 1.5))
        self.y += self.lh * 1.6

    def date(self) -> None:
        self.s.block()
        top = self.y
        self.lines([self.L.place_date], align=self.look.date_align)
        self.s.marks["date"] = (top, self.y)
        self.y += self.lh * 1.4

    def subject(self) -> None:
        s, look = self.s, self.look
        s.block()
        text = self.f(self.L.subject)
        asc, desc = self.body.getmetrics()
        base = self.y + asc
        if look.typed:
            w = s.put(self.left, base, text, self.body, typed=True)
            if look.subject == "underline":
                s.draw.line([self.left, base + 9, self.left + len(text) * self.adv, base + 9], fill=215, width=3)
        else:
            font = self.bodyb if look.subject == "bold" else self.body
            w = s.put(self.left, base, text, font, fill=look.ink)
            if look.subject == "underline":
                s.draw.line([self.left, base + 8, self.left + w, base + 8], fill=look.ink, width=3)
        self.y = base + desc
        s.marks["subject"] = (self.left, base)
        self.check(self.y)
        self.y += self.lh * 1.2

    def paragraph(self, text: str, gap_col: int) -> None:
        s, look = self.s, self.look
        s.block()
        text = self.f(text)
        s.marks.setdefault("paras", []).append((self.left, self.y))
        if look.typed:
            words = wrap_chars(text, self.ncols - (2 if look.justify else 0), look.indent)
            drawn, truth = [], []
            for i, ws in enumerate(words):
                ind = look.indent if i == 0 else 0
                last = i == len(words) - 1
                if look.justify and not last:
                    line = justify_words(ws, self.ncols - ind, gap_col - ind)
                else:
                    line = " ".join(ws)
                drawn.append(" " * ind + line)
                truth.append(" ".join(ws))
            self.lines(drawn, truth=truth, body=True)
        else:
            self.lines(wrap_px(text, self.body, self.right - self.left), body=True)
        self.y += self.lh * look.para_gap

    def items(self) -> None:
        self.s.block()
        x = self.left + (4 * self.adv if self.look.typed else mm(6))
        self.lines([self.f(t) for t in self.L.items], x=x, body=True)
        self.y += self.lh * self.look.para_gap

    def table(self) -> None:
        header, rows = self.L.table
        if self.look.typed:
            self.y = lay_table_plain(self.s, self.left, self.right, self.y, header, rows, self.body, self.bodyb,
                                     True, self.look)
        else:
            tf = pt_font(self.preg, self.look.size - 1)
            tb = pt_font(self.pbold, self.look.size - 1)
            self.y = lay_table_plain(self.s, self.left, self.right, self.y, header, rows, tf, tb, False, self.look)
        self.check(self.y)
        self.y += self.lh * 0.4

    def signature(self, rng) -> None:
        s, look = self.s, self.look
        s.block()
        self.y += self.lh * 0.3
        x = self.left
        self.lines([self.L.closing], x=x)
        gap = mm(17)
        box = (x + mm(2), self.y + mm(2), mm(40), gap - mm(3))
        s.marks["sig"] = box
        if look.sig != "none":
            d = s.draw if look.sig == "ink" else s.pen_draw()
            dark = (170, 235) if look.sig == "ink" else (200, 255)
            for stroke in signature_strokes(rng, *box):
                draw_stroke(d, stroke, 5, rng, dark=dark)
        self.y += gap
        self.lines([self.f(t) for t in self.L.signer], x=x)

    def run(self, rng, with_table: bool = True) -> None:
        L = self.L
        gap_col = int(self.ncols * rng.uniform(0.38, 0.62)) if self.look.typed else 0
        self.letterhead()
        self.address()
        self.date()
        self.subject()
        for i in self.keep:
            self.paragraph(L.paras[i], gap_col)
            if L.items and i == min(L.items_after, max(self.keep) + 1) - 1:
                self.items()
            if with_table and L.table and i == min(L.table_after - 1, max(self.keep)):
                self.table()
        self.signature(rng)
        self.s.y = self.y


def render_letter(L: Letter, P: dict, look: Look, size: tuple[int, int], seed: int,
                  table: bool = True) -> Sheet:
    """Lay out a letter, dropping paragraphs from the end and then tightening
    the spacing until it fits the page."""
    keep = list(range(len(L.paras)))
    for _ in range(16):
        sheet = Sheet(*size)
        rng = np.random.default_rng(seed)
        if look.typed:
            sheet.typer = Typer(np.random.default_rng(seed + 1), strength=look.wear)
        try:
            LetterLayout(sheet, L, P, look, keep).run(rng, with_table=table and not L.items)
            return sheet
        except Overflow:
            if len(keep) > 2:
                keep.pop()
            else:
                look.pitch *= 0.9
                look.para_gap *= 0.7
    raise RuntimeError(f"{L.key} does not fit {size}")


# ---------------------------------------------------------------------------
# Form layout
# ---------------------------------------------------------------------------

def render_form(L: Letter, P: dict, look: Look, size: tuple[int, int], seed: int, rng) -> Sheet:
    keep = list(range(len(L.paras)))
    for _ in range(10):
        sheet = Sheet(*size)
        lrng = np.random.default_rng(seed)
        sheet.typer = Typer(np.random.default_rng(seed + 1), strength=0.7)
        try:
            lay_form(sheet, L, P, look, keep, lrng)
            return sheet
        except Overflow:
            if len(keep) > 1:
                keep.pop()
            else:
                look.pitch *= 0.9
    raise RuntimeError(f"form {L.key} does not fit")


def lay_form(sheet: Sheet, L: Letter, P: dict, look: Look, keep: list[int], rng) -> None:
    form = L.form
    lay = LetterLayout(sheet, L, P, look, keep)
    d = sheet.draw
    reg, bold = PRINT_FONTS[look.family]
    left, right = lay.left, lay.right
    # letterhead without a rule, the form title large
    look.head_rule = False
    lay.letterhead()
    lay.y -= mm(7)
    sheet.block()
    title = pt_font(bold, 15)
    lay.lines([form["title"]], font=title, typed=False)
    lay.y += mm(5)
    # boxes with labels; typed-in values for old forms, printed for new ones
    lab = pt_font(bold, 8.5)
    typed_values = look.typed
    val = lay.body if typed_values else pt_font(MONO_FONTS["dejavu-mono"][0] if rng.random() < 0.5 else reg, 10.5)
    boxh = mm(11)
    sheet.block()
    for row in form["fields"]:
        n = len(row)
        fr = [1.0] if n == 1 else ([0.6, 0.4] if n == 2 else [1 / n] * n)
        x = left
        parts = []
        for (label, value), frac in zip(row, fr):
            w = (right - left) * frac
            d.rectangle([x, lay.y, x + w, lay.y + boxh], outline=255, width=3)
            base = lay.y + boxh * 0.66
            d.text((x + mm(2), base), label, font=lab, fill=255, anchor="ls")
            v = lay.f(value)
            vx = x + mm(2) + lab.getlength(label) + mm(3)
            if typed_values:
                sheet.typer.type(sheet.cov, vx, base, v, val)
            else:
                d.text((vx, base), v, font=val, fill=255, anchor="ls")
            parts += [label, v]
            x += w
        asc, desc = val.getmetrics()
        sheet.blocks[-1].append((" ".join(" ".join(parts).split()), lay.y, lay.y + boxh))
        lay.y += boxh
    lay.y += mm(6)
    # checkboxes
    label, opts = form["checks"]
    sheet.block()
    cf = pt_font(reg, 10)
    asc, desc = cf.getmetrics()
    base = lay.y + asc
    x = left
    d.text((x, base), label, font=cf, fill=255, anchor="ls")
    x += cf.getlength(label) + mm(5)
    bs = round(asc * 0.85)
    for text, checked in opts:
        d.rectangle([x, base - bs, x + bs, base], outline=255, width=3)
        if checked:
            p = sheet.pen_draw() if rng.random() < 0.5 else d
            m = 4
            draw_stroke(p, [(x + m, base - bs + m), (x + bs - m, base - m)], 5, rng)
            draw_stroke(p, [(x + bs - m, base - bs + m), (x + m, base - m)], 5, rng)
        x += bs + mm(2)
        d.text((x, base), text, font=cf, fill=255, anchor="ls")
        x += cf.getlength(text) + mm(7)
    sheet.blocks[-1].append((" ".join([label] + [t for t, _ in opts]), base - asc, base + desc))
    lay.y = base + desc + mm(7)
    # body text, the ruled table, more body text, signature
    for i in keep:
        lay.paragraph(L.paras[i], 0)
        if L.table and i == min(L.table_after - 1, max(keep)):
            tf = pt_font(reg, look.size - 1)
            tb = pt_font(bold, look.size - 1)
            lay.y = lay_table_ruled(sheet, left, right, lay.y, L.table[0], L.table[1], tf, tb,
                                    shade=rng.choice([0.0, 0.15, 0.22]))
            lay.check(lay.y)
    lay.signature(rng)
    # footer at the bottom of the page
    ff = pt_font(reg, 7.5)
    fy = sheet.h - mm(10)
    if lay.y + mm(4) > fy - ff.size:
        raise Overflow
    sheet.block()
    sheet.put(left, fy, form["footer"], ff)


# ---------------------------------------------------------------------------
# Rubber stamps and pen marks (not part of the truth)
# ---------------------------------------------------------------------------

STAMP_COLOURS = {"blue": (50, 72, 178), "red": (196, 44, 58), "violet": (112, 58, 158)}


def stamp_date(L: Letter, rng) -> str:
    import datetime
    d = datetime.date(*L.when) + datetime.timedelta(days=int(rng.integers(2, 9)))
    return f"{d.day:02d} {MONTHS_UPPER[d.month - 1]} {d.year}"


def arc_text(img: Image.Image, text: str, font, cx: float, cy: float, r: float, a0: float, a1: float,
             outward: bool = True) -> None:
    """Write text along a circle from angle a0 to a1 (degrees, screen coordinates)."""
    n = len(text)
    for i, ch in enumerate(text):
        if ch == " ":
            continue
        a = math.radians(a0 + (a1 - a0) * (i + 0.5) / n)
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        l, t, rr, b = font.getbbox(ch)
        g = Image.new("L", (rr + 8, b + 8), 0)
        ImageDraw.Draw(g).text((4, 4), ch, font=font, fill=255)
        rot = -(math.degrees(a) + 90) if outward else -(math.degrees(a) - 90)
        g = g.rotate(rot, resample=Image.Resampling.BICUBIC, expand=True)
        box = (int(x - g.width / 2), int(y - g.height / 2))
        region = img.crop((box[0], box[1], box[0] + g.width, box[1] + g.height))
        img.paste(ImageChops.lighter(region, g), box)


def make_stamp(rng, L: Letter, kind: str) -> Image.Image:
    word = str(rng.choice(["MOTTATT", "MOTTATT", "INNKOMMET", "BEHANDLET", "ARKIVERT"]))
    date = stamp_date(L, rng)
    bold = DJ + "DejaVuSans-Bold.ttf"
    if kind == "round":
        D = int(rng.integers(500, 600))
        S = D + 60
        img = Image.new("L", (S, S), 0)
        d = ImageDraw.Draw(img)
        c, R = S / 2, D / 2
        d.ellipse([c - R, c - R, c + R, c + R], outline=255, width=10)
        d.ellipse([c - R + 62, c - R + 62, c + R - 62, c + R - 62], outline=255, width=5)
        owner = str(rng.choice(["POSTMOTTAKET", "ARKIVET", "LEGEKONTORET", "EKSPEDISJONEN"]))
        af = mf.get_font(bold, 38)
        arc_text(img, owner, af, c, c, R - 33, -160, -20)
        arc_text(img, "* * *", af, c, c, R - 33, 60, 120, outward=False)
        wf, df = mf.get_font(bold, 58), mf.get_font(bold, 46)
        d.text((c, c - 12), word, font=wf, fill=255, anchor="ms")
        d.text((c, c + 58), date, font=df, fill=255, anchor="ms")
    else:
        wf, df, sf = mf.get_font(bold, 64), mf.get_font(bold, 50), mf.get_font(DJ + "DejaVuSans.ttf", 34)
        W = int(max(wf.getlength(word), df.getlength(date)) + 120)
        H = 300
        img = Image.new("L", (W + 40, H + 40), 0)
        d = ImageDraw.Draw(img)
        d.rectangle([20, 20, 20 + W, 20 + H], outline=255, width=9)
        d.rectangle([36, 36, 4 + W, 4 + H], outline=255, width=3)
        cx = 20 + W / 2
        d.text((cx, 112), word, font=wf, fill=255, anchor="ms")
        d.text((cx, 190), date, font=df, fill=255, anchor="ms")
        d.text((cx, 265), "J.nr. ........", font=sf, fill=255, anchor="ms")
    # uneven inking: lighter patches, a few dry spots, a soft edge
    a = np.asarray(img, np.float32) / 255
    h, w = a.shape
    patch = mf.smooth_noise(rng, h, w, 90, 90)
    fine = mf.smooth_noise(rng, h, w, 7, 7)
    a = a * np.clip(0.35 + 0.9 * patch, 0.25, 1.0) * np.clip(0.6 + 0.7 * fine, 0, 1)
    a *= rng.uniform(0.75, 0.95)
    img = Image.fromarray(np.clip(a * 255, 0, 255).astype(np.uint8), "L").filter(ImageFilter.GaussianBlur(1.0))
    return img.rotate(float(rng.uniform(-25, 25)), resample=Image.Resampling.BICUBIC, expand=True)


def add_stamp(sheet: Sheet, rng, L: Letter) -> str:
    kind = "round" if rng.random() < 0.55 else "rect"
    colour = str(rng.choice(list(STAMP_COLOURS)))
    st = make_stamp(rng, L, kind)
    # partly over the text: over the date line, or over the line ends of the
    # first paragraph with most of the stamp in the right margin
    if rng.random() < 0.6 and "date" in sheet.marks:
        top, bot = sheet.marks["date"]
        cx, cy = sheet.w * rng.uniform(0.62, 0.72), (top + bot) / 2 + rng.uniform(-60, 60)
    else:
        y = sheet.marks["paras"][0][1]
        cx, cy = sheet.w - mm(22) - st.width * rng.uniform(0.0, 0.15), y + rng.uniform(40, 160)
    layer = Image.new("L", (sheet.w, sheet.h), 0)
    layer.paste(st, (int(cx - st.width / 2), int(cy - st.height / 2)))
    sheet.stamps.append((layer, STAMP_COLOURS[colour]))
    return f"{colour} {kind} stamp"


def add_pen_marks(sheet: Sheet, rng) -> str:
    d = sheet.pen_draw()
    done = []
    lines = sheet.body_lines
    if lines:
        # underline part of a body line
        x0, x1, base, _ = lines[int(rng.integers(0, len(lines)))]
        a = x0 + (x1 - x0) * rng.uniform(0, 0.4)
        b = min(x1, a + (x1 - x0) * rng.uniform(0.3, 0.6))
        n = 20
        t = np.linspace(0, 1, n)
        ys = base + 12 + rng.uniform(-3, 3) + 6 * t * rng.uniform(-1, 1) + 2 * np.sin(t * rng.uniform(3, 9))
        draw_stroke(d, list(zip((a + (b - a) * t).tolist(), ys.tolist())), 5, rng)
        done.append("underline")
    paras = sheet.marks.get("paras", [])
    if paras:
        # a tick in the left margin next to a paragraph
        x, y = paras[int(rng.integers(0, len(paras)))]
        tx, ty = x - mm(12), y + mm(3)
        pts = [(tx, ty), (tx + 18, ty + 30), (tx + 26, ty + 40), (tx + 45, ty + 5), (tx + 70, ty - 35)]
        draw_stroke(d, pts, 6, rng)
        done.append("tick")
    if "address" in sheet.marks:
        # a scribbled note in the free space right of the address
        top = sheet.marks["address"][1]
        nx, ny = sheet.w * rng.uniform(0.56, 0.62), top + rng.uniform(0, 60)
        nw, nh = sheet.w * rng.uniform(0.22, 0.28), mm(12)
        for stroke in fit_strokes(handwriting_points(rng, nx, ny, nw, nh * 0.7), nx, ny, nw, nh):
            draw_stroke(d, stroke, 5, rng)
        done.append("margin note")
    return ", ".join(done)


# ---------------------------------------------------------------------------
# Paper and scanning
# ---------------------------------------------------------------------------

def noise_field(rng, w: int, h: int, cell: float, factor: int = 8) -> np.ndarray:
    """Smooth noise in [0, 1] at full size, made at 1/factor resolution."""
    sw, sh = max(4, w // factor), max(4, h // factor)
    small = mf.smooth_noise(rng, sh, sw, max(1.5, cell / factor), max(1.5, cell / factor))
    return np.asarray(Image.fromarray(small, "F").resize((w, h), Image.Resampling.BILINEAR), np.float32)


def upsample(a: np.ndarray, w: int, h: int) -> np.ndarray:
    return np.array(Image.fromarray(a.astype(np.float32), "F").resize((w, h), Image.Resampling.BILINEAR),
                    np.float32)


def paper_plain(rng, w: int, h: int, base, mottle: float = 3.0) -> np.ndarray:
    m = (noise_field(rng, w, h, 500) - 0.5) * 2 * mottle + (noise_field(rng, w, h, 60, 4) - 0.5) * mottle * 0.6
    p = np.empty((h, w, 3), np.float32)
    p[:] = np.asarray(base, np.float32)
    return p + m[..., None]


def multiply(p: np.ndarray, a: np.ndarray, rgb) -> np.ndarray:
    """Darken p where a (0..1) is set, as a transparent ink of colour rgb would."""
    k = 1 - np.asarray(rgb, np.float32) / 255
    return p * (1 - a[..., None] * k)


def foxing(rng, w: int, h: int, n: int) -> np.ndarray:
    spots = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(spots)
    centres = [(rng.uniform(0, w), rng.uniform(0, h)) for _ in range(max(1, n // 8))]
    for _ in range(n):
        cx, cy = centres[int(rng.integers(0, len(centres)))] if rng.random() < 0.6 else (rng.uniform(0, w),
                                                                                        rng.uniform(0, h))
        x, y = cx + rng.normal(0, 120), cy + rng.normal(0, 120)
        r = rng.uniform(1.5, 9) * (2.5 if rng.random() < 0.06 else 1)
        d.ellipse([x - r, y - r * rng.uniform(0.7, 1.3), x + r, y + r], fill=int(rng.uniform(50, 170)))
    return np.asarray(spots.filter(ImageFilter.GaussianBlur(3)), np.float32) / 255


def stains(rng, w: int, h: int, n: int) -> np.ndarray:
    img = Image.new("L", (w // 4, h // 4), 0)
    d = ImageDraw.Draw(img)
    for _ in range(n):
        r = rng.uniform(60, 160)
        x, y = rng.uniform(0, w / 4), rng.uniform(0, h / 4)
        e = rng.uniform(0.7, 1.3)
        d.ellipse([x - r, y - r * e, x + r, y + r * e], fill=35, outline=150, width=int(rng.uniform(3, 7)))
    return upsample(np.asarray(img.filter(ImageFilter.GaussianBlur(3)), np.float32) / 255, w, h)


def edge_band(rng, w: int, h: int, width: float, sides: str) -> np.ndarray:
    """Darkening along the chosen page edges (l, r, t, b), ragged."""
    fx = np.arange(w, dtype=np.float32)[None, :]
    fy = np.arange(h, dtype=np.float32)[:, None]
    band = np.zeros((h, w), np.float32)
    rag = noise_field(rng, w, h, 140, 8)
    wid = width * (0.6 + 0.8 * rag)
    if "l" in sides:
        band = np.maximum(band, np.exp(-fx / wid))
    if "r" in sides:
        band = np.maximum(band, np.exp(-(w - 1 - fx) / wid))
    if "t" in sides:
        band = np.maximum(band, np.exp(-fy / wid))
    if "b" in sides:
        band = np.maximum(band, np.exp(-(h - 1 - fy) / wid))
    return band


def crease(p: np.ndarray, rng, y0: int, vertical: bool = False) -> np.ndarray:
    """A fold crease: a thin dark line, a highlight beside it and a soft shade."""
    h, w = p.shape[:2]
    n = w if vertical else h
    t = np.arange(n, dtype=np.float32) - y0
    prof = (1 - 0.07 * np.exp(-(t / 1.8) ** 2) + 0.05 * np.exp(-((t - 5) / 3) ** 2)
            - 0.035 * np.exp(-((t + 40) / 45) ** 2))
    if vertical:
        return p * prof[None, :, None]
    return p * prof[:, None, None]


def layer_alpha(img: Image.Image, angle: float, blur: float) -> np.ndarray:
    if angle:
        img = img.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=0)
    if blur:
        img = img.filter(ImageFilter.GaussianBlur(blur))
    return np.asarray(img, np.float32) * (1 / 255)


def ink_sheet(sheet: Sheet, paper: np.ndarray, ink_rgb, angle: float = 0.0, blur: float = 0.6,
              ink_texture: np.ndarray | None = None, gain: float = 1.0) -> np.ndarray:
    """Lay the sheet's ink, pen and stamp layers on the paper (multiplicative)."""
    a = layer_alpha(sheet.cov, angle, blur)
    if gain != 1.0:
        a = np.minimum(1.0, a * gain)
    if ink_texture is not None:
        a = a * ink_texture
    out = multiply(paper, a, ink_rgb)
    for layer, rgb in sheet.stamps:
        out = multiply(out, layer_alpha(layer, angle, 0.8), rgb)
    if sheet.pen is not None:
        out = multiply(out, layer_alpha(sheet.pen, angle, 0.9), sheet.pen_rgb)
    return out


def bleed(sheet: Sheet, k: float = 0.6) -> None:
    """Typewriter ink spreads into the paper: strokes get about a pixel heavier."""
    grown = sheet.cov.filter(ImageFilter.MaxFilter(3)).point(lambda v: int(v * k))
    sheet.cov = ImageChops.lighter(sheet.cov, grown)


def ribbon_texture(rng, w: int, h: int, wear: float = 1.0) -> np.ndarray:
    """Fabric ribbon ink: grainy, lighter in patches; `wear` > 1 for a worn ribbon."""
    grain = rng.random((h // 2, w // 2), dtype=np.float32)
    grain = upsample(grain, w, h)
    patch = noise_field(rng, w, h, 260, 8)
    g = min(0.7, 0.38 * wear)
    p = min(0.5, 0.15 * wear)
    return np.clip(1 - g + g * grain, 0, 1) * (1 - p + p * patch)


def to_image(img: np.ndarray, rng, noise: float, gray: bool = False) -> Image.Image:
    h, w = img.shape[:2]
    if noise:
        img = img + rng.standard_normal((h, w), dtype=np.float32)[..., None] * noise
    out = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB")
    return out.convert("L") if gray else out


# ---------------------------------------------------------------------------
# Photos: the page is warped into a camera canvas through a mesh (perspective
# and an optional bend), laid on a patterned table and lit unevenly.
# ---------------------------------------------------------------------------

def grid_map(coeffs, cw: int, ch: int, step: int):
    gx = np.append(np.arange(0, cw, step), cw).astype(np.float64)
    gy = np.append(np.arange(0, ch, step), ch).astype(np.float64)
    X, Y = np.meshgrid(gx, gy)
    a, b, c, d, e, f, g, h = coeffs
    den = g * X + h * Y + 1
    return gx, gy, (a * X + b * Y + c) / den, (d * X + e * Y + f) / den


def mesh_from(gx, gy, U, V, scale: float = 1.0, ox: float = 0.0, oy: float = 0.0) -> list:
    Us = ((U - ox) * scale).tolist()
    Vs = ((V - oy) * scale).tolist()
    xs = [int(v) for v in gx]
    ys = [int(v) for v in gy]
    out = []
    for j in range(len(ys) - 1):
        u0, u1, v0, v1 = Us[j], Us[j + 1], Vs[j], Vs[j + 1]
        for i in range(len(xs) - 1):
            out.append(((xs[i], ys[j], xs[i + 1], ys[j + 1]),
                        (u0[i], v0[i], u1[i], v1[i], u1[i + 1], v1[i + 1], u0[i + 1], v0[i + 1])))
    return out


def table_texture(rng, kind: str, w: int, h: int, period: float) -> Image.Image:
    if kind == "wood":
        rgb = mf.wood_texture(rng, w, h)
    elif kind == "desk":
        rgb = mf.desk_texture(rng, w, h, base=(118, 114, 108))
    elif kind == "gingham":
        colours = [((236, 232, 226), (212, 128, 128), (168, 38, 48)),
                   ((236, 236, 232), (130, 160, 205), (40, 72, 150)),
                   ((234, 236, 226), (140, 185, 140), (40, 110, 60))][int(rng.integers(0, 3))]
        white, mid, dark = (np.asarray(c, np.float32) for c in colours)
        u = np.arange(w, dtype=np.float32)[None, :] / period
        v = np.arange(h, dtype=np.float32)[:, None] / period
        sx = 0.5 + 0.5 * np.clip(np.sin(2 * math.pi * u) * 5, -1, 1)
        sy = 0.5 + 0.5 * np.clip(np.sin(2 * math.pi * v) * 5, -1, 1)
        sx, sy = np.broadcast_to(sx, (h, w)), np.broadcast_to(sy, (h, w))
        one = (sx * (1 - sy) + sy * (1 - sx))[..., None]
        both = (sx * sy)[..., None]
        rgb = white * (1 - one - both) + mid * one + dark * both
        weave = (np.sin(np.arange(w)[None, :] * 2.1) * np.sin(np.arange(h)[:, None] * 2.1)).astype(np.float32)
        rgb = rgb * (1 + 0.05 * weave[..., None]) + (noise_field(rng, w, h, 30, 2)[..., None] - 0.5) * 14
    else:  # busy flowery fabric
        base = [(38, 78, 92), (92, 40, 52), (52, 60, 40)][int(rng.integers(0, 3))]
        palette = [(226, 178, 60), (236, 226, 200), (200, 90, 60), (120, 170, 160), (230, 140, 160), (90, 120, 60)]
        img = Image.new("RGB", (w, h), base)
        d = ImageDraw.Draw(img)
        n = int(w * h / (period * period) * 3.0)
        for _ in range(n):
            x, y = rng.uniform(-20, w + 20), rng.uniform(-20, h + 20)
            r = period * rng.uniform(0.15, 0.45)
            col = palette[int(rng.integers(0, len(palette)))]
            if rng.random() < 0.3:  # leaf
                a = rng.uniform(0, math.pi)
                dx, dy = math.cos(a) * r * 1.4, math.sin(a) * r * 1.4
                d.polygon([(x - dx, y - dy), (x - dy * 0.35, y + dx * 0.35), (x + dx, y + dy),
                           (x + dy * 0.35, y - dx * 0.35)], fill=(70, 120, 70) if rng.random() < 0.6 else col)
                continue
            k = int(rng.integers(5, 8))
            for p in range(k):
                a = 2 * math.pi * p / k + rng.uniform(0, 0.3)
                px, py = x + math.cos(a) * r * 0.6, y + math.sin(a) * r * 0.6
                d.ellipse([px - r * 0.45, py - r * 0.45, px + r * 0.45, py + r * 0.45], fill=col)
            d.ellipse([x - r * 0.25, y - r * 0.25, x + r * 0.25, y + r * 0.25], fill=palette[0])
        img = img.filter(ImageFilter.GaussianBlur(0.8))
        rgb = np.asarray(img, np.float32)
        rgb = rgb * (0.92 + 0.16 * noise_field(rng, w, h, 8, 1)[..., None])
    return Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB")


def make_curl(rng, kind: str, amp: float):
    """Inverse displacement (canvas -> page) for a bent page, and its shading.
    `amp` is about how far a text line bends (pixels, highest to lowest point
    between the margins) half-way down the page."""
    side = bool(rng.random() < 0.5)
    sign = 1 if rng.random() < 0.5 else -1
    k = rng.uniform(0.8, 1.4)
    ph = rng.uniform(0, 1)

    def profile(un):
        if kind == "arch":       # the page bows, lines smile or frown
            return (2 * un - 1) ** 2, 4 * (2 * un - 1)
        if kind == "edge":       # one long edge lifted
            t = np.clip(un if side else 1 - un, 0, 1.2)
            return t ** 2.2, 2.2 * t ** 1.2 * (1 if side else -1)
        # a soft wave across the page
        return np.sin(math.pi * (k * un + ph)), np.cos(math.pi * (k * un + ph)) * math.pi * k

    p_text = profile(np.linspace(0.1, 0.9, 81))[0]
    norm = max(1e-3, float(p_text.max() - p_text.min()))
    mid = float(p_text.mean())

    def f(U, V, sw, sh):
        un, vn = U / sw, V / sh
        prof, slope = profile(un)
        prof = (prof - mid) / norm
        dv = amp * prof * (0.8 + 0.4 * vn) * sign
        du = amp * 0.6 * prof * (1 if side else -1) if kind == "edge" else np.zeros_like(U)
        shade = np.clip(1 + 0.035 * slope / max(1.0, norm), 0.86, 1.08)
        return U + du, V + dv, shade
    return f


def hand_shadow(rng, w: int, h: int) -> Image.Image:
    """A hand-and-arm shadow reaching in from an edge over the upper, text-filled
    part of the page, as an L mask (255 = shadow)."""
    img = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(img)
    edge = str(rng.choice(["right", "bottom", "left"]))
    px, py = w * rng.uniform(0.35, 0.65), h * rng.uniform(0.3, 0.5)
    r = w * rng.uniform(0.08, 0.11)
    if edge == "right":
        ex, ey = w * 1.15, py + h * rng.uniform(0.05, 0.3)
    elif edge == "left":
        ex, ey = -w * 0.15, py + h * rng.uniform(0.05, 0.3)
    else:
        ex, ey = px + w * rng.uniform(-0.25, 0.25), h * 1.15
    ang = math.atan2(ey - py, ex - px)            # from the palm towards the arm's edge
    ca, sa = math.cos(ang), math.sin(ang)
    nx, ny = -sa, ca
    wrist, far = r * 0.75, r * 1.25
    wx, wy = px + ca * r * 1.1, py + sa * r * 1.1
    d.polygon([(wx + nx * wrist, wy + ny * wrist), (ex + nx * far, ey + ny * far),
               (ex - nx * far, ey - ny * far), (wx - nx * wrist, wy - ny * wrist)], fill=255)
    # palm: an ellipse along the arm
    pts = []
    for k in range(40):
        t = 2 * math.pi * k / 40
        a, b = r * 1.25 * math.cos(t), r * 0.95 * math.sin(t)
        pts.append((px + a * ca + b * nx, py + a * sa + b * ny))
    d.polygon(pts, fill=255)
    # four fingers forward, a thumb to one side
    fwd = ang + math.pi
    side = 1 if rng.random() < 0.5 else -1
    for fi in range(4):
        a = fwd + (fi - 1.5) * 0.22 + rng.normal(0, 0.04)
        base = (px + math.cos(a) * r * 0.9, py + math.sin(a) * r * 0.9)
        fl = r * rng.uniform(1.0, 1.45) * (0.8 if fi in (0, 3) else 1.0)
        tip = (base[0] + math.cos(a) * fl, base[1] + math.sin(a) * fl)
        fw = r * 0.3
        d.line([base, tip], fill=255, width=int(fw))
        d.ellipse([tip[0] - fw / 2, tip[1] - fw / 2, tip[0] + fw / 2, tip[1] + fw / 2], fill=255)
    a = fwd + side * 1.2
    base = (px + math.cos(a) * r * 0.7, py + math.sin(a) * r * 0.7)
    a2 = fwd + side * 0.7
    tip = (base[0] + math.cos(a2) * r * 1.1, base[1] + math.sin(a2) * r * 1.1)
    d.line([base, tip], fill=255, width=int(r * 0.34))
    d.ellipse([tip[0] - r * 0.17, tip[1] - r * 0.17, tip[0] + r * 0.17, tip[1] + r * 0.17], fill=255)
    return img


@dataclass
class Shot:
    canvas: tuple[int, int] = (3000, 4000)
    background: str = "wood"
    curl: object = None
    light_dir: float = 30.0
    light_strength: float = 0.2
    vignette: float = 0.12
    exposure: float = 1.0
    hand: float = 0.0            # strength of a hand shadow (0 = none)
    hand_blur: float = 18.0      # shadow edge softness in canvas pixels
    noise: float = 4.5
    blur: float = 0.9
    contrast: float = 0.86


def tint(alpha: Image.Image, rgb) -> Image.Image:
    """An RGB multiply layer: white where alpha is 0, the ink colour where it is 255."""
    bands = [alpha.point([round(255 - v * (255 - c) / 255) for v in range(256)]) for c in rgb]
    return Image.merge("RGB", bands)


def page_rgb(sheet: Sheet, rng, paper=(246, 244, 238), ink=(34, 34, 42)) -> Image.Image:
    """The page for a photo, composed with 8-bit image operations (the camera
    adds its own noise, so the paper needs little texture of its own)."""
    w, h = sheet.w, sheet.h
    m = noise_field(rng, w // 4, h // 4, 120, 4)
    small = np.empty((h // 4, w // 4, 3), np.float32)
    small[:] = np.asarray(paper, np.float32)
    small += ((m - 0.5) * 5)[..., None]
    page = Image.fromarray(np.clip(small, 0, 255).astype(np.uint8), "RGB").resize((w, h), Image.Resampling.BILINEAR)
    page = ImageChops.multiply(page, tint(sheet.cov.filter(ImageFilter.GaussianBlur(0.5)), ink))
    for layer, rgb in sheet.stamps:
        page = ImageChops.multiply(page, tint(layer.filter(ImageFilter.GaussianBlur(0.8)), rgb))
    if sheet.pen is not None:
        page = ImageChops.multiply(page, tint(sheet.pen.filter(ImageFilter.GaussianBlur(0.9)), sheet.pen_rgb))
    return page


def photo(page: Image.Image, rng, corners, shot: Shot) -> tuple[Image.Image, float]:
    cw, ch = shot.canvas
    pw, ph = page.size
    tl, tr, br, bl = corners
    dist = lambda p, q: math.hypot(p[0] - q[0], p[1] - q[1])  # noqa: E731
    s = ((dist(tl, tr) + dist(bl, br)) / 2 / pw + (dist(tl, bl) + dist(tr, br)) / 2 / ph) / 2
    sw, sh = round(pw * s), round(ph * s)
    small = page.resize((sw, sh), Image.Resampling.LANCZOS)
    coeffs = mf.perspective_coeffs(corners, [(0, 0), (sw, 0), (sw, sh), (0, sh)])
    gx, gy, U, V = grid_map(coeffs, cw, ch, 32)
    shade = None
    Uc, Vc = U, V
    if shot.curl is not None:
        Uc, Vc, shade = shot.curl(U, V, sw, sh)
    mesh = mesh_from(gx, gy, Uc, Vc)
    warped = np.array(small.transform((cw, ch), Image.Transform.MESH, mesh, Image.Resampling.BILINEAR),
                      np.float32)
    mask_img = Image.new("L", (sw, sh), 255).transform((cw, ch), Image.Transform.MESH, mesh,
                                                       Image.Resampling.BILINEAR)
    mask = np.asarray(mask_img, np.float32) * (1 / 255)

    # the table, in the same plane as the page
    umin, umax = max(float(U.min()), -3.0 * sw), min(float(U.max()), 4.0 * sw)
    vmin, vmax = max(float(V.min()), -3.0 * sh), min(float(V.max()), 4.0 * sh)
    r = min(0.7, 1700.0 / max(umax - umin, vmax - vmin))
    tex = table_texture(rng, shot.background, int((umax - umin) * r) + 2, int((vmax - vmin) * r) + 2,
                        period=sw * r * rng.uniform(0.05, 0.08))
    bg = np.asarray(tex.transform((cw, ch), Image.Transform.MESH, mesh_from(gx, gy, U, V, r, umin, vmin),
                                  Image.Resampling.BILINEAR), np.float32)
    # the page's drop shadow on the table
    q = 4
    m4 = mask_img.resize((cw // q, ch // q), Image.Resampling.BILINEAR)
    shadow = Image.new("L", m4.size, 0)
    off = int(rng.uniform(4, 9))
    shadow.paste(m4, (off, int(off * 1.3)))
    shadow = upsample(np.asarray(shadow.filter(ImageFilter.GaussianBlur(6)), np.float32) / 255, cw, ch)
    bg *= ((1 - 0.5 * shadow) * (1 - mask))[..., None]
    img = warped
    img += bg
    del bg

    # light: a gradient, vignette, the bend's shading and an optional hand shadow
    lw, lh = cw // 8, ch // 8
    yy, xx = np.mgrid[0:lh, 0:lw].astype(np.float32)
    xx /= lw
    yy /= lh
    t = math.radians(shot.light_dir)
    proj = (xx - 0.5) * math.cos(t) + (yy - 0.5) * math.sin(t)
    proj = (proj - proj.min()) / max(1e-6, float(proj.max() - proj.min()))
    light = 1.04 - shot.light_strength * proj - shot.vignette * ((xx - 0.5) ** 2 + (yy - 0.5) ** 2) * 2
    if shade is not None:
        sh_small = np.asarray(Image.fromarray(shade.astype(np.float32), "F").resize((lw, lh),
                              Image.Resampling.BILINEAR), np.float32)
        light = light * sh_small
    light = upsample(light, cw, ch)
    if shot.hand > 0:
        hq = 4
        hs = hand_shadow(rng, cw // hq, ch // hq).filter(ImageFilter.GaussianBlur(shot.hand_blur / hq))
        light *= 1 - shot.hand * upsample(np.asarray(hs, np.float32) / 255, cw, ch)
    img *= shot.contrast
    img += (1 - shot.contrast) * 128
    img *= (light * shot.exposure)[..., None]
    img *= np.asarray([1.0, 0.985, 0.95], np.float32)

    # sensor noise (luma, blotchy chroma), lens blur, in-camera sharpening
    img += rng.standard_normal((ch, cw), dtype=np.float32)[..., None] * shot.noise
    chroma = np.stack([upsample(rng.standard_normal((ch // 4, cw // 4), dtype=np.float32), cw, ch)
                       for _ in range(3)], axis=-1)
    img += chroma * (shot.noise * 0.8)
    out = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB")
    out = out.filter(ImageFilter.GaussianBlur(shot.blur))
    out = out.filter(ImageFilter.UnsharpMask(radius=2, percent=60, threshold=2))
    return out, s


def photo_corners(rng, pw: int, ph: int, canvas, rot: float, keystone: float, fill: float = 0.9):
    """Where the page corners land: rotated by `rot` degrees, the top edge pulled in by `keystone`."""
    cw, ch = canvas
    c, s_ = abs(math.cos(math.radians(rot))), abs(math.sin(math.radians(rot)))
    scale = min(fill * cw / (pw * c + ph * s_), fill * ch / (pw * s_ + ph * c))
    bw, bh = scale * (pw * c + ph * s_), scale * (pw * s_ + ph * c)
    cx = cw / 2 + rng.uniform(-0.4, 0.4) * (cw - bw) / 2
    cy = ch / 2 + rng.uniform(-0.4, 0.4) * (ch - bh) / 2
    j = lambda: rng.uniform(-0.008, 0.008)  # noqa: E731
    offsets = [(keystone + j(), keystone * 0.4 + j()), (-keystone + j(), keystone * 0.4 + j()),
               (-keystone * 0.15 + j(), j()), (keystone * 0.15 + j(), j())]
    spec = mf.PhotoSpec(canvas=canvas, center=(cx, cy), scale=scale, rotation_deg=rot, offsets=offsets,
                        background="wood", seed=0)
    return mf.page_corners_for(spec, pw, ph)


# ---------------------------------------------------------------------------
# Styles.  Each builder returns (image, truth, info) for one page.
# ---------------------------------------------------------------------------

def scan_angle(rng, limit: float) -> float:
    return float(rng.uniform(-limit, limit))


def build_typewriter(rng, v: int, L: Letter, P: dict, seed: int):
    var = v % 5
    look = Look(typed=True, size=12.0, margins=(24, 20, 18, 16), para_gap=1.0, subject="underline", wear=1.4)
    paper = (float(rng.uniform(236, 246)), float(rng.uniform(234, 243)), float(rng.uniform(226, 238)))
    ink, blur, gain, noise, ribbon = (28, 28, 34), 0.8, 1.2, 3.0, 1.6
    if var == 0:
        look.pitch, look.head, look.family = 1.0, "printed", "liberation-serif"
        desc = "left-aligned, single spacing, printed letterhead, worn ribbon"
        ribbon = 2.2
    elif var == 1:
        look.pitch, look.head, look.indent, look.para_gap = 2.0, "typed", 5, 0.0
        desc = "indented first lines, date far right, double spacing"
        look.wear = 1.8
    elif var == 2:
        look.pitch, look.justify, look.head, look.family = 1.5, True, "printed", "dejavu-serif"
        desc = "justified with extra spaces, 1.5 spacing"
        ink = (30, 34, 66)
    elif var == 3:
        # a carbon copy on thin paper: soft, bluish, fuzzy strokes
        look.pitch, look.justify, look.head = 1.0, True, "typed"
        desc = "justified with extra spaces, single spacing, carbon copy"
        paper, ink, blur, gain, noise = (222, 224, 222), (60, 66, 118), 2.2, 0.9, 4.0
    else:
        look.pitch, look.indent, look.mono, look.head, look.para_gap = 1.5, 4, "dejavu-mono", "typed", 0.5
        desc = "indented paragraphs, 1.5 spacing, over-inked ribbon"
        look.wear, gain = 1.8, 1.5
    sheet = render_letter(L, P, look, A4, seed)
    bleed(sheet, 0.8 if var == 4 else 0.6)
    if var == 3:
        # carbon smear: a faint, blurred, slightly shifted second image of the type
        smear = sheet.cov.filter(ImageFilter.GaussianBlur(5)).point(lambda v: int(v * 0.35))
        sheet.cov = ImageChops.lighter(sheet.cov, ImageChops.offset(smear, 3, 4))
    w, h = A4
    paper = paper_plain(rng, w, h, paper, 3.5)
    angle = scan_angle(rng, 0.8)
    img = ink_sheet(sheet, paper, ink, angle=angle, blur=blur, ink_texture=ribbon_texture(rng, w, h, ribbon),
                    gain=gain)
    gray = var != 2
    out = to_image(img, rng, noise, gray=gray)
    return out, sheet.truth(), {"dpi": DPI, "jpeg_dpi": DPI,
                                "note": f"typewriter, {desc}; scan at {angle:+.1f} deg; {'gray' if gray else 'colour'}"}


def build_form(rng, v: int, L: Letter, P: dict, seed: int):
    fam = ["liberation-sans", "dejavu-sans", "liberation-serif", "liberation-sans", "dejavu-serif"][v % 5]
    typed = L.when[0] < 1980
    look = Look(family=fam, typed=typed, size=12.0 if typed else 10.5, pitch=1.0 if typed else 1.3,
                margins=(20, 18, 14, 14), head_size=13, para_gap=0.6 if not typed else 1.0)
    sheet = render_form(L, P, look, A4, seed, rng)
    w, h = A4
    paper = paper_plain(rng, w, h, (244, 243, 238), 3)
    angle = scan_angle(rng, 1.0)
    tex = ribbon_texture(rng, w, h) if typed else None
    img = ink_sheet(sheet, paper, (30, 30, 36), angle=angle, blur=0.6, ink_texture=tex)
    gray = v % 2 == 0
    out = to_image(img, rng, 2.0, gray=gray)
    return out, sheet.truth(), {"dpi": DPI, "jpeg_dpi": DPI,
                                "note": f"form with boxes, checkboxes and a ruled table{', typed values' if typed else ''}; "
                                        f"scan at {angle:+.1f} deg; {'gray' if gray else 'colour'}"}


def build_stamp(rng, v: int, L: Letter, P: dict, seed: int):
    fam = ["liberation-sans", "dejavu-serif", "liberation-serif", "dejavu-sans", "liberation-sans"][v % 5]
    look = Look(family=fam, size=float(rng.choice([10.5, 11.0, 11.5])), pitch=1.3, sig="pen")
    sheet = render_letter(L, P, look, A4, seed)
    what = add_stamp(sheet, rng, L)
    marks = add_pen_marks(sheet, rng)
    w, h = A4
    paper = paper_plain(rng, w, h, (245, 243, 237), 3)
    angle = scan_angle(rng, 0.7)
    img = ink_sheet(sheet, paper, (26, 26, 30), angle=angle, blur=0.6)
    out = to_image(img, rng, 2.0)
    return out, sheet.truth(), {"dpi": DPI, "jpeg_dpi": DPI,
                                "note": f"printed letter, {what} over the text, pen marks ({marks}, signature); "
                                        f"scan at {angle:+.1f} deg"}


def build_yellowed(rng, v: int, L: Letter, P: dict, seed: int):
    typed = v % 5 in (0, 2, 4)
    if typed:
        look = Look(typed=True, size=12.0, pitch=float(rng.choice([1.0, 1.5])), head="typed",
                    margins=(24, 20, 18, 16), para_gap=1.0, subject="underline",
                    indent=int(rng.choice([0, 5])))
    else:
        look = Look(family=str(rng.choice(["liberation-serif", "dejavu-serif"])), size=11.5, pitch=1.35)
    sheet = render_letter(L, P, look, A4, seed)
    w, h = A4
    base = np.asarray([rng.uniform(204, 216), rng.uniform(186, 198), rng.uniform(140, 158)], np.float32)
    paper = paper_plain(rng, w, h, base, 5)
    paper = multiply(paper, noise_field(rng, w, h, 180, 8) * 0.1, (150, 100, 50))
    paper = multiply(paper, edge_band(rng, w, h, rng.uniform(60, 140), "lrtb") * 0.35, (150, 100, 55))
    paper = multiply(paper, foxing(rng, w, h, int(rng.integers(40, 120))) * 0.55, (160, 105, 60))
    paper = multiply(paper, stains(rng, w, h, int(rng.integers(1, 3))) * 0.22, (170, 120, 70))
    folds = [int(h / 3 + rng.uniform(-30, 30))]
    if rng.random() < 0.5:
        folds.append(int(2 * h / 3 + rng.uniform(-30, 30)))
    for y0 in folds:
        paper = crease(paper, rng, y0)
    contrast = float(rng.uniform(48, 62)) + (5.0 if typed else 0.0)
    lum = float(base.mean())
    f = 1 - contrast / lum
    ink = (255 * f * 0.99, 255 * f * 0.97, 255 * min(1.0, f * 1.02))
    tex = np.clip(0.68 + 0.5 * noise_field(rng, w, h, 14, 2), 0.45, 1.0)
    if typed:
        tex = tex * ribbon_texture(rng, w, h)
    angle = scan_angle(rng, 0.8)
    img = ink_sheet(sheet, paper, ink, angle=angle, blur=0.8, ink_texture=tex, gain=1.25)
    out = to_image(img, rng, 3.0)
    return out, sheet.truth(), {"dpi": DPI, "jpeg_dpi": DPI,
                                "note": f"yellowed {'typewritten' if typed else 'printed'} page, faded ink "
                                        f"(about {contrast:.0f} levels), foxing, stains, {len(folds)} fold(s)"}


def build_fullbleed(rng, v: int, L: Letter, P: dict, seed: int):
    var = v % 5
    crop = None
    if var in (0, 3):
        size = FOOLSCAP
        look = Look(typed=True, size=12.0, pitch=1.5, head="printed" if var == 0 else "typed",
                    margins=(28, 22, 20, 20), para_gap=1.0, subject="underline", head_rule=False)
        kind = "foolscap 8.3x13.5 in"
    elif var in (1, 4):
        size = A5
        look = Look(family=str(rng.choice(["liberation-sans", "dejavu-serif"])), size=10.0, pitch=1.3,
                    margins=(15, 13, 12, 12), head_size=13)
        kind = "A5"
    else:
        size = A4
        look = Look(family="liberation-serif", size=11.0, pitch=1.3)
        kind = "top part of an A4 page"
        crop = 1600
    sheet = render_letter(L, P, look, size, seed)
    w, h = size
    if crop is not None:
        # cut between two lines, close to `crop`
        cut, moved = crop, True
        while moved:
            moved = False
            for b in sheet.blocks:
                for t, top, bot in b:
                    if top - 10 < cut < bot + 10:
                        cut, moved = int(top - 14), True
        h = cut
        sheet.cov = sheet.cov.crop((0, 0, w, h))
        if sheet.pen is not None:
            sheet.pen = sheet.pen.crop((0, 0, w, h))
        sheet.h = h
    base = (float(rng.uniform(228, 238)), float(rng.uniform(218, 228)), float(rng.uniform(180, 196)))
    paper = paper_plain(rng, w, h, base, 5)
    extras = []
    if var == 0:
        # grey letterhead strip across the top
        top, bot = sheet.marks["head"]
        band = np.zeros((h, w), np.float32)
        band[: int(bot + mm(4))] = 1
        band = blur_rows(band, 2)
        paper = multiply(paper, band * rng.uniform(0.18, 0.25), (120, 120, 120))
        extras.append("grey letterhead strip")
    elif var == 3:
        # a darker stained band across the top
        fy = np.arange(h, dtype=np.float32)[:, None]
        edge = h * rng.uniform(0.08, 0.13) + 120 * (noise_field(rng, w, h, 300, 8) - 0.5)
        band = np.clip((edge - fy) / 60 + 0.5, 0, 1) * (0.75 + 0.5 * noise_field(rng, w, h, 200, 8))
        paper = multiply(paper, band * rng.uniform(0.3, 0.4), (140, 100, 60))
        extras.append("stained band across the top")
    sides = "".join(str(c) for c in rng.choice(list("lrtb"), int(rng.integers(2, 4)), replace=False))
    paper = multiply(paper, edge_band(rng, w, h, rng.uniform(50, 120), sides) * rng.uniform(0.3, 0.45),
                     (150, 105, 60))
    paper = multiply(paper, foxing(rng, w, h, int(rng.integers(10, 30))) * 0.4, (160, 110, 60))
    img = ink_sheet(sheet, paper, (40, 36, 34), angle=scan_angle(rng, 0.3), blur=0.7,
                    ink_texture=ribbon_texture(rng, w, h) if look.typed else None, gain=1.1)
    # the scanner's edge shows as a thin dark strip along one side
    edge = str(rng.choice(list("lrtb")))
    k = int(rng.integers(5, 31))
    ramp = np.linspace(1.0, 0.35, k, dtype=np.float32)
    dark = np.asarray([46, 46, 50], np.float32)
    if edge in "lr":
        r = ramp[None, :, None] if edge == "l" else ramp[None, ::-1, None]
        sl = np.s_[:, :k] if edge == "l" else np.s_[:, w - k:]
    else:
        r = ramp[:, None, None] if edge == "t" else ramp[::-1, None, None]
        sl = np.s_[:k, :] if edge == "t" else np.s_[h - k:, :]
    img[sl] = img[sl] * (1 - r) + dark * r
    out = to_image(img, rng, 2.5)
    truth = sheet.truth(max_y=h if crop else None)
    return out, truth, {"dpi": DPI, "jpeg_dpi": None,
                        "note": f"full-bleed colour scan, {kind} ({w}x{h} at 300 DPI, no DPI in the file); "
                                f"aged edges ({sides}), {k} px scanner strip ({edge})"
                                + (", " + ", ".join(extras) if extras else "")}


def blur_rows(a: np.ndarray, radius: float) -> np.ndarray:
    return np.asarray(Image.fromarray((a * 255).astype(np.uint8), "L").filter(ImageFilter.GaussianBlur(radius)),
                      np.float32) / 255


def photo_page(rng, v: int, L: Letter, P: dict, seed: int) -> Sheet:
    fam = ["liberation-sans", "liberation-serif", "dejavu-sans", "dejavu-serif", "liberation-sans"][v % 5]
    look = Look(family=fam, size=float(rng.choice([11.0, 11.5, 12.0])), pitch=1.3,
                sig="pen" if rng.random() < 0.5 else "ink")
    return render_letter(L, P, look, A4, seed)


def canvas_for(rng) -> tuple[int, int]:
    return (3000, 4000) if rng.random() < 0.5 else (3024, 4032)


# Rotation of the angled photos in degrees.  Plain tesseract reads next to
# nothing beyond about 8 degrees; the pipeline is expected to straighten these.
ANGLED_ROTATION = (10.0, 25.0)


def build_angled(rng, v: int, L: Letter, P: dict, seed: int):
    sheet = photo_page(rng, v, L, P, seed)
    page = page_rgb(sheet, rng)
    canvas = canvas_for(rng)
    rot = float(rng.uniform(*ANGLED_ROTATION)) * (1 if rng.random() < 0.5 else -1)
    key = float(rng.uniform(0.05, 0.09))
    corners = photo_corners(rng, *A4, canvas, rot, key, fill=0.93)
    bgs = ["wood", "gingham", "fabric", "desk", "gingham"]
    shot = Shot(canvas=canvas, background=bgs[v % 5], light_dir=float(rng.uniform(0, 360)),
                light_strength=float(rng.uniform(0.15, 0.3)), noise=4.5, blur=0.9)
    out, s = photo(page, rng, corners, shot)
    return out, sheet.truth(), {"dpi": round(DPI * s), "jpeg_dpi": None,
                                "note": f"phone photo rotated {rot:+.0f} deg with keystone {key:.2f} on "
                                        f"{shot.background}; page at about {DPI * s:.0f} px/inch"}


def build_curled(rng, v: int, L: Letter, P: dict, seed: int):
    sheet = photo_page(rng, v, L, P, seed)
    page = page_rgb(sheet, rng)
    canvas = canvas_for(rng)
    rot = float(rng.uniform(-2.5, 2.5))
    corners = photo_corners(rng, *A4, canvas, rot, float(rng.uniform(0.02, 0.04)), fill=0.88)
    kind = ["arch", "edge", "wave", "edge", "arch"][v % 5]
    amp = float(rng.uniform(20, 50))
    bgs = ["desk", "wood", "desk", "fabric", "wood"]
    shot = Shot(canvas=canvas, background=bgs[v % 5], curl=make_curl(rng, kind, amp),
                light_dir=float(rng.uniform(0, 360)), light_strength=float(rng.uniform(0.12, 0.22)), noise=4.5)
    out, s = photo(page, rng, corners, shot)
    return out, sheet.truth(), {"dpi": round(DPI * s), "jpeg_dpi": None,
                                "note": f"photo of a bent page ({kind}, lines bend by about {amp:.0f} px), "
                                        f"rotated {rot:+.0f} deg on {shot.background}"}


def build_dim(rng, v: int, L: Letter, P: dict, seed: int):
    sheet = photo_page(rng, v, L, P, seed)
    page = page_rgb(sheet, rng)
    canvas = canvas_for(rng)
    rot = float(rng.uniform(-3, 3))
    corners = photo_corners(rng, *A4, canvas, rot, float(rng.uniform(0.02, 0.05)), fill=0.9)
    bgs = ["wood", "desk", "fabric", "wood", "gingham"]
    exposure = float(rng.uniform(0.46, 0.54))
    hand = float(rng.uniform(0.24, 0.32))
    shot = Shot(canvas=canvas, background=bgs[v % 5], light_dir=float(rng.uniform(0, 360)),
                light_strength=0.2, exposure=exposure, hand=hand, hand_blur=float(rng.uniform(12, 28)),
                noise=float(rng.uniform(6.5, 8.5)), blur=1.1, contrast=0.82)
    out, s = photo(page, rng, corners, shot)
    return out, sheet.truth(), {"dpi": round(DPI * s), "jpeg_dpi": None,
                                "note": f"dim photo (exposure {exposure:.2f}), hand shadow {hand:.2f}, noise; "
                                        f"rotated {rot:+.0f} deg on {shot.background}"}


BUILDERS = {
    "typewriter": build_typewriter, "form": build_form, "stamp": build_stamp, "yellowed": build_yellowed,
    "fullbleed": build_fullbleed, "angled": build_angled, "curled": build_curled, "dim": build_dim,
}


# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------

def plan(count: int) -> list[dict]:
    pages = []
    for i in range(count):
        style = STYLES[i % len(STYLES)]
        v = i // len(STYLES)
        keys = STYLE_LETTERS[style]
        pages.append({"index": i, "name": f"rw-{i + 1:02d}-{style}", "style": style, "variant": v,
                      "letter": keys[v % len(keys)]})
    return pages


def build_page(page: dict, seed: int, out: str) -> dict:
    t0 = time.time()
    rng = np.random.default_rng([seed, page["index"]])
    L = LETTERS[page["letter"]]
    who = [k for k, p in enumerate(PEOPLE)
           if (L.sex is None or p[4] == L.sex) and L.ages[0] <= L.when[0] - int(p[3][6:]) <= L.ages[1]]
    who = who or list(range(len(PEOPLE)))   # the old letters name no one from the list
    P = person(who[(page["index"] * 7 + seed) % len(who)])
    page_seed = int(rng.integers(0, 2 ** 31))
    img, truth, info = BUILDERS[page["style"]](rng, page["variant"], L, P, page_seed)
    outdir = Path(out)
    q = int(rng.integers(85, 93))
    mf.save_jpeg(img, outdir / "images" / f"{page['name']}.jpg", q, info.get("jpeg_dpi"))
    (outdir / "truth" / f"{page['name']}.txt").write_text(truth, encoding="utf-8")
    entry = {"name": page["name"], "style": page["style"], "width": img.width, "height": img.height,
             "dpi": info["dpi"], "note": f"{info['note']}; letter {L.key}; JPEG q{q}"}
    print(f"{page['name']}: {img.width}x{img.height} {img.mode} {time.time() - t0:.1f}s", file=sys.stderr,
          flush=True)
    return entry


def select(pages: list[dict], only: list[str] | None) -> list[dict]:
    if not only:
        return pages
    out = []
    for p in pages:
        num = p["name"].split("-")[1]
        if any(o in (p["name"], p["style"], num, num.lstrip("0")) for o in only):
            out.append(p)
    return out


def generate(out: Path, seed: int, count: int, only: list[str] | None, jobs: int) -> None:
    pages = select(plan(count), only)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "truth").mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            entries = list(ex.map(build_page, pages, [seed] * len(pages), [str(out)] * len(pages)))
    else:
        entries = [build_page(p, seed, str(out)) for p in pages]
    # the manifest keeps earlier entries of the same set when only some pages were made
    mpath = out / "manifest.json"
    old = {}
    if only and mpath.exists():
        old = {e["name"]: e for e in json.loads(mpath.read_text(encoding="utf-8"))}
    old.update({e["name"]: e for e in entries})
    names = [p["name"] for p in plan(count)]
    manifest = [old[n] for n in names if n in old]
    mpath.write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(entries)} pages in {time.time() - t0:.1f}s -> {out}", file=sys.stderr)


# ---------------------------------------------------------------------------
# Scoring plain tesseract
# ---------------------------------------------------------------------------

def levenshtein(a: str, b: str) -> int:
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return len(a)
    bb = np.frombuffer(b.encode("utf-32-le"), dtype=np.uint32)
    idx = np.arange(len(b) + 1, dtype=np.int64)
    prev = idx.copy()
    cur = np.empty_like(prev)
    for ch in a:
        c = ord(ch)
        cur[0] = prev[0] + 1
        np.minimum(prev[:-1] + (bb != c), prev[1:] + 1, out=cur[1:])
        # insertions: cur[j] = min over k <= j of cur[k] + (j - k)
        prev = np.minimum.accumulate(cur - idx) + idx
    return int(prev[-1])


def collapse(s: str) -> str:
    return " ".join(s.split())


def ocr_one(img: str) -> str:
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    r = subprocess.run(["tesseract", img, "-", "-l", "nor"], capture_output=True, env=env)
    return r.stdout.decode("utf-8", "replace")


def score(out: Path, only: list[str] | None, jobs: int) -> None:
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    entries = select(manifest, only)
    imgs = [str(out / "images" / f"{e['name']}.jpg") for e in entries]
    t0 = time.time()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            preds = list(ex.map(ocr_one, imgs))
    else:
        preds = [ocr_one(i) for i in imgs]
    per_style: dict[str, list[int]] = {}
    tot_e = tot_n = 0
    print(f"{'page':<22} {'chars':>6} {'errors':>6} {'accuracy':>8}")
    for e, pred in zip(entries, preds):
        truth = collapse((out / "truth" / f"{e['name']}.txt").read_text(encoding="utf-8"))
        err = levenshtein(collapse(pred), truth)
        n = len(truth)
        print(f"{e['name']:<22} {n:>6} {err:>6} {100 * (1 - err / n):>7.1f}%")
        s = per_style.setdefault(e["style"], [0, 0, 0])
        s[0] += err
        s[1] += n
        s[2] += 1
        tot_e += err
        tot_n += n
    print()
    print(f"{'style':<22} {'pages':>6} {'accuracy':>8}")
    for st in STYLES:
        if st in per_style:
            e_, n_, k = per_style[st]
            print(f"{st:<22} {k:>6} {100 * (1 - e_ / n_):>7.1f}%")
    if tot_n:
        print(f"{'pooled':<22} {len(entries):>6} {100 * (1 - tot_e / tot_n):>7.1f}%")
    print(f"({time.time() - t0:.0f}s)", file=sys.stderr)


# ---------------------------------------------------------------------------
# Test fixtures: pages of the set that showed a cleanup or reading-order fault, small enough to commit
# ---------------------------------------------------------------------------

def dark_edges(img: Image.Image, sides: str, k: int) -> Image.Image:
    """The scanner's lid and bed edges: dark strips `k` pixels wide along the given sides."""
    a = np.asarray(img.convert("L"), np.float32).copy()
    ramp = np.linspace(0.35, 1.0, k, dtype=np.float32)
    for side in sides:
        if side == "l":
            a[:, :k] = a[:, :k] * ramp[None, :] + 40 * (1 - ramp[None, :])
        elif side == "r":
            a[:, -k:] = a[:, -k:] * ramp[None, ::-1] + 40 * (1 - ramp[None, ::-1])
        elif side == "t":
            a[:k, :] = a[:k, :] * ramp[:, None] + 40 * (1 - ramp[:, None])
        else:
            a[-k:, :] = a[-k:, :] * ramp[::-1, None] + 40 * (1 - ramp[::-1, None])
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "L")


TEST_FIXTURES = [
    # file stem, seed, page of that set, what it shows, how it is made small
    ("flatbed-stained-top", 7, 28, "a full-bleed flatbed scan (no background around the page) with a stained "
     "band across the top and the scanner's edge on three sides: no sheet may be found inside it (one "
     "found below the stain cuts away the letterhead)", "edges"),
    ("justified-typewriter", 7, 16, "typewritten lines justified with extra spaces that line up over three "
     "lines: they must be read whole, not as two columns", "typewriter"),
    ("strip-of-a-scan", 7, 20, "the top part of an A4 letter scanned at 300 DPI, no DPI in the file: as A4 "
     "it would be taken for 173 DPI and scaled up", "strip"),
    ("stamp-over-the-date", 7, 34, "a colour scan with a round violet stamp over the date line, a pen "
     "signature and a tick, at full size and JPEG quality 85 (at 200 DPI or quality 70 the faded ring "
     "is not yet found as a mark): read "
     "with the marks, the date line and the paragraph are garbled", "colour"),
    ("faint-typewriter-on-yellowed-paper", 11, 35, "typewritten text in faded ink on yellowed, foxed paper, "
     "in gray: with the background measured from everything brighter than black, the faint letters "
     "counted as paper and the letterhead and address were lost", "gray"),
]


def test_fixtures(out: Path) -> None:
    """Writes the pages of TEST_FIXTURES to OUT (NAME.jpg and NAME.txt), each from its own seed's set."""
    out.mkdir(parents=True, exist_ok=True)
    pages = plan(36)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "images").mkdir()
        (Path(tmp) / "truth").mkdir()
        for stem, seed, index, what, how in TEST_FIXTURES:
            entry = build_page(pages[index], seed, tmp)
            img = Image.open(Path(tmp) / "images" / f"{entry['name']}.jpg")
            img = img.convert("RGB" if how == "colour" else "L")
            truth = (Path(tmp) / "truth" / f"{entry['name']}.txt").read_text(encoding="utf-8")
            if how == "edges":
                img = dark_edges(img, "lrb", 18)
                img = img.resize((img.width // 2, img.height // 2), Image.LANCZOS)
            elif how == "typewriter":
                img = img.resize((img.width * 2 // 3, img.height * 2 // 3), Image.LANCZOS)
            img.save(out / f"{stem}.jpg", quality=85 if how == "colour" else 78, optimize=True)
            (out / f"{stem}.txt").write_text(truth, encoding="utf-8")
            print(f"{stem}.jpg: {img.width}x{img.height}, {what}", file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default .bench/realworld)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--count", type=int, default=36)
    ap.add_argument("--only", nargs="+", metavar="NAME", help="only these pages (name, style or number)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--score-tesseract", action="store_true",
                    help="run plain tesseract on the generated pages and print the character accuracy")
    ap.add_argument("--test-fixtures", type=Path, metavar="DIR",
                    help="write the few pages the Swift tests use (see TEST_FIXTURES) to DIR instead")
    args = ap.parse_args()
    if args.test_fixtures:
        test_fixtures(args.test_fixtures)
        return 0
    if args.score_tesseract:
        score(args.out, args.only, args.jobs)
        return 0
    generate(args.out, args.seed, args.count, args.only, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
