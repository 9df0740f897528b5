#!/usr/bin/env python3
"""Generate Arkivator's sample images and test fixtures.

Usage:
    python3 scripts/make_fixtures.py           # (re)write samples/ and Tests/Fixtures/
    python3 scripts/make_fixtures.py --check   # verify that every expected file exists

Requirements: Python 3.11, Pillow, numpy, and the Debian font packages
fonts-dejavu-core and fonts-liberation.

Everything is deterministic: every random source is a numpy Generator with a
fixed seed, and the letter texts below are fixed.  All letters, names,
institutions, addresses and phone numbers are invented.

Conventions used in the sidecar JSON files (see also the report printed by
--help):

* rotation_deg: counter-clockwise positive as seen on screen, i.e. the same
  sign as PIL's ``Image.rotate(angle)``.  A positive angle makes the text
  lines rise towards the right.
* page_corners (photos): continuous pixel coordinates in the canvas, x to the
  right, y downwards, origin at the top-left CORNER of the top-left pixel (so
  pixel (i, j) covers [i, i+1) x [j, j+1) and its centre is (i+0.5, j+0.5)).
  Order: top-left, top-right, bottom-right, bottom-left of the page (in page
  orientation).  They are exactly the points used to compute the
  Image.PERSPECTIVE warp, i.e. where the page's outer corners
  (0,0), (W,0), (W,H), (0,H) of the rendered page land.
* .txt files: one line per rendered text line, in reading order, '\n'
  terminated; pages of a multi-page file are separated by a form feed, i.e.
  text = '\f'.join(page_text) where page_text = '\n'.join(lines) + '\n'.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import struct
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

import pdfwrite

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
FIXTURES = ROOT / "Tests" / "Fixtures"
BAD = FIXTURES / "bad"

DEJAVU = "/usr/share/fonts/truetype/dejavu/"
LIBERATION = "/usr/share/fonts/truetype/liberation/"
FONT_FAMILIES = {
    "dejavu-serif": (DEJAVU + "DejaVuSerif.ttf", DEJAVU + "DejaVuSerif-Bold.ttf"),
    "dejavu-sans": (DEJAVU + "DejaVuSans.ttf", DEJAVU + "DejaVuSans-Bold.ttf"),
    "liberation-sans": (LIBERATION + "LiberationSans-Regular.ttf", LIBERATION + "LiberationSans-Bold.ttf"),
    "liberation-serif": (LIBERATION + "LiberationSerif-Regular.ttf", LIBERATION + "LiberationSerif-Bold.ttf"),
}

A4_MM = (210.0, 297.0)


# ---------------------------------------------------------------------------
# Fødselsnummer helper
# ---------------------------------------------------------------------------

def fnr_control_digits(nine: str) -> str | None:
    """Return the two mod-11 control digits for the first nine digits, or None."""
    w1 = [3, 7, 6, 1, 8, 9, 4, 5, 2]
    w2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
    d = [int(c) for c in nine]
    k1 = 11 - sum(a * b for a, b in zip(w1, d)) % 11
    k1 = 0 if k1 == 11 else k1
    if k1 == 10:
        return None
    d.append(k1)
    k2 = 11 - sum(a * b for a, b in zip(w2, d)) % 11
    k2 = 0 if k2 == 11 else k2
    if k2 == 10:
        return None
    return f"{k1}{k2}"


def make_fnr(ddmmyy: str, first_individual: int) -> str:
    """First valid fødselsnummer for a birth date, searching individual numbers upwards."""
    for ind in range(first_individual, 500):
        nine = f"{ddmmyy}{ind:03d}"
        k = fnr_control_digits(nine)
        if k is not None:
            return nine + k
    raise ValueError("no valid fnr found")


def fnr_is_valid(fnr: str) -> bool:
    return len(fnr) == 11 and fnr.isdigit() and fnr_control_digits(fnr[:9]) == fnr[9:]


# Patient in clean.png: woman born 17.09.1972 (individual number 4xx is used
# for 1900-1999; an even third individual digit means female).
CLEAN_FNR = make_fnr("170972", 438)
assert fnr_is_valid(CLEAN_FNR)
assert int(CLEAN_FNR[8]) % 2 == 0  # female


# ---------------------------------------------------------------------------
# Letter description
# ---------------------------------------------------------------------------

# Body elements of a page, rendered top to bottom in the given order:
#   ("letterhead", left_lines, right_lines)   first left line is the institution (bold, large)
#   ("address", lines)
#   ("date", text, align)                     align: "left" | "right"
#   ("line", text)                            one unwrapped body line
#   ("lines", [texts], indent_mm)             several unwrapped lines
#   ("heading", text)                         bold, 12.5 pt
#   ("subheading", text)                      bold, body size
#   ("para", text)                            wrapped paragraph
#   ("table", header, rows, col_fractions)
#   ("signature", lines, scribble)            lines[0] = greeting, rest below the signature gap
#   ("signature2", greeting, left_lines, right_lines)
#   ("gap", mm)
#   ("pageheader", text)                      small line at the top of a continuation page
#   ("footer", text)                          small centred line at the bottom of the page


@dataclass
class Letter:
    family: str
    pages: list[list[tuple]]
    body_pt: float = 10.5
    logo: bool = False
    date_align: str = "right"


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------

_font_cache: dict[tuple[str, int], ImageFont.FreeTypeFont] = {}


def wrap_text(text: str, font, width: float) -> list[str]:
    """The words of `text` in lines no wider than `width` pixels (a longer word stands alone)."""
    out, cur = [], ""
    for w in text.split():
        cand = w if not cur else cur + " " + w
        if font.getlength(cand) <= width or not cur:
            cur = cand
        else:
            out.append(cur)
            cur = w
    if cur:
        out.append(cur)
    return out


def get_font(path: str, size_px: int) -> ImageFont.FreeTypeFont:
    key = (path, size_px)
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype(path, size_px)
    return _font_cache[key]


class PageRenderer:
    def __init__(self, letter: Letter, dpi: int, ink: int = 0):
        self.letter = letter
        self.dpi = dpi
        self.W = round(A4_MM[0] / 25.4 * dpi)
        self.H = round(A4_MM[1] / 25.4 * dpi)
        self.ink = ink
        self.img = Image.new("L", (self.W, self.H), 255)
        self.draw = ImageDraw.Draw(self.img)
        self.lines: list[str] = []
        self.left = self.mm(25)
        self.right = self.W - self.mm(25)
        self.y = self.mm(18)  # top of the next element (not a baseline)
        regular, bold = FONT_FAMILIES[letter.family]
        self.regular_path, self.bold_path = regular, bold

    # unit helpers
    def mm(self, v: float) -> int:
        return round(v / 25.4 * self.dpi)

    def pt(self, v: float) -> int:
        return round(v * self.dpi / 72.0)

    def font(self, pt: float, bold: bool = False) -> ImageFont.FreeTypeFont:
        return get_font(self.bold_path if bold else self.regular_path, self.pt(pt))

    def text(self, x: float, baseline: float, s: str, font, anchor: str = "ls", record: bool = True):
        self.draw.text((x, baseline), s, font=font, fill=self.ink, anchor=anchor)
        if record:
            self.lines.append(s)

    def wrap(self, text: str, font, width: float) -> list[str]:
        return wrap_text(text, font, width)

    def line_block(self, lines: list[str], font, x: float, top: float, spacing: float = 1.25, anchor="ls") -> float:
        """Draw lines starting at `top`; return the y just below the last line."""
        asc, desc = font.getmetrics()
        lh = round(font.size * spacing)
        base = top + asc
        for s in lines:
            self.text(x, base, s, font, anchor)
            base += lh
        return base - lh + desc

    @property
    def body(self):
        return self.font(self.letter.body_pt)

    @property
    def body_lh(self) -> int:
        return round(self.body.size * 1.25)

    def render(self, elements: list[tuple]) -> tuple[Image.Image, list[str]]:
        for el in elements:
            getattr(self, "el_" + el[0])(*el[1:])
        if self.y > self.H - self.mm(18):
            raise RuntimeError(f"page overflow: y={self.y} > {self.H - self.mm(18)} ({self.lines[:2]})")
        return self.img, self.lines

    # elements ---------------------------------------------------------------
    def el_letterhead(self, left: list[str], right: list[str]):
        top = self.y
        x = self.left
        if self.letter.logo:
            d = self.mm(13)
            self.draw.ellipse([x, top, x + d, top + d], outline=self.ink, width=self.pt(2.2))
            c, a, t = x + d / 2, d * 0.3, d * 0.09
            self.draw.rectangle([c - t, top + d / 2 - a, c + t, top + d / 2 + a], fill=self.ink)
            self.draw.rectangle([c - a, top + d / 2 - t, c + a, top + d / 2 + t], fill=self.ink)
            x += d + self.mm(4)
        big = self.font(15, bold=True)
        small = self.font(10)
        yl = self.line_block(left[:1], big, x, top, 1.2)
        if len(left) > 1:
            yl = self.line_block(left[1:], small, x, yl + self.mm(1.5), 1.25)
        yr = top
        if right:
            rf = self.font(8.5)
            wmax = max(rf.getlength(s) for s in right)
            yr = self.line_block(right, rf, self.right - wmax, top + self.mm(0.5), 1.3)
        self.y = max(yl, yr) + self.mm(3)
        self.draw.line([self.left, self.y, self.right, self.y], fill=self.ink, width=max(1, self.pt(0.7)))
        self.y += self.mm(14)

    def el_address(self, lines: list[str]):
        self.y = self.line_block(lines, self.body, self.left, self.y) + self.mm(12)

    def el_date(self, text: str, align: str | None = None):
        align = align or self.letter.date_align
        if align == "right":
            self.y = self.line_block([text], self.body, self.right, self.y, anchor="rs") + self.mm(9)
        else:
            self.y = self.line_block([text], self.body, self.left, self.y) + self.mm(9)

    def el_line(self, text: str, bold: bool = False):
        self.y = self.line_block([text], self.font(self.letter.body_pt, bold), self.left, self.y) + self.mm(1)

    def el_lines(self, lines: list[str], indent_mm: float = 0):
        self.y = self.line_block(lines, self.body, self.left + self.mm(indent_mm), self.y) + self.mm(3)

    def el_heading(self, text: str):
        self.y = self.line_block([text], self.font(12.5, True), self.left, self.y) + self.mm(5)

    def el_subheading(self, text: str):
        self.y += self.mm(1.5)
        self.y = self.line_block([text], self.font(self.letter.body_pt, True), self.left, self.y) + self.mm(1.5)

    def el_para(self, text: str):
        lines = self.wrap(text, self.body, self.right - self.left)
        self.y = self.line_block(lines, self.body, self.left, self.y) + round(self.body_lh * 0.6)

    def el_gap(self, mm: float):
        self.y += self.mm(mm)

    def el_table(self, header: list[str], rows: list[list[str]], cols: list[float]):
        tw = self.right - self.left
        xs = [self.left + f * tw for f in cols]
        bold = self.font(self.letter.body_pt - 0.5, True)
        reg = self.font(self.letter.body_pt - 0.5)
        lh = round(reg.size * 1.45)
        asc = reg.getmetrics()[0]
        base = self.y + asc
        for x, h in zip(xs, header):
            self.draw.text((x, base), h, font=bold, fill=self.ink, anchor="ls")
        self.lines.append(" ".join(header))
        rule_y = base + self.mm(2)
        self.draw.line([self.left, rule_y, self.right, rule_y], fill=self.ink, width=max(1, self.pt(0.5)))
        base = rule_y + self.mm(1.5) + asc
        for row in rows:
            for x, c in zip(xs, row):
                self.draw.text((x, base), c, font=reg, fill=self.ink, anchor="ls")
            self.lines.append(" ".join(c for c in row if c))
            base += lh
        rule_y = base - lh + self.mm(2.5)
        self.draw.line([self.left, rule_y, self.right, rule_y], fill=self.ink, width=max(1, self.pt(0.5)))
        self.y = rule_y + self.mm(6)

    def scribble(self, x: float, y: float, w: float, h: float, seed: int):
        rng = np.random.default_rng(seed)
        n = 160
        t = np.linspace(0, 1, n)
        loops = rng.uniform(5, 8)
        xs = x + w * (t + 0.06 * np.sin(2 * math.pi * loops * t + rng.uniform(0, 6)))
        ys = y + h * (0.5 + 0.35 * np.sin(2 * math.pi * (loops * 1.07) * t) * (1 - 0.5 * t)
                      + 0.1 * np.sin(2 * math.pi * 1.3 * t + rng.uniform(0, 6)))
        pts = list(zip(xs.tolist(), ys.tolist()))
        self.draw.line(pts, fill=min(255, self.ink + 40), width=max(2, self.pt(1.1)), joint="curve")

    def el_signature(self, lines: list[str], scribble: bool = False, seed: int = 1):
        self.y += self.mm(3)
        self.y = self.line_block(lines[:1], self.body, self.left, self.y)
        gap = self.mm(14)
        if scribble:
            self.scribble(self.left + self.mm(2), self.y + self.mm(2), self.mm(38), gap - self.mm(4), seed)
        self.y += gap
        self.y = self.line_block(lines[1:], self.body, self.left, self.y) + self.mm(3)

    def el_signature2(self, greeting: str, left: list[str], right: list[str], seed: int = 2):
        self.y += self.mm(3)
        self.y = self.line_block([greeting], self.body, self.left, self.y)
        gap = self.mm(14)
        x2 = self.left + (self.right - self.left) * 0.5
        self.scribble(self.left + self.mm(2), self.y + self.mm(2), self.mm(34), gap - self.mm(4), seed)
        self.scribble(x2 + self.mm(2), self.y + self.mm(2), self.mm(30), gap - self.mm(4), seed + 1)
        self.y += gap
        y1 = self.line_block(left, self.body, self.left, self.y)
        y2 = self.line_block(right, self.body, x2, self.y)
        self.y = max(y1, y2) + self.mm(3)

    def el_pageheader(self, text: str):
        f = self.font(8.5)
        self.y = self.line_block([text], f, self.left, self.y) + self.mm(2)
        self.draw.line([self.left, self.y, self.right, self.y], fill=self.ink, width=max(1, self.pt(0.5)))
        self.y += self.mm(10)

    def el_footer(self, text: str):
        f = self.font(8.5)
        self.text(self.W / 2, self.H - self.mm(12), text, f, anchor="ms")


def render_letter(letter: Letter, dpi: int, ink: int = 0) -> list[tuple[Image.Image, list[str]]]:
    return [PageRenderer(letter, dpi, ink).render(els) for els in letter.pages]


# ---------------------------------------------------------------------------
# Letter texts (all invented)
# ---------------------------------------------------------------------------

SIGN_OFF = "Med vennlig hilsen"

LETTER_CLEAN = Letter("liberation-serif", [[
    ("letterhead", ["Granlia legesenter", "Allmennmedisin og småkirurgi"],
     ["Storgata 14", "2804 Granvik", "Telefon 61 17 42 90", "Org.nr. 915 602 338"]),
    ("address", ["Østre Lia sykehus", "Hudpoliklinikken", "Postboks 220", "2806 Granvik"]),
    ("date", "Dato: 04.02.2025"),
    ("heading", "Henvisning til vurdering av føflekk"),
    ("line", f"Pasient: Ingrid Marie Haugseth, f.nr. {CLEAN_FNR}", True),
    ("gap", 3),
    ("para", "Jeg henviser herved ovennevnte pasient, en 52 år gammel kvinne, til vurdering ved "
             "hudpoliklinikken. Hun har de siste tre månedene merket at en føflekk på venstre "
             "skulderblad har blitt større og mørkere i fargen."),
    ("para", "Ved undersøkelse i dag finner jeg en asymmetrisk, ujevnt pigmentert lesjon på cirka "
             "8 x 6 mm med uskarp avgrensning. Det er ingen sår eller blødning. Dermatoskopi gir "
             "mistanke om atypisk nevus, og melanom kan ikke utelukkes."),
    ("para", "Pasienten er ellers frisk og bruker ingen faste medisiner. Hun har lys hudtype og "
             "oppgir flere kraftige solforbrenninger i barndommen. Det er ingen kjent forekomst av "
             "melanom i familien."),
    ("para", "Jeg ber om vurdering og eventuell fjerning av føflekken innen fire uker. Pasienten er "
             "informert om henvisningen og kan nås på telefon 918 44 207 på dagtid."),
    ("signature", [SIGN_OFF, "Øystein Lunde Brå", "Fastlege, spesialist i allmennmedisin"]),
]])

LETTER_SKEW = Letter("dejavu-sans", [[
    ("letterhead", ["Fossheim fysioterapi", "Avtalefysioterapeuter i Eikvåg kommune"],
     ["Kirkevegen 3", "5930 Eikvåg", "Telefon 56 34 81 10"]),
    ("address", ["Tor Einar Lysø", "Bjørkeveien 27", "5931 Eikvåg"]),
    ("date", "Dato: 19.05.2025"),
    ("heading", "Bekreftelse på oppstart av behandling"),
    ("para", "Vi viser til henvisning fra din fastlege datert 28. april og bekrefter at du har fått "
             "plass hos oss for behandling av smerter i korsryggen."),
    ("para", "Første time er tirsdag 3. juni klokken 09.15 hos fysioterapeut Silje Aarø. Timen varer "
             "omtrent 45 minutter. Ta gjerne med treningstøy og innesko, og kom ti minutter før "
             "avtalt tid."),
    ("para", "Behandlingen består av veiledet trening, øvelser du kan gjøre hjemme og råd om "
             "belastning i hverdagen. Vi planlegger i første omgang åtte behandlinger over seks uker."),
    ("para", "Dersom du blir forhindret fra å møte, må du gi beskjed senest 24 timer før timen. Ved "
             "uteblivelse uten gyldig grunn vil du bli belastet med et gebyr."),
    ("signature", [SIGN_OFF, "Silje Aarø", "Fysioterapeut"]),
]], body_pt=10)

LETTER_SKEW_NEG = Letter("liberation-sans", [[
    ("letterhead", ["Nordre Fjell sykehus", "Øre-nese-hals-avdelingen"],
     ["Sykehusveien 40", "8012 Fjellhamn", "Sentralbord 75 50 60 00"]),
    ("address", ["Solveig Brekke", "Fjæraveien 5B", "8020 Fjellhamn"]),
    ("date", "Dato: 07.10.2025", "left"),
    ("heading", "Svar etter hørselsundersøkelse"),
    ("para", "Du var til undersøkelse ved vår poliklinikk 29. september på grunn av nedsatt hørsel "
             "og øresus på høyre side gjennom flere måneder."),
    ("para", "Hørselstesten viste et lett til moderat hørselstap i de lyse frekvensene på begge ører, "
             "noe mer uttalt på høyre side. Trommehinnene så normale ut, og trykkmålingen var uten funn."),
    ("para", "Funnene passer med aldersrelatert hørselstap. Vi anbefaler utprøving av høreapparat og "
             "har sendt søknad til hjelpemiddelsentralen. Du vil få innkalling til tilpasning i løpet "
             "av vinteren."),
    ("para", "Ta kontakt med fastlegen din dersom hørselen plutselig blir dårligere eller du får "
             "svimmelhet."),
    ("signature", [SIGN_OFF, "Håkon Ræstad", "Overlege"]),
]], body_pt=11)

LETTER_PHOTO = Letter("liberation-sans", [[
    ("letterhead", ["Bjørkeli røntgen", "Bildediagnostikk"],
     ["Parkveien 112", "3045 Solvang", "Telefon 32 20 55 70"]),
    ("address", ["Åse Kvalvåg", "Liaveien 9", "3050 Solvang"]),
    ("date", "Dato: 22.01.2025"),
    ("heading", "Innkalling til MR-undersøkelse"),
    ("para", "Du er henvist til MR-undersøkelse av venstre kne og har fått time mandag 10. februar "
             "klokken 13.40. Oppmøte i resepsjonen i første etasje."),
    ("para", "Før undersøkelsen må du fylle ut et skjema om metall i kroppen, for eksempel pacemaker, "
             "proteser eller splinter. Skjemaet får du ved oppmøte. Fjern smykker og piercinger før "
             "du kommer."),
    ("para", "Selve undersøkelsen tar cirka 30 minutter. Du må ligge stille, og maskinen lager mye "
             "lyd, så du får hørselvern. Du kan kjøre bil etter undersøkelsen."),
    ("para", "Egenandelen er 275 kroner og betales ved oppmøte. Ved avbestilling senere enn 24 timer "
             "før timen må du betale et gebyr."),
    ("signature", [SIGN_OFF, "Bjørkeli røntgen", "Resepsjonen"]),
]], body_pt=11)

LETTER_PHOTO2 = Letter("dejavu-serif", [[
    ("letterhead", ["Eikelund legekontor", "Fastlegene i sentrum"],
     ["Torget 2", "6400 Eikelund", "Telefon 71 25 90 40"]),
    ("address", ["Nils Ødegård", "Skogbrynet 14", "6405 Eikelund"]),
    ("date", "Dato: 15.08.2025", "left"),
    ("heading", "Oppfølging av blodtrykk"),
    ("para", "Takk for sist. Som avtalt sender jeg deg en oppsummering av målingene du har gjort "
             "hjemme de siste to ukene."),
    ("para", "Gjennomsnittlig blodtrykk var 148/92, som er høyere enn ønsket. Blodprøvene viste "
             "normale verdier for nyrefunksjon, kolesterol og blodsukker."),
    ("para", "Jeg anbefaler at du starter med en lav dose blodtrykksmedisin. Resepten ligger klar på "
             "apoteket. Ta én tablett hver morgen, og mål blodtrykket tre dager i uken fremover."),
    ("para", "Vi ses til kontroll om seks uker. Husk å ta med blodtrykksmåleren og notatene dine."),
    ("signature", [SIGN_OFF, "Marte Solheim", "Fastlege"]),
]], body_pt=10.5)

LETTER_TWOPAGE = Letter("liberation-serif", [
    [
        ("letterhead", ["Stølen rehabiliteringssenter", "Avdeling for hjerte- og lungerehabilitering"],
         ["Stølsvegen 61", "2690 Fjellstølen", "Telefon 61 23 70 00"]),
        ("address", ["Fastlege Anders Rød", "Sentrum legesenter", "Postboks 33", "2690 Fjellstølen"]),
        ("date", "Dato: 30.06.2025"),
        ("heading", "Sluttrapport etter rehabiliteringsopphold"),
        ("line", "Gjelder: Bjørg Ødegård, født 1958", True),
        ("gap", 3),
        ("para", "Pasienten har vært innlagt ved vårt senter i fire uker etter hjerteinfarkt og "
                 "utblokking i april. Målet med oppholdet var å bedre utholdenheten, lære mer om "
                 "sykdommen og komme i gang med varige endringer i levevanene."),
        ("para", "Ved ankomst klarte hun å gå i seks minutter før hun måtte hvile. Hun var engstelig "
                 "for å anstrenge seg og sov dårlig. Blodtrykk og puls var godt regulert med "
                 "medisinene hun fikk fra sykehuset."),
        ("para", "Hun har deltatt på gruppetrening fem dager i uken, bassengtrening og undervisning "
                 "om kosthold, medisiner og røykeslutt. Hun har også hatt samtaler med psykolog om "
                 "angst etter infarktet."),
        ("footer", "Side 1 av 2"),
    ],
    [
        ("pageheader", "Side 2 av 2"),
        ("para", "Ved utreise går hun 45 minutter uten pause og beskriver seg som tryggere i "
                 "hverdagen. Hun har vært røykfri i ti uker og ønsker å fortsette med "
                 "nikotinplaster en periode til."),
        ("para", "Vi anbefaler videre trening to til tre ganger i uken, gjerne i frisklivssentralen "
                 "i kommunen. Vi ber fastlegen følge opp blodtrykk, kolesterol og røykeslutt, og "
                 "vurdere behov for videre samtaler."),
        ("signature", [SIGN_OFF, "Guro Fjeldstad", "Overlege"]),
    ],
])

# --- samples -----------------------------------------------------------------

LETTER_INNKALLING = Letter("liberation-sans", [[
    ("letterhead", ["Vestlia sykehus", "Ortopedisk poliklinikk"],
     ["Vestliveien 25", "4630 Vestlia", "Telefon 38 14 60 00", "www.vestlia-sykehus.no"]),
    ("address", ["Per Arne Fjellheim", "Lønneveien 16", "4633 Vestlia"]),
    ("date", "Dato: 12.03.2025"),
    ("heading", "Innkalling til poliklinisk time"),
    ("para", "Vi har mottatt henvisning fra din fastlege og har satt opp time til deg ved ortopedisk "
             "poliklinikk for vurdering av smerter i høyre hofte."),
    ("lines", ["Tid: Torsdag 27. mars 2025 klokken 10.30",
               "Sted: Poliklinikken, bygg B, 2. etasje",
               "Lege: Kristoffer Nærland"], 8),
    ("para", "Meld deg i skranken eller i innsjekkingsautomaten når du kommer. Ta med oversikt over "
             "medisinene dine og eventuelle røntgenbilder som er tatt ved andre sykehus. Regn med at "
             "besøket tar opptil to timer."),
    ("para", "Hvis du ikke kan møte, må du gi beskjed så tidlig som mulig, slik at timen kan gis til en "
             "annen pasient. Du kan endre timen på helsenorge.no eller ringe oss på telefon "
             "38 14 60 50 mellom klokken 08.00 og 15.00."),
    ("para", "Egenandel for poliklinisk konsultasjon er 375 kroner. Har du frikort, betaler du ingen "
             "egenandel."),
    ("signature", [SIGN_OFF, "Ortopedisk poliklinikk", "Vestlia sykehus"]),
    ("line", "Brevet er godkjent elektronisk og har derfor ingen signatur."),
]], logo=True)

LETTER_EPIKRISE = Letter("dejavu-serif", [
    [
        ("letterhead", ["Havøy sykehus HF", "Medisinsk klinikk, sengepost 3"],
         ["Postboks 1000", "9310 Havøy", "Sentralbord 77 80 10 00", "Org.nr. 983 451 207"]),
        ("address", ["Fastlege Liv Tangen", "Havøy legesenter", "Strandgata 8", "9310 Havøy"]),
        ("date", "Dato: 03.04.2025"),
        ("heading", "Epikrise"),
        ("line", "Pasient: Randi Østby, født 14.11.1949", True),
        ("line", "Innlagt 24.03.2025, utskrevet 02.04.2025"),
        ("subheading", "Diagnoser"),
        ("lines", ["Venstresidig lungebetennelse (pneumoni)", "Atrieflimmer, kjent", "Diabetes type 2, kjent"], 5),
        ("subheading", "Bakgrunn"),
        ("para", "Kvinne på 75 år som bor alene i egen leilighet og klarer seg selv med litt hjelp fra "
                 "hjemmesykepleien. Henvist fra legevakten med tre dagers sykehistorie med feber, "
                 "hoste og økende tungpust."),
        ("subheading", "Forløp"),
        ("para", "Ved innkomst var hun slapp, temperatur 38,9 grader og oksygenmetning 89 % på romluft. "
                 "CRP var 186. Røntgen thorax viste fortetning i venstre underlapp. Hun ble behandlet "
                 "med intravenøs benzylpenicillin og fikk oksygen på nesekateter de første dagene."),
        ("para", "Hun responderte godt på behandlingen og var feberfri fra fjerde dag. Antibiotika ble "
                 "endret til tabletter 30. mars. Ved utreise er CRP 24, og hun har normal "
                 "oksygenmetning uten tilførsel."),
        ("footer", "Side 1 av 2"),
    ],
    [
        ("pageheader", "Epikrise for Randi Østby, side 2 av 2"),
        ("subheading", "Legemidler ved utreise"),
        ("lines", ["Fenoksymetylpenicillin 1 g x 4, til og med 06.04.2025",
                   "Apixaban 5 mg x 2",
                   "Metformin 500 mg x 2",
                   "Metoprolol depottablett 50 mg x 1"], 5),
        ("subheading", "Videre oppfølging"),
        ("para", "Vi ber fastlegen kontrollere CRP og lytte på lungene om cirka en uke. Blodsukkeret var "
                 "noe høyt under oppholdet, og vi anbefaler at HbA1c måles ved neste kontroll. Røntgen "
                 "thorax bør gjentas om seks uker for å bekrefte at fortetningen har gått tilbake."),
        ("para", "Pasienten er informert om funn og videre plan. Hjemmesykepleien er orientert om "
                 "endringene i medisinlisten og kommer to ganger daglig den første uken."),
        ("signature2", SIGN_OFF, ["Jonas Myhre", "Lege i spesialisering"], ["Elin Sæther", "Overlege"]),
        ("footer", "Side 2 av 2"),
    ],
], body_pt=10)

LETTER_LABSVAR = Letter("liberation-sans", [[
    ("letterhead", ["Lundemo medisinske laboratorium", "Avdeling for klinisk kjemi"],
     ["Laboratorieveien 4", "1605 Lundemo", "Telefon 69 31 44 00"]),
    ("address", ["Solberg legesenter", "v/ fastlege Tone Aasland", "Kirkebakken 12", "1610 Lundemo"]),
    ("date", "Dato: 18.06.2025"),
    ("heading", "Svar på laboratorieundersøkelse"),
    ("lines", ["Pasient: Erik Haugland, født 02.05.1971",
               "Prøve tatt: 17.06.2025 kl. 08.30",
               "Prøvenummer: 25-118342"], 0),
    ("gap", 3),
    ("table", ["Analyse", "Resultat", "Enhet", "Referanseområde"], [
        ["Hemoglobin", "14,8", "g/dL", "13,4–17,0"],
        ["Leukocytter", "7,1", "10*9/L", "3,5–10,0"],
        ["Trombocytter", "262", "10*9/L", "145–390"],
        ["CRP", "3", "mg/L", "< 5"],
        ["Natrium", "140", "mmol/L", "137–145"],
        ["Kalium", "4,2", "mmol/L", "3,5–4,4"],
        ["Kreatinin", "94", "µmol/L", "60–105"],
        ["eGFR", "79", "mL/min/1,73m²", "> 60"],
        ["ALAT", "82 H", "U/L", "10–70"],
        ["HbA1c", "44 H", "mmol/mol", "20–42"],
        ["LDL-kolesterol", "3,4", "mmol/L", "< 4,1"],
        ["TSH", "1,8", "mIU/L", "0,5–4,1"],
    ], [0.0, 0.36, 0.54, 0.76]),
    ("para", "Kommentar: Lett forhøyet HbA1c, forenlig med forstadium til diabetes. Forhøyet ALAT bør "
             "kontrolleres på nytt om fire til seks uker. Øvrige analyser er innenfor referanseområdet."),
    ("signature", [SIGN_OFF, "Kjersti Vold", "Overlege, medisinsk biokjemi"], True, 7),
    ("footer", "Analysene er utført ved akkreditert laboratorium. Ved spørsmål, ring 69 31 44 00."),
]])


# --- samples: PDF -------------------------------------------------------------

# Scanned to PDF by an office scanner ("scan to folder"): one gray JPEG a page.
LETTER_RESEPT = Letter("dejavu-sans", [[
    ("letterhead", ["Solberg legesenter", "Fastlege Tone Aasland"],
     ["Kirkebakken 12", "1610 Lundemo", "Telefon 69 31 20 20"]),
    ("address", ["Erik Haugland", "Bjørkeveien 3", "1612 Lundemo"]),
    ("date", "Dato: 24.06.2025"),
    ("heading", "Reseptutskrift"),
    ("para", "Her er en oversikt over reseptene som er sendt elektronisk til reseptformidleren. Du kan "
             "hente legemidlene på hvilket som helst apotek ved å oppgi navn og fødselsdato."),
    ("lines", ["Metformin tablett 500 mg, 1 tablett morgen og kveld, 100 stk.",
               "Atorvastatin tablett 20 mg, 1 tablett om kvelden, 98 stk.",
               "Reiterasjon: 3 ganger. Resepten er gyldig i ett år."], 5),
    ("para", "Ta kontakt med legekontoret dersom du får bivirkninger, for eksempel muskelsmerter eller "
             "plager fra magen. Ny kontroll av blodsukker og kolesterol om tre måneder."),
    ("signature", [SIGN_OFF, "Tone Aasland", "Fastlege"]),
]])

# Saved from the municipality's portal: a PDF with a text layer, laid out as an office program
# does (Helvetica, left column, letterhead block on the right).
DIGITAL_VEDTAK = {
    "letterhead": ["Vestlia kommune", "Tildelingskontoret for helse- og omsorgstjenester"],
    "contact": ["Rådhusgata 1", "4630 Vestlia", "Telefon 38 14 00 00"],
    "address": ["Randi Østby", "Havnegata 7 B", "9310 Havøy"],
    "date": "Vestlia, 9. mai 2025",
    "reference": "Vår ref.: 2025/4417",
    "heading": "Vedtak om hjemmesykepleie",
    "paragraphs": [
        "Vi viser til søknaden din av 22. april 2025 og til kartleggingsbesøket hjemme hos deg 30. april. "
        "Du får innvilget hjemmesykepleie fra 12. mai 2025, to besøk daglig i fire uker. Deretter vurderer "
        "vi sammen med deg om behovet fortsatt er der.",
        "Hjemmesykepleien skal hjelpe deg med medisiner, tilsyn etter sykehusoppholdet og oppfølging av "
        "blodsukkeret. Tjenesten er gratis. Du vil få beskjed om hvem som er kontaktperson i hjemmetjenesten.",
        "Vedtaket er gjort etter helse- og omsorgstjenesteloven § 3-2 første ledd nr. 6 bokstav a. Du kan "
        "klage på vedtaket. Klagefristen er fire uker fra du mottok dette brevet. Klagen sendes til "
        "Tildelingskontoret, som vurderer saken på nytt før den eventuelt sendes til Statsforvalteren.",
    ],
    "signature": [SIGN_OFF, "", "Marit Lunde", "saksbehandler"],
    "footer": "Dokumentet er elektronisk godkjent og har ingen signatur.",
}


def scanned_pdf(pages: list[Image.Image], dpi: int, quality: int) -> bytes:
    """One gray JPEG per page, each filling a page of its size at `dpi`."""
    encoded = []
    for page in pages:
        buf = io.BytesIO()
        page.convert("L").save(buf, "JPEG", quality=quality)
        encoded.append((buf.getvalue(), page.size[0], page.size[1], "DeviceGray"))
    return pdfwrite.jpeg_pages(encoded, dpi)


def pdf_text(text: str) -> bytes:
    """A PDF string in WinAnsiEncoding (Latin-1, with the en dash and the section sign)."""
    out = bytearray(b"(")
    for ch in text:
        if ch in "()\\":
            out += b"\\" + ch.encode()
        elif ch == "–":
            out.append(0x96)
        else:
            out += ch.encode("latin-1")
    return bytes(out + b")")


def digital_pdf(letter: dict) -> tuple[bytes, str]:
    """One A4 page of text as an office program writes it (Helvetica and Helvetica-Bold, whose
    widths Liberation Sans shares), and the text in reading order."""
    regular = get_font(FONT_FAMILIES["liberation-sans"][0], 1000)
    ops: list[bytes] = []
    lines: list[str] = []

    def put(x: float, y: float, text: str, size: float = 10.5, bold: bool = False, right: bool = False):
        font = get_font(FONT_FAMILIES["liberation-sans"][1 if bold else 0], 1000)
        if right:
            x -= font.getlength(text) * size / 1000
        ops.append(b"BT /F%d %.1f Tf %.2f %.2f Td " % (2 if bold else 1, size, x, 842 - y) + pdf_text(text) + b" Tj ET")

    left, right_edge, y = 70.0, 525.0, 78.0
    put(left, y, letter["letterhead"][0], 15, bold=True)
    put(left, y + 15, letter["letterhead"][1], 9.5)
    for i, line in enumerate(letter["contact"]):
        put(right_edge, y + i * 12, line, 9, right=True)
    lines += letter["letterhead"] + [""] + letter["contact"] + [""]
    y = 160
    for line in letter["address"]:
        put(left, y, line)
        y += 13
    lines += letter["address"] + [""]
    put(right_edge, 160, letter["date"], right=True)
    put(right_edge, 173, letter["reference"], right=True)
    y += 30
    put(left, y, letter["heading"], 13, bold=True)
    lines += [letter["date"], letter["reference"], "", letter["heading"], ""]
    y += 24
    for paragraph in letter["paragraphs"]:
        words, line = paragraph.split(), ""
        for word in words:
            candidate = f"{line} {word}".strip()
            if regular.getlength(candidate) * 10.5 / 1000 > right_edge - left and line:
                put(left, y, line)
                lines.append(line)
                y += 14
                line = word
            else:
                line = candidate
        put(left, y, line)
        lines += [line, ""]
        y += 14 + 10
    for line in letter["signature"]:
        if line:
            put(left, y, line)
            lines.append(line)
        y += 14
    put(left, 800, letter["footer"], 8)
    lines += ["", letter["footer"]]
    content = "\n".join(op.decode("latin-1") for op in ops).encode("latin-1")
    fonts = " ".join(f"/F{n} << /Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding /WinAnsiEncoding >>"
                     for n, name in [(1, "Helvetica"), (2, "Helvetica-Bold")])
    page = f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << {fonts} >> >> /Contents 4 0 R >>"
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return pdfwrite.document([page.encode(), pdfwrite.stream(content)], [3]), text + "\n"


# ---------------------------------------------------------------------------
# Image effects
# ---------------------------------------------------------------------------

def smooth_noise(rng: np.random.Generator, h: int, w: int, cell_y: float, cell_x: float) -> np.ndarray:
    """Smooth value noise in [0, 1] with the given feature size (pixels)."""
    sh = max(2, int(math.ceil(h / cell_y)) + 2)
    sw = max(2, int(math.ceil(w / cell_x)) + 2)
    small = rng.random((sh, sw)).astype(np.float32)
    img = Image.fromarray(small, mode="F").resize((w, h), Image.BICUBIC)
    a = np.asarray(img, dtype=np.float32)
    lo, hi = float(a.min()), float(a.max())
    return (a - lo) / max(1e-6, hi - lo)


def blur_float(a: np.ndarray, radius: float) -> np.ndarray:
    """Gaussian blur of a float array via an 8-bit L image (plenty for textures)."""
    lo, hi = float(a.min()), float(a.max())
    span = max(1e-6, hi - lo)
    img = Image.fromarray(np.round((a - lo) / span * 255).astype(np.uint8), "L")
    return np.asarray(img.filter(ImageFilter.GaussianBlur(radius)), np.float32) / 255 * span + lo


def wood_texture(rng, w, h, dark=(62, 40, 26), light=(138, 96, 62)) -> np.ndarray:
    turb = smooth_noise(rng, h, w, h / 5, w / 3)
    y = np.arange(h, dtype=np.float32)[:, None] / h
    x = np.arange(w, dtype=np.float32)[None, :] / w
    rings = 0.5 + 0.5 * np.sin(2 * math.pi * (22 * y + 0.8 * x * 0.3) + 7.0 * turb)
    fine = smooth_noise(rng, h, w, 3, 90)
    fine2 = smooth_noise(rng, h, w, 1.5, 25)
    v = 0.45 * rings + 0.35 * fine + 0.2 * fine2
    # plank seams
    seams = np.ones((h, w), np.float32)
    pos = 0.0
    while pos < h:
        pos += rng.uniform(0.22, 0.34) * h
        yy = int(pos)
        if yy < h - 3:
            seams[yy:yy + max(2, h // 500), :] = 0.45
    seams = blur_float(seams, 1.2)
    dark = np.array(dark, np.float32)
    light = np.array(light, np.float32)
    rgb = dark + (light - dark) * v[..., None]
    return rgb * seams[..., None]


def desk_texture(rng, w, h, base=(176, 176, 172)) -> np.ndarray:
    low = smooth_noise(rng, h, w, h / 3, w / 3) - 0.5
    mid = smooth_noise(rng, h, w, 12, 12) - 0.5
    speck = rng.normal(0, 1, (h, w)).astype(np.float32)
    speck = blur_float(np.clip(speck, -4, 4), 0.8)
    v = 18 * low + 8 * mid + 9 * speck
    return np.array(base, np.float32) + v[..., None]


def fabric_texture(rng, w, h) -> np.ndarray:
    """Dark grey-brown table cloth / wood mix for the sample photo."""
    base = wood_texture(rng, w, h, dark=(58, 50, 44), light=(112, 98, 84))
    weave = np.sin(np.arange(w)[None, :] * 0.9) * np.sin(np.arange(h)[:, None] * 0.9) * 4
    return base + weave[..., None]


def perspective_coeffs(dst, src) -> list[float]:
    """Coefficients for Image.transform(PERSPECTIVE) mapping output points dst -> input points src."""
    a, b = [], []
    for (x, y), (X, Y) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -X * x, -X * y]); b.append(X)
        a.append([0, 0, 0, x, y, 1, -Y * x, -Y * y]); b.append(Y)
    return np.linalg.solve(np.array(a, float), np.array(b, float)).tolist()


def rotate_point(px, py, cx, cy, deg):
    """Rotate (px, py) about (cx, cy) counter-clockwise ON SCREEN (y axis points down)."""
    t = math.radians(deg)
    dx, dy = px - cx, py - cy
    return (cx + dx * math.cos(t) + dy * math.sin(t), cy - dx * math.sin(t) + dy * math.cos(t))


@dataclass
class PhotoSpec:
    canvas: tuple[int, int]
    center: tuple[float, float]   # where the page centre goes (canvas coords)
    scale: float                  # page size in canvas = rendered size * scale
    rotation_deg: float
    # per-corner offsets (TL, TR, BR, BL) as fractions of the (scaled) page width/height,
    # applied in the page's own frame before rotation
    offsets: list[tuple[float, float]]
    background: str               # "wood" | "desk" | "fabric"
    seed: int
    light_dir_deg: float = 30.0
    light_strength: float = 0.22
    shadow_strength: float = 0.28
    blur: float = 0.9
    noise: float = 5.0
    contrast: float = 0.82


def page_corners_for(spec: PhotoSpec, page_w: int, page_h: int) -> list[list[float]]:
    w, h = page_w * spec.scale, page_h * spec.scale
    cx, cy = spec.center
    base = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    out = []
    for (bx, by), (fx, fy) in zip(base, spec.offsets):
        px, py = cx + bx + fx * w, cy + by + fy * h
        rx, ry = rotate_point(px, py, cx, cy, spec.rotation_deg)
        out.append([round(rx, 2), round(ry, 2)])
    return out


def make_photo(page: Image.Image, spec: PhotoSpec) -> tuple[Image.Image, list[list[float]]]:
    rng = np.random.default_rng(spec.seed)
    cw, ch = spec.canvas
    pw, ph = page.size
    corners = page_corners_for(spec, pw, ph)
    coeffs = perspective_coeffs(corners, [(0, 0), (pw, 0), (pw, ph), (0, ph)])

    # page: slightly warm paper, dark grey ink, faint paper fibre texture
    pa = np.asarray(page, np.float32) / 255.0
    paper = np.array([247, 245, 238], np.float32)
    ink = np.array([38, 38, 46], np.float32)
    fibre = (smooth_noise(rng, ph, pw, 6, 6) - 0.5) * 6
    prgb = ink + (paper - ink) * pa[..., None] + fibre[..., None] * pa[..., None]
    page_rgb = Image.fromarray(np.clip(prgb, 0, 255).astype(np.uint8), "RGB")

    warped = page_rgb.transform((cw, ch), Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    mask = Image.new("L", (pw, ph), 255).transform((cw, ch), Image.PERSPECTIVE, coeffs, Image.BILINEAR)

    if spec.background == "wood":
        bg = wood_texture(rng, cw, ch)
    elif spec.background == "desk":
        bg = desk_texture(rng, cw, ch)
    else:
        bg = fabric_texture(rng, cw, ch)

    # drop shadow of the page onto the background
    off = int(0.006 * cw) + 2
    sh = Image.new("L", (cw, ch), 0)
    sh.paste(mask, (off, int(off * 1.4)))
    sh = np.asarray(sh.filter(ImageFilter.GaussianBlur(0.012 * cw)), np.float32) / 255.0
    bg = bg * (1 - 0.55 * sh[..., None])

    m = np.asarray(mask, np.float32)[..., None] / 255.0
    img = bg * (1 - m) + np.asarray(warped, np.float32) * m

    # lighting: linear gradient + vignette
    yy, xx = np.mgrid[0:ch, 0:cw].astype(np.float32)
    t = math.radians(spec.light_dir_deg)
    proj = (xx / cw - 0.5) * math.cos(t) + (yy / ch - 0.5) * math.sin(t)
    proj = (proj - proj.min()) / (proj.max() - proj.min())
    r2 = ((xx / cw - 0.5) ** 2 + (yy / ch - 0.5) ** 2) * 2
    light = 1.04 - spec.light_strength * proj - 0.10 * r2
    # soft shadow (phone / hand) covering one lower corner with a blurred edge
    occ = Image.new("L", (cw, ch), 0)
    d = ImageDraw.Draw(occ)
    d.ellipse([cw * 0.55, ch * 0.72, cw * 1.6, ch * 1.5], fill=255)
    occ = np.asarray(occ.filter(ImageFilter.GaussianBlur(0.04 * cw)), np.float32) / 255.0
    light = light * (1 - spec.shadow_strength * occ)
    img = img * light[..., None]

    # lower contrast, warm cast
    mean = 128.0
    img = mean + (img - mean) * spec.contrast
    img = img * np.array([1.0, 0.985, 0.95], np.float32)

    # sensor noise (luma + a little chroma), then lens/denoise blur, then a bit of fine grain
    luma = rng.normal(0, spec.noise, (ch, cw, 1)).astype(np.float32)
    chroma = rng.normal(0, spec.noise * 0.35, (ch, cw, 3)).astype(np.float32)
    img = img + luma + chroma
    out = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB")
    out = out.filter(ImageFilter.GaussianBlur(spec.blur))
    grain = rng.normal(0, 1.2, (ch, cw, 1)).astype(np.float32)
    out = np.clip(np.asarray(out, np.float32) + grain, 0, 255).astype(np.uint8)
    return Image.fromarray(out, "RGB"), corners


def make_scan(page: Image.Image, angle: float, seed: int, paper=(236, 246), ink=28.0,
              noise=2.2, blur=0.55) -> Image.Image:
    """Flatbed scan: rotate (CCW positive, PIL convention), uneven paper, slight blur and noise."""
    rng = np.random.default_rng(seed)
    w, h = page.size
    rot = page.rotate(angle, resample=Image.BICUBIC, expand=False, fillcolor=255)
    rot = rot.filter(ImageFilter.GaussianBlur(blur))
    a = np.asarray(rot, np.float32) / 255.0
    level = paper[0] + (paper[1] - paper[0]) * smooth_noise(rng, h, w, h / 2.5, w / 2.5)
    # the scanner lamp is a bit darker towards one long edge
    level = level - 5.0 * (np.arange(w, dtype=np.float32)[None, :] / w)
    img = ink + (level - ink) * a
    img = img + rng.normal(0, noise, (h, w)).astype(np.float32)
    # a few dust specks
    for _ in range(12):
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        r = rng.uniform(1.0, 2.5)
        yy, xx = np.ogrid[max(0, y - 4):min(h, y + 5), max(0, x - 4):min(w, x + 5)]
        msk = (xx - x) ** 2 + (yy - y) ** 2 <= r * r
        sub = img[max(0, y - 4):min(h, y + 5), max(0, x - 4):min(w, x + 5)]
        sub[msk] = np.minimum(sub[msk], rng.uniform(90, 170))
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "L")


def quantize_gray(img: Image.Image, levels: int) -> Image.Image:
    step = 255.0 / (levels - 1)
    lut = [int(round(round(v / step) * step)) for v in range(256)]
    return img.point(lut)


# ---------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------

def save_jpeg(img: Image.Image, path: Path, quality: int, dpi: int | None = None):
    kw = dict(quality=quality, optimize=True)
    if dpi:
        kw["dpi"] = (dpi, dpi)
    img.save(path, "JPEG", **kw)


def write_text(path: Path, pages: list[list[str]]):
    text = "\f".join("\n".join(lines) + "\n" for lines in pages)
    path.write_text(text, encoding="utf-8")


def write_json(path: Path, obj: dict):
    path.write_text(json.dumps(obj, ensure_ascii=False) + "\n", encoding="utf-8")


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def bomb_png() -> bytes:
    w = h = 100_000
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)  # 8-bit grayscale, no interlace
    rows = zlib.compress(b"\x00" * ((w + 1) * 8), 9)     # first 8 (all-zero) scanlines only
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", rows) + png_chunk(b"IEND", b"")


# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------

PHOTO_SPEC = PhotoSpec(
    canvas=(2160, 2880), center=(1082.0, 1446.0), scale=1.0, rotation_deg=-2.0,
    # keystone: camera tilted, top edge further away -> top corners pulled in; plus a little skew
    offsets=[(0.030, 0.012), (-0.024, 0.016), (0.008, -0.006), (-0.010, -0.004)],
    background="wood", seed=2201, light_dir_deg=35, light_strength=0.22, shadow_strength=0.25,
)

PHOTO2_SPEC = PhotoSpec(
    canvas=(2304, 3072), center=(1150.0, 1540.0), scale=1.0, rotation_deg=4.0,
    offsets=[(0.038, 0.022), (-0.034, 0.030), (0.012, -0.010), (-0.016, -0.006)],
    background="desk", seed=2202, light_dir_deg=-120, light_strength=0.18, shadow_strength=0.2,
    blur=1.0, noise=5.5, contrast=0.8,
)

SAMPLE_PHOTO_SPEC = PhotoSpec(
    canvas=(1800, 2400), center=(905.0, 1205.0), scale=0.94, rotation_deg=3.0,
    offsets=[(0.028, 0.015), (-0.022, 0.010), (0.012, -0.008), (-0.014, -0.004)],
    background="fabric", seed=1001, light_dir_deg=60, light_strength=0.25, shadow_strength=0.3,
    blur=1.1, noise=5.0, contrast=0.78,
)


def generate() -> list[Path]:
    SAMPLES.mkdir(parents=True, exist_ok=True)
    FIXTURES.mkdir(parents=True, exist_ok=True)
    BAD.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    # ---------------- samples ----------------
    (page, _), = render_letter(LETTER_INNKALLING, 200, ink=0)
    photo, _ = make_photo(page, SAMPLE_PHOTO_SPEC)
    p = SAMPLES / "innkalling-foto.jpg"
    save_jpeg(photo, p, 80)
    written.append(p)

    pages = render_letter(LETTER_EPIKRISE, 300, ink=0)
    for i, ((pg, _), angle) in enumerate(zip(pages, [1.5, -0.8]), start=1):
        scan = make_scan(pg, angle, seed=1100 + i, paper=(228, 244), noise=1.6)
        p = SAMPLES / f"epikrise-skann_p{i}.jpg"
        save_jpeg(scan, p, 85, dpi=300)
        written.append(p)

    (page, _), = render_letter(LETTER_LABSVAR, 300, ink=0)
    p = SAMPLES / "labsvar-ren.png"
    quantize_gray(page, 8).save(p, "PNG", optimize=True, dpi=(300, 300))
    written.append(p)

    (page, _), = render_letter(LETTER_RESEPT, 200, ink=0)
    p = SAMPLES / "resept-skannet.pdf"
    p.write_bytes(scanned_pdf([make_scan(page, 0.7, seed=1201, paper=(232, 246), noise=1.4)], 200, 70))
    written.append(p)

    data, _ = digital_pdf(DIGITAL_VEDTAK)
    p = SAMPLES / "vedtak-digital.pdf"
    p.write_bytes(data)
    written.append(p)

    # ---------------- fixtures ----------------
    (page, lines), = render_letter(LETTER_CLEAN, 300, ink=0)
    p = FIXTURES / "clean.png"
    quantize_gray(page, 16).save(p, "PNG", optimize=True, dpi=(300, 300))
    write_text(FIXTURES / "clean.txt", [lines])
    write_json(FIXTURES / "clean.json", {"dpi": 300, "fnr": CLEAN_FNR})
    written += [p, FIXTURES / "clean.txt", FIXTURES / "clean.json"]

    for name, letter, angle, seed in [("skew", LETTER_SKEW, 1.7, 2101), ("skew-neg", LETTER_SKEW_NEG, -2.3, 2102)]:
        (page, lines), = render_letter(letter, 300, ink=0)
        scan = make_scan(page, angle, seed=seed)
        p = FIXTURES / f"{name}.jpg"
        save_jpeg(scan, p, 88, dpi=300)
        write_text(FIXTURES / f"{name}.txt", [lines])
        write_json(FIXTURES / f"{name}.json", {"rotation_deg": angle, "dpi": 300})
        written += [p, FIXTURES / f"{name}.txt", FIXTURES / f"{name}.json"]

    for name, letter, spec in [("photo", LETTER_PHOTO, PHOTO_SPEC), ("photo2", LETTER_PHOTO2, PHOTO2_SPEC)]:
        (page, lines), = render_letter(letter, 220, ink=0)
        img, corners = make_photo(page, spec)
        p = FIXTURES / f"{name}.jpg"
        save_jpeg(img, p, 80)
        write_text(FIXTURES / f"{name}.txt", [lines])
        write_json(FIXTURES / f"{name}.json", {
            "canvas": list(spec.canvas),
            "page_corners": corners,
            "rotation_deg": spec.rotation_deg,
            "page_dpi": 220,
            "page_size_px": list(page.size),
        })
        written += [p, FIXTURES / f"{name}.txt", FIXTURES / f"{name}.json"]

    pages = render_letter(LETTER_TWOPAGE, 300, ink=0)
    bw = [pg.point(lambda v: 255 if v >= 128 else 0).convert("1") for pg, _ in pages]
    p = FIXTURES / "twopage.tif"
    bw[0].save(p, "TIFF", save_all=True, append_images=bw[1:], compression="group4", dpi=(300, 300))
    write_text(FIXTURES / "twopage.txt", [ln for _, ln in pages])
    write_json(FIXTURES / "twopage.json", {"dpi": 300, "pages": len(pages)})
    written += [p, FIXTURES / "twopage.txt", FIXTURES / "twopage.json"]

    # ---------------- bad inputs ----------------
    p = BAD / "empty.jpg"
    p.write_bytes(b"")
    written.append(p)

    # truncated: a real JPEG (a small scanned page) cut after one third of its bytes
    (page, _), = render_letter(LETTER_SKEW, 150, ink=0)
    buf = io.BytesIO()
    make_scan(page, 0.6, seed=3001).save(buf, "JPEG", quality=85, dpi=(150, 150))
    data = buf.getvalue()
    p = BAD / "truncated.jpg"
    p.write_bytes(data[: len(data) // 3])
    written.append(p)

    p = BAD / "not-an-image.png"
    p.write_text("Dette er ikke et bilde, men en vanlig tekstfil med norsk tekst.\n"
                 "Filen har fått endelsen .png ved en feil under eksporten.\n"
                 "Særnorske bokstaver: æ, ø og å (Æ, Ø og Å).\n", encoding="utf-8")
    written.append(p)

    rng = np.random.default_rng(3002)
    w, h = round(A4_MM[0] / 25.4 * 150), round(A4_MM[1] / 25.4 * 150)
    blank = 243 + 6 * (smooth_noise(rng, h, w, h / 2, w / 2) - 0.5) + rng.normal(0, 1.6, (h, w))
    p = BAD / "blank-page.jpg"
    save_jpeg(Image.fromarray(np.clip(blank, 0, 255).astype(np.uint8), "L"), p, 85, dpi=150)
    written.append(p)

    rng = np.random.default_rng(3003)
    tw, th = 1200, 1600
    table = wood_texture(rng, tw, th, dark=(88, 58, 34), light=(170, 122, 78))
    yy, xx = np.mgrid[0:th, 0:tw].astype(np.float32)
    table *= (1.05 - 0.25 * (xx / tw * 0.4 + yy / th * 0.6))[..., None]
    table += rng.normal(0, 4, (th, tw, 1))
    img = Image.fromarray(np.clip(table, 0, 255).astype(np.uint8), "RGB").filter(ImageFilter.GaussianBlur(0.9))
    p = BAD / "noise-photo.jpg"
    save_jpeg(img, p, 80)
    written.append(p)

    p = BAD / "bomb.png"
    p.write_bytes(bomb_png())
    written.append(p)

    p = BAD / "expected.json"
    write_json(p, {
        "empty.jpg": ["reject"],
        "truncated.jpg": ["reject"],
        "not-an-image.png": ["reject"],
        "bomb.png": ["reject"],
        "blank-page.jpg": ["no_text", "reject"],
        "noise-photo.jpg": ["no_text", "reject"],
    })
    written.append(p)
    return written


EXPECTED = [
    "samples/innkalling-foto.jpg",
    "samples/epikrise-skann_p1.jpg",
    "samples/epikrise-skann_p2.jpg",
    "samples/labsvar-ren.png",
    "samples/resept-skannet.pdf",
    "samples/vedtak-digital.pdf",
    *[f"Tests/Fixtures/{n}.{e}" for n, ext in [("clean", "png"), ("skew", "jpg"), ("skew-neg", "jpg"),
                                              ("photo", "jpg"), ("photo2", "jpg"), ("twopage", "tif")]
      for e in (ext, "txt", "json")],
    *[f"Tests/Fixtures/bad/{n}" for n in ["empty.jpg", "truncated.jpg", "not-an-image.png",
                                           "blank-page.jpg", "noise-photo.jpg", "bomb.png", "expected.json"]],
]


def describe(path: Path) -> str:
    rel = path.relative_to(ROOT)
    size = path.stat().st_size
    info = ""
    if path.suffix in (".jpg", ".png", ".tif") and "bad" not in path.parts:
        with Image.open(path) as im:
            n = getattr(im, "n_frames", 1)
            info = f"{im.size[0]}x{im.size[1]} {im.mode}" + (f" {n} pages" if n > 1 else "")
    elif path.suffix == ".json":
        info = path.read_text(encoding="utf-8").strip()
        if len(info) > 90:
            info = info[:87] + "..."
    elif path.suffix == ".txt":
        info = f"{path.read_text(encoding='utf-8').count(chr(10))} lines"
    return f"{str(rel):40s} {size:>9d} B  {info}"


def check() -> int:
    missing = []
    for rel in EXPECTED:
        p = ROOT / rel
        if not p.exists():
            missing.append(rel)
            print(f"MISSING {rel}")
            continue
        print(describe(p))
    for name in ["clean", "skew", "skew-neg", "photo", "photo2", "twopage"]:
        json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8")) if (FIXTURES / f"{name}.json").exists() else None
    if (FIXTURES / "clean.json").exists():
        fnr = json.loads((FIXTURES / "clean.json").read_text(encoding="utf-8"))["fnr"]
        if not fnr_is_valid(fnr):
            print(f"INVALID fnr in clean.json: {fnr}")
            missing.append("clean.json:fnr")
    if missing:
        print(f"check FAILED: {len(missing)} problem(s)")
        return 1
    print(f"check OK: {len(EXPECTED)} files")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only verify that the generated files exist")
    args = ap.parse_args()
    if args.check:
        return check()
    generate()
    return check()


if __name__ == "__main__":
    sys.exit(main())
