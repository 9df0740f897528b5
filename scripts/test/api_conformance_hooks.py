"""Schemathesis hooks for scripts/test/api_conformance.py: what no JSON Schema can say, told as
generators of valid data, so that Schemathesis's "valid" requests are valid (and are accepted).

- A page upload's body is an image or PDF, recognised by its bytes: small PNG pages, drawn from
  their size and shade (the server stores them; the inbox then reads and refuses them as holding
  no text, as it would a blank photo).
- `format: fodselsnummer`: 11 digits whose first six are a real day and whose two last are the
  control digits of the first nine (mod 11).
- `format: birth-date`: a day from 1850 up to the day before yesterday (the server refuses a
  birth date after today).
- A new member given both a birth date and a fødselsnummer must be born on the number's day:
  in the requests Schemathesis means as valid, the birth date is made the number's.
Requests meant as invalid are left as they were drawn.
"""
import datetime
import struct
import zlib

import schemathesis
from hypothesis import strategies as st


def png(width, height, shade):
    """A grey PNG of width × height pixels, whole (its IEND chunk included)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes([shade]) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


PAGES = st.builds(png, st.integers(8, 48), st.integers(8, 48), st.integers(0, 255))

for media in ("image/jpeg", "image/png", "image/tiff", "image/webp", "image/heic", "image/heif", "image/gif", "image/bmp", "application/pdf"):
    schemathesis.openapi.media_type(media, PAGES)


W1 = [3, 7, 6, 1, 8, 9, 4, 5, 2]
W2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]


def control(digits, weights):
    value = 11 - sum(d * w for d, w in zip(digits, weights)) % 11
    return 0 if value == 11 else value


@st.composite
def fodselsnummer(draw):
    """A valid fødselsnummer (or D-number) of someone born 1900–1999 (individual numbers 000–499)."""
    while True:
        day = draw(st.dates(datetime.date(1900, 1, 1), datetime.date(1999, 12, 31)))
        d_number = draw(st.booleans())
        individual = draw(st.integers(0, 499))
        first = [int(c) for c in f"{day.day + (40 if d_number else 0):02d}{day.month:02d}{day.year % 100:02d}{individual:03d}"]
        k1 = control(first, W1)
        if k1 == 10:
            continue
        k2 = control(first + [k1], W2)
        if k2 == 10:
            continue
        return "".join(map(str, first + [k1, k2]))


def number_birth_date(number):
    day, month, yy = int(number[0:2]), int(number[2:4]), int(number[4:6])
    return datetime.date(1900 + yy, month, day - 40 if day > 40 else day).isoformat()


schemathesis.openapi.format("fodselsnummer", fodselsnummer())
schemathesis.openapi.format("birth-date", st.dates(datetime.date(1850, 1, 1),
                                                   datetime.date.today() - datetime.timedelta(days=2)).map(str))


@schemathesis.hook
def map_case(context, case):
    meta = getattr(case, "meta", None)
    positive = meta is not None and meta.generation.mode.is_positive
    if positive and case.method.upper() == "POST" and case.path == "/api/v1/family" and isinstance(case.body, dict):
        number, born = case.body.get("fodselsnummer"), case.body.get("birthDate")
        if isinstance(number, str) and isinstance(born, str) and len(number) == 11 and number.isdigit():
            try:
                case.body["birthDate"] = number_birth_date(number)
            except ValueError:
                pass
    return case
