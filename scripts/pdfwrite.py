"""Small PDF files written by hand (standard library only), for the fixture script and the bench.

A document is a catalog (object 1), a page tree (object 2) and the caller's objects from 3 on.
"""


def document(objects: list[bytes], kids: list[int]) -> bytes:
    """Catalog (1), page tree (2), then `objects` as 3, 4 ...; `kids` are the page objects."""
    pages = " ".join(f"{k} 0 R" for k in kids)
    everything = [b"<< /Type /Catalog /Pages 2 0 R >>",
                  f"<< /Type /Pages /Kids [{pages}] /Count {len(kids)} >>".encode()] + objects
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(everything, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(everything) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += f"trailer\n<< /Size {len(everything) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def stream(data: bytes, dictionary: str = "") -> bytes:
    return f"<< {dictionary}/Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"


def jpeg_pages(pages: list[tuple[bytes, int, int, str]], dpi: float) -> bytes:
    """One page per JPEG `(bytes, width, height, colour space)`, shown as it is at `dpi`, so that
    rendering the page at that resolution gives the JPEG's own pixels back."""
    objects: list[bytes] = []
    kids: list[int] = []
    for jpeg, width, height, space in pages:
        first = 3 + len(objects)
        w, h = width * 72 / dpi, height * 72 / dpi
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w:.2f} {h:.2f}] "
                       f"/Resources << /XObject << /Im0 {first + 2} 0 R >> >> /Contents {first + 1} 0 R >>".encode())
        objects.append(stream(f"q {w:.2f} 0 0 {h:.2f} 0 0 cm /Im0 Do Q".encode()))
        objects.append(stream(jpeg, f"/Type /XObject /Subtype /Image /Width {width} /Height {height} "
                                    f"/ColorSpace /{space} /BitsPerComponent 8 /Filter /DCTDecode "))
        kids.append(first)
    return document(objects, kids)
