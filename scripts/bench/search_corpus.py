#!/usr/bin/env python3
"""Synthetic letters and queries for the search benchmark (Python 3.11, standard library only).

Usage:
    python3 scripts/bench/search_corpus.py --bank ../shared/corpus/bank_dev.py --n 100000 --seed 1 \\
        --docs OUT/docs.jsonl --queries OUT/queries.jsonl --nqueries 1000 [--jobs N]

Letters are built from a template bank (the corpus generator's bank API, see the docstring of
bank_dev.py), loaded by path at run time: institutions, specialties with their cases, drugs, lab
analyses, labels, closings and the letter templates.  Nothing is rendered; each letter is plain text
in reading order: letterhead, date line, recipient address, reference/date block, title, patient line
(name and birth date, never a fødselsnummer), body from the filled template, closing, signature,
footer.  The script adds its own small lists of Norwegian names, streets and post places, and a
few extra diagnoses, drugs and lab analyses so that the vocabulary is wider than the bank alone.

docs.jsonl, one object per line (line number = document number, 0-based):
    title         "YYYY-MM-DD Epikrise ortopedi St. Olavs hospital"
    text          the letter (about 1.5-2.5 KB)
    docType       innkalling | epikrise | lab-svar | resept | henvisning | vedtak | annet
    person        the patient's name ("Given Last"); familyMember the household member or null
    institution   issuing institution (canonical name); specialty or null
    documentDate  ISO date of the letter (2015-2025); scanDate a few days to weeks later
    keywords      3-6 distinctive words or short phrases (type word, specialty, diagnosis, drugs, ...)
75 % of the letters are about a household of four (two adults, two children born 2008-2013), the
rest about other people.

queries.jsonl: {"query", "kind", "person", "type", "from", "to", "target"}; kind is one of
keywords (35 %), single (15 %), phrase (10 %), prefix (10 %), filtered (10 %), boolean (10 %),
name (5 %), garbage (5 %); target is the 0-based line of the document the query was made from
(null for garbage).  Query terms are taken from words that occur in the target's text, except for
deliberately inflected forms (-en/-et/-ene, dropped final e), the right side of NOT, and name queries,
which use the household's name for the person (the letter may print it without the middle name).

Output is deterministic for (bank, seed, n); every document depends only on (bank, seed, its
number), so documents 0..k-1 are the same for any n > k, and the number of worker processes
(--jobs) does not change anything.  A one-line summary goes to stderr.
"""
import argparse
import collections
import datetime as dt
import hashlib
import importlib.util
import json
import multiprocessing as mp
import os
import random
import re
import sys
import time

DOC_TYPES = ["innkalling", "epikrise", "lab-svar", "resept", "henvisning", "vedtak", "annet"]
TYPE_WEIGHTS = [20, 18, 16, 12, 11, 10, 13]
TITLE_WORD = {"innkalling": "Innkalling", "epikrise": "Epikrise", "lab-svar": "Prøvesvar", "resept": "Resept",
              "henvisning": "Henvisning", "vedtak": "Vedtak", "annet": "Brev"}
FIRST_DAY, LAST_DAY = dt.date(2015, 1, 5), dt.date(2025, 6, 27)

# ---------------------------------------------------------------------------------------------
# built-in vocabulary (names, places, a few extra diagnoses/drugs/analyses)
# ---------------------------------------------------------------------------------------------
FEMALE = ("Anne Inger Kari Marit Ingrid Liv Eva Berit Astrid Bjørg Hilde Anna Solveig Marianne Randi Ida Nina "
          "Maria Elisabeth Kristin Bente Heidi Silje Hanne Gunn Tone Ragnhild Camilla Ellen Emma Nora Sofie Sara "
          "Thea Ingeborg Julie Maja Linnea Tuva Vilde Hedda Frida Mathilde Ane Siri Kjersti Torill Grete Wenche "
          "Lene Mona Turid Sigrid Ella Olivia Aurora Selma Live Åse Synnøve Oda Guro Marte Karoline").split()
MALE = ("Jan Per Bjørn Ole Lars Kjell Knut Arne Svein Thomas Hans Geir Tor Morten Terje Odd Martin Erik Andreas "
        "Rune Trond Harald Olav Jon Tore Stian Espen Anders Magnus Kristian Jonas Henrik Marius Sander Emil "
        "Tobias Elias Jakob Filip Mathias Sindre Eirik Øyvind Håkon Aksel Ludvig Oskar Noah William Vegard "
        "Gunnar Sigurd Ivar Leif Steinar Frode Roar Asbjørn Einar Halvor Torbjørn Even Audun").split()
LAST = ("Hansen Johansen Olsen Larsen Andersen Pedersen Nilsen Kristiansen Jensen Karlsen Johnsen Pettersen "
        "Eriksen Berg Haugen Hagen Johannessen Andreassen Jacobsen Dahl Jørgensen Halvorsen Henriksen Lund "
        "Sørensen Jakobsen Moen Gundersen Iversen Strand Solberg Svendsen Eide Knutsen Martinsen Paulsen Bakken "
        "Kristoffersen Mathisen Lie Amundsen Nguyen Rasmussen Ali Lunde Solheim Berge Moe Nygård Bakke "
        "Kristensen Fredriksen Holm Lien Hauge Christensen Andresen Nielsen Knudsen Evensen Sæther Aas Myhre "
        "Hanssen Ahmed Haugland Thomassen Sivertsen Simonsen Danielsen Berntsen Sandvik Rønning Arnesen Antonsen "
        "Næss Vik Haug Ellingsen Thorsen Edvardsen Birkeland Isaksen Gulbrandsen Ruud Aasen Strøm Myklebust "
        "Tangen Ødegård Eliassen Helland Bøe Jenssen Aune Mikkelsen Tveit Brekke Abrahamsen Madsen Engen Vold "
        "Fossum Grønli Hovland Fjeld Skogen Stene Kvalheim Lindqvist Rustad Kaur Hussain Kowalski").split()
STREETS = ("Storgata|Kirkegata|Skolegata|Bjørkeveien|Granveien|Furulia|Solbakken|Nedre Bakklandet|Kongens gate|"
           "Havnegata|Elvegata|Fjellveien|Lyngveien|Tunveien|Åsveien|Bekkefaret|Einerveien|Rosenborggata|"
           "Prestegårdsveien|Kløverveien|Skoleveien|Løvåsveien|Marienlyst|Sandviksveien|Sjøgata|Bakkeveien|"
           "Ringveien|Hovsveien|Lillevollen|Tollbugata|Blåbærstien|Rypeveien|Ekornveien|Grenseveien|"
           "Jernbanegata|Møllevegen|Steinhaugen|Utsikten|Tyttebærveien|Nordre gate").split("|")
POSTPLACES = [("0152", "OSLO"), ("0467", "OSLO"), ("0661", "OSLO"), ("1156", "OSLO"), ("7030", "TRONDHEIM"),
              ("7045", "TRONDHEIM"), ("5003", "BERGEN"), ("5096", "BERGEN"), ("4010", "STAVANGER"),
              ("9008", "TROMSØ"), ("1606", "FREDRIKSTAD"), ("4608", "KRISTIANSAND S"), ("3015", "DRAMMEN"),
              ("1337", "SANDVIKA"), ("2317", "HAMAR"), ("8006", "BODØ"), ("6002", "ÅLESUND"), ("2609", "LILLEHAMMER"),
              ("1473", "LØRENSKOG"), ("3110", "TØNSBERG"), ("6800", "FØRDE"), ("5700", "VOSS"), ("7600", "LEVANGER"),
              ("1530", "MOSS"), ("4836", "ARENDAL"), ("1710", "SARPSBORG"), ("3717", "SKIEN"), ("4306", "SANDNES")]
MONTHS = ["januar", "februar", "mars", "april", "mai", "juni", "juli", "august", "september", "oktober",
          "november", "desember"]
WEEKDAYS = {"nb": ["mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag", "søndag"],
            "nn": ["måndag", "tysdag", "onsdag", "torsdag", "fredag", "laurdag", "sundag"]}
# (ICD-10, Norwegian text, audience): extra diagnoses listed after the main one (Bokmål letters)
EXTRA_DIAGNOSES = [
    ("I10", "Essensiell hypertensjon", "adult"), ("E11.9", "Diabetes mellitus type 2 uten komplikasjoner", "adult"),
    ("E03.9", "Hypotyreose", "adult"), ("E78.0", "Hyperkolesterolemi", "adult"),
    ("J44.9", "Kronisk obstruktiv lungesykdom", "adult"), ("F32.1", "Moderat depressiv episode", "adult"),
    ("F41.1", "Generalisert angstlidelse", "adult"), ("M54.5", "Lumbago", "adult"), ("M79.7", "Fibromyalgi", "adult"),
    ("K29.7", "Gastritt", "adult"), ("N39.0", "Urinveisinfeksjon", "any"), ("E66.9", "Fedme", "adult"),
    ("G47.3", "Søvnapné", "adult"), ("M81.9", "Osteoporose", "adult"), ("D50.9", "Jernmangelanemi", "any"),
    ("E55.9", "D-vitaminmangel", "any"), ("I25.1", "Aterosklerotisk hjertesykdom", "adult"),
    ("K57.3", "Divertikulose i tykktarmen", "adult"), ("M10.9", "Urinsyregikt", "adult"),
    ("H40.1", "Primært åpenvinkelglaukom", "adult"), ("L70.0", "Acne vulgaris", "any"),
    ("G56.0", "Karpaltunnelsyndrom", "adult"), ("M19.9", "Artrose", "adult"), ("F90.0", "ADHD", "any"),
    ("B35.1", "Neglesopp", "adult"), ("I83.9", "Åreknuter i bena", "adult"), ("K80.2", "Gallestein", "adult"),
    ("R51", "Hodepine", "any"), ("I26.9", "Lungeemboli", "adult"), ("E04.1", "Thyreoideaknute", "adult"),
    ("M35.3", "Polymyalgia revmatika", "adult"), ("K58.9", "Irritabel tarm-syndrom", "adult"),
    ("L50.0", "Allergisk urtikaria", "any"), ("J06.9", "Akutt øvre luftveisinfeksjon", "any"),
    ("H10.1", "Allergisk konjunktivitt", "any"), ("M06.9", "Revmatoid artritt", "adult"),
    ("Z95.0", "Pacemaker", "adult"), ("Z88.0", "Penicillinallergi", "any"),
]
# name, strength, form, dose, use: extra general drugs for adults (Bokmål letters)
EXTRA_DRUGS = [
    ("Metformin", "500 mg", "tablett", "1 tablett morgen og kveld til maten", "diabetes type 2"),
    ("Amlodipin", "5 mg", "tablett", "1 tablett daglig", "høyt blodtrykk"),
    ("Losartan", "50 mg", "tablett", "1 tablett daglig", "høyt blodtrykk"),
    ("Simvastatin", "20 mg", "tablett", "1 tablett om kvelden", "høyt kolesterol"),
    ("Sertralin", "50 mg", "tablett", "1 tablett daglig", "depresjon og angst"),
    ("Escitalopram", "10 mg", "tablett", "1 tablett om morgenen", "depresjon"),
    ("Pantoprazol", "40 mg", "enterotablett", "1 tablett daglig før frokost", "sure oppstøt"),
    ("Zopiklon", "5 mg", "tablett", "1 tablett ved behov til natten, høyst 3 netter i uken", "søvnvansker"),
    ("Furosemid", "40 mg", "tablett", "1 tablett om morgenen", "vanndrivende"),
    ("Marevan", "2,5 mg", "tablett", "etter INR-skjema", "blodfortynnende"),
    ("Xarelto", "20 mg", "tablett", "1 tablett daglig sammen med mat", "forebygging av blodpropp"),
    ("Allopurinol", "100 mg", "tablett", "2 tabletter daglig", "urinsyregikt"),
    ("Prednisolon", "5 mg", "tablett", "2 tabletter om morgenen, nedtrappes etter skjema", "betennelse"),
    ("Alendronat", "70 mg", "tablett", "1 tablett én gang i uken, fastende", "benskjørhet"),
    ("Calcigran Forte", "1000 mg/800 IE", "tyggetablett", "1 tablett daglig", "kalsium og vitamin D"),
    ("Duroferon", "100 mg", "depottablett", "1 tablett daglig", "jernmangel"),
    ("Symbicort", "160/4,5 mikrog", "inhalasjonspulver", "2 inhalasjoner morgen og kveld", "astma og KOLS"),
    ("Spiriva Respimat", "2,5 mikrog", "inhalasjonsvæske", "2 inhalasjoner daglig", "KOLS"),
    ("Laxoberal", "7,5 mg/ml", "dråper", "10–20 dråper om kvelden ved behov", "forstoppelse"),
    ("Tramadol", "50 mg", "kapsel", "1 kapsel inntil 3 ganger daglig ved behov", "smerter"),
    ("Naproxen", "250 mg", "tablett", "1 tablett morgen og kveld med mat", "smerter og betennelse"),
    ("Voltaren", "11,6 mg/g", "gel", "smøres på smertestedet 3 ganger daglig", "lokale smerter"),
    ("Desloratadin", "5 mg", "tablett", "1 tablett daglig i pollensesongen", "allergi"),
    ("Avamys", "27,5 mikrog/dose", "nesespray", "2 spraydoser i hvert nesebor daglig", "allergisk rhinitt"),
    ("Nitroglycerin", "0,25 mg", "resoriblett", "1 resoriblett under tungen ved brystsmerter", "brystsmerter"),
    ("Jardiance", "10 mg", "tablett", "1 tablett daglig", "diabetes type 2"),
    ("Ozempic", "0,5 mg", "injeksjon (penn)", "1 injeksjon én gang i uken", "diabetes type 2"),
    ("Lyrica", "75 mg", "kapsel", "1 kapsel morgen og kveld", "nervesmerter"),
    ("Amitriptylin", "10 mg", "tablett", "1 tablett om kvelden", "nervesmerter og søvn"),
    ("Melatonin", "3 mg", "tablett", "1 tablett en halv time før sengetid", "søvnvansker"),
    ("Divisun", "800 IE", "tablett", "1 tablett daglig", "D-vitaminmangel"),
    ("Behepan", "1 mg", "tablett", "1 tablett daglig", "B12-mangel"),
    ("Tamsulosin", "0,4 mg", "depotkapsel", "1 kapsel daglig", "vannlatingsplager"),
    ("Trimetoprim", "160 mg", "tablett", "1 tablett morgen og kveld i 3 dager", "urinveisinfeksjon"),
    ("Apocillin", "660 mg", "tablett", "2 tabletter 4 ganger daglig i 7 dager", "bakteriell infeksjon"),
    ("Doksysyklin", "100 mg", "tablett", "2 tabletter første dag, deretter 1 tablett daglig", "luftveisinfeksjon"),
]
# name, unit, lo, hi, decimals: extra analyses (None = open range)
EXTRA_LAB = [("Glukose", "mmol/L", 4.0, 6.0, 1), ("ASAT", "U/L", 15, 45, 0), ("GT", "U/L", 10, 80, 0),
             ("ALP", "U/L", 35, 105, 0), ("Bilirubin", "µmol/L", 5, 25, 0), ("Albumin", "g/L", 36, 48, 0),
             ("Kalsium", "mmol/L", 2.15, 2.51, 2), ("Magnesium", "mmol/L", 0.71, 0.94, 2),
             ("Urat", "µmol/L", 155, 480, 0), ("Vitamin B12", "pmol/L", 150, 650, 0), ("Folat", "nmol/L", 10, None, 0),
             ("HDL-kolesterol", "mmol/L", 1.0, None, 1), ("Triglyserider", "mmol/L", None, 1.7, 1),
             ("SR", "mm/t", None, 20, 0), ("PSA", "µg/L", None, 4.0, 1), ("Jern", "µmol/L", 9, 34, 0)]
# generic paragraphs (notices that real letters carry) that bring a letter to its drawn length
_GEN_NB = ["Du kan lese brev fra oss og sende meldinger på helsenorge.no. Der finner du også journalen din og "
           "oversikt over timene dine.",
           "Opplysningene i dette brevet er taushetsbelagt. Oppbevar brevet slik at uvedkommende ikke får tilgang til det.",
           "Har du behov for tolk, ber vi deg gi beskjed i god tid, slik at vi kan bestille tolk. Tolketjenesten er "
           "gratis for deg.",
           "Dersom du har spørsmål til innholdet i brevet, kan du kontakte oss på telefon {inst_phone} mellom "
           "kl. 08.00 og 15.00 på hverdager.",
           "Vi behandler personopplysninger i samsvar med personvernforordningen og pasientjournalloven. Du kan lese "
           "mer om personvern på {inst_web}.",
           "Du har rett til innsyn i journalen din og kan be om retting dersom du mener at opplysninger er feil "
           "eller mangelfulle.",
           "Dette brevet er også sendt digitalt. Du trenger ikke å svare på det dersom opplysningene stemmer."]
_GEN_NN = ["Du kan lese brev frå oss og sende meldingar på helsenorge.no. Der finn du også journalen din.",
           "Opplysningane i dette brevet er teiepliktige. Ta vare på brevet slik at ingen andre får tilgang til det.",
           "Dersom du treng tolk, gi beskjed i god tid, så vi kan bestille tolk. Tolketenesta er gratis for deg.",
           "Har du spørsmål til innhaldet i brevet, kan du ringje oss på telefon {inst_phone} mellom kl. 08.00 og 15.00.",
           "Du har rett til innsyn i journalen din og kan be om retting dersom du meiner at opplysningar er feil."]
EXTRA_P = {
    ("nb", "innkalling"): [
        "Har du behov for transport, kan du ha rett til å få dekket reiseutgifter. Ring Pasientreiser på telefon "
        "915 12 800, eller søk på helsenorge.no innen seks måneder etter behandlingen.",
        "Det er begrenset med parkeringsplasser ved {inst}. Vi anbefaler at du reiser kollektivt eller setter av "
        "god tid til parkering.",
        "Dersom du får feber eller symptomer på luftveisinfeksjon de siste dagene før timen, ber vi deg ringe oss "
        "før du møter opp.",
        "Ventetiden i ekspedisjonen kan variere. Sett av god tid, da det kan bli behov for blodprøver eller andre "
        "undersøkelser samme dag.",
        "Ta gjerne med deg en pårørende eller en annen person du stoler på, dersom du ønsker det."],
    ("nb", "epikrise"): [
        "Epikrisen er skrevet på bakgrunn av journalnotater fra oppholdet og er sendt til fastlege og henvisende lege.",
        "Pasienten er informert om resultatet av undersøkelsene og om den videre planen, og har fått skriftlig "
        "informasjon med hjem.",
        "Ved spørsmål om oppholdet kan fastlegen kontakte vakthavende lege ved {dept} via sentralbordet på {inst_phone}.",
        "Sykmelding er gitt for to uker. Behov for videre sykmelding vurderes av fastlegen.",
        "Pasienten er orientert om å ta kontakt med fastlegen eller legevakten ved forverring."],
    ("nb", "lab-svar"): [
        "Resultater merket med H eller L ligger utenfor referanseområdet. Enkeltverdier utenfor området trenger "
        "ikke å bety sykdom.",
        "Prøvesvarene vurderes av legen din sammen med sykehistorien og eventuelle tidligere resultater.",
        "Referanseområdene gjelder for voksne og kan være annerledes for barn og gravide.",
        "Ved mistanke om feil ved prøvetakingen eller forsendelsen bør prøven tas på nytt."],
    ("nb", "resept"): [
        "Reseptene er gyldige i ett år fra forskrivningsdato. Du kan hente legemidlene på et hvilket som helst apotek.",
        "Les pakningsvedlegget før du begynner å bruke et nytt legemiddel. Spør apoteket dersom noe er uklart.",
        "Ta med legemiddellisten når du skal til lege, tannlege eller sykehus, slik at behandlerne vet hvilke "
        "medisiner du bruker.",
        "Blå resept gir rett til refusjon fra folketrygden. Du betaler en egenandel som teller med mot egenandelstaket."],
    ("nb", "henvisning"): [
        "Pasienten er informert om forventet ventetid og om retten til fritt behandlingsvalg.",
        "Kopi av henvisningen er sendt til pasienten. Relevante journalnotater og prøvesvar kan ettersendes ved behov.",
        "Ta gjerne kontakt med undertegnede dersom det er behov for utfyllende opplysninger.",
        "Pasienten ønsker primært time ved nærmeste sykehus, men kan også møte andre steder dersom det gir kortere "
        "ventetid."],
    ("nb", "vedtak"): [
        "Du har plikt til å gi beskjed dersom situasjonen din endrer seg, slik at vi kan vurdere saken på nytt.",
        "Du har rett til å få veiledning om hvordan du klager, og du kan få hjelp til å skrive klagen.",
        "Vedtaket kan bli endret dersom det kommer fram nye opplysninger som har betydning for saken.",
        "Hvis du klager, bør du legge ved dokumentasjon som du mener er viktig for saken."],
    ("nb", "annet"): [
        "Ta kontakt med oss dersom du har spørsmål. Vi svarer på henvendelser på hverdager mellom kl. 08.00 og 15.00."],
    ("nn", "innkalling"): [
        "Har du behov for transport, kan du ha rett til å få dekt reiseutgifter. Ring Pasientreiser på 915 12 800.",
        "Det er avgrensa med parkeringsplassar ved sjukehuset. Vi rår deg til å reise kollektivt."],
    ("nn", "epikrise"): [
        "Epikrisen er skriven på bakgrunn av journalnotat frå opphaldet og er send til fastlegen.",
        "Pasienten er orientert om å ta kontakt med fastlegen eller legevakta dersom tilstanden blir verre."],
    ("nn", "vedtak"): [
        "Du har plikt til å gi beskjed dersom situasjonen din endrar seg, slik at vi kan vurdere saka på nytt.",
        "Du har rett til rettleiing om korleis du klagar, og du kan få hjelp til å skrive klaga."],
}
GENERIC_P = {"nb": _GEN_NB, "nn": _GEN_NN}
COPY_TO = {"nb": ["Kopi til: pasienten", "Kopi: fastlege", "Kopi til: {gp_office}", "Kopi: journal"],
           "nn": ["Kopi til: pasienten", "Kopi: fastlege"]}
# case-independent details that letters of a type carry (Bokmål; a few in Nynorsk)
JOBS = ("lærer sykepleier snekker elektriker regnskapsfører butikkmedarbeider ingeniør barnehageassistent "
        "bussjåfør frisør kokk rørlegger selger renholder konsulent vekter fysioterapeut økonom lagermedarbeider "
        "helsefagarbeider journalist bonde fisker student saksbehandler tannlege politibetjent maler "
        "anleggsarbeider prosjektleder apotektekniker bibliotekar mekaniker").split()
SOCIAL_NB = ["Bor sammen med ektefelle og to barn. Arbeider som {job}.", "Bor alene i leilighet. Pensjonert {job}.",
             "Gift, tre voksne barn. Arbeider som {job} i full stilling.",
             "Samboer, arbeider som {job}. Røyker ikke, bruker lite alkohol.",
             "{widow}, bor i omsorgsbolig med hjemmesykepleie en gang daglig.",
             "Bor med familien i enebolig. Arbeider som {job}, for tiden 50 % sykmeldt.",
             "Tidligere røyker, sluttet for ti år siden. Arbeider som {job}."]
SOCIAL_CHILD = ["Går i {grade}. klasse. Bor sammen med mor, far og søsken.",
                "Går i {grade}. klasse og trives på skolen. Foreldrene er separert, delt bosted.",
                "Driver med fotball og svømming. Går i {grade}. klasse."]
SOCIAL_SMALL = ["Går i barnehage. Bor med begge foreldrene.", "Går i barnehage fire dager i uken. Har en eldre søster."]
SOCIAL_TEEN = ["Går på videregående skole, studieforberedende. Bor hjemme.", "Går på yrkesfag og trives godt. Bor hjemme."]
ALLERGY_NB = ["Ingen kjente legemiddelallergier.", "Penicillinallergi (utslett).", "Allergi mot nøtter og pollen.",
              "Overfølsom for plaster og lateks.", "Ingen kjente allergier.", "Laktoseintoleranse, ingen legemiddelallergier."]
LAB_COMMENT_NB = ["Fastende prøve.", "Prøven er tatt ikke-fastende; glukose og triglyserider må tolkes med forsiktighet.",
                  "Lett forhøyet CRP kan passe med pågående infeksjon.", "Kontroll av {lab1} anbefales om tre måneder.",
                  "{lab1} er analysert på nytt med samme resultat.", "Prøven ble mottatt senere enn anbefalt.",
                  "Kontakt laboratoriet dersom det er behov for tilleggsanalyser innen sju dager."]
ATTACH_NB = {"innkalling": ["Kart og veibeskrivelse", "Informasjon om undersøkelsen", "Skjema om helseopplysninger",
                            "Informasjon om parkering", "Brosjyre om {poli}"],
             "epikrise": ["Operasjonsbeskrivelse", "Prøvesvar fra oppholdet", "Legemiddelliste",
                          "Sykmelding", "Skriftlig informasjon til pasienten"],
             "henvisning": ["Prøvesvar", "Legemiddelliste", "Tidligere epikrise fra {target_inst}", "Røntgensvar"],
             "vedtak": ["Kopi av søknaden", "Informasjon om klagerett", "Oversikt over satser"],
             "resept": ["Legemiddelliste", "Pakningsvedlegg"], "lab-svar": [], "annet": ["Giro", "Informasjonsbrosjyre"]}


FAMILY_SOCIAL = ["Gift, to barn. Arbeider som {job}.", "Bor sammen med ektefelle og to barn. Arbeider som {job}.",
                 "Samboer, to barn. Arbeider som {job} i full stilling."]


def supplement(rng, doctype, lang, ctx, age, sex, lab_used, fixed=None):
    """Extra lines with details a real letter of this type carries (Bokmål letters only).
    fixed: (social index, job, allergy) for a household member, so that their letters agree."""
    if lang != "nb":
        return []
    out = []
    if doctype in ("epikrise", "henvisning") and rng.random() < 0.8:
        lst = (FAMILY_SOCIAL if fixed else SOCIAL_NB) if age >= 18 else SOCIAL_TEEN if age >= 16 else \
            SOCIAL_CHILD if age >= 6 else SOCIAL_SMALL
        social = lst[fixed[0] % len(lst)] if fixed else rng.choice(lst)
        job = fixed[1] if fixed else rng.choice(JOBS)
        out.append("Sosialt: " + social.format(job=job, grade=max(1, min(10, age - 5)),
                                               widow="Enke" if sex == "F" else "Enkemann"))
        out.append("Allergier: " + (fixed[2] if fixed else rng.choice(ALLERGY_NB)))
        if rng.random() < 0.6:
            h = 76 + 6 * age + rng.randint(-6, 6) if age < 16 else rng.randint(152, 196)
            out.append(f"Vekt {ctx['weight']} kg, høyde {h} cm. SpO2 {ctx['spo2']} %.")
    if doctype == "lab-svar" and lab_used:
        out.append("Kommentar: " + rng.choice(LAB_COMMENT_NB).format(lab1=rng.choice(lab_used)))
    if doctype == "resept" and rng.random() < 0.7:
        out.append("Allergier: " + (fixed[2] if fixed else rng.choice(ALLERGY_NB)))
        out.append(f"Forskrivende lege: {ctx['fastlege']}, HPR-nr. {rng.randint(1000000, 9999999)}")
    if doctype == "vedtak" and rng.random() < 0.7:
        out.append(f"Saksnummer: {ctx['saksnr']}")
    att = [x for x in ATTACH_NB.get(doctype, []) if age >= 18 or x != "Sykmelding"]
    if att and rng.random() < 0.55:
        picks = rng.sample(att, min(len(att), rng.randint(1, 3)))
        out.append("Vedlegg:")
        out += [f"- {fill(x, ctx)}" for x in picks]
    return out


STOP = set(("og i på av til med for fra som er at en et ei den det de om ved etter før under over har ikke kan "
            "skal vil blir ble var seg sin sitt sine du deg dere vi oss han hun ho hans hennes eller men når "
            "dersom også eit frå ikkje etter eller ein dei vore vart blir gjeld").split())


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
MISSING = collections.Counter()   # placeholders a template used that the context does not know


class Ctx(dict):
    """Template context: an unknown placeholder gets a sensible generic value instead of an error."""

    def __missing__(self, key):
        MISSING[key] += 1
        k = key.lower()
        if "date" in k or "dato" in k:
            v = dict.get(self, "date_dmy0", "01.01.2020")
        elif "time" in k or "tid" in k or "klokke" in k:
            v = "10.00"
        elif "phone" in k or "tlf" in k or "telefon" in k:
            v = dict.get(self, "inst_phone", "")
        elif "name" in k or "navn" in k or "patient" in k or "pasient" in k:
            v = dict.get(self, "patient", "pasienten")
        elif "inst" in k:
            v = dict.get(self, "inst", "")
        elif "amount" in k or "belop" in k or "beløp" in k:
            v = "375,00"
        elif k.endswith(("no", "nr", "ref", "number")):
            v = str(1000 + int(hashlib.md5(key.encode()).hexdigest()[:4], 16))
        else:
            v = "ikke oppgitt"
        self[key] = v
        return v


def fill(text, ctx):
    """Fill {placeholders} twice (values may hold placeholders); malformed text is returned as is."""
    if "{" not in text:
        return text
    try:
        out = text.format_map(ctx)
        if "{" in out:
            out = out.format_map(ctx)
        return out
    except (ValueError, IndexError, AttributeError, TypeError):
        # malformed braces somewhere: fill the plain {name} placeholders one by one, keep the rest as printed
        return _PLACEHOLDER.sub(lambda m: str(ctx[m.group(1)]), text)


_DOUBLED = re.compile(r"\b(\w+) \1\b")     # "Paracet mikstur mikstur" -> "Paracet mikstur"
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def weighted(rng, items):
    """items: dict value->weight or list of (value, weight)."""
    items = list(items.items()) if isinstance(items, dict) else items
    x = rng.random() * sum(w for _v, w in items)
    for v, w in items:
        x -= w
        if x < 0:
            return v
    return items[-1][0]


def workday(d, forward=True):
    while d.weekday() >= 5:
        d += dt.timedelta(days=1 if forward else -1)
    return d


def dmy0(d):
    return f"{d.day:02d}.{d.month:02d}.{d.year}"


def fmt_date(d, style, lang="nb", city=""):
    if style == "dmy0":
        return dmy0(d)
    if style == "dmy":
        return f"{d.day}.{d.month}.{d.year}"
    if style == "long":
        return f"{d.day}. {MONTHS[d.month - 1]} {d.year}"
    if style == "iso":
        return d.isoformat()
    if style == "city_dmy":
        return f"{city}, {d.day}.{d.month}.{d.year}"
    if style == "city_dmy0":
        return f"{city}, {dmy0(d)}"
    if style == "city_long":
        return f"{city}, {d.day}. {MONTHS[d.month - 1]} {d.year}"
    if style == "weekday_long":
        return f"{WEEKDAYS[lang][d.weekday()]} {d.day}. {MONTHS[d.month - 1]} {d.year}"
    if style == "weekday_dmy0":
        return f"{WEEKDAYS[lang][d.weekday()]} {dmy0(d)}"
    return dmy0(d)


def money(x):
    return f"{x:,.2f}".replace(",", " ").replace(".", ",")


def fmt_num(x, dec):
    if dec == 0:
        return str(int(round(x)))
    return f"{x:.{dec}f}".replace(".", ",")


_WRAP = {}


def wrap(s, width):
    """Greedy line breaking at spaces (cached: most paragraphs recur word for word)."""
    if len(s) <= width:
        return [s]
    key = (s, width)
    hit = _WRAP.get(key)
    if hit is not None:
        return hit
    out, t = [], s
    while len(t) > width:
        k = t.rfind(" ", 0, width + 1)
        if k <= 0:
            k = t.find(" ", width)
            if k < 0:
                break
        out.append(t[:k])
        t = t[k + 1:]
    out.append(t)
    if len(_WRAP) > 200000:
        _WRAP.clear()
    _WRAP[key] = out
    return out


class FastRandom(random.Random):
    """random.Random with cheaper randint/choice (deterministic, but not the stdlib's sequence)."""

    def randint(self, a, b):
        return a + int(self.random() * (b - a + 1))

    def choice(self, seq):
        return seq[int(self.random() * len(seq))]


def flatten(blocks):
    for b in blocks:
        if b[0] == "opt":
            yield from flatten([b[2]])
        elif b[0] in ("alt", "seq"):
            yield from flatten(b[1])
        else:
            yield b


def aud_ok(aud, age):
    return not ((aud == "child" and age >= 18) or (aud == "adult" and age < 18))


def case_ok(case, age, surgical, inpatient, sex):
    return (aud_ok(case.get("audience", "any"), age) and (case.get("surgical") or not surgical)
            and (case.get("inpatient", True) or not inpatient) and age >= case.get("min_age", 0)
            and (not case.get("sex") or case["sex"] == sex))


def spec_ok(spec, age, sex, surgical, inpatient):
    if not aud_ok(spec.get("audience", "any"), age) or age < spec.get("min_age", 0):
        return False
    if spec.get("sex") and spec["sex"] != sex:
        return False
    return any(case_ok(c, age, surgical, inpatient, sex) for c in spec["cases"])


def by_lang(v, lang):
    return v.get(lang, v.get("nb", "")) if isinstance(v, dict) else v


def load_bank(path):
    path = os.path.abspath(path)
    name = "bank_" + hashlib.sha1(path.encode()).hexdigest()[:8]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        sys.exit(f"cannot load bank {path}")
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except OSError as e:
        sys.exit(f"cannot read bank {path}: {e}")
    missing = [k for k in ("INSTITUTIONS", "SPECIALTIES", "TEMPLATES", "LABELS", "DRUGS", "LAB", "CLOSINGS")
               if not hasattr(mod, k)]
    if missing:
        sys.exit(f"bank {path} lacks {missing}")
    for t in DOC_TYPES:
        if not mod.TEMPLATES.get(t):
            sys.exit(f"bank {path} has no templates for {t}")
    return mod


# ---------------------------------------------------------------------------------------------
# people
# ---------------------------------------------------------------------------------------------
class Person:
    __slots__ = ("first", "middle", "last", "birth", "sex", "address")

    def __init__(self, first, middle, last, birth, sex, address):
        self.first, self.middle, self.last, self.birth, self.sex = first, middle, last, birth, sex
        self.address = address

    @property
    def given(self):
        return f"{self.first} {self.middle}" if self.middle else self.first

    @property
    def name(self):
        return f"{self.given} {self.last}"

    def age(self, on):
        return on.year - self.birth.year - ((on.month, on.day) < (self.birth.month, self.birth.day))


def rand_date(rng, lo, hi):
    return lo + dt.timedelta(days=rng.randint(0, (hi - lo).days))


def rand_address(rng):
    pc, place = rng.choice(POSTPLACES)
    return [f"{rng.choice(STREETS)} {rng.randint(1, 120)}{rng.choice(['', '', '', '', 'A', 'B'])}", f"{pc} {place}"]


def make_person(rng, sex, birth, last=None, address=None):
    names = FEMALE if sex == "F" else MALE
    first = rng.choice(names)
    middle = None
    if rng.random() < 0.3:
        middle = rng.choice(names)
        if middle == first:
            middle = None
    return Person(first, middle, last or rng.choice(LAST), birth, sex, address or rand_address(rng))


def make_household(rng, city=""):
    last = rng.choice(LAST)
    addr = rand_address(rng)
    local = [pp for pp in POSTPLACES if city and pp[1].startswith(city.upper())]
    if local:
        pc, place = rng.choice(local)
        addr[1] = f"{pc} {place}"
    mother = make_person(rng, "F", rand_date(rng, dt.date(1974, 1, 1), dt.date(1986, 12, 31)),
                         last=last if rng.random() < 0.6 else None, address=addr)
    father = make_person(rng, "M", rand_date(rng, dt.date(1971, 1, 1), dt.date(1985, 12, 31)), last=last, address=addr)
    kids = [make_person(rng, rng.choice("FM"), rand_date(rng, lo, hi), last=last, address=addr)
            for lo, hi in ((dt.date(2008, 1, 1), dt.date(2010, 6, 30)), (dt.date(2011, 1, 1), dt.date(2013, 12, 31)))]
    if kids[1].first == kids[0].first:
        kids[1].first = rng.choice([x for x in (FEMALE if kids[1].sex == "F" else MALE) if x != kids[0].first])
    return [mother, father] + kids


# ---------------------------------------------------------------------------------------------
# the generator
# ---------------------------------------------------------------------------------------------
class Corpus:
    def __init__(self, bank, seed):
        self.bank, self.seed = bank, seed
        rng = FastRandom(f"search-corpus:{seed}")
        gps = [i for i in bank.INSTITUTIONS if i["kind"] == "legekontor"]
        self.home_gp_office = rng.choice(gps) if gps else None
        self.home_city = (self.home_gp_office or {}).get("city", "")
        self.home_gp = self.staff_name(rng)
        self.household = make_household(rng, self.home_city)
        self.family_weights = [(0, 30), (1, 25), (2, 25), (3, 20)]
        self.family_facts = [(rng.randint(0, 5), rng.choice(JOBS), rng.choice(ALLERGY_NB)) for _ in self.household]
        # other people: a fixed pool (names recur, as they would) drawn from the seed only
        fam_last = self.household[0].last
        self.strangers = []
        for _ in range(3000):
            sex = rng.choice("FM")
            birth = rand_date(rng, dt.date(1930, 1, 1), dt.date(2022, 12, 31))
            self.strangers.append(make_person(rng, sex, birth, last=fam_last if rng.random() < 0.06 else None))
        self.staff = [self.staff_name(rng) for _ in range(1500)]
        # templates per type, with what they need
        self.templates = {}
        for t in DOC_TYPES:
            lst = []
            for tm in bank.TEMPLATES[t]:
                flat = list(flatten(tm.get("blocks", [])))
                has_patient = any(b[0] == "patient" for b in flat)
                lst.append((tm, has_patient))
            self.templates[t] = lst
        self.drugs_nb = list(bank.DRUGS) + [
            {"name": n, "strength": s, "form": f, "dose": {"nb": d, "nn": d}, "use": {"nb": u, "nn": u},
             "child_ok": False, "only_child": False, "general": True, "extra": True} for n, s, f, d, u in EXTRA_DRUGS]
        self.lab_all = list(bank.LAB) + [{"name": n, "unit": u, "lo": lo, "hi": hi, "dec": dec}
                                         for n, u, lo, hi, dec in EXTRA_LAB]
        self.comorb = [(x[0], x[1], x[2], x[3] if len(x) > 3 else "any") for x in getattr(bank, "COMORBIDITIES", [])]
        self.comorb_nb = self.comorb + [(c, t, t, a) for c, t, a in EXTRA_DIAGNOSES]
        self.hospitals = [x for x in bank.INSTITUTIONS if x["kind"] == "hospital"] or bank.INSTITUTIONS
        self.gp_offices = gps or bank.INSTITUTIONS
        self._fits, self._specs, self._issuers = {}, {}, {}

    def staff_name(self, rng):
        return f"{rng.choice(FEMALE if rng.random() < 0.55 else MALE)} {rng.choice(LAST)}"

    # -- which template and person
    def template_fits(self, tm, age, sex):
        key = (id(tm), age, sex)
        hit = self._fits.get(key)
        if hit is None:
            hit = self._fits[key] = self._template_fits(tm, age, sex)
        return hit

    def _template_fits(self, tm, age, sex):
        if not aud_ok(tm.get("audience", "any"), age):
            return False
        if tm.get("sex") and tm["sex"] != sex:
            return False
        if tm.get("specialties"):
            sur, inp = bool(tm.get("surgical")), bool(tm.get("inpatient"))
            return any(spec_ok(s, age, sex, sur, inp) for s in self.bank.SPECIALTIES if s["name"] in tm["specialties"])
        return True

    def specialties(self, tmpl, age, sex):
        """Specialties that fit a template and a patient (and the children's ones among them), cached."""
        key = (id(tmpl), age, sex)
        hit = self._specs.get(key)
        if hit is not None:
            return hit
        bank = self.bank
        sur, inp = bool(tmpl.get("surgical")), bool(tmpl.get("inpatient"))
        if tmpl.get("specialties"):
            specs = [s for s in bank.SPECIALTIES if s["name"] in tmpl["specialties"] and spec_ok(s, age, sex, sur, inp)]
            specs = specs or [s for s in bank.SPECIALTIES if s["name"] in tmpl["specialties"]]
        else:
            specs = [s for s in bank.SPECIALTIES if not s.get("explicit_only") and spec_ok(s, age, sex, sur, inp)]
        specs = specs or list(bank.SPECIALTIES)
        kid = [s for s in specs if s.get("audience") == "child"] if age < 18 else []
        hit = self._specs[key] = (specs, kid)
        return hit

    def issuers(self, tmpl, lang):
        """Institutions that may send a template's letter, and those in the household's city (cached)."""
        key = (id(tmpl), lang)
        hit = self._issuers.get(key)
        if hit is None:
            kinds = tmpl.get("issuer", ["hospital"])
            insts = [x for x in self.bank.INSTITUTIONS if x["kind"] in kinds and lang in x.get("lang", ["nb"])] or \
                [x for x in self.bank.INSTITUTIONS if x["kind"] in kinds] or self.bank.INSTITUTIONS
            hit = self._issuers[key] = (insts, [x for x in insts if x.get("city") == self.home_city])
        return hit

    def pick(self, rng, letter):
        if rng.random() < 0.75:
            k = weighted(rng, self.family_weights)
            person = self.household[k]
            age, sex = person.age(letter), person.sex
            for _ in range(30):
                doctype = weighted(rng, list(zip(DOC_TYPES, TYPE_WEIGHTS)))
                fits = [x for x in self.templates[doctype] if self.template_fits(x[0], age, sex)]
                if fits:
                    return doctype, rng.choice(fits), person, k
        doctype = weighted(rng, list(zip(DOC_TYPES, TYPE_WEIGHTS)))
        entry = rng.choice(self.templates[doctype])
        for _ in range(60):
            p = rng.choice(self.strangers)
            if p.birth < letter and p.age(letter) >= 1 and self.template_fits(entry[0], p.age(letter), p.sex):
                return doctype, entry, p, None
        aud = entry[0].get("audience", "any")
        lo_age, hi_age = (2, 16) if aud == "child" else (20, 85)
        birth = letter - dt.timedelta(days=rng.randint(lo_age * 366, hi_age * 365))
        sex = entry[0].get("sex") or rng.choice("FM")
        return doctype, entry, make_person(rng, sex, birth), None

    # -- one document
    def build(self, i):
        bank = self.bank
        rng = FastRandom(self.seed * 1_000_003 + i * 7919 + 17)
        letter = workday(rand_date(rng, FIRST_DAY, LAST_DAY))
        doctype, (tmpl, has_patient_block), person, member = self.pick(rng, letter)
        lang = tmpl.get("lang", "nb")
        L = bank.LABELS.get(lang, bank.LABELS["nb"])
        lay = getattr(bank, "LAYOUT", {})
        age = person.age(letter)
        sex = person.sex
        show_spec = tmpl.get("specialty", True)
        recipient = tmpl.get("recipient", "patient")

        # institution
        insts, local = self.issuers(tmpl, lang)
        if member is None:
            local = []
        if member is not None and self.home_gp_office in insts and rng.random() < 0.7:
            inst = self.home_gp_office
        elif local and rng.random() < 0.6:
            inst = rng.choice(local)
        else:
            inst = rng.choice(insts)

        # specialty and case
        sur, inp = bool(tmpl.get("surgical")), bool(tmpl.get("inpatient"))
        specs, kid = self.specialties(tmpl, age, sex)
        if kid and rng.random() < 0.7:
            specs = kid
        spec = rng.choice(specs)
        ckey = (id(spec), age, sur, inp, sex)
        cases = self._specs.get(ckey)
        if cases is None:
            cases = self._specs[ckey] = [c for c in spec["cases"] if case_ok(c, age, sur, inp, sex)] or spec["cases"]
        case = rng.choice(cases)
        cl = case.get(lang) or case["nb"]
        dxl = 1 if lang == "nb" else 2
        pool = self.comorb_nb if lang == "nb" else self.comorb
        diags = [case["dx"]]
        nextra = weighted(rng, ((0, 45), (1, 35), (2, 15), (3, 5)))
        for _ in range(nextra * 3):
            if len(diags) > nextra:
                break
            x = rng.choice(pool)
            if aud_ok(x[3], age) and all(x[0] != d[0] for d in diags):
                diags.append(x)

        # dates relative to the letter
        appt = workday(letter + dt.timedelta(days=rng.randint(9, 75)))
        appt2 = workday(appt + dt.timedelta(days=rng.randint(1, 21)))
        ah, am = rng.randint(8, 14), rng.choice((0, 10, 15, 20, 30, 40, 45))
        arrive_before = rng.choice((15, 20, 30, 45, 60))
        arr = ah * 60 + am - arrive_before
        dis = letter - dt.timedelta(days=rng.randint(0, 12))
        los = rng.randint(*case.get("los", (1, 8)))
        adm = dis - dt.timedelta(days=los)
        op = adm + dt.timedelta(days=rng.randint(0, min(2, los)))
        sample = letter - dt.timedelta(days=rng.randint(0, 4))
        recv = min(letter, sample + dt.timedelta(days=rng.randint(0, 1)))
        prev = letter - dt.timedelta(days=rng.randint(25, 400))
        treat = workday(letter - dt.timedelta(days=rng.randint(6, 40)))
        due = letter + dt.timedelta(days=rng.choice((14, 20, 21, 30)))
        pfrom = (letter + dt.timedelta(days=rng.randint(-40, 20))).replace(day=1)
        pto_m = pfrom.month - 1 + rng.choice((6, 12, 12, 24, 36))
        pto = dt.date(pfrom.year + pto_m // 12, pto_m % 12 + 1, 1) - dt.timedelta(days=1)
        onset = letter - dt.timedelta(days=rng.randint(40, 500))
        received = letter - dt.timedelta(days=rng.randint(14, 90))
        recent = workday(letter - dt.timedelta(days=rng.randint(2, 12)), forward=False)
        bstyle = weighted(rng, lay.get("body_date_format", {"dmy0": 3, "long": 2}))
        astyle = weighted(rng, lay.get("appt_date_format", {"weekday_long": 3, "weekday_dmy0": 1}))
        city = inst.get("city", "")

        target = rng.choice(self.hospitals)
        family = member is not None
        fastlege = self.home_gp if family else rng.choice(self.staff)
        gp_office = self.home_gp_office if (family and self.home_gp_office) else rng.choice(self.gp_offices)
        doctor, doctor2, nurse, secretary = (rng.choice(self.staff) for _ in range(4))
        parent = None
        if age < 18:
            if family:
                adults = [m for m in self.household[:2]]
                parent = rng.choice(adults)
            elif rng.random() < 0.5:
                parent = make_person(rng, rng.choice("FM"), person.birth - dt.timedelta(days=rng.randint(8000, 14000)),
                                     last=person.last)

        # the name as printed: mostly "Given Last", sometimes "Last, Given" or without the middle name
        v = rng.random()
        given = person.given
        if person.middle and v < 0.12:
            given = person.first
        printed = f"{person.last}, {given}" if v > 0.8 else f"{given} {person.last}"
        addr_name = f"{given} {person.last}"
        sw = getattr(bank, "SEX_WORDS", {}).get(lang, {"girl": "jente", "boy": "gutt", "woman": "kvinne", "man": "mann"})
        sex_word = (sw["girl"] if sex == "F" else sw["boy"]) if age < 18 else (sw["woman"] if sex == "F" else sw["man"])
        pron = getattr(bank, "PRONOUNS", {}).get(lang, {}).get(sex, {"he": "pasienten", "his": "pasientens",
                                                                    "him": "pasienten"})
        amount = rng.choice((375, 375, 375, 750, 1125, 1500, 355, 411))
        ref = weighted(rng, (("a", 3), ("b", 1), ("c", 1)))
        ref = {"a": f"{letter.year % 100:02d}/{rng.randint(100, 29999):05d}-{rng.randint(1, 14)}",
               "b": f"{letter.year}/{rng.randint(100, 9999)}", "c": f"PAS {rng.randint(100000, 999999)}"}[ref]
        dtitles = getattr(bank, "DOCTOR_TITLES", {}).get(lang, ["overlege"])
        diag0 = diags[0][dxl]
        kid_len = rng.choice((10, 13, 15))

        ctx = Ctx({
            "patient": printed, "patient_first": person.first, "patient_addr": addr_name,
            "birth": dmy0(person.birth), "age": str(age), "sex_word": sex_word,
            "he_she": pron["he"], "He_she": pron["he"].capitalize(), "his_her": pron["his"], "him_her": pron["him"],
            "parent": parent.name if parent else "foreldre",
            "inst": inst["name"], "inst_print": inst.get("print_name", inst["name"]), "city": city,
            "inst_phone": inst.get("phone", ""), "inst_web": inst.get("web", ""),
            "building": rng.choice(inst.get("buildings") or ["Hovedbygget"]), "floor": str(rng.randint(1, 6)),
            "room": f"{rng.choice('ABCDE')}{rng.randint(1, 3)}.{rng.randint(10, 99)}",
            "target_inst": target["name"],
            "specialty": spec["name"], "specialty_lc": spec["name"].lower(),
            "dept": by_lang(spec.get("dept", spec["name"]), lang), "poli": by_lang(spec.get("poli", spec["name"]), lang),
            "ward": by_lang(spec.get("ward", spec.get("dept", spec["name"])), lang),
            "complaint": cl.get("complaint", ""), "exam": cl.get("exam", ""), "procedure": cl.get("procedure", ""),
            "course": cl.get("course", ""), "finding": cl.get("finding", ""), "followup": cl.get("followup", ""),
            "diag": diag0, "diag_lc": diag0[:1].lower() + diag0[1:], "diag_code": diags[0][0],
            "doctor": doctor, "doctor2": doctor2, "doctor_title": rng.choice(dtitles),
            "doctor2_title": rng.choice(dtitles), "nurse": nurse, "secretary": secretary, "caseworker": doctor2,
            "fastlege": fastlege, "gp_office": gp_office["name"], "gp_city": gp_office.get("city", ""),
            "gp_phone": gp_office.get("phone", ""),
            "date": fmt_date(letter, bstyle, lang), "date_dmy0": dmy0(letter),
            "appt_date": fmt_date(appt, astyle, lang), "appt_dmy0": dmy0(appt),
            "appt_weekday": WEEKDAYS[lang if lang in WEEKDAYS else "nb"][appt.weekday()],
            "appt_time": f"{ah:02d}.{am:02d}", "arrive_time": f"{arr // 60:02d}.{arr % 60:02d}",
            "arrive_min": str(arrive_before), "appt2_date": fmt_date(appt2, bstyle, lang),
            "appt2_time": f"{rng.randint(8, 14):02d}.{rng.choice(('00', '15', '30', '45'))}",
            "adm_date": fmt_date(adm, bstyle, lang), "dis_date": fmt_date(dis, bstyle, lang),
            "adm_dmy0": dmy0(adm), "dis_dmy0": dmy0(dis), "op_date": fmt_date(op, bstyle, lang), "los": str(los),
            "sample_date": dmy0(sample), "sample_time": f"{rng.randint(7, 11):02d}:{rng.randint(0, 59):02d}",
            "recv_date": dmy0(recv), "recv_time": f"{rng.randint(9, 15):02d}:{rng.randint(0, 59):02d}",
            "prev_date": fmt_date(prev, bstyle, lang), "prev_dmy0": dmy0(prev),
            "received_date": fmt_date(received, bstyle, lang), "received_dmy0": dmy0(received),
            "recent_date": fmt_date(recent, bstyle, lang), "recent_dmy0": dmy0(recent),
            "treat_date": dmy0(treat), "due_date": dmy0(due), "period_from": dmy0(pfrom), "period_to": dmy0(pto),
            "valid_to": dmy0(letter + dt.timedelta(days=365)), "onset": f"{MONTHS[onset.month - 1]} {onset.year}",
            "year": str(letter.year),
            "amount": money(amount), "amount_int": str(amount), "invoice_no": str(rng.randint(1000000, 9999999)),
            "kid": str(rng.randint(10 ** (kid_len - 1), 10 ** kid_len - 1)),    # never 11 digits
            "account": f"{rng.choice(('1503', '1506', '8601', '1254', '7032'))}.{rng.randint(10, 99)}.{rng.randint(10000, 99999)}",
            "customer_no": str(rng.randint(100000, 999999)), "ref": ref, "their_ref": "",
            "saksnr": f"{letter.year}/{rng.randint(1000, 99999)}",
            "bp": f"{rng.randint(108, 168)}/{rng.randint(62, 98)}", "pulse": str(rng.randint(52, 104)),
            "temp": f"{rng.uniform(36.2, 38.6):.1f}".replace(".", ","), "spo2": str(rng.randint(92, 99)),
            "weight": str(rng.randint(14, 45) if age < 12 else rng.randint(50, 112)),
        })
        tr = getattr(bank, "THEIR_REF", {}).get(lang, {})
        if isinstance(tr, dict):
            tr = tr.get(doctype, tr.get("default", [""]))
        if tr and rng.random() < 0.45:
            ctx["their_ref"] = fill(rng.choice(tr), ctx)
        for k, opts in tmpl.get("vars", {}).items():
            if not opts:
                continue
            choice = rng.choice(opts)
            if isinstance(choice, dict):      # a coherent set of values
                for kk, vv in choice.items():
                    ctx[kk] = fill(vv, ctx) if isinstance(vv, str) else vv
                ctx[k] = fill(choice.get(k, ""), ctx)
            else:
                ctx[k] = fill(str(choice), ctx)

        width = rng.randint(72, 96)
        keywords = [fill(k, ctx) for k in tmpl.get("keywords", [])]
        body = []
        out = body.append
        used_diag, used_drugs, used_lab = [], [], []
        bullet = rng.choice(lay.get("bullets", ["•", "–", "-"]))
        dfmt = lay.get("diag_format", "{code} {text}")
        if isinstance(dfmt, list):
            dfmt = rng.choice(dfmt)

        def para(text):
            body.extend(wrap(text, width))

        def kv(pairs):
            for a, b in pairs:
                a, b = fill(a, ctx), fill(b, ctx)
                lines = wrap(f"{a} {b}".strip(), width)
                body.extend(lines)

        def table(header, rows):
            out(" ".join(header))
            for r in rows:
                out(" ".join(c for c in r if c))

        def patient_block():
            ph = getattr(bank, "PATIENT_HEADER", {}).get(lang, {}).get("with_birth") or ["Pasient: {patient}, født {birth}"]
            fmt = rng.choice(ph + ["Gjelder: {patient}"] if lang == "nb" else ph)
            if isinstance(fmt, str):
                para(fill(fmt, ctx))
            else:
                kv(fmt)
            if lang == "nb" and rng.random() < 0.3:
                para(f"Adresse: {', '.join(person.address)}")

        def meds(style):
            if age < 12:
                okd = [d for d in self.drugs_nb if d.get("child_ok") and not d.get("extra")]
            else:
                okd = [d for d in (self.drugs_nb if lang == "nb" else bank.DRUGS) if not d.get("only_child")]
            want = case.get("drugs", spec.get("drugs", []))
            pool_ = [d for d in okd if d["name"] in want]
            others = [d for d in okd if d not in pool_ and d.get("general")]
            rng.shuffle(pool_)
            rng.shuffle(others)
            k = rng.randint(2, 8) if age >= 18 else rng.randint(1, 3)
            chosen = (pool_[:rng.randint(1, 3)] + others)[:k] or okd[:1]
            used_drugs.extend(d["name"] for d in chosen)
            rows = []
            for d in chosen:
                rows.append({**d, "dose": by_lang(d["dose"], lang), "use": by_lang(d["use"], lang)})
            if style == "table":
                hdr = getattr(bank, "MED_TABLE_HEADER", {}).get(lang, ["Legemiddel", "Styrke", "Dosering", "Brukes mot"])
                rowf = getattr(bank, "MED_TABLE_ROW", ["{name} {form}", "{strength}", "{dose}", "{use}"])
                table(hdr, [[_DOUBLED.sub(r"\1", fill(c, Ctx(r)).strip()) for c in rowf] for r in rows])
            else:
                fmt = rng.choice(getattr(bank, "MED_LINE", {}).get(lang, ["{name} {strength} {form}: {dose}"]))
                for r in rows:
                    para(f"{bullet} " + _DOUBLED.sub(r"\1", fill(fmt, Ctx(r)).replace("  ", " ")))

        def labtable():
            panel = list(self.lab_all)
            rng.shuffle(panel)
            chosen = panel[:rng.randint(min(8, len(panel)), min(18, len(panel)))]
            hdr = rng.choice(getattr(bank, "LAB_HEADER", {}).get(lang, [["Analyse", "Resultat", "Enhet", "Referanse"]]))
            rows = []
            for a in chosen:
                lo, hi = a.get("lo"), a.get("hi")
                if a.get("sex"):
                    lo, hi = a["sex"][sex if sex in a["sex"] else "F"]
                val, flag = lab_value(rng, lo, hi)
                dec = a.get("dec", 1)
                sval = fmt_num(val, dec) + (f" {flag}" if flag else "")
                if lo is None:
                    refr = f"< {fmt_num(hi, dec)}"
                elif hi is None:
                    refr = f"> {fmt_num(lo, dec)}"
                else:
                    refr = f"{fmt_num(lo, dec)} - {fmt_num(hi, dec)}"
                rows.append([a["name"], sval, a.get("unit", ""), refr])
                used_lab.append(a["name"])
            table(hdr, rows)

        def vacctable():
            vs = getattr(bank, "VACCINES", [])
            given_ = []
            for vv in vs:
                when = person.birth + dt.timedelta(days=vv.get("age_days", 365) + rng.randint(0, 20))
                if when < letter:
                    given_.append((when, vv["name"], vv.get("dose", "1. dose"),
                                   f"{rng.choice('ABCDEFGHJKLMNPRSTUVXYZ')}{rng.choice('ABCDEFGHJKLMNPRSTUVXYZ')}"
                                   f"{rng.randint(1000, 9999)}"))
            given_.sort(key=lambda r: r[0])
            rows = [[dmy0(w), a, b, c] for w, a, b, c in given_]
            if not rows and vs:
                rows.append([dmy0(letter - dt.timedelta(days=30)), vs[0]["name"], vs[0].get("dose", "1. dose"), "AB1234"])
            table(getattr(bank, "VACC_HEADER", {}).get(lang, ["Dato", "Vaksine", "Dose", "Batchnr."]), rows)

        def sign(kind):
            if kind == "none":
                return
            out("")
            out(rng.choice(bank.CLOSINGS.get(lang, bank.CLOSINGS["nb"])))
            if kind == "doctor":
                unit = ctx["dept"] if show_spec else ctx["inst_print"]
            elif kind == "office":
                unit = ctx["poli"] if (show_spec and inst["kind"] == "hospital") else ctx["inst_print"]
            else:
                unit = ctx["inst_print"]
            if rng.random() < 0.65 or kind == "office":
                out(unit)
            electronic = rng.random() < lay.get("e_sign_prob", 0.4)
            if kind == "office" and rng.random() < 0.4:
                return
            out("")
            if kind == "doctor" and rng.random() < 0.35:
                out(f"{ctx['doctor']}   {ctx['doctor2']}")
                out(f"{ctx['doctor_title']}   {ctx['doctor2_title']}")
            else:
                titles = {"doctor": [ctx["doctor_title"]], "gp": getattr(bank, "GP_TITLES", {}).get(lang, ["fastlege"]),
                          "office": getattr(bank, "SECRETARY_TITLES", {}).get(lang, ["helsesekretær"]),
                          "caseworker": getattr(bank, "CASEWORKER_TITLES", {}).get(lang, ["saksbehandler"]),
                          "nurse": getattr(bank, "NURSE_TITLES", {}).get(lang, ["sykepleier"])}
                who = {"doctor": ctx["doctor"], "gp": ctx["fastlege"], "office": ctx["secretary"],
                       "caseworker": ctx["caseworker"], "nurse": ctx["nurse"]}.get(kind, ctx["doctor"])
                out(who)
                out(rng.choice(titles.get(kind, ["lege"])))
            if electronic and getattr(bank, "E_SIGN_NOTE", None):
                para(rng.choice(bank.E_SIGN_NOTE.get(lang, bank.E_SIGN_NOTE["nb"])))

        def render(blocks):
            for b in blocks:
                kind = b[0]
                if kind == "opt":
                    if rng.random() < b[1]:
                        render([b[2]])
                elif kind == "alt":
                    render([rng.choice(b[1])])
                elif kind == "seq":
                    render(b[1])
                elif kind == "title":
                    t = fill(b[1], ctx)
                    out(t.upper() if rng.random() < lay.get("title_upper_prob", 0.3) else t)
                    out("")
                elif kind == "h":
                    out("")
                    out(fill(b[1], ctx))
                elif kind == "p":
                    para(fill(b[1], ctx))
                elif kind == "kv":
                    kv(b[1])
                elif kind in ("ul", "ol"):
                    for k, item in enumerate(b[1]):
                        para(f"{bullet if kind == 'ul' else f'{k + 1}.'} {fill(item, ctx)}")
                elif kind == "patient":
                    patient_block()
                elif kind == "diag":
                    for d in diags:
                        out(dfmt.format(code=d[0], text=d[dxl]))
                        used_diag.append(d[dxl])
                elif kind == "meds":
                    meds(b[1] if len(b) > 1 else "list")
                elif kind == "labtable":
                    labtable()
                elif kind == "vacctable":
                    vacctable()
                elif kind == "invoicetable":
                    hdr = getattr(bank, "INVOICE_HEADER", {}).get(lang, ["Dato", "Beskrivelse", "Beløp (kr)"])
                    rows = rng.choice(getattr(bank, "INVOICE_ROWS", {}).get(lang, [[["{treat_date}", "Egenandel", "{amount}"]]]))
                    table(hdr, [[fill(c, ctx) for c in r] for r in rows])
                elif kind == "table":
                    table([fill(c, ctx) for c in b[1]], [[fill(c, ctx) for c in r] for r in b[2]])
                elif kind == "space":
                    out("")
                elif kind == "sign":
                    sign(b[1] if len(b) > 1 else "doctor")
                # "rule" and unknown blocks print nothing

        blocks = list(tmpl.get("blocks", []))
        if not has_patient_block and tmpl.get("patient_header", True):
            pos = next((k + 1 for k, b in enumerate(blocks) if b[0] == "title"), 0)
            blocks.insert(pos, ("patient",))
        # render up to the signature, add the type's extra details, then the signature; generic notices
        # that bring the letter to its drawn length go in at insert_at (see below)
        sign_at = next((k for k, b in enumerate(blocks) if b[0] == "sign"), len(blocks))
        render(blocks[:sign_at])
        more = supplement(rng, doctype, lang, ctx, age, sex, used_lab, self.family_facts[member] if family else None)
        if more:
            out("")
            for x in more:
                para(x)
        insert_at = len(body)
        render(blocks[sign_at:])
        if recipient == "fastlege" and rng.random() < 0.4:
            out("")
            out(fill(rng.choice(COPY_TO.get(lang, COPY_TO["nb"])), ctx))

        # letterhead, date line, address, reference block
        head = []
        name = inst.get("print_name", inst["name"])
        sub = by_lang(inst.get("sub", ""), lang)
        if inst["kind"] == "hospital" and show_spec:
            sub = ctx["dept"]
        if tmpl.get("letterhead_sub"):
            sub = fill(tmpl["letterhead_sub"], ctx)
        head.append(name)
        if sub:
            head.append(sub)
        if rng.random() < 0.85:
            head.extend(inst.get("address", [])[:2])
            if inst.get("phone"):
                head.append(f"{rng.choice(('Tlf.', 'Telefon', 'Sentralbord'))} {inst['phone']}")
            web = inst.get("web", "")
            if web:
                head.append(web)
                if rng.random() < 0.5:
                    dom = web[4:] if web.startswith("www.") else web
                    head.append(f"{rng.choice(('E-post: ', 'E-post ', ''))}{rng.choice(('postmottak', 'post'))}@{dom}")
            if inst.get("orgnr") and rng.random() < 0.4:
                head.append(f"Org.nr. {inst['orgnr']}")
        addr = []
        if recipient == "patient":
            addr = [addr_name if rng.random() < 0.7 else printed] + person.address
        elif recipient == "guardian":
            if parent is not None and rng.random() < 0.6:
                addr = [parent.name] + (person.address if family else parent.address)
            else:
                addr = [fill(rng.choice(L.get("guardian", ["Til foresatte for {patient_addr}"])), ctx)] + person.address
        elif recipient == "fastlege":
            addr = [f"{rng.choice(L.get('gp_prefix', ['Fastlege ']))}{fastlege}".strip(), gp_office["name"]] + \
                list(gp_office.get("address", []))
        elif recipient == "hospital":
            addr = [target.get("print_name", target["name"]), ctx["poli"]] + list(target.get("address", []))
        meta = []
        if rng.random() < 0.85:
            meta.append(f"{rng.choice(L.get('our_ref', ['Vår ref.:']))} {ref}")
            if rng.random() < 0.75:
                meta.append(f"{rng.choice(L.get('their_ref', ['Deres ref.:']))} {ctx['their_ref']}".rstrip())
        if rng.random() < 0.35 and "case_officer" in L and inst["kind"] in ("nav", "helfo", "kommune"):
            meta.append(f"{rng.choice(L['case_officer'])} {doctor2}")
        dstyle = weighted(rng, lay.get("date_format", {"dmy0": 5, "long": 3, "iso": 1, "city_long": 2}))
        ds = fmt_date(letter, dstyle, lang, city=city or "Oslo")
        date_line = ds if dstyle.startswith("city") else f"{rng.choice(L.get('date', ['Dato:']))} {ds}".strip()
        lines = list(head)
        if rng.random() < 0.25:         # date alone top right, read before the address
            lines += ["", date_line, ""] + (addr + [""] if addr else []) + meta
        else:
            lines += [""] + (addr + [""] if addr else []) + meta + [date_line]
        lines.append("")
        tail = []
        fs = rng.random()
        if fs < 0.85 and getattr(bank, "FOOTER_FORMATS", None):
            fctx = Ctx(ctx)
            fctx.update({"i_name": name, "i_addr": ", ".join(inst.get("address", [])), "i_phone": inst.get("phone", ""),
                         "i_web": inst.get("web", ""), "i_orgnr": inst.get("orgnr", ""), "i_email": inst.get("email", "")})
            style = "full" if fs < 0.6 else "minimal"
            tail.append("")
            tail += [fill(x, fctx) for x in rng.choice(bank.FOOTER_FORMATS.get(style) or bank.FOOTER_FORMATS["full"])]
        if rng.random() < lay.get("page_number_prob", 0.6):
            tail.append(rng.choice(getattr(bank, "PAGE_NUMBER", {}).get(lang, ["Side {i} av {n}"])).format(i=1, n=1))
        # bring the letter to a drawn length with the notices real letters carry, before the signature
        size = sum(map(len, lines)) + sum(map(len, body)) + sum(map(len, tail)) + len(lines) + len(body) + len(tail)
        want = rng.triangular(1500, 2500, 1950)
        if size < want:
            extra = EXTRA_P.get((lang, doctype), []) + GENERIC_P.get(lang, GENERIC_P["nb"])
            if age < 18:
                extra = [x for x in extra if "ykmelding" not in x]
            rng.shuffle(extra)
            added = []
            for p in extra[:4 if doctype in ("innkalling", "epikrise", "henvisning") else 5]:
                if size >= want:
                    break
                p = fill(p, ctx)
                added.extend(wrap(p, width))
                size += len(p) + 1
            body[insert_at:insert_at] = added
        text = "\n".join(lines + body + tail) + "\n"

        # keywords: type word, specialty, diagnosis, drugs / analyses, procedure
        kws = []

        def add(x):
            x = x.split(",")[0].strip() if x else x
            if x and len(kws) < 6 and x.lower() not in (k.lower() for k in kws):
                kws.append(x)
        for k in keywords[:3]:
            add(k)
        if show_spec:
            add(spec["name"])
        for d in used_diag[:2]:
            add(d)
        for x in (used_drugs[:2] + used_lab[:2]):
            add(x)
        if len(kws) < 3 and show_spec:
            add(ctx["procedure"])
        if len(kws) < 3:
            add(name)
        if len(kws) < 3:
            add(TITLE_WORD[doctype].lower())

        title_words = [TITLE_WORD[doctype]]
        if show_spec:
            title_words.append(spec["name"].lower() if rng.random() < 0.7 else ctx["dept"].lower())
        title_words += inst["name"].split()[:5]
        scan = letter + dt.timedelta(days=rng.randint(1, 60))
        return {
            "title": f"{letter.isoformat()} {' '.join(title_words)}",
            "text": text,
            "docType": doctype,
            "person": f"{given} {person.last}",
            "familyMember": person.name if family else None,
            "institution": inst["name"],
            "specialty": spec["name"] if show_spec else None,
            "documentDate": letter.isoformat(),
            "scanDate": scan.isoformat(),
            "keywords": kws,
        }


def lab_value(rng, lo, hi):
    """A result and its flag ('', 'H' or 'L') for a reference range (lo or hi may be None)."""
    r = rng.random()
    if lo is not None and hi is not None:
        span = hi - lo
        if r < 0.72:
            return rng.uniform(lo, hi), ""
        if r < 0.88:
            return hi + span * rng.uniform(0.05, 0.6), "H"
        return max(0.0, lo - span * rng.uniform(0.05, 0.35)), "L"
    if lo is None:
        return (rng.uniform(0.05 * hi, 0.9 * hi), "") if r < 0.75 else (hi * rng.uniform(1.2, 6.0), "H")
    return (lo * rng.uniform(1.02, 1.6), "") if r < 0.8 else (lo * rng.uniform(0.45, 0.95), "L")


# ---------------------------------------------------------------------------------------------
# parallel generation: every document depends only on (bank, seed, its number)
# ---------------------------------------------------------------------------------------------
_CORPUS = None
_KEEP = frozenset()
WORD_RE = re.compile(r"\w+")


def _chunk(bounds):
    lo, hi = bounds
    lines, kept, raw, nbytes = [], {}, set(), 0
    dumps = json.JSONEncoder(ensure_ascii=False).encode
    MISSING.clear()
    for i in range(lo, hi):
        doc = _CORPUS.build(i)
        lines.append(dumps(doc))
        t = doc["text"]
        nbytes += len(t.encode("utf-8"))
        raw.update(t.split())
        if i in _KEEP:
            kept[i] = doc
    words = set()
    for tok in raw:
        words.update(WORD_RE.findall(tok.lower()))
    return lo, "\n".join(lines) + "\n", kept, words, nbytes, dict(MISSING)


# ---------------------------------------------------------------------------------------------
# queries
# ---------------------------------------------------------------------------------------------
KINDS = [("keywords", 35), ("single", 15), ("phrase", 10), ("prefix", 10), ("filtered", 10), ("boolean", 10),
         ("name", 5), ("garbage", 5)]
TERM_RE = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
GARBAGE = ['"', '*', '((', ')', 'NOT', 'OR', 'AND', '""', '" "', 'AND AND', '-', '^', ':', 'NEAR(', '\'',
           '\\', ';', '***', '%', '?', '!!!', '...', '{}', '[]', '<>', '|', '&&', '#', '@', '~', '   ', '\t',
           '🙂', 'ø*', '*)', '"*"', '()', 'NEAR', 'OR OR', 'NOT NOT', '":', '+-', '-*', '--', "' OR 1=1 --"]
GARBAGE_WITH = ['{t} AND', 'AND {t}', 'OR {t}', '{t} OR', '"{t}', '{t}"', '({t}', '{t})', 'NOT {t}', '{t} NOT',
                '{t} NEAR(', '^{t}', '{t}:', 'text:{t}', '-{t}', '*{t}', '{t}**', '{t} AND (', '"{t} *"',
                '{t} ) (', 'NEAR({t}', '{t} + {t}', '{t};', '[{t}]']


GENERIC_INST = set("hospital sykehus sykehuset legesenter legekontor kommune herad medisinsk laboratorium "
                   "universitetssykehus universitetssjukehus".split())


class Queries:
    def __init__(self, rng, docs, household):
        self.rng = rng
        self.docs = docs                  # index -> doc (only the retained ones)
        self.idx = sorted(docs)
        self.household = household
        self._terms = {}
        # document frequency over the retained documents: common words are boilerplate, not search terms
        self.df = collections.Counter()
        for i in self.idx:
            self.df.update(self.tokens(i))
        self.rare = max(2, int(0.04 * len(self.idx)))
        self.uncommon = max(3, int(0.12 * len(self.idx)))

    def tokens(self, i):
        return set(WORD_RE.findall(self.docs[i]["text"].lower()))

    def terms(self, i):
        """Search words of a document: words of its keywords that occur in its text, then distinctive words."""
        if i in self._terms:
            return self._terms[i]
        doc = self.docs[i]
        low = doc["text"].lower()
        toks = self.tokens(i)
        kw = []
        for k in doc["keywords"]:
            for w in TERM_RE.findall(k):
                lw = w.lower()
                if len(lw) >= 4 and lw not in STOP and lw not in kw and (lw in toks or ("-" in lw and lw in low)):
                    kw.append(lw)
        body = sorted(w for w in toks if len(w) >= 6 and w.isalpha() and w not in STOP and self.df[w] <= self.rare)
        if not body:
            body = sorted(w for w in toks if len(w) >= 8 and w.isalpha() and w not in STOP)
        self._terms[i] = (kw, body)
        return kw, body

    def pick_terms(self, i, k):
        kw, body = self.terms(i)
        rng = self.rng
        pool = list(kw)
        rng.shuffle(pool)
        out = pool[:k]
        while len(out) < k and body:
            w = rng.choice(body)
            if w not in out:
                out.append(w)
            elif len(body) < 3:
                break
        return out

    def user_form(self, w, inflect=0.3):
        rng = self.rng
        if inflect and rng.random() < inflect and w.isalpha() and len(w) >= 5:
            if w.endswith("e") and rng.random() < 0.4:
                w = w[:-1]
            else:
                w = w + rng.choice(("en", "et", "ene")) if not w.endswith("e") else w + rng.choice(("n", "t", "ne"))
        if rng.random() < 0.15:
            w = w[:1].upper() + w[1:]
        return w

    def make(self, kind, i, other):
        rng = self.rng
        doc = self.docs[i]
        q = {"query": "", "kind": kind, "person": None, "type": None, "from": None, "to": None, "target": i}
        if kind == "keywords":
            ts = self.pick_terms(i, rng.choice((2, 2, 3)))
            inflect_one = rng.random() < 0.35
            j = rng.randrange(len(ts)) if ts else 0
            q["query"] = " ".join(self.user_form(t, 1.0 if (inflect_one and n == j) else 0) for n, t in enumerate(ts))
        elif kind == "single":
            if rng.random() < 0.3:
                ws = [w for w in TERM_RE.findall(doc["institution"])
                      if len(w) >= 3 and w.lower() not in STOP and w.lower() not in GENERIC_INST]
                q["query"] = rng.choice(ws) if ws else doc["institution"]
            else:
                ts = self.pick_terms(i, 1)
                q["query"] = self.user_form(ts[0], 0.15) if ts else doc["docType"]
        elif kind == "phrase":
            lines = [ln for ln in doc["text"].split("\n") if len(ln.split(" ")) >= 3]
            phrase = None
            for attempt in range(80):
                toks = rng.choice(lines).split(" ")
                k = rng.choice((2, 3, 3))
                s = rng.randrange(0, max(1, len(toks) - k + 1))
                win = toks[s:s + k]
                if len(win) != k or not all(t.isalpha() for t in win):
                    continue
                low = [t.lower() for t in win]
                if attempt < 60 and (low[0] in STOP or low[-1] in STOP
                                     or not any(self.df[t] <= self.uncommon and len(t) >= 5 for t in low)):
                    continue
                if any(len(t) >= 5 and t not in STOP for t in low):
                    phrase = " ".join(win)
                    break
            if phrase is None:
                phrase = " ".join(self.pick_terms(i, 2))
            q["query"] = f'"{phrase.lower() if rng.random() < 0.5 else phrase}"'
        elif kind == "prefix":
            kw, body = self.terms(i)
            cands = [w for w in kw if w.isalpha() and len(w) >= 6] or [w for w in body if len(w) >= 6] or ["pasient"]
            w = rng.choice(cands)
            q["query"] = w[:min(len(w) - 1, rng.randint(4, 6))] + "*"
        elif kind == "filtered":
            q["query"] = " ".join(self.user_form(t, 0.15) for t in self.pick_terms(i, rng.choice((1, 1, 2))))
            which = rng.choice(("person", "type", "date", "person+type", "person+date", "type+date", "all"))
            if "person" in which or which == "all":
                q["person"] = doc["familyMember"] or doc["person"]
            if "type" in which or which == "all":
                q["type"] = doc["docType"]
            if "date" in which or which == "all":
                d = dt.date.fromisoformat(doc["documentDate"])
                style = rng.random()
                if style < 0.4:              # the calendar year
                    q["from"], q["to"] = f"{d.year}-01-01", f"{d.year}-12-31"
                elif style < 0.8:            # a window around the date
                    q["from"] = (d - dt.timedelta(days=rng.randint(0, 200))).isoformat()
                    q["to"] = (d + dt.timedelta(days=rng.randint(0, 200))).isoformat()
                elif style < 0.9:
                    q["from"] = (d - dt.timedelta(days=rng.randint(0, 900))).isoformat()
                else:
                    q["to"] = (d + dt.timedelta(days=rng.randint(0, 900))).isoformat()
        elif kind == "boolean":
            a = self.pick_terms(i, 2)
            b = [w for w in self.pick_terms(other, 3) if w not in a]
            form = rng.choice(("or", "not", "group"))
            if form == "not":
                toks = self.tokens(i)
                b = [w for w in b if w not in toks and w not in doc["text"].lower()]
            if not a:
                a = [doc["docType"]]
            if not b:
                b = [rng.choice(("ortopedi", "vedtak", "faktura", "migrene", "kolesterol", "astma"))]
                if form == "not" and b[0] in doc["text"].lower():
                    form = "or"
            if form == "or":
                q["query"] = f"{a[0]} OR {b[0]}"
            elif form == "not":
                q["query"] = f"{a[0]} NOT {b[0]}"
            else:
                c = a[1] if len(a) > 1 else a[0]
                q["query"] = f"({a[0]} OR {b[0]}) {c}" if c != a[0] else f"({b[0]} OR {a[0]}) {a[0]}"
        elif kind == "name":
            p = doc["familyMember"] or doc["person"]
            parts = p.split()
            r = rng.random()
            if r < 0.6:
                q["query"] = p if rng.random() < 0.5 else f"{parts[0]} {parts[-1]}"
            elif r < 0.75:
                q["query"] = parts[0]
            elif r < 0.85:
                q["query"] = parts[-1]
            else:
                q["query"] = f"{parts[0]} {parts[-1]}".lower()
        else:  # garbage
            q["target"] = None
            if rng.random() < 0.5:
                q["query"] = rng.choice(GARBAGE)
            elif rng.random() < 0.7:
                ts = self.pick_terms(i, 1) or ["ortopedi"]
                q["query"] = rng.choice(GARBAGE_WITH).format(t=ts[0])
            else:
                q["query"] = "".join(rng.choice('"*()^:+-!?.,;\'/\\[]{}<>|&%$#@~') for _ in range(rng.randint(1, 6)))
        return q


def make_queries(seed, n, nq, kept, household):
    rng = random.Random(f"search-queries:{seed}:{n}")
    counts = [round(nq * w / 100) for _k, w in KINDS]
    counts[0] += nq - sum(counts)
    kinds = [k for (k, _w), c in zip(KINDS, counts) for _ in range(c)]
    rng.shuffle(kinds)
    targets = query_targets(seed, n, nq)
    fam = [t for t in targets if kept[t]["familyMember"]]
    qs = Queries(rng, kept, household)
    out = []
    for j, kind in enumerate(kinds):
        i = targets[j % len(targets)]
        if kind in ("filtered", "name") and fam and rng.random() < 0.8:
            i = rng.choice(fam)
        other = targets[(len(targets) - 1 - j) % len(targets)]
        if other == i:
            other = targets[(j + 1) % len(targets)]
        out.append(qs.make(kind, i, other))
    return out


def query_targets(seed, n, nq):
    rng = random.Random(f"search-targets:{seed}:{n}")
    k = min(n, max(1, 2 * nq))
    return rng.sample(range(n), k)


# ---------------------------------------------------------------------------------------------
def main(argv=None):
    global _CORPUS, _KEEP
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="See the module docstring for the output format.")
    ap.add_argument("--bank", required=True, help="template bank (Python file, e.g. ../shared/corpus/bank_dev.py)")
    ap.add_argument("--n", type=int, default=100000, help="number of documents (default 100000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--docs", required=True, help="output JSON lines with the documents")
    ap.add_argument("--queries", help="output JSON lines with the queries")
    ap.add_argument("--nqueries", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: all CPUs)")
    a = ap.parse_args(argv)
    if a.n < 1 or a.nqueries < 0 or a.jobs < 1:
        ap.error("--n must be >= 1, --nqueries >= 0, --jobs >= 1")
    t0 = time.monotonic()
    bank = load_bank(a.bank)
    _CORPUS = Corpus(bank, a.seed)
    _KEEP = frozenset(query_targets(a.seed, a.n, a.nqueries)) if (a.queries and a.nqueries) else frozenset()
    for p in (a.docs, a.queries):
        if p and os.path.dirname(p):
            os.makedirs(os.path.dirname(p), exist_ok=True)

    step = 500
    chunks = [(lo, min(a.n, lo + step)) for lo in range(0, a.n, step)]
    kept, words, nbytes, missing = {}, set(), 0, collections.Counter()
    tmp = a.docs + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        if a.jobs == 1 or len(chunks) == 1:
            results = map(_chunk, chunks)
            pool = None
        else:
            pool = mp.get_context("fork").Pool(a.jobs)
            results = pool.imap(_chunk, chunks)
        try:
            for _lo, block, kp, ws, nb, miss in results:
                f.write(block)
                kept.update(kp)
                words |= ws
                nbytes += nb
                missing.update(miss)
        finally:
            if pool is not None:
                pool.close()
                pool.join()
    os.replace(tmp, a.docs)

    nq = 0
    if a.queries and a.nqueries:
        qs = make_queries(a.seed, a.n, a.nqueries, kept, _CORPUS.household)
        with open(a.queries + ".tmp", "w", encoding="utf-8") as f:
            for q in qs:
                f.write(json.dumps(q, ensure_ascii=False) + "\n")
        os.replace(a.queries + ".tmp", a.queries)
        nq = len(qs)
    secs = time.monotonic() - t0
    if missing:
        print("search_corpus: placeholders filled with generic values: "
              + ", ".join(f"{k} ({v})" for k, v in missing.most_common(10)), file=sys.stderr)
    print(f"search_corpus: {a.n} documents, mean text {nbytes / a.n:.0f} bytes, {len(words)} distinct words, "
          f"{nq} queries, {secs:.1f} s ({a.jobs} jobs)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
