#!/usr/bin/env python3
"""Peak memory on pages at the size limit (Python 3.11, standard library only).

Usage (bench.py runs it; it runs on its own too):
    python3 scripts/bench/big_pages.py --arkivator .build/release/arkivator [--out DIR] [--jobs N]

A letter (Tests/Fixtures/clean.png, a 300 DPI A4 page) is enlarged to 6690 x 8900 pixels (59.5
megapixels, just within the 60-megapixel page limit), coloured as a scan of yellowed paper with a
red stamp, and written here, without any imaging library: as three PNG files read in one run, and
as one three-page TIFF (deflate) and three uncompressed ones, one three-page PDF (the pages as Flate images at 300 DPI), one
three-page A4 PDF (the same pictures on A4 pages, about 800 DPI), three uncompressed bitmaps, and
three HEIC, WebP and JPEG files where heif-enc, cwebp and cjpeg are installed (`make bench`
installs them).
Each set is read by `/usr/bin/time -v arkivator ingest --json` with the default number of jobs
(no --jobs unless given) into a fresh library, so the pages are cleaned, read and filed; the peak
resident set size of each run is printed against the target of 400 MB, with the text read
(letters of the page found) as a check that the pages were really read.
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
import pdfwrite  # noqa: E402  (the fixture scripts' PDF writer)

REPO = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 6690, 8900
TARGET_RSS_MB = 400.0


def read_png_gray(path):
    """The rows of an 8-bit gray, non-interlaced PNG, as bytes each."""
    data = path.read_bytes()
    pos, idat, width = 8, bytearray(), 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if (depth, colour, interlace) != (8, 0, 0):
                raise ValueError(f"{path} is not an 8-bit gray, non-interlaced PNG")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(bytes(idat))
    rows, previous = [], bytearray(width)
    for y in range(height):
        kind, line = raw[y * (width + 1)], bytearray(raw[y * (width + 1) + 1:(y + 1) * (width + 1)])
        if kind == 1:
            for x in range(1, width):
                line[x] = (line[x] + line[x - 1]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind == 3:
            for x in range(width):
                line[x] = (line[x] + ((line[x - 1] if x else 0) + previous[x]) // 2) & 255
        elif kind == 4:
            for x in range(width):
                a, b, c = (line[x - 1] if x else 0), previous[x], (previous[x - 1] if x else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return rows


def big_rows(source):
    """The letter enlarged to WIDTH x HEIGHT (nearest pixel), as RGB rows: the paper yellowed a
    little, the ink as it is, and a red stamp's frame in the top right corner. Rows that repeat
    are the same object."""
    sh, sw = len(source), len(source[0])
    xs = [x * sw // WIDTH for x in range(WIDTH)]
    red = bytes(range(256))
    green = bytes(min(255, v * 246 // 255) for v in range(256))
    blue = bytes(min(255, v * 222 // 255) for v in range(256))
    left, top, right, bottom = int(WIDTH * 0.62), int(HEIGHT * 0.05), int(WIDTH * 0.9), int(HEIGHT * 0.1)
    ink, band = b"\xc8\x28\x28", 24
    rows, last, row = [], None, b""
    for y in range(HEIGHT):
        sy = y * sh // HEIGHT
        if sy != last:
            gray = bytes(source[sy][x] for x in xs)
            rgb = bytearray(3 * WIDTH)
            rgb[0::3], rgb[1::3], rgb[2::3] = gray.translate(red), gray.translate(green), gray.translate(blue)
            row, last = bytes(rgb), sy
        if top <= y < bottom:
            framed = bytearray(row)
            if y < top + band or y >= bottom - band:
                framed[3 * left:3 * right] = ink * (right - left)
            else:
                framed[3 * left:3 * (left + band)] = ink * band
                framed[3 * (right - band):3 * right] = ink * band
            rows.append(bytes(framed))
        else:
            rows.append(row)
    return rows


def page_rows(rows, page):
    """The rows of page `page` (from 0): a small mark in the bottom margin, placed by the page
    number, makes each page a file of its own (the library reads a file it has once)."""
    for y, row in enumerate(rows):
        if HEIGHT - 240 <= y < HEIGHT - 200:
            marked = bytearray(row)
            x = 400 + 120 * page
            marked[3 * x:3 * (x + 60)] = b"\x40" * 180
            row = bytes(marked)
        yield row


def deflated(rows, filter_byte=True):
    """The rows compressed as one zlib stream (each row led by PNG's filter byte 0 if asked)."""
    z = zlib.compressobj(6)
    parts = [z.compress((b"\x00" if filter_byte else b"") + row) for row in rows]
    parts.append(z.flush())
    return b"".join(parts)


def png(data):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    dpm = round(300 / 0.0254 * 760 / 300)  # the page's own resolution: A4 at about 760 DPI
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0))
            + chunk(b"pHYs", struct.pack(">IIB", dpm, dpm, 1)) + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def tiff(strip_sets, rows_per_strip, compression=8):
    """A little-endian RGB TIFF with one page per entry of `strip_sets` (each a list of strips,
    deflated unless `compression` is 1)."""
    out = bytearray(b"II*\x00\x00\x00\x00\x00")
    previous_next = 4
    for strips in strip_sets:
        offsets = []
        for strip in strips:
            offsets.append(len(out))
            out += strip
        if len(out) % 2:
            out += b"\x00"
        arrays = len(out)
        out += struct.pack(f"<{len(offsets)}I", *offsets)
        counts_at = len(out)
        out += struct.pack(f"<{len(strips)}I", *(len(s) for s in strips))
        bits_at = len(out)
        out += struct.pack("<3H", 8, 8, 8)
        res_at = len(out)
        out += struct.pack("<II", 760, 1)
        entries = [(256, 4, 1, WIDTH), (257, 4, 1, HEIGHT), (258, 3, 3, bits_at), (259, 3, 1, compression), (262, 3, 1, 2),
                   (273, 4, len(strips), arrays), (277, 3, 1, 3), (278, 4, 1, rows_per_strip),
                   (279, 4, len(strips), counts_at), (282, 5, 1, res_at), (283, 5, 1, res_at), (284, 3, 1, 1),
                   (296, 3, 1, 2)]
        ifd = len(out)
        struct.pack_into("<I", out, previous_next, ifd)
        out += struct.pack("<H", len(entries))
        for tag, kind, count, value in entries:
            out += struct.pack("<HHII", tag, kind, count, value) if kind != 3 or count != 1 else \
                struct.pack("<HHIHH", tag, kind, count, value, 0)
        previous_next = len(out)
        out += b"\x00\x00\x00\x00"
    return bytes(out)


def bmp(rows):
    """A 24-bit bitmap, stored from the bottom up as usual (blue, green, red), at 760 DPI."""
    stride = (WIDTH * 3 + 3) // 4 * 4
    dpm = round(760 / 0.0254)
    parts = [struct.pack("<2sIHHI", b"BM", 54 + stride * HEIGHT, 0, 0, 54)
             + struct.pack("<IiiHHIIiiII", 40, WIDTH, HEIGHT, 1, 24, 0, stride * HEIGHT, dpm, dpm, 0, 0)]
    done = {}
    for row in reversed(rows):
        if id(row) not in done:
            stored = bytearray(stride)
            stored[0:3 * WIDTH:3], stored[1:3 * WIDTH:3], stored[2:3 * WIDTH:3] = row[2::3], row[1::3], row[0::3]
            done = {id(row): bytes(stored)}
        parts.append(done[id(row)])
    return parts


def make_pages(folder):
    """Writes the three sets under `folder`; returns {set name: folder}."""
    rows = big_rows(read_png_gray(REPO / "Tests/Fixtures/clean.png"))
    sets = {name: folder / name for name in ("png", "tiff", "tiff-raw", "pdf", "pdf-a4", "bmp", "heic", "webp", "jpeg")}
    for path in sets.values():
        shutil.rmtree(path, ignore_errors=True)
        path.mkdir(parents=True)
    per_strip, strip_sets, pdf_objects, kids, a4_objects, a4_kids = 32, [], [], [], [], []
    w, h = WIDTH * 72 / 300, HEIGHT * 72 / 300
    for page in range(3):
        page_list = list(page_rows(rows, page))
        (sets["png"] / f"stor-side-{page + 1}.png").write_bytes(png(deflated(page_list)))
        strip_sets.append([zlib.compress(b"".join(page_list[y:y + per_strip]), 6) for y in range(0, HEIGHT, per_strip)])
        first = 3 + len(pdf_objects)
        pdf_objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w:.2f} {h:.2f}] "
                           f"/Resources << /XObject << /Im0 {first + 2} 0 R >> >> /Contents {first + 1} 0 R >>".encode())
        pdf_objects.append(pdfwrite.stream(f"q {w:.2f} 0 0 {h:.2f} 0 0 cm /Im0 Do Q".encode()))
        pdf_objects.append(pdfwrite.stream(deflated(page_list, filter_byte=False),
                                           f"/Type /XObject /Subtype /Image /Width {WIDTH} /Height {HEIGHT} "
                                           f"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode "))
        kids.append(first)
        first = 3 + len(a4_objects)
        a4_objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
                          f"/Resources << /XObject << /Im0 {first + 2} 0 R >> >> /Contents {first + 1} 0 R >>".encode())
        a4_objects.append(pdfwrite.stream(b"q 595 0 0 842 0 0 cm /Im0 Do Q"))
        a4_objects.append(pdf_objects[-1])
        a4_kids.append(first)
        with open(sets["tiff-raw"] / f"stor-side-{page + 1}.tif", "wb") as out:
            out.write(tiff([[b"".join(page_list[y:y + per_strip]) for y in range(0, HEIGHT, per_strip)]], per_strip,
                           compression=1))
        with open(sets["bmp"] / f"stor-side-{page + 1}.bmp", "wb") as out:
            out.writelines(bmp(page_list))
    (sets["tiff"] / "stor-skann.tif").write_bytes(tiff(strip_sets, per_strip))
    # An iPhone's HEIC and a WebP of each page, from the PNG files, where their encoders are installed.
    for name, tool, args in (("heic", "heif-enc", ["-q", "60", "-p", "preset=ultrafast", "-o"]),
                             ("webp", "cwebp", ["-quiet", "-q", "80", "-o"]),
                             ("jpeg", "cjpeg", ["-quality", "85", "-outfile"])):
        if shutil.which(tool) is None:
            shutil.rmtree(sets.pop(name))
            continue
        for page in range(3):
            source = sets["bmp" if name == "jpeg" else "png"] / f"stor-side-{page + 1}.{'bmp' if name == 'jpeg' else 'png'}"
            target = sets[name] / f"stor-side-{page + 1}.{'jpg' if name == 'jpeg' else name}"
            command = [tool, *args, str(target), str(source)] if tool != "cwebp" else [tool, str(source), *args, str(target)]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    (sets["pdf"] / "stor-skann.pdf").write_bytes(pdfwrite.document(pdf_objects, kids))
    (sets["pdf-a4"] / "stor-skann-a4.pdf").write_bytes(pdfwrite.document(a4_objects, a4_kids))
    return sets


def peak(exe, folder, jobs, out, name):
    """`arkivator ingest --json` of `folder` under /usr/bin/time -v into a fresh library:
    (peak RSS in MB, pages read, share of the letter's words found, exit code, seconds)."""
    library, time_txt = out / f"library-{name}", out / f"{name}-time.txt"
    shutil.rmtree(library, ignore_errors=True)
    cmd = ["/usr/bin/time", "-v", "-o", str(time_txt), exe, "ingest", "--json", "--library", str(library)]
    cmd += (["--jobs", str(jobs)] if jobs else []) + [str(folder)]
    t0 = time.monotonic()
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seconds = time.monotonic() - t0
    (out / f"{name}-stderr.txt").write_bytes(done.stderr)
    rss = None
    for line in time_txt.read_text(errors="replace").splitlines() if time_txt.exists() else []:
        if "Maximum resident set size (kbytes)" in line:
            rss = int(line.rsplit(":", 1)[1]) / 1024.0
    truth = set((REPO / "Tests/Fixtures/clean.txt").read_text(encoding="utf-8").lower().split())
    pages, found = 0, []
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        pages += len(record.get("pageReports") or [])
        words = set((record.get("text") or "").lower().split())
        found.append(len(truth & words) / max(1, len(truth)))
    return rss, pages, (sum(found) / len(found) if found else 0.0), done.returncode, seconds


def measure(exe, out, jobs=None, say=print, only=None):
    """Makes the pages and measures each set; returns {set: figures} and prints one line each."""
    if not os.access("/usr/bin/time", os.X_OK):
        say("peak RSS, 59.5-megapixel pages: not measured (/usr/bin/time missing: apt-get install -y time)")
        return None
    folder = out / "big-pages"
    t0 = time.monotonic()
    sets = make_pages(folder)
    say(f"big pages: 3 pages of {WIDTH}x{HEIGHT} px ({WIDTH * HEIGHT / 1e6:.1f} MP, a letter enlarged, in colour) "
        f"as PNG files, TIFFs, PDFs and bitmaps, made in {time.monotonic() - t0:.0f} s")
    results = {}
    labels = {"png": "3 PNG files, one run", "tiff": "one 3-page TIFF", "tiff-raw": "3 uncompressed TIFF files",
              "pdf": "one 3-page PDF",
              "pdf-a4": "one 3-page A4 PDF, 800 DPI pictures", "bmp": "3 uncompressed BMP files",
              "heic": "3 HEIC photos", "webp": "3 WebP files", "jpeg": "3 JPEG files"}
    for name, path in sets.items():
        if only and name not in only:
            continue
        rss, pages, words, rc, seconds = peak(exe, path, jobs, out, f"big-{name}")
        ok = rss is not None and rc == 0 and pages == 3 and rss <= TARGET_RSS_MB
        results[name] = {"peakRssMB": rss, "pages": pages, "wordsFound": words, "exitCode": rc, "seconds": seconds,
                         "pass": ok}
        shown = "n/a" if rss is None else f"{rss:6.1f} MB"
        say(f"{'peak RSS, ' + labels[name] + ':':48s} {shown}  {f'target <= {TARGET_RSS_MB:g} MB':17s} "
            f"{'PASS' if ok else 'FAIL'}   ({pages} pages read, {100 * words:.0f} % of the letter's words, "
            f"{seconds:.0f} s, exit {rc})")
    return results


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arkivator", required=True, help="path of the arkivator binary (a release build)")
    ap.add_argument("--out", type=Path, default=REPO / ".bench", help="output folder (default .bench/)")
    ap.add_argument("--jobs", type=int, help="arkivator --jobs (default: arkivator's own, one per core)")
    ap.add_argument("--only", nargs="+", help="measure only these sets (png, tiff, tiff-raw, pdf, pdf-a4, bmp, heic, webp, jpeg)")
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    results = measure(os.path.abspath(a.arkivator), a.out.resolve(), a.jobs, only=a.only)
    if results is None:
        return 2
    return 0 if all(r["exitCode"] == 0 and r["pages"] == 3 for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
